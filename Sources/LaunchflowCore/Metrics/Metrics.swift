/// The metrics of MODEL.md §5, by their names in JSON and in `budgets`, in
/// output order. Everything about a metric — label, unit, kind, direction,
/// where its value lives — is its entry in ``Metric/info``.
public enum Metric: String, CaseIterable, Sendable, Codable {
    case timeToFirstFrameMs, launchCompleteMs, mainThreadBusyMs, mainThreadBlockedMs, cpuUtilization
    case frames, maxInputDelayMs, inputLatencyMaxMs, criticalPathMs, lowerBoundMs, dependencyViolations

    /// Which way is better, for marking the best strategy and for regressions.
    public enum Direction: Sendable { case lowerIsBetter, higherIsBetter, neither }

    /// What a metric's value is, and where ``Metrics`` keeps it.
    public enum Value: Sendable {
        /// A time, in µs (reported in ms).
        case time(KeyPath<Metrics, Micros> & Sendable)
        case count(KeyPath<Metrics, Int> & Sendable)
        /// A fraction in 0…1.
        case ratio(KeyPath<Metrics, Double> & Sendable)
    }

    /// One row of the metric table.
    public struct Info: Sendable {
        /// A short label for tables.
        public let label: String
        /// The unit shown after the label: `ms`, `%` or none.
        public let unit: String
        public let direction: Direction
        public let value: Value
    }

    /// The metric table. Lower is better for times and violations; higher CPU
    /// utilisation means more of the device was used; frames, the critical
    /// path and the lower bound are facts about the scenario or the run, not goals.
    public var info: Info {
        switch self {
        case .timeToFirstFrameMs:
            Info(label: "time to first frame", unit: "ms", direction: .lowerIsBetter, value: .time(\.timeToFirstFrame))
        case .launchCompleteMs:
            Info(label: "launch complete", unit: "ms", direction: .lowerIsBetter, value: .time(\.launchComplete))
        case .mainThreadBusyMs:
            Info(label: "main thread busy", unit: "ms", direction: .lowerIsBetter, value: .time(\.mainThreadBusy))
        case .mainThreadBlockedMs:
            Info(label: "main thread blocked", unit: "ms", direction: .lowerIsBetter, value: .time(\.mainThreadBlocked))
        case .cpuUtilization:
            Info(label: "CPU utilisation", unit: "%", direction: .higherIsBetter, value: .ratio(\.cpuUtilization))
        case .frames: Info(label: "frames", unit: "", direction: .neither, value: .count(\.frames))
        case .maxInputDelayMs:
            Info(label: "max input delay", unit: "ms", direction: .lowerIsBetter, value: .time(\.maxInputDelay))
        case .inputLatencyMaxMs:
            Info(label: "input latency", unit: "ms", direction: .lowerIsBetter, value: .time(\.inputLatencyMax))
        case .criticalPathMs:
            Info(label: "critical path", unit: "ms", direction: .neither, value: .time(\.criticalPath))
        case .lowerBoundMs: Info(label: "lower bound", unit: "ms", direction: .neither, value: .time(\.lowerBound))
        case .dependencyViolations:
            Info(
                label: "dependency violations", unit: "", direction: .lowerIsBetter,
                value: .count(\.dependencyViolations))
        }
    }

    public var label: String { info.label }
    public var direction: Direction { info.direction }

    /// Whether the value is a time (µs inside, milliseconds outside).
    public var isTime: Bool {
        if case .time = info.value { return true }
        return false
    }
}

/// A dependency violation: `task` started before its dependency was done.
public struct Violation: Sendable, Equatable {
    public var task: Int
    public var dependency: Int
    public var start: Micros
    /// When the dependency was done (its end plus latency).
    public var dependencyEnd: Micros
}

