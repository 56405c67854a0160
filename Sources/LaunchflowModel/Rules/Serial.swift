extension StrategyDefinition {
    /// `serial`: everything in the app delegate, the baseline.
    package static let serial = StrategyDefinition(
        strategy: .serial,
        summary: "everything in didFinishLaunching, on the main thread, in dependency order",
        limitsConcurrency: false, canBreakDependencies: false,
        colors: (fill: "#c7c7c7", stroke: "#5f5f5f"),
        blockedReason: "waiting for a task to be done (latency or queue)",
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
