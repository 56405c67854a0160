/// What a strategy's plan reads of a scenario, computed once: the dependency
/// graph, the ranking, the queues and where each task is handed over. Both
/// executors build plans from it — the simulator's engine (which adds the
/// costs and bounds it needs) and the runtime's scheduler — so a strategy's
/// rules are written once (MODEL.md §3–§4).
package struct StrategyInputs: Sendable {
    package let scenario: Scenario
    package let graph: TaskGraph
    package let ranking: Ranking
    /// Each task's delay in µs.
    package let delays: [Micros]
    /// Each task's queue number (queues numbered by first appearance), −1 for none.
    package let queueOf: [Int32]
    package let queueCount: Int
    /// Where each task is handed over outside an anchor closure.
    package let baseRoutes: [Route]
    /// The tasks held until the first frame (`after`), by index; empty when
    /// none is (most scenarios: the executors then skip the hold's bookkeeping).
    /// Built once here for the policy, the engine and the runtime.
    package let deferred: [Bool]

    package var count: Int { delays.count }

    package init(_ scenario: Scenario) {
        self.scenario = scenario
        graph = TaskGraph(tasks: scenario.tasks)
        ranking = Ranking(tasks: scenario.tasks)
        let n = scenario.tasks.count
        var delays = [Micros](repeating: 0, count: n)
        var queueOf = [Int32](repeating: -1, count: n)
        var routes = [Route](repeating: .worker, count: n)
        var numbers: [String: Int32] = [:]
        scenario.tasks.withUnsafeBufferPointer { tasks in
            for i in 0..<n {
                delays[i] = tasks[i].delay
                if tasks[i].idle {
                    routes[i] = .idle
                } else if tasks[i].mainThreadOnly {
                    routes[i] = .main
                }
                if let name = tasks[i].queue {
                    if let k = numbers[name] {
                        queueOf[i] = k
                    } else {
                        queueOf[i] = Int32(numbers.count)
                        numbers[name] = queueOf[i]
                    }
                }
            }
        }
        self.delays = delays
        self.queueOf = queueOf
        baseRoutes = routes
        queueCount = numbers.count
        deferred = scenario.tasks.contains { $0.after != nil } ? scenario.tasks.map { $0.after != nil } : []
    }

    /// Where each admitted task is handed over; an idle task of the anchor
    /// closure goes to the main queue.
    package func routes(closure: [Bool]?) -> [Route] {
        guard let closure else { return baseRoutes }
        var routes = baseRoutes
        for i in routes.indices where routes[i] == .idle && closure[i] { routes[i] = .main }
        return routes
    }
}
