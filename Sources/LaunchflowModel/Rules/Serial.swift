extension StrategyDefinition {
    /// `serial`: everything in the app delegate, the baseline.
    package static let serial = StrategyDefinition(
        strategy: .serial,
        limitsConcurrency: false, canBreakDependencies: false,
        plan: { prepared in
            StrategyPlan(
                ranking: prepared.ranking, route: [Route](repeating: .main, count: prepared.count),
                takeOut: [], limitsConcurrency: false, closure: nil
            ).with(
                policy: SerialPolicy(
                    graph: prepared.graph, ranking: prepared.ranking, queueOf: prepared.queueOf,
                    queueCount: prepared.queueCount))
        })
}
