import LaunchflowCore

/// What `launchflow calibrate` prints, and the calibrated scenario it writes.
extension Calibration {
    /// A warning when the fitted cost scale is far from 1 (below ×0.5 or above
    /// ×2): no longer a calibration of the costs but a sign that the scenario
    /// and the measurement do not describe the same launch — with the phases
    /// the measurement counts that a scenario often leaves out.
    func farFromOne(_ fit: CalibrationFit) -> String? {
        guard fit.kind == .scale, fit.value > 2 || fit.value < 0.5 else { return nil }
        let taskTime = scenario.tasks.reduce(0) { $0 + $1.cost }
        var text = "warning: a cost scale of ×\(fixed(fit.value, 2)) is not a calibration: "
        if fit.value > 2 {
            text += "the measured launch (median \(fixed(measured.median, 1)) ms) does much more than the scenario "
            text += "(pre-main \(formatMillis(scenario.preMainTotal)) ms, tasks \(formatMillis(taskTime)) ms in all). "
            var absent: [String]
            switch measured.source {
            case .macrobenchmark:
                absent = [
                    "process start (fork from the zygote, bindApplication)", "content providers",
                    "Application.onCreate", "the first activity's inflate, measure and layout", "the first draw",
                ]
            case .metricKit, .list:
                absent = [
                    "UIApplicationMain and scene set-up", "the first view controller's view loading and layout",
                    "the first commit and render",
                ]
                if scenario.preMain.isEmpty { absent.insert("pre-main (dyld, +load, static initialisers)", at: 0) }
            }
            text += "What the measurement counts that the scenario may not: " + absent.joined(separator: "; ")
            text += ". Import a trace of the launch ('launchflow import') to find them, rather than scaling every task."
        } else {
            text += "the scenario's tasks take \(formatMillis(taskTime)) ms, more than the measured launch "
            text += "(median \(fixed(measured.median, 1)) ms) can hold: some tasks do not run in the measured launch, "
            text += "or run after what it measures."
        }
        return text
    }

    /// The text report: measured against simulated, then the fit.
    public func text(plot: String? = nil, out: String? = nil) -> String {
        var lines: [String] = []
        lines.append("Calibration of '\(scenario.name)' under \(request.strategy.rawValue)")
        lines.append(
            "  measured:  \(measured.file) — \(measured.description), \(plural(measured.count, "launch", "launches"))"
        )
        lines.append("  simulated: \(simulatedText(simulated))")
        var report = lines.map(TerminalText.escape).joined(separator: "\n") + "\n\n"
        report += comparison(simulated)
        if let fit {
            report += "\n"
            switch fit.kind {
            case .scale:
                report += "Fit: costScale \(fixed(fit.value, 4))"
                if fit.range.upperBound - fit.range.lowerBound >= 0.0002 {
                    report +=
                        " (every factor from \(fixed(fit.range.lowerBound, 4)) to \(fixed(fit.range.upperBound, 4)) gives the same simulated median)"
                }
                report += ": every task's cost and costP90 × \(fixed(fit.value, 4))\n"
            case .overhead:
                report += "Fit: overheadMs \(fixed(fit.value, 3))"
                if fit.range.upperBound - fit.range.lowerBound >= 0.002 {
                    report +=
                        " (every overhead from \(fixed(fit.range.lowerBound, 3)) to \(fixed(fit.range.upperBound, 3)) ms gives the same simulated median)"
                }
                report +=
                    ": main-thread time before didFinishLaunching, as the pre-main phase '\(Self.overheadPhase)'\n"
            }
            if let note = fit.note { report += "note: \(note)\n" }
            if let warning = farFromOne(fit) { report += TerminalText.escape(warning) + "\n" }
            report += comparison(fit.simulated)
        }
        if let out { report += "\n" + TerminalText.escape("Wrote \(out).") + "\n" }
        if let plot { report += (out == nil ? "\n" : "") + TerminalText.escape("Plot: \(plot)") + "\n" }
        report +=
            "\nmedian and p90 interpolated between ranks (as Macrobenchmark computes them); a MetricKit histogram's are the midpoints of the buckets holding ranks ⌈p·N/100⌉.\n"
        return report
    }

    private func simulatedText(_ launches: SimulatedLaunches) -> String {
        launches.sampled
            ? "\(launches.firstFrames.count) sampled launches (seed \(request.seed); \(uncertainTasks) of \(scenario.tasks.count) tasks vary)"
            : "1 launch with the scenario's costs (no costP90 or jitter: nothing varies)"
    }

    private func comparison(_ launches: SimulatedLaunches) -> String {
        table([
            ["", "measured", "simulated", "error"],
            [
                "median (ms)", fixed(measured.median, 3), fixed(launches.median, 3),
                errorText(launches.median, measured.median),
            ],
            ["p90 (ms)", fixed(measured.p90, 3), fixed(launches.p90, 3), errorText(launches.p90, measured.p90)],
        ])
    }

