import Foundation

/// What `launchflow replay` prints: per strategy, the metrics simulated and
/// measured, how many tasks ran where the model put them, and the tasks that
/// diverge most and why.
public struct ReplayReport: Sendable {
    public var scenario: Scenario
    public var path: String
    public var comparisons: [Replay.Comparison]
    public var runs: Int
    public var workers: Int
    public var cpus: Int
    /// The fraction of the CPUs other processes used during the runs; nil where it is not measured.
    public var otherLoad: Double?
    /// The part of `otherLoad` a hypervisor took (steal time); nil where it is not measured (Darwin).
    public var steal: Double?
    /// The runs were at nice −15, ahead of other processes (as a launching app runs ahead of background work).
    public var raisedPriority: Bool
    public var warnings: [String]
    /// `replay --emulate`: the device emulated, and where the worker threads ran; nil without.
    public var emulation: [String]?

    public init(
        scenario: Scenario, path: String, comparisons: [Replay.Comparison], runs: Int, workers: Int, cpus: Int,
        otherLoad: Double?, steal: Double? = 0, raisedPriority: Bool = false, warnings: [String]
    ) {
        self.steal = steal
        self.raisedPriority = raisedPriority
        self.scenario = scenario
        self.path = path
        self.comparisons = comparisons
        self.runs = runs
        self.workers = workers
        self.cpus = cpus
        self.otherLoad = otherLoad
        self.warnings = warnings
    }

    /// What may make the real times later than the launch alone: runs not raised
    /// above other processes, more threads than CPUs, a machine loaded meanwhile.
    /// (`modelShares`: the simulation gives the threads the device's clusters of cores, §3.13, so more
    /// threads than CPUs is what it models.)
    public static func machineWarnings(
        raisedPriority: Bool, threads: Int, cpus: Int, otherLoad: Double?, modelShares: Bool = false
    ) -> [String] {
        var warnings: [String] = []
        if !raisedPriority {
            warnings.append(
                "the runs could not raise their priority (nice −15 needs root or CAP_SYS_NICE): other processes took turns on the CPUs with them, so the real times may be later than the launch alone"
            )
        }
        if threads > cpus && !modelShares {
            warnings.append(
                "the runs use \(threads) threads on \(cpus) CPUs: the model gives every thread a CPU, so the real times are later (docs/model.md §3.10: device.cpus models the sharing)"
            )
        }
        if let otherLoad, otherLoad >= 0.1 {
            warnings.append(
                "the machine was loaded: other processes used \(Int((otherLoad * 100).rounded()))% of its CPUs during the runs, so the real times may be later than the launch alone"
            )
        }
        return warnings
    }

    /// The runtime's set-up before didFinishLaunching, median over the runs (µs).
    public var setUp: Micros { Replay.medianSetUp(comparisons) }

    /// Where the set-up went: inside pre-main, or past it.
    private var setUpLine: String {
        let preMain = scenario.preMainTotal
        return "the runtime's set-up (Launch.init: the graph and plan resolved, the workers started) took "
            + "\(formatMillis(setUp)) ms (median) before didFinishLaunching, "
            + (setUp <= preMain
                ? "inside the scenario's \(formatMillis(preMain)) ms of pre-main"
                : "more than the scenario's \(formatMillis(preMain)) ms of pre-main: the launch starts \(formatMillis(setUp - preMain)) ms late")
    }

    private var heading: String {
        "Replay of \(scenario.name) (\(path)): \(runs) real run\(runs == 1 ? "" : "s") per strategy on LaunchflowRuntime, "
            + "\(workers) worker\(workers == 1 ? "" : "s") + main = \(workers + 1) threads on \(cpus) CPUs"
            + (raisedPriority ? " at nice −15" : "") + ", "
            + (otherLoad.map { "other processes \(Int(($0 * 100).rounded()))% of the CPUs" }
                ?? "other processes' load not measured on this OS")
            + (steal.map { $0 >= 0.005 ? " (the hypervisor's steal \(Int(($0 * 100).rounded()))%)" : "" } ?? "")
            + (scenario.device.cpus.map { "; simulated with device.cpus \($0)" } ?? "")
    }

