extension StrategyDefinition {
    /// `dag`: an operation graph; `didFinishLaunching` waits for `anchor` tasks.
    package static let dag = StrategyDefinition(
        strategy: .dag,
        summary: "dependency graph (operation queue): a task starts when its dependencies are done",
        limitsConcurrency: true, canBreakDependencies: false,
        colors: (fill: "#a6cee3", stroke: "#1f78b4"),
        blockedReason: "waiting for the anchors",
        plan: { prepared in prepared.anchoredPlan(firstFrameIsAnchor: false) })

    /// `anchored`: `dag` in which every `firstFrame` task is an anchor too.
    package static let anchored = StrategyDefinition(
        strategy: .anchored,
        summary: "dag whose didFinishLaunching first runs everything the first frame needs",
        limitsConcurrency: true, canBreakDependencies: false,
        colors: (fill: "#b2df8a", stroke: "#33a02c"),
        blockedReason: "waiting for the anchors",
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
