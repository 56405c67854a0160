/// The metrics of MODEL.md §5, by their names in JSON and in `budgets`, in
/// output order. Everything about a metric — label, unit, kind, direction,
/// where its value lives — is its entry in ``Metric/info``.
public enum Metric: String, CaseIterable, Sendable, Codable {
    case timeToFirstFrameMs, firstFrameReadyMs, timeToFullDisplayMs, launchCompleteMs, mainThreadBusyMs
    case mainThreadBlockedMs, cpuUtilization, frames, maxInputDelayMs, inputLatencyMaxMs, criticalPathMs, lowerBoundMs
    case firstFrameBoundMs, dependencyViolations

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
        /// What a budget on the metric limits, one sentence (the JSON Schema's description).
        public var budgetDoc: String { metric.budgetDoc }
        /// (v2.1) Whether the value counts work a strategy may defer: launch
        /// completion, CPU utilisation and frames. A strategy that runs
        /// delayed, idle and after-first-frame work inline (`serial`) does
        /// other work at other moments, so it is not compared on these when
        /// the scenario defers work.
        public var countsDeferredWork: Bool {
            metric == .launchCompleteMs || metric == .cpuUtilization || metric == .frames
        }
        fileprivate var metric: Metric = .frames
    }

    /// The metric table. Lower is better for times and violations; higher CPU
    /// utilisation means more of the device was used; frames, the critical
    /// path and the lower bound are facts about the scenario or the run, not goals.
    public var info: Info {
        var info = baseInfo
        info.metric = self
        return info
    }

    private var baseInfo: Info {
        switch self {
        case .timeToFirstFrameMs:
            Info(label: "time to first frame", unit: "ms", direction: .lowerIsBetter, value: .time(\.timeToFirstFrame))
        case .firstFrameReadyMs:
            Info(
                label: "first frame before vsync", unit: "ms", direction: .lowerIsBetter,
                value: .time(\.firstFrameReady))
        case .timeToFullDisplayMs:
            Info(
                label: "time to full display", unit: "ms", direction: .lowerIsBetter, value: .time(\.timeToFullDisplay))
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
        case .firstFrameBoundMs:
            Info(label: "first-frame bound", unit: "ms", direction: .neither, value: .time(\.firstFrameBound))
        case .dependencyViolations:
            Info(
                label: "dependency violations", unit: "", direction: .lowerIsBetter,
                value: .count(\.dependencyViolations))
        }
    }

    /// What a budget on the metric limits, one sentence (the JSON Schema's description).
    fileprivate var budgetDoc: String {
        switch self {
        case .timeToFirstFrameMs: "Most time (ms) until the first meaningful frame is presented."
        case .firstFrameReadyMs:
            "Most time (ms) until the first frame is ready, before vsync rounding (its commit's end plus the render time)."
        case .timeToFullDisplayMs:
            "Most time (ms) until the launch's content is complete: the frame after the last fullyDrawn task (the first frame without one)."
        case .launchCompleteMs: "Most time (ms) until the last task and the last commit have ended."
        case .mainThreadBusyMs: "Most main-thread time (ms): pre-main, main-thread tasks, input handlers and commits."
        case .mainThreadBlockedMs: "Most time (ms) the main thread may wait blocked in didFinishLaunching."
        case .cpuUtilization: "Least fraction (0–1) of all cores' time used until launch completes."
        case .frames: "Most commits (frames) during the launch."
        case .maxInputDelayMs: "Longest run-loop iteration (ms) after the first frame: how long an input may wait."
        case .inputLatencyMaxMs: "Longest time (ms) an input waited for its handler."
        case .criticalPathMs: "Most pre-main time plus the longest dependency path (ms)."
        case .lowerBoundMs:
            "Most for the bound (ms) below which no dependency-respecting schedule can finish its tasks."
        case .firstFrameBoundMs:
            "Most for the bound (ms) below which no dependency-respecting schedule can present its first frame."
        case .dependencyViolations: "Most tasks-started-before-their-dependency-was-done pairs."
        }
    }

    public var label: String { info.label }
    public var direction: Direction { info.direction }

    /// Whether the value is a time (µs inside, milliseconds outside).
    public var isTime: Bool {
        if case .time = info.value { return true }
        return false
    }

    /// Whether the value is a fraction in 0…1 (shown as a percentage; a budget may be written `40%`).
    public var isRatio: Bool {
        if case .ratio = info.value { return true }
        return false
    }

    /// Whether the value is a whole count (frames, violations).
    public var isCount: Bool {
        if case .count = info.value { return true }
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
    /// (v2.1) The first-frame commit's end plus the render time: the first
    /// frame before vsync rounding.
    public var firstFrameReady: Micros
    /// (v2.1) When the launch's content is complete (the `fullyDrawn` tasks).
    public var timeToFullDisplay: Micros
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
    /// (v2.1) No dependency-respecting schedule presents its first frame earlier.
    public var firstFrameBound: Micros
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
        metrics(criticalPath: criticalPath, bounds: nil)
    }

    /// - Parameter bounds: the scenario's ``LaunchBounds`` for these costs, when the caller has them.
    func metrics(criticalPath: CriticalPath?, bounds: LaunchBounds?) -> Metrics {
        let taskSpecs = scenario.tasks
        let t0 = self.t0
        let milestones = Milestones(
            firstFrameTasks: Milestones.firstFrameTasks(of: taskSpecs),
            fullyDrawnTasks: Milestones.fullyDrawnTasks(of: taskSpecs), runs: tasks, commits: commits,
            renderTime: scenario.device.renderTime)
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
            (criticalPath ?? CriticalPath(graph: TaskGraph(tasks: taskSpecs), cost: costs, latency: latencies))
            .length
        let perCore = (totalCost + cores - 1) / cores
        let bounds =
            bounds
            ?? LaunchBounds(tasks: taskSpecs, graph: TaskGraph(tasks: taskSpecs), cost: costs, latency: latencies)
        return Metrics(
            timeToFirstFrame: milestones.timeToFirstFrame,
            firstFrameReady: milestones.firstFrameReady,
            timeToFullDisplay: milestones.timeToFullDisplay,
            launchComplete: launchComplete,
            mainThreadBusy: t0 + mainTaskTime + inputTime + commitTime,
            mainThreadBlocked: blocked.reduce(0) { $0 + $1.duration },
            cpuUtilization: utilization,
            frames: commits.count,
            maxInputDelay: maxInputDelay,
            inputLatencyMax: inputLatency,
            criticalPath: t0 + longest,
            lowerBound: t0 + max(longest, mainOnlyCost, perCore, bounds.longestQueue),
            firstFrameBound: bounds.firstFrameBound(t0: t0, device: scenario.device),
            dependencyViolations: violationCount(),
            firstFrameIteration: firstFrameIteration)
    }
}

