/// Text and JSON for `launchflow sweep` and `launchflow whatif`. Times print
/// as exact decimal milliseconds (µs resolution); nothing depends on the
/// number of threads, so the output is byte-identical for any `--jobs`.
public enum UncertaintyReport {
    // MARK: sweep

    /// `sweep --format text`: per metric, a table of strategies × statistics.
    public static func sweep(_ result: SweepResult, pictures: [String] = []) -> String {
        let configuration = result.configuration
        let runs = configuration.runs
        var out =
            "\(result.scenario.name) — sweep of \(runs) sampled launch\(runs == 1 ? "" : "es"), seed \(configuration.seed)\n"
        out += "uncertainty: \(uncertaintyLine(result))\n"
        let limited = configuration.strategies.filter(\.definition.limitsConcurrency)
        if let maxConcurrent = configuration.options.maxConcurrent, !limited.isEmpty {
            out +=
                "\(limited.map(\.rawValue).joined(separator: ", ")): at most \(maxConcurrent) worker tasks in flight\n"
        }
        var tables:
            [(String, KeyPath<SweepSummary, Distribution>, KeyPath<SweepSummary, Int>, KeyPath<SweepSummary, Int>)] = [
                ("Time to first frame (ms)", \.firstFrame, \.bestFirstFrame, \.soleBestFirstFrame),
                ("Launch complete (ms)", \.launchComplete, \.bestLaunchComplete, \.soleBestLaunchComplete),
            ]
        if result.scenario.tasks.contains(where: \.fullyDrawn) {
            tables.insert(
                ("Time to full display (ms)", \.fullDisplay, \.bestFullDisplay, \.soleBestFullDisplay), at: 1)
        }
        let broken = result.summaries.contains { $0.brokenRuns > 0 }
        for (title, distribution, best, sole) in tables {
            out += "\n\(title)\n"
            var rows = [["strategy", "mean", "p50", "p90", "p99", "max", "best", "sole best"]]
            if broken { rows[0].append("broke dependencies") }
            for summary in result.summaries {
                let d = summary[keyPath: distribution]
                let marked = broken && summary.brokenRuns > 0
                let leftOut =
                    distribution == \SweepSummary.launchComplete && result.scenario.defersWork
                    && summary.strategy.definition.runsDeferredWorkInline
                rows.append(
                    [summary.strategy.rawValue + (marked ? "†" : "") + (leftOut ? "‡" : "")]
                        + [d.mean, d.p50, d.p90, d.p99, d.max].map(TextReport.fixed)
                        + [share(summary[keyPath: best], of: runs), share(summary[keyPath: sole], of: runs)]
                        + (broken ? [share(summary.brokenRuns, of: runs)] : []))
            }
            out += TextReport.table(
                rows, rightAligned: [false] + Array(repeating: true, count: broken ? 8 : 7), indent: "  ")
            let most = result.summaries.map { $0[keyPath: best] }.max() ?? 0
            let winners = result.summaries.filter { $0[keyPath: best] == most }.map(\.strategy.rawValue)
            if result.summaries.count > 1 && most > 0 {
                out += "  most often best\(broken ? " among the strategies that keep every dependency" : ""): "
                out +=
                    winners.count == 1
                    ? winners[0] : winners.dropLast().joined(separator: ", ") + " and " + winners.last!
                out += ", in \(share(most, of: runs)) of the runs\(winners.count > 1 ? " each" : "")\n"
            }
        }
        out += """

            mean: rounded to the µs; p50/p90/p99: nearest rank (the value at rank ⌈p·n/100⌉ of the n runs, sorted).
            best: runs in which the strategy's time was the smallest of the strategies that broke no dependency in
            that run (a tie counts for each tied strategy); sole best: runs in which it was strictly smaller than
            every other such strategy's.

            """
        if broken {
            out += "† broke dependencies in some runs: its times there are reached only by breaking them,"
            out += " and those runs never count as best.\n"
        }
        let inline = configuration.strategies.filter(\.definition.runsDeferredWorkInline).map(\.rawValue)
        if result.scenario.defersWork && !inline.isEmpty {
            out += "‡ \(inline.joined(separator: ", ")) \(inline.count == 1 ? "runs" : "run") the delayed, idle and"
            out += " after-first-frame work inline, at other moments: never counted best for launch complete.\n"
        }
        for path in pictures { out += "wrote \(path)\n" }
        return out
    }

