extension StrategyDefinition {
    /// `priority`: tiers, tier 0 in `didFinishLaunching`; ignores dependencies.
    package static let priority = StrategyDefinition(
        strategy: .priority,
        limitsConcurrency: false, canBreakDependencies: true,
        plan: { prepared in
            StrategyPlan(
                ranking: prepared.ranking, route: prepared.routes(closure: nil),
                takeOut: prepared.queueOf.map { $0 >= 0 }, limitsConcurrency: false, closure: nil
            ).with(
                policy: PriorityPolicy(
                    tasks: prepared.scenario.tasks, ranking: prepared.ranking, delay: prepared.delays,
                    queueOf: prepared.queueOf, deferred: prepared.deferred))
        })
}