    private static func value(_ metric: Metric, _ v: Double) -> String {
        metric.isTime ? formatMillis(Micros((v * 1000).rounded())) : (metric.isCount ? String(Int(v)) : String(v))
    }

    private static func error(_ metric: Metric, _ simulated: Double, _ measured: Double) -> String {
        let delta = measured - simulated
        let sign = delta > 0 ? "+" : (delta < 0 ? "−" : "±")
        let magnitude = value(metric, abs(delta))
        guard simulated != 0 else { return "\(sign)\(magnitude)" }
        let percent = (delta / simulated * 1000).rounded() / 10
        return "\(sign)\(magnitude) (\(percent > 0 ? "+" : "")\(percent)%)"
    }

    private static func signed(_ micros: Micros) -> String {
        micros > 0 ? "+\(formatMillis(micros))" : (micros < 0 ? "−\(formatMillis(-micros))" : "±0")
    }

    private static func label(_ metric: Metric) -> String {
        metric.info.unit.isEmpty ? metric.label : "\(metric.label) (\(metric.info.unit))"
    }

    private func placement(_ comparison: Replay.Comparison) -> String {
        let tasks = comparison.tasks
        let threads = tasks.filter { $0.sameThread == $0.runs }.count
        let main = tasks.filter(\.onMain)
        let iterations = main.filter { $0.sameIteration == $0.runs }.count
        return "\(threads) of \(tasks.count) tasks on the model's thread in every run; "
            + "\(iterations) of \(main.count) main-thread tasks in the model's run-loop iteration"
    }

    /// The error split in two: the bodies' stretch, and the schedule's error given the real durations.
    private func decomposition(_ comparison: Replay.Comparison) -> String {
        func row(_ metric: Metric) -> (simulated: Double, measured: Double, again: Double)? {
            guard let k = comparison.rows.firstIndex(where: { $0.metric == metric }) else { return nil }
            return (comparison.rows[k].simulated, comparison.rows[k].measured, comparison.resimulated[k])
        }
        func micros(_ ms: Double) -> Micros { Micros((ms * 1000).rounded()) }
        let share = comparison.bodyTime > 0 ? Double(comparison.bodyStretch) / Double(comparison.bodyTime) * 100 : 0
        var line =
            "the task bodies ran \(Self.signed(comparison.bodyStretch)) ms in all against the simulation ("
            + "\(share >= 0 ? "+" : "")\(String(format: "%.1f", share))%: CPU time taken from them by other threads, other processes or a hypervisor)"
        if let ready = row(.firstFrameReadyMs), let complete = row(.launchCompleteMs) {
            line +=
                "; simulated again with the durations they took, the schedule's own error is "
                + "\(Self.signed(micros(ready.measured - ready.again))) ms on first frame before vsync and "
                + "\(Self.signed(micros(complete.measured - complete.again))) ms on launch complete"
        }
        return line
    }

    public func text() -> String {
        var out = heading + "\n" + setUpLine + "\n"
        for line in emulation ?? [] { out += line + "\n" }
        for warning in warnings { out += "warning: \(warning)\n" }
        for comparison in comparisons {
            out += "\n\(comparison.strategy.rawValue)\n"
            let rows = comparison.rows.map {
                [
                    Self.label($0.metric), Self.value($0.metric, $0.simulated), Self.value($0.metric, $0.measured),
                    Self.error($0.metric, $0.simulated, $0.measured),
                ]
            }
            out += table(["metric", "simulated", "measured", "error"], rows)
            out += placement(comparison) + "\n"
            out += decomposition(comparison) + "\n"
            if !comparison.divergent.isEmpty {
                out += "most divergent (median over the runs, measured − simulated):\n"
                for task in comparison.divergent {
                    out +=
                        "  '\(task.id)': end \(Self.signed(task.endError)) ms, start \(Self.signed(task.startError)) ms — \(task.reason)\n"
                }
            }
            let problems = Set(comparison.runs.flatMap(\.problems))
            for problem in problems.sorted() { out += "problem: \(problem)\n" }
        }
        return out
    }

