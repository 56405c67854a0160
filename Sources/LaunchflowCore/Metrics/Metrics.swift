/// The metrics of MODEL.md §5, by their names in JSON and in `budgets`.
public enum Metric: String, CaseIterable, Sendable, Codable {
    case timeToFirstFrameMs, launchCompleteMs, mainThreadBusyMs, mainThreadBlockedMs, cpuUtilization
    case frames, maxInputDelayMs, criticalPathMs, lowerBoundMs, dependencyViolations

    /// A short label for tables.
    public var label: String {
        switch self {
        case .timeToFirstFrameMs: "time to first frame"
        case .launchCompleteMs: "launch complete"
        case .mainThreadBusyMs: "main thread busy"
        case .mainThreadBlockedMs: "main thread blocked"
        case .cpuUtilization: "CPU utilisation"
        case .frames: "frames"
        case .maxInputDelayMs: "max input delay"
        case .criticalPathMs: "critical path"
        case .lowerBoundMs: "lower bound"
        case .dependencyViolations: "dependency violations"
        }
    }

    /// Which way is better, for marking the best strategy and for regressions.
    public enum Direction: Sendable { case lowerIsBetter, higherIsBetter, neither }

    /// Lower is better for times and violations; higher CPU utilisation means
    /// more of the device was used; frames, the critical path and the lower
    /// bound are facts about the scenario or the run, not goals.
    public var direction: Direction {
        switch self {
        case .cpuUtilization: .higherIsBetter
        case .frames, .criticalPathMs, .lowerBoundMs: .neither
        default: .lowerIsBetter
        }
    }

    /// Whether the value is a time in milliseconds.
    public var isTime: Bool { rawValue.hasSuffix("Ms") }
}

/// A dependency violation: `task` started before its dependency ended.
public struct Violation: Sendable, Equatable {
    public var task: Int
    public var dependency: Int
    public var start: Micros
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
    public var criticalPath: Micros
    public var lowerBound: Micros
    public var dependencyViolations: Int
    /// The index of the first-frame commit.
    public var firstFrameIteration: Int

    /// The value as reported (milliseconds for times).
    public func value(_ metric: Metric) -> Double {
        switch metric {
        case .timeToFirstFrameMs: ms(timeToFirstFrame)
        case .launchCompleteMs: ms(launchComplete)
        case .mainThreadBusyMs: ms(mainThreadBusy)
        case .mainThreadBlockedMs: ms(mainThreadBlocked)
        case .cpuUtilization: cpuUtilization
        case .frames: Double(frames)
        case .maxInputDelayMs: ms(maxInputDelay)
        case .criticalPathMs: ms(criticalPath)
        case .lowerBoundMs: ms(lowerBound)
        case .dependencyViolations: Double(dependencyViolations)
        }
    }

    private func ms(_ micros: Micros) -> Double { Double(micros) / 1000 }
}

/// The longest cost-weighted path through `dependsOn`, with the path itself.
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
        self.init(graph: TaskGraph(tasks: scenario.tasks), cost: scenario.tasks.map(\.cost))
    }

    init(graph: TaskGraph, cost: [Micros]) {
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
                        finish[i] = max(best, 0) + cost[i]
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
    /// Every pair (task X, dependency D) with `start(X) < end(D)`, by X's index,
    /// then D's position in X's `dependsOn`.
    public func violations() -> [Violation] {
        var result: [Violation] = []
        for (i, task) in scenario.tasks.enumerated() {
            for d in task.dependsOn where tasks[i].start < tasks[d].end {
                result.append(Violation(task: i, dependency: d, start: tasks[i].start, dependencyEnd: tasks[d].end))
            }
        }
        return result
    }

    /// The metrics of MODEL.md §5, computed from the finished schedule.
    ///
    /// - Complexity: O(n + e).
    public func metrics(criticalPath: CriticalPath? = nil) -> Metrics {
        let taskSpecs = scenario.tasks
        let t0 = self.t0
        let milestones = Milestones(tasks: taskSpecs, runs: tasks, commits: commits)
        let firstFrameIteration = milestones.firstFrameIteration
        var mainTaskTime: Micros = 0
        var totalCost: Micros = 0
        var mainOnlyCost: Micros = 0
        for (i, spec) in taskSpecs.enumerated() {
            let cost = costs[i]
            if tasks[i].isOnMain { mainTaskTime += cost }
            totalCost += cost
            if spec.mainThreadOnly { mainOnlyCost += cost }
        }
        let commitTime = commits.reduce(0) { $0 + $1.end - $1.start }
        let launchComplete = milestones.launchComplete
        var maxInputDelay: Micros = 0
        for commit in commits.dropFirst(firstFrameIteration + 1) {
            maxInputDelay = max(maxInputDelay, commit.end - commit.iterationStart)
        }
        let cores = scenario.device.cores
        let work = t0 + totalCost + commitTime
        let utilization = launchComplete == 0 ? 0 : Double(work) / (Double(cores) * Double(launchComplete))
        let longest = (criticalPath ?? CriticalPath(graph: TaskGraph(tasks: scenario.tasks), cost: costs)).length
        let perCore = (totalCost + cores - 1) / cores
        return Metrics(
            timeToFirstFrame: milestones.timeToFirstFrame,
            launchComplete: launchComplete,
            mainThreadBusy: t0 + mainTaskTime + commitTime,
            mainThreadBlocked: blocked.reduce(0) { $0 + $1.duration },
            cpuUtilization: utilization,
            frames: commits.count,
            maxInputDelay: maxInputDelay,
            criticalPath: t0 + longest,
            lowerBound: t0 + max(longest, mainOnlyCost, perCore),
            dependencyViolations: violations().count,
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
    /// The later of the last task end and the last commit end.
    let launchComplete: Micros

    /// - Complexity: O(n).
    init(tasks: [LaunchTask], runs: [TaskRun], commits: [Commit]) {
        var iteration: Int32 = 0
        var lastEnd: Micros = 0
        tasks.withUnsafeBufferPointer { tasks in
            runs.withUnsafeBufferPointer { runs in
                for i in 0..<runs.count {
                    if tasks[i].firstFrame, runs[i].iteration > iteration { iteration = runs[i].iteration }
                    if runs[i].end > lastEnd { lastEnd = runs[i].end }
                }
            }
        }
        firstFrameIteration = Int(iteration)
        timeToFirstFrame = commits[Int(iteration)].presented
        launchComplete = max(lastEnd, commits.last?.end ?? 0)
    }
}
