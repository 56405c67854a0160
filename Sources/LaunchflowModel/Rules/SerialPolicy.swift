/// `serial` (MODEL.md §4): `didFinishLaunching` runs every task on the main
/// thread itself — again and again, among the tasks not yet started whose
/// dependencies are all done and whose queue has no started task that is not
/// yet done, the best-ranked goes next — blocked while none may start; then
/// returns. `delay`, `idle` and `anchor` are ignored.
///
/// - Complexity: O((n + e) log n).
package struct SerialPolicy: LaunchPolicy, Sendable {
    private let graph: TaskGraph
    private let ranking: Ranking
    private let queueOf: [Int32]
    private var pending: [Int32]
    /// Rank positions of the tasks whose dependencies are all done.
    private var available = MinHeap<Int32>()
    /// Per queue: whether a started task of it is not yet done, and the
    /// available tasks that wait for it.
    private var queueBusy: [Bool]
    private var parked: [[Int32]]
    private var started = 0

    package init(graph: TaskGraph, ranking: Ranking, queueOf: [Int32], queueCount: Int) {
        self.graph = graph
        self.ranking = ranking
        self.queueOf = queueOf
        pending = graph.dependencyCount
        queueBusy = [Bool](repeating: false, count: queueCount)
        // Never the shared empty array: a mutation in `nextLaunchStep`'s loop
        // would otherwise try to make it unique (an allocation) on every call.
        parked = [[Int32]](repeating: [], count: Swift.max(queueCount, 1))
    }

    package mutating func launchBegan(ready: inout [Int32]) {
        available = MinHeap((0..<graph.count).filter { pending[$0] == 0 }.map { ranking.rank(of: $0) })
    }

    package mutating func nextLaunchStep() -> LaunchStep {
        while let rank = available.popMin() {
            let task = ranking.task(atRank: rank)
            if !queueBusy.isEmpty, queueOf[task] >= 0 {
                let queue = Int(queueOf[task])
                if queueBusy[queue] {
                    parked[queue].append(rank)
                    continue
                }
                queueBusy[queue] = true
            }
            started += 1
            return .run(task)
        }
        return started == graph.count ? .finish : .wait
    }

    package mutating func taskDone(_ task: Int, ready: inout [Int32]) {
        if !queueBusy.isEmpty, queueOf[task] >= 0 {
            let queue = Int(queueOf[task])
            queueBusy[queue] = false
            for rank in parked[queue] { available.push(rank) }
            parked[queue].removeAll()
        }
        let start = Int(graph.dependentStart[task])
        let end = Int(graph.dependentStart[task + 1])
        for k in start..<end {
            let dependent = Int(graph.dependents[k])
            pending[dependent] -= 1
            if pending[dependent] == 0 { available.push(ranking.rank(of: dependent)) }
        }
    }
}