    /// "3 tasks with costP90, 6 with jitter σ 0.2, 0 fixed; …" or a hint when nothing varies.
    public static func uncertaintyLine(_ result: SweepResult) -> String {
        let total = result.scenario.tasks.count
        let latencies =
            result.latencyTasks > 0
            ? "; \(result.latencyTasks) latenc\(result.latencyTasks == 1 ? "y varies" : "ies vary") (latencyP90)" : ""
        guard result.uncertainTasks > 0 else {
            if result.latencyTasks > 0 { return "every cost is fixed" + latencies }
            return "none — every task has a fixed cost, so every run equals the deterministic launch"
                + " (add costP90 to tasks, a scenario jitter, or --jitter)"
        }
        var parts: [String] = []
        if result.p90Tasks > 0 { parts.append("\(result.p90Tasks) with costP90") }
        if result.jitterTasks > 0 { parts.append("\(result.jitterTasks) with jitter σ \(formatNumber(result.jitter))") }
        let fixed = total - result.uncertainTasks
        if fixed > 0 { parts.append("\(fixed) fixed") }
        return "\(result.uncertainTasks) of \(total) tasks vary (" + parts.joined(separator: ", ")
            + "); lognormal costs, the same sampled costs for every strategy in a run" + latencies
    }

    /// "812 (81.2%)".
    private static func share(_ count: Int, of runs: Int) -> String {
        "\(count) (\(TextReport.percent(runs == 0 ? 0 : Double(count) / Double(runs)))%)"
    }

    // MARK: whatif

    /// `whatif --format text`: the ranked tasks, at most `top` of them.
    public static func whatIf(_ analysis: WhatIfAnalysis, top: Int? = nil) -> String {
        let scenario = analysis.scenario
        let base = analysis.base
        let what = analysis.target.rawValue
        var out = "\(scenario.name) — what if one task's \(what) were \(percentText(analysis.reduction))% lower?"
        out += " strategy \(analysis.strategy.rawValue)\n"
        out +=
            "base: first frame \(formatMillis(base.timeToFirstFrame)) ms (its work ready at \(formatMillis(base.firstFrameReady)) ms, before vsync rounding)"
        if base.timeToFullDisplay != base.timeToFirstFrame || analysis.objective == .fullDisplay {
            out += ", full display \(formatMillis(base.timeToFullDisplay)) ms"
        }
        out += ", launch complete \(formatMillis(base.launchComplete)) ms"
        if analysis.strategy.definition.limitsConcurrency, let maxConcurrent = analysis.options.maxConcurrent {
            out += ", at most \(maxConcurrent) worker tasks in flight"
        }
        out += "\n\n"
        let rows = analysis.rows.prefix(top ?? analysis.rows.count)
        let fullDisplay = analysis.objective == .fullDisplay
        var table = [
            ["rank", "task", what, "reduced"] + (fullDisplay ? ["full-display gain"] : [])
                + ["first-frame gain", "ready gain", "launch gain", "slack"]
        ]
        for (k, row) in rows.enumerated() {
            table.append(
                [
                    String(k + 1), scenario.tasks[row.task].id, TextReport.fixed(row.cost),
                    TextReport.fixed(row.reducedCost),
                ] + (fullDisplay ? [signed(row.fullDisplayGain)] : []) + [
                    signed(row.firstFrameGain), signed(row.firstFrameReadyGain), signed(row.launchGain),
                    (row.slackIsCapped ? "≥ " : "") + TextReport.fixed(row.slack),
                ])
        }
        out += TextReport.table(
            table, rightAligned: [false, false] + Array(repeating: true, count: table[0].count - 2), indent: "  ")
        if rows.count < analysis.rows.count { out += "  … \(analysis.rows.count - rows.count) more (--top)\n" }
        out += """

            Times in ms. gain: base time − time with only that task's \(what) reduced (negative: the launch got slower);
            ready gain: the first frame before vsync rounding (a saving smaller than a frame shows here first).
            Ranked by \(fullDisplay ? "full-display gain, then " : "")first-frame gain, then ready gain, then launch gain. slack: how much the task's \(what) can grow before the \(fullDisplay ? "full\ndisplay" : "first\nframe") moves, found by re-simulation (doubling, then bisection to the µs); '≥' when no growth up to
            \(formatMillis(analysis.slackCap)) ms (the base launch) moves it.

            """
        return out
    }

    /// "+16.667", "−2.000", "0.000".
    private static func signed(_ micros: Micros) -> String {
        (micros > 0 ? "+" : micros < 0 ? "−" : "") + TextReport.fixed(abs(micros))
    }

    /// 0.5 → "50", 0.125 → "12.5" (at most 6 significant decimals).
    public static func percentText(_ share: Double) -> String {
        let scaled = (share * 100 * 1_000_000).rounded() / 1_000_000
        return formatNumber(scaled)
    }
}