/// The metrics of one schedule, times in microseconds.
public struct Metrics: Sendable, Equatable {
    public var timeToFirstFrame: Micros
    public var launchComplete: Micros
    public var mainThreadBusy: Micros
    public var mainThreadBlocked: Micros
    public var cpuUtilization: Double
    public var frames: Int
    public var maxInputDelay: Micros
    /// (v2) The longest time an input was pending.
    public var inputLatencyMax: Micros
    public var criticalPath: Micros
    public var lowerBound: Micros
    public var dependencyViolations: Int
    /// The index of the first-frame commit.
    public var firstFrameIteration: Int

    /// The value as reported (milliseconds for times).
    public func value(_ metric: Metric) -> Double {
        switch metric.info.value {
        case .time(let path): ms(self[keyPath: path])
        case .count(let path): Double(self[keyPath: path])
        case .ratio(let path): self[keyPath: path]
        }
    }

    private func ms(_ micros: Micros) -> Double { Double(micros) / 1000 }
}

/// The longest path through `dependsOn`, a task weighing its cost plus its
/// latency, with the path itself.
public struct CriticalPath: Sendable, Equatable {
    /// The path's length in microseconds (without pre-main).
    public var length: Micros
    /// Task indices along the path, dependencies first.
    public var tasks: [Int]

    /// The critical path of `scenario`; among equally long paths, the one that
    /// ends at the lowest index and, going back, takes the first dependency
    /// (in `dependsOn` order) of those that end latest.
    ///
    /// - Complexity: O(n + e).
    public init(of scenario: Scenario) {
        self.init(
            graph: TaskGraph(tasks: scenario.tasks), cost: scenario.tasks.map(\.cost),
            latency: scenario.tasks.map(\.latency))
    }

    init(graph: TaskGraph, cost: [Micros], latency: [Micros]) {
        guard !cost.isEmpty else {
            self.init(length: 0, tasks: [])
            return
        }
        var finish = [Micros](repeating: 0, count: cost.count)
        var previous = [Int](repeating: -1, count: cost.count)
        let order = graph.topologicalOrder()
        graph.dependencyStart.withUnsafeBufferPointer { start in
            graph.dependencies.withUnsafeBufferPointer { deps in
                finish.withUnsafeMutableBufferPointer { finish in
                    for i in order {
                        var best: Micros = -1
                        for k in Int(start[i])..<Int(start[i + 1]) where finish[Int(deps[k])] > best {
                            best = finish[Int(deps[k])]
                            previous[i] = Int(deps[k])
                        }
                        finish[i] = max(best, 0) + cost[i] + latency[i]
                    }
                }
            }
        }
        var end = 0
        for i in cost.indices where finish[i] > finish[end] { end = i }
        var path = [end]
        while previous[path[path.count - 1]] >= 0 { path.append(previous[path[path.count - 1]]) }
        self.init(length: finish[end], tasks: path.reversed())
    }

    init(length: Micros, tasks: [Int]) {
        self.length = length
        self.tasks = tasks
    }
}

extension Schedule {
    /// Every pair (task X, dependency D) with `start(X) < done(D)`, by X's index,
    /// then D's position in X's `dependsOn`.
    public func violations() -> [Violation] {
        var result: [Violation] = []
        forEachViolation { i, d in
            result.append(Violation(task: i, dependency: d, start: tasks[i].start, dependencyEnd: tasks[d].done))
        }
        return result
    }

    /// The number of ``violations()``, without listing them.
    func violationCount() -> Int {
        var count = 0
        forEachViolation { _, _ in count += 1 }
        return count
    }

    /// Calls `body(X, D)` for each violation, in ``violations()``'s order.
    private func forEachViolation(_ body: (_ task: Int, _ dependency: Int) -> Void) {
        // By index: a loop over the tasks themselves would copy each (its strings retained).
        let specs = scenario.tasks
        for i in specs.indices {
            for d in specs[i].dependsOn where tasks[i].start < tasks[d].done { body(i, d) }
        }
    }

