/// An engine prepared once for one scenario and run many times: with its own
/// costs, or with other costs per task (sampled launches, what-ifs).
///
/// The dependency graph and the ranking do not depend on costs, so they are
/// built once; each run only simulates and measures.
///
/// ```swift
/// var engine = LaunchEngine(scenario)
/// let base = engine.metrics(.dag)
/// var costs = engine.costs
/// costs[3] /= 2
/// let faster = engine.metrics(.dag, costs: costs)
/// ```
public struct LaunchEngine: Sendable {
    let prepared: PreparedScenario

    public init(_ scenario: Scenario) { prepared = PreparedScenario(scenario) }

    public var scenario: Scenario { prepared.scenario }

    /// The scenario's task costs in µs, in task order.
    public var costs: [Micros] { prepared.costs }

    /// The scenario's task latencies in µs, in task order (v2).
    public var latencies: [Micros] { prepared.latencies }

    /// The full result of one run. `costs` and `latencies` (µs per task)
    /// replace the scenario's when given.
    public func result(
        _ strategy: Strategy, costs: [Micros]? = nil, latencies: [Micros]? = nil, options: SimulationOptions = .init()
    ) -> SimulationResult {
        SimulationResult(prepared, strategy: strategy, options: options, costs: costs, latencies: latencies)
    }

    /// The metrics of one run.
    public func metrics(
        _ strategy: Strategy, costs: [Micros]? = nil, latencies: [Micros]? = nil, options: SimulationOptions = .init()
    ) -> Metrics {
        result(strategy, costs: costs, latencies: latencies, options: options).metrics
    }
}
