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
        // (§3.10) With shared CPUs an item may take longer than its cost: the
        // main thread's busy time is its wall time on its items, the work
        // done (CPU utilisation's numerator) their costs. Without, the two agree.
        let device = scenario.device
        let stretched = device.stretchesWork
        var mainTaskTime: Micros = 0
        var totalCost: Micros = 0
        var mainOnlyCost: Micros = 0
        for i in taskSpecs.indices {
            let cost = costs[i]
            if tasks[i].isOnMain { mainTaskTime += stretched ? tasks[i].end - tasks[i].start : cost }
            totalCost += cost
            if taskSpecs[i].mainThreadOnly { mainOnlyCost += cost }
        }
        // (§3.12) The launch phases: their work, their wall time on the main
        // thread, and A, the work of those after the `startsIn` phase (on the
        // main thread between dFL's return and the first commit).
        var phaseCost: Micros = 0
        var phaseTime: Micros = 0
        var phasesAfterStart: Micros = 0
        let startPhase = scenario.startPhase ?? Int.max
        for (k, phase) in scenario.launchPhases.enumerated() {
            phaseCost += phase.cost
            phaseTime += stretched ? launchPhases[k].costEnd - launchPhases[k].start : phase.cost
            if k > startPhase { phasesAfterStart += phase.cost }
        }
        let t1 = self.t1
        let inputCost = scenario.inputs.reduce(0) { $0 + $1.cost }
        let inputTime = stretched ? inputs.reduce(0) { $0 + $1.end - $1.start } : inputCost
        var inputLatency: Micros = 0
        for input in inputs { inputLatency = max(inputLatency, input.wait) }
        let commitTime = commits.reduce(0) { $0 + $1.end - $1.start }
        let launchComplete = milestones.launchComplete
        var maxInputDelay: Micros = 0
        for commit in commits.dropFirst(firstFrameIteration + 1) {
            maxInputDelay = max(maxInputDelay, commit.end - commit.iterationStart)
        }
        // The CPUs the threads have: min(cores, cpus).
        let cores = device.cpuCount
        let work = t0 + phaseCost + totalCost + inputCost + commits.count * device.commitCost
        let end = max(launchComplete, commits.last?.end ?? 0)
        // (§3.13) With clusters the capacity K is a fraction (thousandths).
        let capacity = device.capacityThousandths
        let utilization =
            end == 0
            ? 0
            : device.hasClusters
                ? Double(work) * 1000 / (Double(capacity) * Double(end)) : Double(work) / (Double(cores) * Double(end))
        let longest =
            (criticalPath ?? CriticalPath(graph: TaskGraph(tasks: taskSpecs), cost: costs, latency: latencies))
            .length
        let perCore = (totalCost * 1000 + capacity - 1) / capacity
        let bounds =
            bounds
            ?? LaunchBounds(tasks: taskSpecs, graph: TaskGraph(tasks: taskSpecs), cost: costs, latency: latencies)
        return Metrics(
            timeToFirstFrame: milestones.timeToFirstFrame,
            firstFrameReady: milestones.firstFrameReady,
            firstDraw: commits[0].end,
            prewarmedFirstDraw: commits[0].end - t0,
            timeToFullDisplay: milestones.timeToFullDisplay,
            launchComplete: launchComplete,
            mainThreadBusy: t0 + phaseTime + mainTaskTime + inputTime + commitTime,
            mainThreadBlocked: blocked.reduce(0) { $0 + $1.duration },
            cpuUtilization: utilization,
            frames: commits.count,
            maxInputDelay: maxInputDelay,
            inputLatencyMax: inputLatency,
            criticalPath: t1 + longest,
            lowerBound: t1 + max(longest, phasesAfterStart + mainOnlyCost, perCore, bounds.longestQueue),
            firstFrameBound: bounds.firstFrameBound(t1: t1, mainBefore: phasesAfterStart, device: scenario.device),
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

    /// The first vsync at or after t1 + max(path, A + main-thread cost) + a
    /// commit + the render time, A the launch phases' work after the
    /// `startsIn` phase (§3.12; t1 = t0 and A = 0 without phases).
    func firstFrameBound(t1: Micros, mainBefore: Micros, device: Device) -> Micros {
        let ready =
            t1 + max(firstFramePath, mainBefore + firstFrameMainCost) + device.commitCost + device.renderTime
        let frame = device.frameInterval
        return (ready + frame - 1) / frame * frame
    }
}