    /// The metrics of MODEL.md §5, computed from the finished schedule.
    ///
    /// - Complexity: O(n + e).
    public func metrics(criticalPath: CriticalPath? = nil) -> Metrics {
        let taskSpecs = scenario.tasks
        let t0 = self.t0
        let milestones = Milestones(
            firstFrameTasks: Milestones.firstFrameTasks(of: taskSpecs), runs: tasks, commits: commits)
        let firstFrameIteration = milestones.firstFrameIteration
        var mainTaskTime: Micros = 0
        var totalCost: Micros = 0
        var mainOnlyCost: Micros = 0
        for i in taskSpecs.indices {
            let cost = costs[i]
            if tasks[i].isOnMain { mainTaskTime += cost }
            totalCost += cost
            if taskSpecs[i].mainThreadOnly { mainOnlyCost += cost }
        }
        let inputTime = scenario.inputs.reduce(0) { $0 + $1.cost }
        var inputLatency: Micros = 0
        for input in inputs { inputLatency = max(inputLatency, input.wait) }
        let commitTime = commits.reduce(0) { $0 + $1.end - $1.start }
        let launchComplete = milestones.launchComplete
        var maxInputDelay: Micros = 0
        for commit in commits.dropFirst(firstFrameIteration + 1) {
            maxInputDelay = max(maxInputDelay, commit.end - commit.iterationStart)
        }
        let cores = scenario.device.cores
        let work = t0 + totalCost + inputTime + commitTime
        let end = max(launchComplete, commits.last?.end ?? 0)
        let utilization = end == 0 ? 0 : Double(work) / (Double(cores) * Double(end))
        let longest =
            (criticalPath ?? CriticalPath(graph: TaskGraph(tasks: scenario.tasks), cost: costs, latency: latencies))
            .length
        let perCore = (totalCost + cores - 1) / cores
        return Metrics(
            timeToFirstFrame: milestones.timeToFirstFrame,
            launchComplete: launchComplete,
            mainThreadBusy: t0 + mainTaskTime + inputTime + commitTime,
            mainThreadBlocked: blocked.reduce(0) { $0 + $1.duration },
            cpuUtilization: utilization,
            frames: commits.count,
            maxInputDelay: maxInputDelay,
            inputLatencyMax: inputLatency,
            criticalPath: t0 + longest,
            lowerBound: t0 + max(longest, mainOnlyCost, perCore),
            dependencyViolations: violationCount(),
            firstFrameIteration: firstFrameIteration)
    }
}

/// The two headline times of MODEL.md §5 and the first-frame iteration, from
/// a finished run: shared by ``Schedule/metrics(criticalPath:)`` and the
/// sweep's fast path, so the two cannot disagree.
struct Milestones {
    /// The iteration whose commit is the first-frame commit: the one in which
    /// the last `firstFrame` task ran (iteration 0 without such a task).
    let firstFrameIteration: Int
    /// When that commit is presented.
    let timeToFirstFrame: Micros
    /// The later of the last task's done time and the end of the last commit
    /// of an iteration that ran `didFinishLaunching` or a task.
    let launchComplete: Micros

    /// - Parameter firstFrameTasks: ``firstFrameTasks(of:)`` (a sweep computes it once).
    /// - Complexity: O(n).
    init(firstFrameTasks: [Int32], runs: [TaskRun], commits: [Commit]) {
        var iteration: Int32 = 0
        var lastDone: Micros = 0
        runs.withUnsafeBufferPointer { runs in
            for task in firstFrameTasks where runs[Int(task)].iteration > iteration {
                iteration = runs[Int(task)].iteration
            }
            for run in runs where run.done > lastDone { lastDone = run.done }
        }
        firstFrameIteration = Int(iteration)
        timeToFirstFrame = commits[Int(iteration)].presented
        let lastWorkCommit = commits.last(where: \.ranWork)?.end ?? 0
        launchComplete = max(lastDone, lastWorkCommit)
    }

    /// The indices of the `firstFrame` tasks, ascending.
    static func firstFrameTasks(of tasks: [LaunchTask]) -> [Int32] {
        tasks.indices.filter { tasks[$0].firstFrame }.map(Int32.init)
    }
}
