/// What every strategy needs of a scenario, computed once: the dependency
/// graph, the queues, the ranking and the critical path. Strategy plans are
/// built on first use.
struct PreparedScenario: Sendable {
    let scenario: Scenario
    let graph: TaskGraph
    let ranking: Ranking
    /// The scenario's task costs, latencies and delays in µs.
    let costs: [Micros]
    let latencies: [Micros]
    let delays: [Micros]
    /// Each task's queue number (queues numbered by first appearance), −1 for none.
    let queueOf: [Int32]
    let queueCount: Int
    /// The `firstFrame` tasks, in index order.
    let firstFrameTasks: [Int32]
    /// (v2.1) The `fullyDrawn` tasks, in index order.
    let fullyDrawnTasks: [Int32]
    /// (v2.1) The tasks with `after`, held until the first frame is presented,
    /// and the `firstFrame` tasks; both empty when no task has `after`.
    let deferred: [Bool]
    let firstFrameMask: [Bool]
    /// Where each task is handed over outside an anchor closure.
    let baseRoutes: [Route]
    let criticalPath: CriticalPath
    /// (v2.1) The first-frame bound's parts and the queues' term, for the scenario's costs.
    let bounds: LaunchBounds
    let t0: Micros

    var count: Int { costs.count }

    init(_ scenario: Scenario) {
        self.scenario = scenario
        graph = TaskGraph(tasks: scenario.tasks)
        ranking = Ranking(tasks: scenario.tasks)
        // One pass over the tasks for the per-task arrays.
        let n = scenario.tasks.count
        var costs = [Micros](repeating: 0, count: n)
        var latencies = costs
        var delays = costs
        var queueOf = [Int32](repeating: -1, count: n)
        var routes = [Route](repeating: .worker, count: n)
        var numbers: [String: Int32] = [:]
        scenario.tasks.withUnsafeBufferPointer { tasks in
            for i in 0..<n {
                costs[i] = tasks[i].cost
                latencies[i] = tasks[i].latency
                delays[i] = tasks[i].delay
                if tasks[i].idle {
                    routes[i] = .idle
                } else if tasks[i].mainThreadOnly {
                    routes[i] = .main
                }
                if let name = tasks[i].queue {
                    if let k = numbers[name] {
                        queueOf[i] = k
                    } else {
                        queueOf[i] = Int32(numbers.count)
                        numbers[name] = queueOf[i]
                    }
                }
            }
        }
        self.costs = costs
        self.latencies = latencies
        self.delays = delays
        self.queueOf = queueOf
        baseRoutes = routes
        queueCount = numbers.count
        criticalPath = CriticalPath(graph: graph, cost: costs, latency: latencies)
        bounds = LaunchBounds(
            tasks: scenario.tasks, graph: graph, cost: costs, latency: latencies, queueOf: queueOf,
            queueCount: queueCount)
        t0 = scenario.preMainTotal
        firstFrameTasks = Milestones.firstFrameTasks(of: scenario.tasks)
        fullyDrawnTasks = Milestones.fullyDrawnTasks(of: scenario.tasks)
        if scenario.tasks.contains(where: { $0.after != nil }) {
            deferred = scenario.tasks.map { $0.after != nil }
            firstFrameMask = scenario.tasks.map(\.firstFrame)
        } else {
            deferred = []
            firstFrameMask = []
        }
    }

    /// Where each admitted task is handed over; an idle task of the anchor
    /// closure goes to the main queue.
    func routes(closure: [Bool]?) -> [Route] {
        guard let closure else { return baseRoutes }
        var routes = baseRoutes
        for i in routes.indices where routes[i] == .idle && closure[i] { routes[i] = .main }
        return routes
    }

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
        let outcome = definition.execute(self, plan ?? definition.plan(self), inputs, &buffers)
        var preMain: [TimeSpan] = []
        var clock: Micros = 0
        for phase in scenario.preMain {
            preMain.append(TimeSpan(start: clock, end: clock + phase.cost))
            clock += phase.cost
        }
        return Schedule(
            scenario: scenario, strategy: strategy,
            maxConcurrent: inputs.maxInFlight == .max ? nil : inputs.maxInFlight,
            costs: inputs.cost, latencies: inputs.latency, t0: t0, preMain: preMain, tasks: outcome.tasks,
            commits: outcome.commits, blocked: outcome.blocked, didFinishLaunching: outcome.launch,
            inputs: outcome.inputs, idleMode: inputs.idleMode)
    }
}
