/// Human-readable reports: the `simulate` text report and the `compare` tables.
public enum TextReport {
    /// The order of `simulate`'s task table (`--sort`).
    public enum TaskOrder: String, CaseIterable, Sendable {
        /// As in the scenario file.
        case file
        /// By start time, then thread (main first), then file order: the launch as it unfolds.
        case start
    }

    /// `simulate --format text`: the metrics with units, then one row per task.
    public static func simulation(_ result: SimulationResult, order: TaskOrder = .file) -> String {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let device = scenario.device
        var out = "\(scenario.name) — strategy \(schedule.strategy.rawValue)\n"
        out +=
            "device: \(device.cores) cores (main + \(device.workerCount) workers), \(formatNumber(device.refreshRate)) Hz"
        out +=
            " (frame \(formatMillis(device.frameInterval)) ms), commit \(formatMillis(device.commitCost)) ms, render \(formatMillis(device.renderTime)) ms"
        if let limit = schedule.maxConcurrent,
            limit < device.workerCount || schedule.latencies.contains(where: { $0 > 0 })
        {
            out += ", at most \(limit) worker tasks in flight"
        }
        // (§3.10, §3.11) Only when the scenario says so: the line is otherwise as before.
        if let cpus = device.cpus {
            out +=
                ", \(cpus) CPU\(cpus == 1 ? "" : "s") shared\(device.mainThreadPriority ? " (main thread first)" : "")"
        }
        if scenario.mainExecutor == .operationQueue && schedule.strategy.definition.waitsForAnchors {
            out += ", main-thread tasks through OperationQueue.main"
        }
        out += "\n\nMetrics\n"
        let rows = Metric.allCases.map { metric in [metric.label, valueText(metric, result.metrics), unit(metric)] }
        out += table(rows, rightAligned: [false, true, false], indent: "  ")
        if !schedule.preMain.isEmpty {
            out += "\nPre-main (t0 = \(formatMillis(schedule.t0)) ms)\n"
            let rows = zip(scenario.preMain, schedule.preMain).map { phase, span in
                [phase.name, formatMillis(span.start), formatMillis(span.end)]
            }
            out += table([["phase", "start", "end"]] + rows, rightAligned: [false, true, true], indent: "  ")
        }
        out += taskTable(schedule, order: order)
        if !schedule.inputs.isEmpty {
            out += "\nInputs (ms; wait = start − at: how long the tap waited for the main thread)\n"
            var rows = [["input", "at", "start", "end", "wait"]]
            for input in schedule.inputs {
                rows.append([
                    scenario.inputs[input.input].name, fixed(input.at), fixed(input.start), fixed(input.end),
                    fixed(input.wait),
                ])
            }
            out += table(rows, rightAligned: [false, true, true, true, true], indent: "  ")
        }
        let violations = schedule.violations()
        if !violations.isEmpty {
            out += "\nDependency violations (the task started before its dependency was done)\n"
            var rows = [["task", "dependency", "start", "dependency end"]]
            for v in violations {
                rows.append([
                    scenario.tasks[v.task].id, scenario.tasks[v.dependency].id, fixed(v.start), fixed(v.dependencyEnd),
                ])
            }
            out += table(rows, rightAligned: [false, false, true, true], indent: "  ")
        }
        let path = result.criticalPath.tasks.map { scenario.tasks[$0].id }
        out += "\nCritical path: \(path.joined(separator: " → "))\n"
        out += modules([result])
        return out
    }

