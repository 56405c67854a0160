import LaunchflowCore

/// The scenario an import writes: a new one from the merged tasks, or the
/// `--into` scenario with refreshed costs. Either is validated before anything
/// is written; a new one is a ``Scenario`` value, written by the one scenario
/// writer (``Scenario/jsonBytes()``) as every other command writes scenarios.
enum ScenarioBuilder {
    /// A new scenario file from `merged`.
    static func build(_ merged: MergedImport, log: ImportLog) throws(ImportError) -> ImportOutcome {
        var log = log
        checkLimits(merged, log: &log)
        guard !log.hasErrors else { throw ImportError(log) }
        let scenario = try scenario(from: merged, log: &log)
        return ImportOutcome(
            scenario: scenario.jsonBytes(), log: log, summary: summary(merged) + firstFrames(merged, scenario),
            changes: [])
    }

    /// Instruments' App Launch: the measured first frame (the median over the
    /// recordings) beside the one the imported scenario simulates under dag.
    static func firstFrames(_ merged: MergedImport, _ scenario: Scenario) -> String {
        let measured = merged.runs.compactMap(\.measuredFirstFrame).sorted()
        guard !measured.isEmpty else { return "" }
        let simulated = LaunchEngine(scenario).metrics(.dag).timeToFirstFrame
        let median = Percentile.interpolated(50, ofSorted: measured)
        let over = measured.count > 1 ? " (the median of \(measured.count) recordings)" : ""
        let source =
            merged.runs.compactMap(\.measuredFirstFrameSource).first
            ?? "from the start of Process Creation to the end of Initial Frame Rendering"
        let fullDisplay = merged.runs.compactMap(\.measuredFullDisplay).sorted()
        var text = ""
        if !fullDisplay.isEmpty {
            let simulatedFull = LaunchEngine(scenario).metrics(.dag).timeToFullDisplay
            text =
                "Full display: measured \(formatMillis(nanos: Percentile.interpolated(50, ofSorted: fullDisplay))) ms (reportFullyDrawn, from the start of the launch); simulated (dag) \(formatMillis(simulatedFull)) ms\(scenario.tasks.contains { $0.fullyDrawn } ? "" : " (no task is marked fullyDrawn yet)").\n"
        }
        return
            "First frame: measured \(formatMillis(nanos: median)) ms\(over), \(source); simulated (dag, this scenario as imported) \(formatMillis(simulated)) ms\(scenario.tasks.contains { $0.firstFrame } ? "" : " (no task is marked firstFrame yet: mark those the first frame waits for, then compare with calibrate)").\n"
            + text
    }

    /// Errors for what the model cannot hold: a time over an hour (MODEL.md
    /// §1), or no task at all.
    static func checkLimits(_ merged: MergedImport, log: inout ImportLog) {
        let source = merged.runs[0].file
        for task in merged.tasks where task.cost > maximumCostNanos || (task.p90 ?? 0) > maximumCostNanos {
            log.error(
                source,
                "task '\(task.id)' would cost \(formatMillis(nanos: max(task.cost, task.p90 ?? 0))) ms, more than the model's limit of an hour (3600000 ms)"
            )
        }
        for task in merged.tasks {
            guard let v2 = task.v2 else { continue }
            let longest = max(v2.latency, task.latencyP90 ?? 0, v2.delay)
            if longest > maximumCostNanos {
                log.error(
                    source,
                    "task '\(task.id)' would have a \(longest == v2.delay ? "delay" : "latency") of \(formatMillis(nanos: longest)) ms, more than the model's limit of an hour (3600000 ms)"
                )
            }
        }
        for (k, input) in merged.inputs.enumerated() where max(input.at, input.cost) > maximumCostNanos {
            log.error(
                source,
                "input \(k + 1) ('\(input.name ?? "")') would \(input.at > maximumCostNanos ? "arrive at \(formatMillis(nanos: input.at))" : "cost \(formatMillis(nanos: input.cost))") ms, more than an hour"
            )
        }
        for phase in merged.preMain where phase.cost > maximumCostNanos {
            log.error(
                source,
                "pre-main phase '\(phase.name)' would cost \(formatMillis(nanos: phase.cost)) ms, more than an hour")
        }
        if merged.tasks.isEmpty {
            log.error(
                source,
                "no task was found: no slice on the app's threads was selected\(merged.preMain.isEmpty ? "" : " (only pre-main phases)"); try --match REGEX, --main-thread, or check that the trace holds the launch"
            )
        }
    }

