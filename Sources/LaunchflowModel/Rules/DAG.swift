extension StrategyDefinition {
    /// `dag`: an operation graph; `didFinishLaunching` waits for `anchor` tasks.
    package static let dag = StrategyDefinition(
        strategy: .dag,
        limitsConcurrency: true, canBreakDependencies: false,
        plan: { prepared in prepared.anchoredPlan(firstFrameIsAnchor: false) })

    /// `anchored`: `dag` in which every `firstFrame` task is an anchor too.
    package static let anchored = StrategyDefinition(
        strategy: .anchored,
        limitsConcurrency: true, canBreakDependencies: false,
        plan: { prepared in prepared.anchoredPlan(firstFrameIsAnchor: true) })
}

extension StrategyInputs {
    /// The plan of `dag` or `anchored`: the anchor closure ranks first, is
    /// taken out of the main queue by `didFinishLaunching`, and its idle
    /// tasks go to the main queue.
    package func anchoredPlan(firstFrameIsAnchor: Bool) -> StrategyPlan {
        let closure = AnchorClosure(
            tasks: scenario.tasks, graph: graph, queueOf: queueOf, firstFrameIsAnchor: firstFrameIsAnchor)
        let ranking = closure.isEmpty ? self.ranking : Ranking(tasks: scenario.tasks, first: closure.contains)
        return StrategyPlan(
            ranking: ranking, route: routes(closure: closure.isEmpty ? nil : closure.contains),
            takeOut: closure.isEmpty ? [] : closure.contains, limitsConcurrency: true, closure: closure
        ).with(policy: DAGPolicy(graph: graph, tasks: scenario.tasks, closure: closure))
    }
}