    /// One row per task: thread, ready, start, end and wait; with v2 keys in
    /// use, also its done time (latency), its delay and its wait for its queue.
    static func taskTable(_ schedule: Schedule, order: TaskOrder = .file) -> String {
        let tasks = schedule.scenario.tasks
        let showDone = tasks.contains { $0.latency > 0 }
        let showDelay = schedule.tasks.contains { $0.delayed > 0 }
        let showQueue = tasks.contains { $0.queue != nil }
        let showKind = tasks.contains { $0.idle || $0.anchor || $0.queue != nil }
        var notes: [String] = []
        if showDone { notes.append("done = end + latency") }
        if showDelay { notes.append("delay: released this long after it became ready") }
        if showQueue { notes.append("queue wait: released → admitted by its queue") }
        var header = ["task", "thread", "ready", "start", "end"]
        if showDone { header.append("done") }
        header.append("wait")
        if showDelay { header.append("delay") }
        if showQueue { header.append("queue wait") }
        if showKind { header.append("") }
        var rows = [header]
        var indices = Array(schedule.tasks.indices)
        if order == .start {
            let runs = schedule.tasks
            indices.sort { (runs[$0].start, runs[$0].thread, $0) < (runs[$1].start, runs[$1].thread, $1) }
        }
        for i in indices {
            let run = schedule.tasks[i]
            var row = [
                tasks[i].id, Schedule.threadName(run.thread), fixed(run.ready), fixed(run.start), fixed(run.end),
            ]
            if showDone { row.append(fixed(run.done)) }
            row.append(fixed(run.wait))
            if showDelay { row.append(run.delayed > 0 ? fixed(run.delayed) : "") }
            if showQueue { row.append(tasks[i].queue == nil ? "" : fixed(run.queueWait)) }
            if showKind {
                var notes: [String] = []
                if let queue = tasks[i].queue { notes.append("queue \(queue)") }
                if tasks[i].idle { notes.append("idle") }
                if tasks[i].anchor { notes.append("anchor") }
                row.append(notes.joined(separator: ", "))
            }
            rows.append(row)
        }
        let right = header.indices.map { $0 >= 2 && !(showKind && $0 == header.count - 1) }
        var out = "\nTasks (ms; wait = start − ready\(order == .start ? "; by start time" : ""))\n"
        out += table(rows, rightAligned: right, indent: "  ")
        if !notes.isEmpty { out += "  " + notes.joined(separator: "; ") + "\n" }
        return out
    }

    /// The per-module breakdown (`group`), one column block per result; empty
    /// when no task has a group.
    public static func modules(_ results: [SimulationResult]) -> String {
        guard let first = results.first, first.schedule.scenario.tasks.contains(where: { $0.group != nil }) else {
            return ""
        }
        let breakdowns = results.map { ModuleBreakdown($0) }
        var out = "\nModules (ms; main = time on the main thread; first-frame path = time on the first frame's"
        out += " longest dependency chain)\n"
        var header = ["module", "tasks", "cost"]
        for result in results {
            let name = results.count > 1 ? " (\(result.schedule.strategy.rawValue))" : ""
            header.append("main" + name)
        }
        header.append("first-frame path")
        var rows = [header]
        for (k, module) in breakdowns[0].modules.enumerated() {
            var row = [module.name, String(module.tasks), fixed(module.cost)]
            for breakdown in breakdowns { row.append(fixed(breakdown.modules[k].mainThread)) }
            row.append(fixed(module.firstFramePath))
            rows.append(row)
        }
        out += table(rows, rightAligned: header.indices.map { $0 > 0 }, indent: "  ")
        return out
    }

    /// `compare --format text|markdown`: metrics × strategies, the best value
    /// per metric among the strategies that keep every dependency marked `*`
    /// (bold in markdown), values a strategy reaches only by breaking
    /// dependencies marked `†`, deltas in parentheses against the app's strategy
    /// (the scenario's `"strategy"`, marked "(the app's)") or else `serial`; then
    /// the best correct strategy and what it gains (``HonestComparison``).
    public static func comparison(_ results: [SimulationResult], markdown: Bool) -> String {
        guard let first = results.first else { return "" }
        let scenario = first.schedule.scenario
        let judged = HonestComparison(results)
        let baselineIndex = judged.serial
        let baseline = baselineIndex.map { results[$0] }
        var rows = [["metric"] + results.map { judged.label($0.schedule.strategy) }]
        // Deltas against a baseline that is not compared on the metric would compare unlike work.
        func baselineLeftOut(_ metric: Metric) -> Bool {
            baselineIndex.map { judged.isCorrect[$0] && judged.exclusion($0, metric) != nil } ?? false
        }
        for metric in Metric.allCases {
            let values = results.map { $0.metrics.value(metric) }
            var row = [metric.label + (unit(metric).isEmpty ? "" : " (\(unit(metric)))")]
            for (k, result) in results.enumerated() {
                var cell = valueText(metric, result.metrics)
                if judged.isBest(k, metric) { cell = markdown ? "**\(cell)**" : cell + "*" }
                if judged.beatsOnlyByBreaking(k, metric) { cell += "†" }
                if judged.isCorrect[k] && judged.exclusion(k, metric) != nil { cell += "‡" }
                if let baseline, result.schedule.strategy != baseline.schedule.strategy,
                    !baselineLeftOut(metric)
                {
                    let delta = values[k] - baseline.metrics.value(metric)
                    cell += " (\(signed(delta, metric)))"
                }
                row.append(cell)
            }
            rows.append(row)
        }
        var out: String
        if markdown {
            out = "## \(markdownEscaped(scenario.name))\n\n"
            out += "| " + rows[0].joined(separator: " | ") + " |\n"
            out += "|" + rows[0].indices.map { $0 == 0 ? "---|" : "---:|" }.joined() + "\n"
            for row in rows.dropFirst() { out += "| " + row.joined(separator: " | ") + " |\n" }
            out += "\nBest value per metric among the strategies that keep every dependency in **bold**"
        } else {
            out = "\(scenario.name) — \(results.count) strategies\n\n"
            out += table(rows, rightAligned: [false] + results.map { _ in true }, indent: "")
            out += "\n* best value of the metric among the strategies that keep every dependency"
        }
        out +=
            baseline == nil || results.count < 2
            ? ".\n" : "; (±x) is the change against \(judged.label(judged.baselineStrategy)).\n"
        if let app = judged.appStrategy, results.count > 1 {
            out +=
                (markdown ? "\n" : "")
                + (judged.baselineStrategy == app
                    ? "Deltas are against \(app.rawValue), the app's strategy ('strategy' in the file).\n"
                    : "The app's strategy ('strategy' in the file) is \(app.rawValue), not compared here: deltas are against \(judged.baselineStrategy.rawValue).\n")
        }
        if let note = firstDrawNote(results) { out += (markdown ? "\n" : "") + note + "\n" }
        for note in executionNotes(scenario, strategies: results.map(\.schedule.strategy)) {
            out += (markdown ? "\n" : "") + note + "\n"
        }
        let warnings = judged.warnings
        if !warnings.isEmpty {
            out += (markdown ? "\n" : "") + "† better than every correct strategy only by breaking dependencies:\n"
            for line in warnings { out += (markdown ? "- " : "  ") + line + "\n" }
        }
        if let note = judged.deferralNote { out += (markdown ? "\n" : "") + "‡ " + note + "\n" }
        if results.count > 1 { out += (markdown ? "\n" : "") + judged.headline + "\n" }
        return out
    }