    public func markdown() -> String {
        var out = "### \(heading)\n\n\(setUpLine.prefix(1).uppercased() + setUpLine.dropFirst()).\n\n"
        for line in emulation ?? [] { out += line.prefix(1).uppercased() + line.dropFirst() + ".\n\n" }
        for warning in warnings { out += "> **warning:** \(warning)\n\n" }
        for comparison in comparisons {
            out +=
                "#### `\(comparison.strategy.rawValue)`\n\n| metric | simulated | measured | error |\n|---|---:|---:|---:|\n"
            for row in comparison.rows {
                out +=
                    "| \(Self.label(row.metric)) | \(Self.value(row.metric, row.simulated)) | \(Self.value(row.metric, row.measured)) | \(Self.error(row.metric, row.simulated, row.measured)) |\n"
            }
            out += "\n\(placement(comparison)).\n"
            let split = decomposition(comparison)
            out += "\n\(split.prefix(1).uppercased() + split.dropFirst()).\n"
            if !comparison.divergent.isEmpty {
                out += "\n| task | end error (ms) | start error (ms) | why |\n|---|---:|---:|---|\n"
                for task in comparison.divergent {
                    out +=
                        "| `\(task.id)` | \(Self.signed(task.endError)) | \(Self.signed(task.startError)) | \(task.reason) |\n"
                }
            }
            out += "\n"
        }
        return out
    }

    public func json() -> String {
        var w = JSONWriter(capacity: 4096)
        w.object(.lines) { w in
            w.field("scenario", scenario.name)
            w.field("runs", runs)
            w.field("workers", workers)
            w.field("cpus", cpus)
            // Null where the system does not say (the hypervisor's steal on Darwin).
            w.key("otherProcessesLoad")
            if let otherLoad { w.double((otherLoad * 1000).rounded() / 1000) } else { w.null() }
            w.key("stealLoad")
            if let steal { w.double((steal * 1000).rounded() / 1000) } else { w.null() }
            w.field("raisedPriority", raisedPriority)
            w.field("setUpMs", millis: setUp)
            w.field("warnings", strings: warnings)
            if let emulation { w.field("emulation", strings: emulation) }
            w.field("strategies", array: .lines) { w in
                for comparison in comparisons { Self.strategy(comparison, &w) }
            }
        }
        w.newline()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// One strategy's runs: the metrics simulated, measured and re-simulated on one line, then its tasks one a line.
    private static func strategy(_ comparison: Replay.Comparison, _ w: inout JSONWriter) {
        w.object { w in
            w.field("strategy", comparison.strategy.rawValue)
            w.field("simulated", object: .compact) { w in
                for row in comparison.rows { w.field(row.metric.rawValue, row.simulated) }
            }
            w.field("measured", object: .compact) { w in
                for row in comparison.rows { w.field(row.metric.rawValue, row.measured) }
            }
            w.field("resimulated", object: .compact) { w in
                for (j, row) in comparison.rows.enumerated() { w.field(row.metric.rawValue, comparison.resimulated[j]) }
            }
            w.field("bodyStretchMs", millis: comparison.bodyStretch)
            w.field("bodyTimeMs", millis: comparison.bodyTime)
            // The tasks start on a line of their own, one space in; the array closes after its last task.
            w.key("tasks", onNewLineIndentedBy: 1)
            w.array(.lines(indent: 2, closesOnOwnLine: false)) { w in
                for task in comparison.tasks {
                    w.object { w in
                        w.field("id", task.id)
                        w.field("startErrorMs", millis: task.startError)
                        w.field("endErrorMs", millis: task.endError)
                        w.field("sameThread", task.sameThread)
                        w.field("sameIteration", task.sameIteration)
                    }
                }
            }
        }
    }
}

/// A left-aligned first column, the others right-aligned, two spaces apart.
private func table(_ header: [String], _ rows: [[String]]) -> String {
    let all = [header] + rows
    let widths = header.indices.map { c in all.map { $0[c].count }.max() ?? 0 }
    var out = ""
    for row in all {
        var line = ""
        for (c, cell) in row.enumerated() {
            let pad = String(repeating: " ", count: widths[c] - cell.count)
            line += c == 0 ? cell + pad : "  " + pad + cell
        }
        out += line + "\n"
    }
    return out
}