/// The headline times of MODEL.md §5 and the first-frame iteration, from a
/// finished run: shared by ``Schedule/metrics(criticalPath:)`` and the
/// sweep's fast path, so the two cannot disagree.
struct Milestones {
    /// The iteration whose commit is the first-frame commit: the one in which
    /// the last `firstFrame` task ran (iteration 0 without such a task).
    let firstFrameIteration: Int
    /// When that commit is presented.
    let timeToFirstFrame: Micros
    /// (v2.1) That commit's end plus the render time (before vsync rounding).
    let firstFrameReady: Micros
    /// (v2.1) When the commit of the iteration in which the last `fullyDrawn`
    /// task ran is presented, or the first frame if that is later.
    let timeToFullDisplay: Micros
    /// The later of the last task's done time and the end of the last commit
    /// of an iteration that ran `didFinishLaunching` or a task.
    let launchComplete: Micros

    /// - Parameters:
    ///   - firstFrameTasks: ``firstFrameTasks(of:)`` (a sweep computes it once).
    ///   - fullyDrawnTasks: ``fullyDrawnTasks(of:)``.
    /// - Complexity: O(n).
    init(
        firstFrameTasks: [Int32], fullyDrawnTasks: [Int32], runs: [TaskRun], commits: [Commit], renderTime: Micros
    ) {
        var iteration: Int32 = 0
        var fullyDrawn: Int32 = -1
        var lastDone: Micros = 0
        runs.withUnsafeBufferPointer { runs in
            for task in firstFrameTasks where runs[Int(task)].iteration > iteration {
                iteration = runs[Int(task)].iteration
            }
            for task in fullyDrawnTasks where runs[Int(task)].iteration > fullyDrawn {
                fullyDrawn = runs[Int(task)].iteration
            }
            for run in runs where run.done > lastDone { lastDone = run.done }
        }
        firstFrameIteration = Int(iteration)
        timeToFirstFrame = commits[Int(iteration)].presented
        firstFrameReady = commits[Int(iteration)].end + renderTime
        timeToFullDisplay =
            fullyDrawn < 0 ? timeToFirstFrame : max(commits[Int(fullyDrawn)].presented, timeToFirstFrame)
        let lastWorkCommit = commits.last(where: \.ranWork)?.end ?? 0
        launchComplete = max(lastDone, lastWorkCommit)
    }

