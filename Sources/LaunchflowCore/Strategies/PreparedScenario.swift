/// What every strategy needs of a scenario, computed once: the dependency
/// graph, the queues, the ranking and the critical path. Strategy plans are
/// built on first use.
struct PreparedScenario: Sendable {
    /// What the strategies' plans read (shared with the runtime): the
    /// scenario, graph, ranking, delays, queues and base routes below.
    let rules: StrategyInputs
    var scenario: Scenario { rules.scenario }
    var graph: TaskGraph { rules.graph }
    var ranking: Ranking { rules.ranking }
    /// The scenario's task costs, latencies and delays in µs.
    let costs: [Micros]
    let latencies: [Micros]
    var delays: [Micros] { rules.delays }
    /// Each task's queue number (queues numbered by first appearance), −1 for none.
    var queueOf: [Int32] { rules.queueOf }
    var queueCount: Int { rules.queueCount }
    /// The `firstFrame` tasks, in index order.
    let firstFrameTasks: [Int32]
    /// (v2.1) The `fullyDrawn` tasks, in index order.
    let fullyDrawnTasks: [Int32]
    /// (v2.1) The tasks with `after`, held until the first frame is presented,
    /// and the `firstFrame` tasks; both empty when no task has `after`.
    let deferred: [Bool]
    let firstFrameMask: [Bool]
    /// Where each task is handed over outside an anchor closure.
    var baseRoutes: [Route] { rules.baseRoutes }
    let criticalPath: CriticalPath
    /// (v2.1) The first-frame bound's parts and the queues' term, for the scenario's costs.
    let bounds: LaunchBounds
    let t0: Micros

    var count: Int { costs.count }

    init(_ scenario: Scenario) {
        let rules = StrategyInputs(scenario)
        self.rules = rules
        let graph = rules.graph
        costs = scenario.tasks.map(\.cost)
        latencies = scenario.tasks.map(\.latency)
        criticalPath = CriticalPath(graph: graph, cost: costs, latency: latencies)
        bounds = LaunchBounds(
            tasks: scenario.tasks, graph: graph, cost: costs, latency: latencies, queueOf: rules.queueOf,
            queueCount: rules.queueCount)
        t0 = scenario.preMainTotal
        firstFrameTasks = Milestones.firstFrameTasks(of: scenario.tasks)
        fullyDrawnTasks = Milestones.fullyDrawnTasks(of: scenario.tasks)
        deferred = rules.deferred
        firstFrameMask = deferred.isEmpty ? [] : scenario.tasks.map(\.firstFrame)
    }

    func routes(closure: [Bool]?) -> [Route] { rules.routes(closure: closure) }

    /// The engine's inputs for one run of `definition`.
    func runInputs(
        _ definition: StrategyDefinition, options: SimulationOptions, costs: [Micros]? = nil,
        latencies: [Micros]? = nil
    ) -> RunInputs {
        RunInputs(
            cost: costs ?? self.costs, latency: latencies ?? self.latencies, delay: delays, queueOf: queueOf,
            queueCount: queueCount, inputs: scenario.inputs, idleMode: options.idleMode ?? scenario.idleMode,
            maxInFlight: definition.limitsConcurrency ? (options.maxConcurrent ?? .max) : .max,
            deferred: deferred, firstFrame: firstFrameMask, firstFrameCount: firstFrameTasks.count)
    }

    /// The one way to run a strategy: simulates and returns the schedule.
    ///
    /// - Parameters:
    ///   - costs, latencies: µs per task; the scenario's when nil.
    ///   - plan: the strategy's plan, when the caller keeps one; built otherwise.
    /// - Complexity: O((n + e) log n) for n tasks and e dependencies.
    func schedule(
        _ strategy: Strategy, options: SimulationOptions, costs: [Micros]? = nil, latencies: [Micros]? = nil,
        plan: StrategyPlan? = nil
    ) -> Schedule {
        let definition = strategy.definition
        let inputs = runInputs(definition, options: options, costs: costs, latencies: latencies)
        var buffers = SimulatorBuffers()
        let outcome = strategy.execute(self, plan ?? definition.plan(rules), inputs, &buffers)
        let preMain = scenario.preMain.spans
        var schedule = Schedule(
            scenario: scenario, strategy: strategy,
            maxConcurrent: inputs.maxInFlight == .max ? nil : inputs.maxInFlight,
            costs: inputs.cost, latencies: inputs.latency, t0: t0, preMain: preMain, tasks: outcome.tasks,
            commits: outcome.commits, blocked: outcome.blocked, didFinishLaunching: outcome.launch,
            inputs: outcome.inputs, idleMode: inputs.idleMode, launchPhases: outcome.launchPhases)
        schedule.taskClusters = outcome.taskClusters
        return schedule
    }
}