    // MARK: Formatting

    static func bestValue(_ metric: Metric, _ values: [Double]) -> Double? {
        switch metric.direction {
        case .lowerIsBetter: values.min()
        case .higherIsBetter: values.max()
        case .neither: nil
        }
    }

    static func unit(_ metric: Metric) -> String {
        metric.info.unit
    }

    public static func valueText(_ metric: Metric, _ metrics: Metrics) -> String {
        let value = metrics.value(metric)
        // Times with three decimals in every table: 250.005, 166.670, 234.000 line up.
        if metric.isTime { return fixed(Micros((value * 1000).rounded())) }
        if metric.isRatio { return percent(value) }
        return String(Int(value))
    }

    public static func signed(_ delta: Double, _ metric: Metric) -> String {
        let sign = delta > 0 ? "+" : delta < 0 ? "−" : "±"
        let magnitude = abs(delta)
        if metric.isTime { return magnitude == 0 ? "±0" : sign + fixed(Micros((magnitude * 1000).rounded())) }
        if metric.isRatio { return sign + percent(magnitude) }
        return sign + String(Int(magnitude))
    }

    /// 0.4567 → "45.7".
    public static func percent(_ fraction: Double) -> String {
        let tenths = Int((fraction * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Microseconds as milliseconds with exactly three decimals, for aligned columns.
    public static func fixed(_ micros: Micros) -> String {
        let text = formatMillis(micros)
        guard let dot = text.firstIndex(of: ".") else { return text + ".000" }
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        return text + String(repeating: "0", count: 3 - decimals)
    }

    /// Columns padded to their widest cell (in characters).
    public static func table(_ rows: [[String]], rightAligned: [Bool], indent: String) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        // A cell never spans lines or holds a control character (ids come from files).
        let rows = rows.map { $0.map { displayEscaped($0) } }
        for row in rows { for (k, cell) in row.enumerated() { widths[k] = max(widths[k], cell.count) } }
        var out = ""
        for row in rows {
            var line = indent
            for (k, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[k] - cell.count)
                let right = k < rightAligned.count && rightAligned[k]
                line += right ? pad + cell : cell + (k == row.count - 1 ? "" : pad)
                if k < row.count - 1 { line += "  " }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}

/// (§3.10, §3.11) What the scenario says about how the work reaches the CPUs
/// and the main thread, when it changes the numbers: one sentence each.
package func executionNotes(_ scenario: Scenario, strategies: [Strategy]) -> [String] {
    var notes: [String] = []
    if scenario.mainExecutor == .operationQueue, strategies.contains(where: { $0 == .dag || $0 == .anchored }) {
        notes.append(
            "Main executor operationQueue: under dag and anchored the main thread runs one main-thread task per run-loop iteration, the best-ranked ready one, each with a commit of its own — OperationQueue.main dispatches an operation only when the one before has finished (docs/model.md §3.11)."
        )
    }
    if let cpus = scenario.device.cpus, cpus < scenario.device.cores {
        notes.append(
            "CPUs: \(scenario.device.cores) threads share \(cpus) CPU\(cpus == 1 ? "" : "s") (device.cpus\(scenario.device.mainThreadPriority ? "; the main thread first, mainThreadPriority" : "")): a thread runs slower while more threads run than there are CPUs (docs/model.md §3.10)."
        )
    }
    if scenario.device.hasClusters {
        let background = scenario.tasks.contains { $0.qos == .background }
        notes.append(
            "Cores: \(Device.clusterText(scenario.device.clusters)) for \(scenario.device.cores) threads (device.clusters): each running item gets the fastest free core its QoS allows, the main thread's first (userInteractive)\(background ? ", background work only the slowest cores" : ""); a task's cost is its time on a speed-1 core (docs/model.md §3.13)."
        )
        if let cost = slowCoresCost(scenario, strategies: strategies) { notes.append(cost) }
    }
    return notes
}

/// (§3.12) The strategies whose first draw — the end of iteration 0's commit,
/// Apple's time to first draw — shows no `firstFrame` task, or only some: what
/// MetricKit will report for them is not the frame the user waits for. Nil
/// when every strategy's first draw is its first frame.
package func firstDrawNote(_ results: [SimulationResult]) -> String? {
    guard let scenario = results.first?.schedule.scenario else { return nil }
    let firstFrame = scenario.tasks.indices.filter { scenario.tasks[$0].firstFrame }
    guard !firstFrame.isEmpty else { return nil }
    var parts: [String] = []
    for result in results where result.metrics.firstFrameIteration > 0 {
        let shown = firstFrame.filter { result.schedule.tasks[$0].iteration == 0 }.count
        let what = shown == 0 ? "no firstFrame task" : "\(shown) of the \(firstFrame.count) firstFrame tasks"
        parts.append(
            "under \(result.schedule.strategy.rawValue) it shows \(what) (first draw \(formatMillis(result.metrics.firstDraw)) ms, first frame \(formatMillis(result.metrics.timeToFirstFrame)) ms)"
        )
    }
    guard !parts.isEmpty else { return nil }
    return
        "Time to first draw is Apple's launch time (MetricKit, the App Launch instrument): the end of the first commit, whatever it shows; "
        + parts.joined(separator: "; ")
        + ". The user sees the launch screen or an empty window then, and MetricKit counts it all the same (docs/model.md §3.12)."
}

/// (§3.13) What the slower clusters cost the launch: the same scenario with
/// every core at speed 1 (as many cores), per strategy; nil when no cluster
/// is slower or nothing changes.
func slowCoresCost(_ scenario: Scenario, strategies: [Strategy]) -> String? {
    guard scenario.device.clusters.contains(where: { $0.speedThousandths < 1000 }) else { return nil }
    var fast = scenario
    fast.device.clusters = scenario.device.clusters.map { CoreCluster(name: $0.name, count: $0.count, speed: 1) }
    let prepared = PreparedScenario(scenario)
    let preparedFast = PreparedScenario(fast)
    var parts: [String] = []
    var unchanged: [String] = []
    for strategy in strategies {
        let real = SimulationResult(prepared, strategy: strategy, options: .init()).metrics
        let ideal = SimulationResult(preparedFast, strategy: strategy, options: .init()).metrics
        let frame = real.timeToFirstFrame - ideal.timeToFirstFrame
        let complete = real.launchComplete - ideal.launchComplete
        guard frame != 0 || complete != 0 else {
            unchanged.append(strategy.rawValue)
            continue
        }
        parts.append(
            "\(strategy.rawValue) first frame +\(formatMillis(frame)) ms, launch complete +\(formatMillis(complete)) ms"
        )
    }
    let cores = scenario.device.clusters.reduce(0) { $0 + $1.count }
    guard !parts.isEmpty else {
        return
            "The slower cores cost this launch nothing: on \(cores) full-speed cores every strategy's first frame and launch complete are the same."
    }
    if !unchanged.isEmpty { parts.append("nothing under \(unchanged.joined(separator: ", "))") }
    return "What the slower cores cost, against \(cores) full-speed cores: " + parts.joined(separator: "; ") + "."
}