extension JSONWriter {
    /// `sweep --format json`: the summaries, keys in a fixed order.
    public mutating func sweep(_ result: SweepResult, pictures: [String] = []) {
        let configuration = result.configuration
        object(.lines) { w in
            w.field("scenario", result.scenario.name)
            w.field("runs", configuration.runs)
            w.key("seed")
            w.integer(configuration.seed)
            w.field("jitter", result.jitter)
            w.field("uncertainTasks", result.uncertainTasks)
            if let maxConcurrent = configuration.options.maxConcurrent { w.field("maxConcurrent", maxConcurrent) }
            w.field("percentiles", "nearest-rank")
            w.field("results", array: .lines) { w in
                for summary in result.summaries { w.summary(summary) }
            }
            if !pictures.isEmpty { w.field("pictures", strings: pictures) }
        }
    }

    /// One strategy's summary of a sweep, one key a line.
    private mutating func summary(_ summary: SweepSummary) {
        object(.lines) { w in
            w.field("strategy", summary.strategy.rawValue)
            w.field("timeToFirstFrameMs", distribution: summary.firstFrame)
            w.field("timeToFullDisplayMs", distribution: summary.fullDisplay)
            w.field("launchCompleteMs", distribution: summary.launchComplete)
            w.field("bestRuns", object: .spaced) { w in
                w.field("timeToFirstFrameMs", summary.bestFirstFrame)
                w.field("timeToFullDisplayMs", summary.bestFullDisplay)
                w.field("launchCompleteMs", summary.bestLaunchComplete)
            }
            w.field("soleBestRuns", object: .spaced) { w in
                w.field("timeToFirstFrameMs", summary.soleBestFirstFrame)
                w.field("timeToFullDisplayMs", summary.soleBestFullDisplay)
                w.field("launchCompleteMs", summary.soleBestLaunchComplete)
            }
            w.field("brokeDependenciesRuns", summary.brokenRuns)
        }
    }

    /// `"name": { "mean": …, "p50": …, "p90": …, "p99": …, "min": …, "max": … }` in ms.
    private mutating func field(_ name: String, distribution d: Distribution) {
        field(name, object: .spaced) { w in
            w.field("mean", millis: d.mean)
            w.field("p50", millis: d.p50)
            w.field("p90", millis: d.p90)
            w.field("p99", millis: d.p99)
            w.field("min", millis: d.min)
            w.field("max", millis: d.max)
        }
    }

    /// `whatif --format json`: the ranked tasks, at most `top` of them.
    public mutating func whatIf(_ analysis: WhatIfAnalysis, top: Int? = nil) {
        let scenario = analysis.scenario
        let latency = analysis.target == .latency
        object(.lines) { w in
            w.field("scenario", scenario.name)
            w.field("strategy", analysis.strategy.rawValue)
            w.key("reducePercent")
            w.number(UncertaintyReport.percentText(analysis.reduction))
            if analysis.strategy.definition.limitsConcurrency, let maxConcurrent = analysis.options.maxConcurrent {
                w.field("maxConcurrent", maxConcurrent)
            }
            if analysis.target != .cost { w.field("target", analysis.target.rawValue) }
            w.field("objective", analysis.objective.rawValue)
            w.field("base", object: .spaced) { w in
                w.field("timeToFirstFrameMs", millis: analysis.base.timeToFirstFrame)
                w.field("firstFrameReadyMs", millis: analysis.base.firstFrameReady)
                w.field("timeToFullDisplayMs", millis: analysis.base.timeToFullDisplay)
                w.field("launchCompleteMs", millis: analysis.base.launchComplete)
            }
            w.field("slackCapMs", millis: analysis.slackCap)
            w.field("tasks", array: .lines) { w in
                for (k, row) in analysis.rows.prefix(top ?? analysis.rows.count).enumerated() {
                    w.object(.spaced) { w in
                        w.field("rank", k + 1)
                        w.field("id", scenario.tasks[row.task].id)
                        w.field(latency ? "latencyMs" : "costMs", millis: row.cost)
                        w.field(latency ? "reducedLatencyMs" : "reducedCostMs", millis: row.reducedCost)
                        w.field("timeToFirstFrameGainMs", millis: row.firstFrameGain)
                        w.field("firstFrameReadyGainMs", millis: row.firstFrameReadyGain)
                        w.field("timeToFullDisplayGainMs", millis: row.fullDisplayGain)
                        w.field("launchCompleteGainMs", millis: row.launchGain)
                        w.field("slackMs", millis: row.slack)
                        w.field("slackCapped", row.slackIsCapped)
                    }
                }
            }
        }
    }
}
