/// Options of a simulation run.
public struct SimulationOptions: Sendable, Equatable {
    /// `--max-concurrent`: at most this many worker tasks at once (`dag` only);
    /// nil means `cores − 1`, larger values act as `cores − 1`.
    public var maxConcurrent: Int?

    public init(maxConcurrent: Int? = nil) { self.maxConcurrent = maxConcurrent }
}

/// Simulates `scenario` under `strategy` (MODEL.md §3–4).
///
/// Deterministic: the same scenario and options give the same schedule.
///
/// - Complexity: O((n + e) log n) for n tasks and e dependencies.
public func simulate(_ scenario: Scenario, strategy: Strategy, options: SimulationOptions = .init()) -> Schedule {
    let ranking = Ranking(tasks: scenario.tasks)
    let workers = scenario.device.workerCount
    let t0 = scenario.preMainTotal
    var preMain: [Span] = []
    var clock: Micros = 0
    for phase in scenario.preMain {
        preMain.append(Span(start: clock, end: clock + phase.cost))
        clock += phase.cost
    }
    let maxConcurrent = strategy == .dag ? min(options.maxConcurrent ?? workers, workers) : workers

    func run<P: LaunchPolicy>(_ policy: P) -> Schedule {
        var simulator = Simulator(scenario: scenario, ranking: ranking, policy: policy, maxConcurrent: maxConcurrent)
        let result = simulator.run(from: t0)
        return Schedule(
            scenario: scenario, strategy: strategy, maxConcurrent: maxConcurrent, t0: t0, preMain: preMain,
            tasks: result.tasks, commits: result.commits, blocked: result.blocked,
            didFinishLaunching: result.launch)
    }

    switch strategy {
    case .serial: return run(SerialPolicy(graph: TaskGraph(tasks: scenario.tasks), ranking: ranking))
    case .priority: return run(PriorityPolicy(tasks: scenario.tasks))
    case .dag: return run(DAGPolicy(graph: TaskGraph(tasks: scenario.tasks)))
    }
}
