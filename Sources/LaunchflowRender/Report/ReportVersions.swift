import LaunchflowCore

/// `report NEW --baseline OLD`: two versions of a scenario on one page — the
/// metrics OLD → NEW under every strategy of the report, `diff`'s changes
/// with their effects (``ScenarioDiff``), and the Gantt charts of both
/// versions under one strategy (by default the diff's ordering strategy:
/// `dag`, or the first shown), stacked on the page's time axis.
public struct ReportBaseline: Sendable {
    /// OLD against NEW, under the report's strategies: the metrics and the changes.
    public let diff: ScenarioDiff
    /// The strategy of the two Gantt panels.
    public let strategy: Strategy
    /// Both versions under ``strategy``.
    public let old: SimulationResult
    public let new: SimulationResult

    /// Compares `old` (the baseline) with `new` under `strategies` (at least
    /// one); the Gantt panels show `panels` (by default the diff's ordering strategy).
    ///
    /// - Complexity: ``ScenarioDiff``'s (a simulation per change and strategy), plus two simulations.
    public init(
        old: Scenario, oldFile: String, new: Scenario, newFile: String, strategies: [Strategy],
        options: SimulationOptions = .init(), panels: Strategy? = nil
    ) {
        diff = ScenarioDiff(
            old: old, oldFile: oldFile, new: new, newFile: newFile, strategies: strategies, options: options)
        strategy = panels ?? diff.orderingStrategy
        self.old = LaunchEngine(old).result(strategy, options: options)
        self.new = LaunchEngine(new).result(strategy, options: options)
    }

    /// Ids of the baseline's tasks that NEW does not have, in OLD's order.
    var removedIDs: [String] {
        let kept = Set(diff.new.tasks.map(\.id))
        return diff.old.tasks.map(\.id).filter { !kept.contains($0) }
    }
}

/// `report --advise`: `advise`'s plan for the scenario (``Advise/plan(_:_:progress:)``),
/// and the scenario as written and the plan simulated under its strategy,
/// for the Gantt panels on the page's time axis.
public struct ReportAdvice: Sendable {
    public let plan: AdvicePlan
    public let written: SimulationResult
    public let planned: SimulationResult

    /// Simulates the scenario as written under its strategy and the plan under
    /// the plan's (another when the plan switches it), with advise's options.
    public init(_ plan: AdvicePlan) {
        self.plan = plan
        let configuration = plan.configuration
        written = LaunchEngine(plan.written).result(configuration.strategy, options: configuration.options)
        planned = LaunchEngine(plan.scenario).result(plan.strategy, options: configuration.options)
    }
}

/// A Gantt panel of the page besides the strategies': a version of the
/// scenario (the baseline, the plan) under one strategy, on the same axis.
struct ReportPanel {
    /// Names its element ids (`<prefix><key>-…`) and its place in the page's data.
    let key: String
    /// The panel's heading and its name on the task card.
    let heading: String
    let result: SimulationResult
}
