extension StrategyDefinition {
    /// `priority`: tiers, tier 0 in `didFinishLaunching`; ignores dependencies.
    package static let priority = StrategyDefinition(
        strategy: .priority,
        summary: "priority tiers: tier 0 in didFinishLaunching, each later tier when the one before is done",
        limitsConcurrency: false, canBreakDependencies: true,
        colors: (fill: "#fdbf6f", stroke: "#e07b00"),
        blockedReason: "waiting for tier 0 workers",
        plan: { prepared in
            StrategyPlan(
                ranking: prepared.ranking, route: prepared.routes(closure: nil),
                takeOut: prepared.queueOf.map { $0 >= 0 }, limitsConcurrency: false, closure: nil
            ).with(
                policy: PriorityPolicy(
                    tasks: prepared.scenario.tasks, ranking: prepared.ranking, delay: prepared.delays,
                    queueOf: prepared.queueOf))
        })
}
