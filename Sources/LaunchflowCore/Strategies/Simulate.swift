/// Options of a simulation run.
public struct SimulationOptions: Sendable, Equatable {
    /// `--max-concurrent`: at most this many worker tasks at once (`dag` only);
    /// nil means `cores − 1`, larger values act as `cores − 1`.
    public var maxConcurrent: Int?

    public init(maxConcurrent: Int? = nil) { self.maxConcurrent = maxConcurrent }
}

/// What every strategy needs of a scenario, computed once: the dependency
/// graph, the ranking and the critical path.
struct PreparedScenario: Sendable {
    let scenario: Scenario
    let graph: TaskGraph
    let ranking: Ranking
    /// The scenario's task costs in µs.
    let costs: [Micros]
    let mainOnly: [Bool]
    let criticalPath: CriticalPath

    init(_ scenario: Scenario) {
        self.scenario = scenario
        graph = TaskGraph(tasks: scenario.tasks)
        ranking = Ranking(tasks: scenario.tasks)
        costs = scenario.tasks.map(\.cost)
        mainOnly = scenario.tasks.map(\.mainThreadOnly)
        criticalPath = CriticalPath(graph: graph, cost: costs)
    }
}

/// Simulates `scenario` under `strategy` (MODEL.md §3–4).
///
/// Deterministic: the same scenario and options give the same schedule.
///
/// - Complexity: O((n + e) log n) for n tasks and e dependencies.
public func simulate(_ scenario: Scenario, strategy: Strategy, options: SimulationOptions = .init()) -> Schedule {
    simulate(PreparedScenario(scenario), strategy: strategy, options: options)
}

/// - Parameter costs: each task's cost in µs; the scenario's when nil.
func simulate(_ prepared: PreparedScenario, strategy: Strategy, options: SimulationOptions, costs: [Micros]? = nil)
    -> Schedule
{
    let scenario = prepared.scenario
    let costs = costs ?? prepared.costs
    let ranking = prepared.ranking
    let workers = scenario.device.workerCount
    let t0 = scenario.preMainTotal
    var preMain: [TimeSpan] = []
    var clock: Micros = 0
    for phase in scenario.preMain {
        preMain.append(TimeSpan(start: clock, end: clock + phase.cost))
        clock += phase.cost
    }
    let maxConcurrent = strategy == .dag ? min(options.maxConcurrent ?? workers, workers) : workers

    func run<P: LaunchPolicy>(_ policy: P) -> Schedule {
        var simulator = Simulator(
            scenario: scenario, mainOnly: prepared.mainOnly, cost: costs, ranking: ranking, policy: policy,
            maxConcurrent: maxConcurrent)
        let result = simulator.run(from: t0)
        return Schedule(
            scenario: scenario, strategy: strategy, maxConcurrent: maxConcurrent, costs: costs, t0: t0,
            preMain: preMain,
            tasks: result.tasks, commits: result.commits, blocked: result.blocked,
            didFinishLaunching: result.launch)
    }

    switch strategy {
    case .serial: return run(SerialPolicy(graph: prepared.graph, ranking: ranking))
    case .priority: return run(PriorityPolicy(tasks: scenario.tasks, ranking: ranking))
    case .dag, .anchored: return run(DAGPolicy(graph: prepared.graph))
    }
}
