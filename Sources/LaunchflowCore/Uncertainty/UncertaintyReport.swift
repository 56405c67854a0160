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
        raw("{\n  "); key("scenario"); string(result.scenario.name)
        raw(",\n  "); key("runs"); integer(configuration.runs)
        raw(",\n  "); key("seed"); raw(String(configuration.seed))
        raw(",\n  "); key("jitter"); double(result.jitter)
        raw(",\n  "); key("uncertainTasks"); integer(result.uncertainTasks)
        if let maxConcurrent = configuration.options.maxConcurrent {
            raw(",\n  "); key("maxConcurrent"); integer(maxConcurrent)
        }
        raw(",\n  "); key("percentiles"); string("nearest-rank")
        raw(",\n  "); key("results"); raw("[")
        for (k, summary) in result.summaries.enumerated() {
            raw(k == 0 ? "\n    {" : ",\n    {")
            raw("\n      "); key("strategy"); string(summary.strategy.rawValue)
            raw(",\n      "); key("timeToFirstFrameMs"); distribution(summary.firstFrame)
            raw(",\n      "); key("timeToFullDisplayMs"); distribution(summary.fullDisplay)
            raw(",\n      "); key("launchCompleteMs"); distribution(summary.launchComplete)
            raw(",\n      "); key("bestRuns")
            raw("{ "); key("timeToFirstFrameMs"); integer(summary.bestFirstFrame)
            raw(", "); key("timeToFullDisplayMs"); integer(summary.bestFullDisplay)
            raw(", "); key("launchCompleteMs"); integer(summary.bestLaunchComplete); raw(" }")
            raw(",\n      "); key("soleBestRuns")
            raw("{ "); key("timeToFirstFrameMs"); integer(summary.soleBestFirstFrame)
            raw(", "); key("timeToFullDisplayMs"); integer(summary.soleBestFullDisplay)
            raw(", "); key("launchCompleteMs"); integer(summary.soleBestLaunchComplete); raw(" }")
            raw(",\n      "); key("brokeDependenciesRuns"); integer(summary.brokenRuns)
            raw("\n    }")
        }
        raw("\n  ]")
        if !pictures.isEmpty {
            raw(",\n  "); key("pictures"); raw("[")
            for (k, path) in pictures.enumerated() {
                if k > 0 { raw(", ") }
                string(path)
            }
            raw("]")
        }
        raw("\n}")
    }

    /// `{ "mean": …, "p50": …, "p90": …, "p99": …, "min": …, "max": … }` in ms.
    private mutating func distribution(_ d: Distribution) {
        raw("{ "); key("mean"); millis(d.mean)
        raw(", "); key("p50"); millis(d.p50)
        raw(", "); key("p90"); millis(d.p90)
        raw(", "); key("p99"); millis(d.p99)
        raw(", "); key("min"); millis(d.min)
        raw(", "); key("max"); millis(d.max)
        raw(" }")
    }

    /// `whatif --format json`: the ranked tasks, at most `top` of them.
    public mutating func whatIf(_ analysis: WhatIfAnalysis, top: Int? = nil) {
        let scenario = analysis.scenario
        raw("{\n  "); key("scenario"); string(scenario.name)
        raw(",\n  "); key("strategy"); string(analysis.strategy.rawValue)
        raw(",\n  "); key("reducePercent"); raw(UncertaintyReport.percentText(analysis.reduction))
        if analysis.strategy.definition.limitsConcurrency, let maxConcurrent = analysis.options.maxConcurrent {
            raw(",\n  "); key("maxConcurrent"); integer(maxConcurrent)
        }
        if analysis.target != .cost { raw(",\n  "); key("target"); string(analysis.target.rawValue) }
        raw(",\n  "); key("objective"); string(analysis.objective.rawValue)
        raw(",\n  "); key("base")
        raw("{ "); key("timeToFirstFrameMs"); millis(analysis.base.timeToFirstFrame)
        raw(", "); key("firstFrameReadyMs"); millis(analysis.base.firstFrameReady)
        raw(", "); key("timeToFullDisplayMs"); millis(analysis.base.timeToFullDisplay)
        raw(", "); key("launchCompleteMs"); millis(analysis.base.launchComplete); raw(" }")
        raw(",\n  "); key("slackCapMs"); millis(analysis.slackCap)
        raw(",\n  "); key("tasks"); raw("[")
        let rows = analysis.rows.prefix(top ?? analysis.rows.count)
        for (k, row) in rows.enumerated() {
            raw(k == 0 ? "\n    { " : ",\n    { ")
            key("rank"); integer(k + 1)
            raw(", "); key("id"); string(scenario.tasks[row.task].id)
            let latency = analysis.target == .latency
            raw(", "); key(latency ? "latencyMs" : "costMs"); millis(row.cost)
            raw(", "); key(latency ? "reducedLatencyMs" : "reducedCostMs"); millis(row.reducedCost)
            raw(", "); key("timeToFirstFrameGainMs"); millis(row.firstFrameGain)
            raw(", "); key("firstFrameReadyGainMs"); millis(row.firstFrameReadyGain)
            raw(", "); key("timeToFullDisplayGainMs"); millis(row.fullDisplayGain)
            raw(", "); key("launchCompleteGainMs"); millis(row.launchGain)
            raw(", "); key("slackMs"); millis(row.slack)
            raw(", "); key("slackCapped"); bool(row.slackIsCapped)
            raw(" }")
        }
        raw(rows.isEmpty ? "]\n}" : "\n  ]\n}")
    }
}
