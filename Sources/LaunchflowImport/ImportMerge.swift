import LaunchflowCore

/// Several traces of the same launch → one set of tasks: the cost is the
/// median over the traces and `costP90` their 90th percentile, so `sweep`
/// can replay the variation at once.
///
/// - The percentiles interpolate between ranks (``Percentile/interpolated(_:ofSorted:)``,
///   as numpy and Macrobenchmark compute them): the median of 4 values is the
///   mean of the middle two, the p90 of 5 values lies 60% of the way from the
///   4th to the 5th.
/// - A task missing from some traces takes its statistics over the traces
///   that have it (with a warning); with one trace it gets no `costP90`.
/// - `mainThreadOnly` holds when the task ran only on the main thread in every
///   trace; the dependencies are the union of every trace's (in the first
///   trace's order).
/// - Pre-main phases take the median.
/// - MetricKit runs already carry a distribution (histogram median and p90).
/// - (v2, launchflow traces) `latency` is the median as well, with
///   `latencyP90` over several traces; `delay` is the largest applied (a
///   strategy that ignores delays applies none); the other keys, and the
///   inputs, come from the first trace that has them.
struct MergedImport {
    struct Task {
        var id: String
        var cost: Nanos
        var p90: Nanos?
        var onMain: Bool?
        var dependsOn: [String]
        var priority: Int?
        var firstFrame: Bool?
        /// In how many runs the task appears.
        var runs: Int
        /// (v2) launchflow traces only.
        var v2: ImportedTask.V2? = nil
        var latencyP90: Nanos? = nil
        /// (§3.13) What every trace says of its QoS (one value, or nothing).
        var qos: QualityOfService? = nil
    }

    var tasks: [Task] = []
    var preMain: [ImportedPhase] = []
    /// (§3.12) The launch phases (their median costs) and `startsIn`, of the first run that has them.
    var launchPhases: [ImportedPhase] = []
    var startsIn: String?
    var inputs: [ImportedInput] = []
    var runs: [ImportedRun]
    /// Threads that ran tasks (the most in one trace), or the trace's cores.
    var cores: Int?
    /// The device a launchflow trace declares (the first one that does).
    var device: Device?
    /// The strategy launchflow traces ran (`"strategy"` of the scenario), when they all say one and agree.
    var strategy: Strategy?
    /// `device.cpus`: the CPU count the traces record (all that record one agree), and where.
    var cpus: (count: Int, source: String)?
    var unmatched: [UnmatchedSlice] = []

    /// Each phase's median cost over the runs that have it, in the order of first appearance.
    static func medianPhases(_ runs: [[ImportedPhase]]) -> [ImportedPhase] {
        var order: [String] = []
        var costs: [String: [Nanos]] = [:]
        for phases in runs {
            for phase in phases {
                if costs[phase.name] == nil { order.append(phase.name) }
                costs[phase.name, default: []].append(phase.cost)
            }
        }
        return order.map { ImportedPhase(name: $0, cost: Percentile.interpolated(50, ofSorted: costs[$0]!.sorted())) }
    }