    /// The scenario `merged` describes, checked as a file would be; its
    /// problems (a cycle of flows, say) are errors.
    static func scenario(from merged: MergedImport, log: inout ImportLog) throws(ImportError) -> Scenario {
        let runs = merged.runs
        var index: [String: Int] = [:]
        for (k, task) in merged.tasks.enumerated() { index[task.id] = k }
        do {
            return try Scenario(
                name: runs[0].appName ?? fileStem(runs[0].file), description: description(merged),
                device: device(merged),
                preMain: merged.preMain.map { PreMainPhase(name: $0.name, cost: micros($0.cost)) },
                launchPhases: merged.launchPhases.map { LaunchPhase(name: $0.name, cost: micros($0.cost)) },
                startsIn: merged.launchPhases.isEmpty || merged.startsIn == Scenario.defaultStartsIn
                    ? nil : merged.startsIn,
                tasks: merged.tasks.map { launchTask($0, index: index) },
                inputs: merged.inputs.enumerated().map { k, input in
                    UserInput(name: input.name ?? "input-\(k + 1)", at: micros(input.at), cost: micros(input.cost))
                }, strategy: merged.strategy)
        } catch {
            let cycle = error.problems.contains { $0.kind == .dependencyCycle }
            log.error(
                runs[0].file,
                "the imported tasks do not make a valid scenario\(cycle ? " (the trace's flow events may form a cycle)" : ""):"
            )
            for problem in error.problems {
                log.add(
                    ImportDiagnostic(
                        .error, file: "imported scenario", location: problem.path.isEmpty ? nil : problem.path,
                        message: problem.message))
            }
            throw ImportError(log)
        }
    }

    /// The device a launchflow trace declares; else the cores the trace
    /// shows (the model's defaults for the rest); else the model's default.
    static func device(_ merged: MergedImport) -> Device {
        var device = merged.device ?? merged.cores.map { Device(cores: $0) } ?? Device()
        if device.cpus == nil, let cpus = merged.cpus { device.cpus = cpus.count }
        return device
    }

    /// One task. Whether it ran on the main thread decides the keys that
    /// need it (`firstFrame`, `idle`, `fullyDrawn`); dependencies are the
    /// positions of the tasks they name (every one names a merged task:
    /// ``SliceSelection`` keeps only those).
    static func launchTask(_ task: MergedImport.Task, index: [String: Int]) -> LaunchTask {
        let onMain = task.onMain == true
        var built = LaunchTask(
            id: task.id, cost: micros(task.cost), mainThreadOnly: onMain, priority: task.priority ?? 0,
            dependsOn: task.dependsOn.compactMap { index[$0] }, firstFrame: onMain && task.firstFrame == true,
            costP90: task.p90.map(micros))
        if let v2 = task.v2 {
            built.latency = micros(v2.latency)
            built.latencyP90 = task.latencyP90.map(micros)
            built.delay = micros(v2.delay)
            built.queue = v2.queue?.isEmpty == false ? v2.queue : nil
            built.idle = onMain && v2.idle
            built.anchor = v2.anchor
            built.group = v2.group?.isEmpty == false ? v2.group : nil
            built.after = v2.after.flatMap(LaunchMilestone.init(rawValue:))
            built.fullyDrawn = onMain && v2.fullyDrawn
        }
        if let qos = task.qos { built.qos = qos }
        return built
    }

    /// A trace's nanoseconds in the model's microseconds, as the scenario
    /// loader converts the milliseconds of a file (MODEL.md §2: the double
    /// `ms × 1000`, rounded half away from zero) — so a scenario is the same
    /// whether import builds it or a file states its costs in exact
    /// milliseconds. (`Double(nanos) / 1e6` is the double nearest the exact
    /// milliseconds, as the loader's parse of them is: below an hour the
    /// nanoseconds are exact doubles.)
    static func micros(_ nanos: Nanos) -> Micros {
        microseconds(fromMilliseconds: Double(nanos) / 1_000_000)
    }

    static func description(_ merged: MergedImport) -> String {
        let runs = merged.runs
        var text = "Imported by 'launchflow import' from \(sources(runs))"
        if runs.count > 1 {
            text += ": cost is the median over the traces, costP90 their 90th percentile"
        } else if runs[0].isDistribution {
            text += ": cost is the histogram's median, costP90 its 90th percentile"
        } else if runs[0].runningCost {
            text += ": costs are \(runningCostSource(format: runs[0].format))"
        } else {
            text += ": costs are the slices' wall times"
        }
        return text + "."
    }

    /// Where `--cost running` read a trace's running times from.
    static func runningCostSource(format: String) -> String {
        switch Trace.Format(rawValue: format) {
        case .xctrace: "the time the slices' threads were running (Instruments' thread-state)"
        case .launchflow: "each task's thread CPU time (the runtime's cpuMs)"
        default: "the time the slices' threads were running (sched_switch)"
        }
    }

    /// `launch.json (Chrome trace)` or `5 traces (run1.json … run5.json, Chrome trace)`.
    static func sources(_ runs: [ImportedRun]) -> String {
        let formats = Array(Set(runs.map(\.format))).sorted().joined(separator: ", ")
        if runs.count == 1 { return "\(runs[0].file) (\(formats))" }
        let files =
            runs.count == 2 ? "\(runs[0].file), \(runs[1].file)" : "\(runs[0].file) … \(runs[runs.count - 1].file)"
        return "\(runs.count) traces (\(files); \(formats))"
    }

    /// What a new scenario holds, in one paragraph.
    static func summary(_ merged: MergedImport) -> String {
        let tasks = merged.tasks
        let onMain = tasks.filter { $0.onMain == true }.count
        let dependencies = tasks.reduce(0) { $0 + $1.dependsOn.count }
        var text = "Imported \(plural(tasks.count, "task"))"
        if tasks.contains(where: { $0.onMain != nil }) { text += " (\(onMain) on the main thread)" }
        text +=
            ", \(plural(merged.preMain.count, "pre-main phase"))\(merged.launchPhases.isEmpty ? "" : ", \(plural(merged.launchPhases.count, "launch phase"))")\(merged.inputs.isEmpty ? "" : ", \(plural(merged.inputs.count, "input"))") and \(plural(dependencies, "dependency", "dependencies"))"
        text += " from \(sources(merged.runs))"
        if let app = merged.runs[0].app { text += "; app \(app)" }
        if let device = merged.device {
            text += "; device as the trace declares it (\(device.cores) cores, \(formatNumber(device.refreshRate)) Hz, "
            text += "commit \(formatMillis(device.commitCost)) ms, render \(formatMillis(device.renderTime)) ms)"
        } else if let cores = merged.cores {
            text += "; device.cores \(cores)"
        }
        if let cpus = merged.cpus { text += "; device.cpus \(cpus.count) (\(cpus.source))" }
        if merged.runs.count > 1 || merged.runs[0].isDistribution {
            text += "; cost = median, costP90 = 90th percentile"
        }
        return TerminalText.escape(text + ".") + "\n"
    }

    /// Validates an edited scenario: problems the edit brought are errors
    /// (thrown, nothing written); those the file had before are warnings.
    static func checkEdited(_ bytes: [UInt8], path: String, before: [Diagnostic], log: inout ImportLog)
        throws(ImportError)
    {
        var newProblems: [Diagnostic] = []
        do {
            _ = try ScenarioLoader.decode(bytes, file: path)
        } catch {
            let known = Set(before.map { "\($0.path)\u{0}\($0.message)" })
            newProblems = error.problems.filter { !known.contains("\($0.path)\u{0}\($0.message)") }
        }
        if !newProblems.isEmpty {
            log.error(path, "with the new costs the scenario would be invalid; nothing was written:")
            for problem in newProblems {
                log.add(
                    ImportDiagnostic(
                        .error, file: path, location: problem.path.isEmpty ? nil : problem.path,
                        message: problem.message))
            }
            throw ImportError(log)
        }
        for problem in before {
            log.add(
                ImportDiagnostic(
                    .warning, file: path, line: problem.line, column: problem.column,
                    location: problem.path.isEmpty ? nil : problem.path,
                    message: "\(problem.message) (already so before; left as it was)"))
        }
    }

    static func fileStem(_ path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return String(name)
    }
}

func plural(_ n: Int, _ word: String, _ words: String? = nil) -> String {
    "\(n) \(n == 1 ? word : words ?? word + "s")"
}

/// The scenario of `import --into`: its text, and the problems the loader
/// already finds in it (a scenario may use keys this version does not know yet).
struct IntoTarget {
    let path: String
    let text: ScenarioText
    let problemsBefore: [Diagnostic]