    private func errorText(_ simulated: Double, _ measured: Double) -> String {
        let delta = simulated - measured
        let sign = delta > 0.0005 ? "+" : delta < -0.0005 ? "−" : "±"
        var text = sign + fixed(abs(delta), 3)
        if measured > 0 { text += " (\(sign)\(fixed(abs(delta) * 100 / measured, 1))%)" }
        return text
    }

    /// The JSON report: `costScale` / `overheadMs` name the fitted value.
    public func json(plot: String? = nil, out: String? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 2048)
        w.object(.lines) { w in
            w.field("scenario", scenario.name)
            w.field("strategy", request.strategy.rawValue)
            w.field("measured", object: .spaced) { w in
                w.field("file", measured.file)
                w.field("source", measured.source.rawValue)
                w.field("what", measured.what)
                w.field("count", measured.count)
                summary(&w, median: measured.median, p90: measured.p90, min: measured.min, max: measured.max)
            }
            w.key("simulated")
            simulatedJSON(&w, simulated)
            w.key("error")
            errorJSON(&w, simulated)
            w.key("fit")
            if let fit { fitJSON(&w, fit) } else { w.null() }
            w.field("plot", plot)
            w.field("out", out)
        }
        w.newline()
        return w.bytes
    }

    private func fitJSON(_ w: inout JSONWriter, _ fit: CalibrationFit) {
        w.object(.spaced) { w in
            w.field(fit.kind == .scale ? "costScale" : "overheadMs", fit.value)
            let digits = fit.kind == .scale ? 6 : 3
            w.field("range", array: .compact) { w in
                w.double(rounded(fit.range.lowerBound, digits))
                w.double(rounded(fit.range.upperBound, digits))
            }
            w.key("simulated")
            simulatedJSON(&w, fit.simulated)
            w.key("error")
            errorJSON(&w, fit.simulated)
            if let note = fit.note { w.field("note", note) }
        }
    }

    private func simulatedJSON(_ w: inout JSONWriter, _ launches: SimulatedLaunches) {
        w.object(.spaced) { w in
            w.field("runs", launches.firstFrames.count)
            w.field("sampled", launches.sampled)
            w.key("seed")
            if launches.sampled { w.integer(request.seed) } else { w.null() }
            summary(&w, median: launches.median, p90: launches.p90, min: launches.min, max: launches.max)
        }
    }

    private func summary(_ w: inout JSONWriter, median: Double, p90: Double, min: Double, max: Double) {
        for (key, value) in [("medianMs", median), ("p90Ms", p90), ("minMs", min), ("maxMs", max)] {
            w.field(key, rounded(value, 6))
        }
    }

    private func errorJSON(_ w: inout JSONWriter, _ launches: SimulatedLaunches) {
        w.object(.spaced) { w in
            for (name, simulated, measured) in [
                ("median", launches.median, self.measured.median), ("p90", launches.p90, self.measured.p90),
            ] {
                w.field("\(name)Ms", rounded(simulated - measured, 6))
                w.key("\(name)Percent")
                if measured > 0 { w.double(rounded((simulated - measured) * 100 / measured, 3)) } else { w.null() }
            }
        }
    }

    private func rounded(_ x: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (x * scale).rounded() / scale
    }

    // MARK: The calibrated scenario

    /// The scenario file `bytes` (at `path`) with the fit applied at the text
    /// level — costs scaled, or the overhead phase set — and every other byte
    /// as it was; validated like an `import --into`.
    public func calibratedScenario(_ bytes: [UInt8], path: String, log: inout ImportLog) throws(ImportError) -> [UInt8]
    {
        guard let fit else { return bytes }
        let text: ScenarioText
        do {
            text = try ScenarioText(bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw ImportError(file: path, "invalid JSON: \(error.message)", line: line, at: "column \(column)")
        }
        var before: [Diagnostic] = []
        do {
            _ = try ScenarioLoader.decode(bytes, file: path)
        } catch {
            before = error.problems
        }
        var edits: [ScenarioText.Edit] = []
        switch fit.kind {
        case .scale:
            for task in text.tasks {
                guard let cost = task.cost else { continue }
                edits.append(ScenarioText.Edit(range: cost.range, text: millisText(cost.value * fit.value)))
                if let p90 = task.costP90 {
                    edits.append(
                        ScenarioText.Edit(range: p90.range, text: millisText(max(p90.value, cost.value) * fit.value)))
                }
            }
        case .overhead:
            let cost = formatMillis(Micros((fit.value * 1000).rounded()))
            if let phase = text.phases.first(where: { $0.name == Self.overheadPhase }), let old = phase.cost {
                edits.append(ScenarioText.Edit(range: old.range, text: cost))
            } else if let edit = text.appendPhase(name: Self.overheadPhase, cost: cost) {
                edits.append(edit)
            }
        }
        let edited = text.applying(edits)
        try ScenarioBuilder.checkEdited(edited, path: path, before: before, log: &log)
        return edited
    }
}