    init(_ runs: [ImportedRun], log: inout ImportLog) {
        self.runs = runs
        var order: [String] = []
        var samples: [String: [ImportedTask]] = [:]
        for run in runs {
            for task in run.tasks {
                if samples[task.id] == nil { order.append(task.id) }
                samples[task.id, default: []].append(task)
            }
        }
        let several = runs.count > 1
        for id in order {
            let seen = samples[id]!
            let costs = seen.map(\.cost).sorted()
            var task = Task(
                id: id, cost: costs[0], p90: seen.count == 1 ? seen[0].p90 : nil,
                onMain: seen.contains { $0.onMain == nil } ? nil : seen.allSatisfy { $0.onMain == true },
                dependsOn: [], priority: seen[0].priority, firstFrame: seen[0].firstFrame, runs: seen.count)
            if costs.count > 1 {
                task.cost = Percentile.interpolated(50, ofSorted: costs)
                task.p90 = Percentile.interpolated(90, ofSorted: costs)
            }
            let declared = seen.compactMap(\.v2)
            if var v2 = declared.first {
                let latencies = declared.map(\.latency).sorted()
                if latencies.count > 1 {
                    v2.latency = Percentile.interpolated(50, ofSorted: latencies)
                    if latencies.last! > 0 { task.latencyP90 = Percentile.interpolated(90, ofSorted: latencies) }
                }
                v2.delay = declared.map(\.delay).max()!
                task.v2 = v2
            }
            task.qos = Self.qos(of: id, seen, several: several, file: runs[0].file, log: &log)
            if several && seen.count < runs.count {
                log.warning(
                    runs[0].file,
                    "task '\(id)' is in \(seen.count) of the \(runs.count) traces; its cost is over those \(seen.count)\(seen.count == 1 ? " (no costP90)" : "")"
                )
            }
            tasks.append(task)
        }
        for (k, task) in tasks.enumerated() {
            var union: [String] = []  // the first trace's order, then what later traces add
            var seen = Set<String>()
            for sample in samples[task.id]! {
                for id in sample.dependsOn where seen.insert(id).inserted { union.append(id) }
            }
            tasks[k].dependsOn = union
        }

        inputs = runs.first { !$0.inputs.isEmpty }?.inputs ?? []

        preMain = Self.medianPhases(runs.map(\.preMain))
        // The launch phases of the recordings that have them, as the first one names them.
        if let first = runs.first(where: { !$0.launchPhases.isEmpty }) {
            let names = Set(first.launchPhases.map(\.name))
            launchPhases = Self.medianPhases(
                runs.map { run in run.launchPhases.filter { names.contains($0.name) } })
            startsIn = first.startsIn
        }

        device = runs.compactMap(\.device).first
        let strategies = runs.compactMap { run in run.strategy.map { (run.file, $0) } }
        if Set(strategies.map(\.1)).count > 1 {
            let list = strategies.map { "\($0.0): \($0.1.rawValue)" }.joined(separator: ", ")
            log.warning(runs[0].file, "the traces ran different strategies (\(list)); the scenario names none")
        } else {
            strategy = strategies.first?.1
        }
        let declared = device?.cores ?? runs.compactMap(\.cores).max()
        let used = runs.compactMap(\.threadsWithTasks).max()
        cores = declared ?? used.map { min(max($0, 2), 1024) }

        let recorded = runs.compactMap { run in run.cpus.map { (run.file, $0) } }
        if Set(recorded.map(\.1.count)).count > 1 {
            let list = recorded.map { "\($0.0): \($0.1.count)" }.joined(separator: ", ")
            log.warning(
                runs[0].file,
                "the traces record different CPU counts (\(list)): device.cpus not set; set it in the scenario")
        } else if let (file, first) = recorded.first {
            let source = "\(first.source) of \(recorded.count > 1 ? "each trace" : file)"
            cpus = (first.count, source)
        }

        var unmatchedOrder: [String] = []
        var unmatchedSums: [String: UnmatchedSlice] = [:]
        for run in runs {
            for slice in run.unmatched {
                if unmatchedSums[slice.name] == nil {
                    unmatchedOrder.append(slice.name)
                    unmatchedSums[slice.name] = UnmatchedSlice(name: slice.name, count: 0, total: 0)
                }
                unmatchedSums[slice.name]!.count += slice.count
                unmatchedSums[slice.name]!.total = unmatchedSums[slice.name]!.total.addingSaturated(slice.total)
            }
        }
        unmatched = unmatchedOrder.map { unmatchedSums[$0]! }
    }
}

/// Percentiles of samples.
public enum Percentile {
    /// The `p`-th percentile (0 ≤ p ≤ 100) of ascending `sorted`, interpolated
    /// linearly between ranks (numpy's default, R's type 7, Macrobenchmark's
    /// `getPercentile`): at index `p/100 · (n − 1)`. Exact on integers, rounded
    /// half away from zero. 0 when empty.
    ///
    /// ```swift
    /// Percentile.interpolated(50, ofSorted: [10, 20, 30, 40])   // 25
    /// Percentile.interpolated(90, ofSorted: [1, 2, 3, 4, 5])    // 5 (4.6 rounded)
    /// ```
    public static func interpolated(_ p: Int, ofSorted sorted: [Int64]) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let position = (sorted.count - 1) * p
        let index = position / 100
        let remainder = Int64(position % 100)
        guard remainder != 0, index + 1 < sorted.count else { return sorted[index] }
        let step = (sorted[index + 1] - sorted[index]) * remainder
        return sorted[index] + (step >= 0 ? (step + 50) / 100 : -((-step + 50) / 100))
    }

    /// As ``interpolated(_:ofSorted:)`` for doubles, without rounding.
    public static func interpolated(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = Double(sorted.count - 1) * p / 100
        let index = Int(position.rounded(.down))
        guard index + 1 < sorted.count else { return sorted[sorted.count - 1] }
        return sorted[index] + (sorted[index + 1] - sorted[index]) * (position - Double(index))
    }
}

extension MergedImport {
    /// (§3.13) The task's QoS where every slice of it says one and the same
    /// (``QoSReading``): a suggestion, never a guess; slices that disagree, a note.
    fileprivate static func qos(
        of id: String, _ seen: [ImportedTask], several: Bool, file: String, log: inout ImportLog
    ) -> QualityOfService? {
        let reading = seen.dropFirst().reduce(seen[0].qos) { $0.with($1.qos) }
        if reading == .ambiguous {
            let scope = several ? "over the traces" : "in the trace"
            log.note(file, "task '\(id)': its slices do not all say one qos (\(scope)): none is suggested")
        }
        return reading.value
    }
}