    init(path: String) throws(ImportError) {
        self.path = path
        let bytes = try readInputFile(path, what: "a scenario file (.json)")
        do {
            text = try ScenarioText(bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            var log = ImportLog()
            log.add(
                ImportDiagnostic(
                    .error, file: path, line: line, column: column, message: "invalid JSON: \(error.message)"))
            throw ImportError(log)
        }
        do {
            _ = try ScenarioLoader.decode(bytes, file: path)
            problemsBefore = []
        } catch {
            problemsBefore = error.problems
        }
        if text.tasks.isEmpty {
            throw ImportError(file: path, "the scenario has no tasks array: nothing to refresh")
        }
    }

    /// The scenario with the costs of `merged`'s tasks (and pre-main phases)
    /// in place of its own; every other byte as it was.
    func refresh(with merged: MergedImport, log: ImportLog) throws(ImportError) -> ImportOutcome {
        var log = log
        var byID: [String: MergedImport.Task] = [:]
        for task in merged.tasks { byID[task.id] = task }
        let phases = Dictionary(merged.preMain.map { ($0.name, $0.cost) }, uniquingKeysWith: { a, _ in a })
        var edits: [ScenarioText.Edit] = []
        var changes: [(order: Int, change: CostChange)] = []
        var refreshed = 0
        var missing: [String] = []
        for task in text.tasks {
            guard let id = task.id, let cost = task.cost else { continue }
            guard let imported = byID[id] else {
                missing.append(id)
                continue
            }
            refreshed += 1
            guard imported.cost <= maximumCostNanos, (imported.p90 ?? 0) <= maximumCostNanos else {
                log.error(
                    path,
                    "task '\(id)' would cost \(formatMillis(nanos: max(imported.cost, imported.p90 ?? 0))) ms, more than the model's limit of an hour",
                    at: "tasks[\(task.index)].cost")
                continue
            }
            let before = nanos(fromMilliseconds: cost.value) ?? 0
            let p90Before = task.costP90.flatMap { nanos(fromMilliseconds: $0.value) }
            var p90After = imported.p90
            if p90After == nil, let old = p90Before {
                // One trace says nothing new about the spread: keep the old p90's ratio to the cost.
                // (rounded to the µs, the model's resolution)
                p90After =
                    before > 0
                    ? Nanos((Double(old) * Double(imported.cost) / Double(before) / 1000).rounded()) * 1000
                    : max(old, imported.cost)
                p90After = max(p90After!, imported.cost)
            }
            if imported.cost != before {
                edits.append(ScenarioText.Edit(range: cost.range, text: formatMillis(nanos: imported.cost)))
            }
            if let p90After, p90After != p90Before, let edit = text.setCostP90(task, formatMillis(nanos: p90After)) {
                edits.append(edit)
            }
            if imported.cost != before || p90After != p90Before {
                changes.append(
                    (
                        task.index,
                        CostChange(
                            kind: .task, name: id, before: before, after: imported.cost, p90Before: p90Before,
                            p90After: p90After)
                    ))
            }
        }
        for phase in text.phases {
            guard let name = phase.name, let cost = phase.cost, let after = phases[name] else { continue }
            let before = nanos(fromMilliseconds: cost.value) ?? 0
            guard after != before else { continue }
            edits.append(ScenarioText.Edit(range: cost.range, text: formatMillis(nanos: after)))
            changes.append(
                (-1_000_000 + phase.index, CostChange(kind: .preMain, name: name, before: before, after: after)))
        }
        if refreshed == 0 && phases.isEmpty {
            log.error(
                path,
                "no task of the scenario is in \(ScenarioBuilder.sources(merged.runs)): slices refresh the task whose id equals their name (--map FILE renames slices)\(merged.unmatched.isEmpty ? "" : "; the trace has \(unmatchedText(merged.unmatched))")"
            )
        }
        guard !log.hasErrors else { throw ImportError(log) }

        let bytes = text.applying(edits)
        try ScenarioBuilder.checkEdited(bytes, path: path, before: problemsBefore, log: &log)
        let ordered = changes.sorted {
            let a = abs($0.change.delta)
            let b = abs($1.change.delta)
            return a != b ? a > b : $0.order < $1.order
        }.map(\.change)
        let summary = summaryText(ordered, refreshed: refreshed, missing: missing, merged: merged)
        return ImportOutcome(scenario: bytes, log: log, summary: summary, changes: ordered)
    }

    private func summaryText(_ changes: [CostChange], refreshed: Int, missing: [String], merged: MergedImport) -> String
    {
        let total = text.tasks.count
        var out =
            "Refreshed \(refreshed) of \(plural(total, "task")) in \(path) from \(ScenarioBuilder.sources(merged.runs))"
        if let app = merged.runs[0].app { out += "; app \(app)" }
        out = TerminalText.escape(out + ".") + "\n"
        if changes.isEmpty {
            out += "No cost changed.\n"
        } else {
            let showP90 = changes.contains { $0.p90After != nil || $0.p90Before != nil }
            var rows: [[String]] = [
                ["task", "before (ms)", "after (ms)", "change"] + (showP90 ? ["costP90 (ms)"] : [])
            ]
            for change in changes {
                var row = [
                    change.kind == .preMain ? "preMain '\(change.name)'" : change.name,
                    formatMillis(nanos: change.before), formatMillis(nanos: change.after), changeText(change),
                ]
                if showP90 {
                    row.append(
                        change.p90Before == change.p90After
                            ? (change.p90After.map { formatMillis(nanos: $0) } ?? "")
                            : "\(change.p90Before.map { formatMillis(nanos: $0) } ?? "—") → \(change.p90After.map { formatMillis(nanos: $0) } ?? "—")"
                    )
                }
                rows.append(row.map(TerminalText.escape))
            }
            out += table(rows)
            if merged.runs.count == 1, !merged.runs[0].isDistribution,
                changes.contains(where: { $0.p90Before != nil && $0.p90Before != $0.p90After })
            {
                out += "One trace says nothing new about the spread: each costP90 keeps its ratio to the cost.\n"
            }
        }
        if !missing.isEmpty {
            let list =
                missing.prefix(20).joined(separator: ", ")
                + (missing.count > 20 ? ", … (\(missing.count - 20) more)" : "")
            out += TerminalText.escape("Not in the trace, cost kept: \(list).") + "\n"
        }
        if !merged.unmatched.isEmpty {
            out += TerminalText.escape("Slices with no task (not imported): \(unmatchedText(merged.unmatched)).") + "\n"
        }
        return out
    }
}

/// `'dyld' (61.25 ms), 'run-loop iteration' ×3 (45 ms), … (12 more)`.
func unmatchedText(_ slices: [UnmatchedSlice]) -> String {
    let sorted = slices.sorted { $0.total > $1.total }
    var parts = sorted.prefix(8).map { slice in
        "'\(slice.name)'\(slice.count > 1 ? " ×\(slice.count)" : "") (\(formatMillis(nanos: slice.total)) ms)"
    }
    if sorted.count > 8 { parts.append("… (\(sorted.count - 8) more)") }
    return parts.joined(separator: ", ")
}

/// `+2.735 (+27.4%)`, `−1.874 (−6.2%)`.
func changeText(_ change: CostChange) -> String {
    let delta = change.delta
    let sign = delta > 0 ? "+" : delta < 0 ? "−" : "±"
    var text = sign + formatMillis(nanos: abs(delta))
    if change.before > 0 {
        let percent = Double(delta) * 100 / Double(change.before)
        text += " (\(sign)\(fixed(abs(percent), 1))%)"
    }
    return text
}

/// Columns: the first left-aligned, the others right-aligned, two spaces apart, indented by two.
func table(_ rows: [[String]]) -> String {
    let columns = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columns)
    for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
    var out = ""
    for row in rows {
        var line = "  "
        for (k, cell) in row.enumerated() {
            let pad = String(repeating: " ", count: widths[k] - cell.count)
            line += k == 0 ? cell + pad : "  " + pad + cell
        }
        while line.hasSuffix(" ") { line.removeLast() }
        out += line + "\n"
    }
    return out
}

/// `x` with exactly `digits` decimals (rounded half away from zero).
func fixed(_ x: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (x * scale).rounded()
    guard scaled.isFinite, abs(scaled) < 9e15 else { return "\(x)" }
    let whole = Int64(scaled)
    let magnitude = whole.magnitude
    var text = (whole < 0 ? "-" : "") + String(magnitude / UInt64(scale))
    if digits > 0 {
        let fraction = String(magnitude % UInt64(scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
}
