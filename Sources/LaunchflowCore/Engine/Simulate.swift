/// Options of a simulation run.
public struct SimulationOptions: Sendable, Equatable {
    /// `--max-concurrent`: at most this many worker tasks in flight (started
    /// and not yet done) under the strategies it applies to; nil: no limit
    /// but the workers.
    public var maxConcurrent: Int?
    /// `--idle-mode`: overrides the scenario's `idleMode`.
    public var idleMode: IdleMode?

    public init(maxConcurrent: Int? = nil, idleMode: IdleMode? = nil) {
        self.maxConcurrent = maxConcurrent
        self.idleMode = idleMode
    }
}

/// Simulates `scenario` under `strategy` (MODEL.md §3–4).
///
/// Deterministic: the same scenario and options give the same schedule.
///
/// - Complexity: O((n + e) log n) for n tasks and e dependencies.
public func simulate(_ scenario: Scenario, strategy: Strategy, options: SimulationOptions = .init()) -> Schedule {
    PreparedScenario(scenario).schedule(strategy, options: options)
}
