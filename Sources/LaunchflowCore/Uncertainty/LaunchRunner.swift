/// The two times a sweep or a what-if needs of a run, in µs.
public struct HeadlineTimes: Sendable, Equatable {
    /// ``Metrics/timeToFirstFrame``.
    public var timeToFirstFrame: Micros
    /// ``Metrics/launchComplete``.
    public var launchComplete: Micros

    public init(timeToFirstFrame: Micros, launchComplete: Micros) {
        self.timeToFirstFrame = timeToFirstFrame
        self.launchComplete = launchComplete
    }
}

/// Runs one prepared scenario many times with other costs, measuring only
/// the time to first frame and launch completion — the hot loop of `sweep`
/// and `whatif`. One runner per thread.
///
/// Equal, by definition and by test (`SweepTests`), to
/// `engine.metrics(strategy, costs:options:)`'s two fields.
public struct LaunchRunner {
    let prepared: PreparedScenario
    // The policies before a run, built once: they depend on the graph and the
    // tiers, not on costs. Each run starts from a copy.
    private let serial: SerialPolicy
    private let priority: PriorityPolicy
    private let dag: DAGPolicy
    /// The arrays of the last run, reused by the next.
    private var buffers = SimulatorBuffers()

    init(_ prepared: PreparedScenario) {
        self.prepared = prepared
        serial = SerialPolicy(graph: prepared.graph, ranking: prepared.ranking)
        priority = PriorityPolicy(tasks: prepared.scenario.tasks, ranking: prepared.ranking)
        dag = DAGPolicy(graph: prepared.graph)
    }

    /// The time to first frame and launch completion of one run; `costs` are µs per task.
    ///
    /// - Complexity: that of one simulation, O((n + e) log n).
    public mutating func headlineTimes(_ strategy: Strategy, costs: [Micros], options: SimulationOptions = .init())
        -> HeadlineTimes
    {
        // As `simulate(_:strategy:options:costs:)` runs the engine, without building a Schedule.
        let scenario = prepared.scenario
        let workers = scenario.device.workerCount
        let maxConcurrent = strategy == .dag ? min(options.maxConcurrent ?? workers, workers) : workers
        func run<P: LaunchPolicy>(_ policy: P) -> HeadlineTimes {
            var simulator = Simulator(
                scenario: scenario, mainOnly: prepared.mainOnly, cost: costs, ranking: prepared.ranking, policy: policy,
                maxConcurrent: maxConcurrent, buffers: SimulatorBuffers.take(from: &buffers))
            let times: HeadlineTimes = {
                let result = simulator.run(from: scenario.preMainTotal)
                return HeadlineTimes(tasks: scenario.tasks, runs: result.tasks, commits: result.commits)
            }()
            // The run's arrays go to the next run; nothing else holds them now.
            buffers = simulator.takeBuffers()
            return times
        }
        switch strategy {
        case .serial: return run(serial)
        case .priority: return run(priority)
        case .dag, .anchored: return run(dag)
        }
    }
}

extension HeadlineTimes {
    /// The two times of MODEL.md §5 from a finished run, as
    /// ``Schedule/metrics(criticalPath:)`` computes them (without the rest).
    init(tasks: [LaunchTask], runs: [TaskRun], commits: [Commit]) {
        let milestones = Milestones(tasks: tasks, runs: runs, commits: commits)
        self.init(timeToFirstFrame: milestones.timeToFirstFrame, launchComplete: milestones.launchComplete)
    }
}

extension LaunchEngine {
    /// A runner for this scenario (one per thread).
    public func makeRunner() -> LaunchRunner { LaunchRunner(prepared) }
}