    /// The indices of the `firstFrame` tasks, ascending.
    static func firstFrameTasks(of tasks: [LaunchTask]) -> [Int32] {
        tasks.indices.filter { tasks[$0].firstFrame }.map(Int32.init)
    }

    /// (v2.1) The indices of the `fullyDrawn` tasks, ascending.
    static func fullyDrawnTasks(of tasks: [LaunchTask]) -> [Int32] {
        tasks.indices.filter { tasks[$0].fullyDrawn }.map(Int32.init)
    }
}

/// (v2.1) The parts of the lower bounds of MODEL.md §5 that are not the
/// critical path: the first frame's bound, and the queues' term of the
/// launch's.
struct LaunchBounds {
    /// The longest path through `dependsOn` that ends at a `firstFrame` task
    /// (the last task weighing its cost, every other its cost + latency), µs.
    let firstFramePath: Micros
    /// The total cost of the `mainThreadOnly` tasks among the `firstFrame`
    /// tasks and every task they depend on, µs.
    let firstFrameMainCost: Micros
    /// The largest sum of `cost` + `latency` over the tasks of one `queue`, µs.
    let longestQueue: Micros

    /// - Parameters:
    ///   - queueOf: each task's queue number (−1: none), as `PreparedScenario` numbers them.
    /// - Complexity: O(n + e), with one pass in topological order only when
    ///   there are `firstFrame` tasks.
    init(
        tasks: [LaunchTask], graph: TaskGraph, cost: [Micros], latency: [Micros], queueOf: [Int32], queueCount: Int
    ) {
        var path: Micros = 0
        var mainCost: Micros = 0
        let firstFrames = tasks.indices.filter { tasks[$0].firstFrame }
        if !firstFrames.isEmpty {
            // Every task a firstFrame task needs, the firstFrame tasks included.
            let needed = graph.dependencyClosure(of: firstFrames)
            // The longest path ending at a firstFrame task passes through needed tasks only.
            var finish = [Micros](repeating: 0, count: tasks.count)
            for i in graph.topologicalOrder() where needed[i] {
                var best: Micros = 0
                for k in Int(graph.dependencyStart[i])..<Int(graph.dependencyStart[i + 1]) {
                    best = max(best, finish[Int(graph.dependencies[k])])
                }
                finish[i] = best + cost[i] + latency[i]
                if tasks[i].firstFrame { path = max(path, best + cost[i]) }
                if tasks[i].mainThreadOnly { mainCost += cost[i] }
            }
        }
        firstFramePath = path
        firstFrameMainCost = mainCost
        var queueTotals = [Micros](repeating: 0, count: queueCount)
        if queueCount > 0 {
            for i in tasks.indices where queueOf[i] >= 0 { queueTotals[Int(queueOf[i])] += cost[i] + latency[i] }
        }
        longestQueue = queueTotals.max() ?? 0
    }

    /// The bounds of `tasks` with queues numbered here (a schedule measured on its own).
    init(tasks: [LaunchTask], graph: TaskGraph, cost: [Micros], latency: [Micros]) {
        var numbers: [String: Int32] = [:]
        let queueOf = tasks.map { task -> Int32 in
            guard let name = task.queue else { return -1 }
            if let k = numbers[name] { return k }
            let k = Int32(numbers.count)
            numbers[name] = k
            return k
        }
        self.init(tasks: tasks, graph: graph, cost: cost, latency: latency, queueOf: queueOf, queueCount: numbers.count)
    }

    /// The first vsync at or after t0 + max(path, main-thread cost) + a
    /// commit + the render time.
    func firstFrameBound(t0: Micros, device: Device) -> Micros {
        let ready = t0 + max(firstFramePath, firstFrameMainCost) + device.commitCost + device.renderTime
        let frame = device.frameInterval
        return (ready + frame - 1) / frame * frame
    }
}
