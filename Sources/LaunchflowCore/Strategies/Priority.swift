extension StrategyDefinition {
    /// `priority`: tiers, tier 0 in `didFinishLaunching`; ignores dependencies.
    static let priority = StrategyDefinition(
        strategy: .priority,
        summary: "priority tiers: tier 0 in didFinishLaunching, each later tier when the one before is done",
        limitsConcurrency: false, canBreakDependencies: true,
        blockedReason: "waiting for tier 0 workers",
        plan: { prepared in
            StrategyPlan(
                ranking: prepared.ranking, route: prepared.routes(closure: nil),
                takeOut: prepared.queueOf.map { $0 >= 0 }, limitsConcurrency: false, closure: nil)
        },
        execute: { prepared, plan, inputs, buffers in
            let policy = PriorityPolicy(
                tasks: prepared.scenario.tasks, ranking: plan.ranking, delay: inputs.delay, queueOf: prepared.queueOf)
            return runEngine(prepared, plan, inputs, policy, &buffers)
        })
}
