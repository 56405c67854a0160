/// The times a sweep or a what-if needs of a run, in µs.
public struct HeadlineTimes: Sendable, Equatable {
    /// ``Metrics/timeToFirstFrame``.
    public var timeToFirstFrame: Micros
    /// ``Metrics/launchComplete``.
    public var launchComplete: Micros
    /// (v2.1) ``Metrics/firstFrameReady``.
    public var firstFrameReady: Micros
    /// (v2.1) ``Metrics/timeToFullDisplay``.
    public var timeToFullDisplay: Micros

    public init(
        timeToFirstFrame: Micros, launchComplete: Micros, firstFrameReady: Micros? = nil,
        timeToFullDisplay: Micros? = nil
    ) {
        self.timeToFirstFrame = timeToFirstFrame
        self.launchComplete = launchComplete
        self.firstFrameReady = firstFrameReady ?? timeToFirstFrame
        self.timeToFullDisplay = timeToFullDisplay ?? timeToFirstFrame
    }
}

/// Runs one prepared scenario many times with other costs (and latencies),
/// measuring only the time to first frame and launch completion — the hot
/// loop of `sweep` and `whatif`. One runner per thread.
///
/// Equal, by definition and by test (`SweepTests`), to
/// `engine.metrics(strategy, costs:options:)`'s two fields: both run
/// ``Strategy/execute(_:_:_:_:)`` on the same plan.
public struct LaunchRunner {
    let prepared: PreparedScenario
    /// Each strategy's plan, built on first use: it depends on the graph, the
    /// tiers and the closure, not on costs.
    private var plans: [Strategy: StrategyPlan] = [:]
    /// The arrays of the last run, reused by the next.
    private var buffers = SimulatorBuffers()

    init(_ prepared: PreparedScenario) { self.prepared = prepared }

    /// The time to first frame and launch completion of one run; `costs` and
    /// `latencies` are µs per task (the scenario's latencies when nil).
    ///
    /// - Complexity: that of one simulation, O((n + e) log n).
    public mutating func headlineTimes(
        _ strategy: Strategy, costs: [Micros], latencies: [Micros]? = nil, options: SimulationOptions = .init()
    ) -> HeadlineTimes {
        let definition = strategy.definition
        let plan: StrategyPlan
        if let known = plans[strategy] {
            plan = known
        } else {
            plan = definition.plan(prepared.rules)
            plans[strategy] = plan
        }
        let inputs = prepared.runInputs(definition, options: options, costs: costs, latencies: latencies)
        let outcome = definition.strategy.execute(prepared, plan, inputs, &buffers)
        lastRunBrokeADependency =
            definition.canBreakDependencies && Self.breaksADependency(outcome.tasks, prepared.graph)
        return HeadlineTimes(
            Milestones(
                firstFrameTasks: prepared.firstFrameTasks, fullyDrawnTasks: prepared.fullyDrawnTasks,
                runs: outcome.tasks, commits: outcome.commits, renderTime: prepared.scenario.device.renderTime))
    }

    /// Whether the last run started a task before one of its dependencies
    /// was done (a violation); always false for a strategy that cannot break
    /// dependencies. `sweep` reads it to leave such runs out of the best counts.
    public private(set) var lastRunBrokeADependency = false

    /// - Complexity: O(n + e), stopping at the first violation.
    static func breaksADependency(_ runs: [TaskRun], _ graph: TaskGraph) -> Bool {
        for task in 0..<graph.count {
            let start = runs[task].start
            for k in Int(graph.dependencyStart[task])..<Int(graph.dependencyStart[task + 1])
            where start < runs[Int(graph.dependencies[k])].done {
                return true
            }
        }
        return false
    }
}

extension HeadlineTimes {
    /// The times of MODEL.md §5 from a finished run, as
    /// ``Schedule/metrics(criticalPath:)`` computes them (without the rest).
    init(_ milestones: Milestones) {
        self.init(
            timeToFirstFrame: milestones.timeToFirstFrame, launchComplete: milestones.launchComplete,
            firstFrameReady: milestones.firstFrameReady, timeToFullDisplay: milestones.timeToFullDisplay)
    }
}

extension LaunchEngine {
    /// A runner for this scenario (one per thread).
    public func makeRunner() -> LaunchRunner { LaunchRunner(prepared) }
}
