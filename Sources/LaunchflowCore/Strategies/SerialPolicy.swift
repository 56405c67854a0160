/// `serial` (MODEL.md §4): `didFinishLaunching` runs every task on the main
/// thread in topological order — among the tasks whose dependencies are all
/// done, the best-ranked goes next — then returns.
///
/// - Complexity: O((n + e) log n).
struct SerialPolicy: LaunchPolicy {
    private let graph: TaskGraph
    private let ranking: Ranking
    private var pending: [Int32]
    /// Rank positions of the tasks whose dependencies are all done.
    private var available = MinHeap<Int32>()

    init(graph: TaskGraph, ranking: Ranking) {
        self.graph = graph
        self.ranking = ranking
        pending = graph.dependencyCount
    }

    mutating func launchBegan(releasing released: inout [Int]) {
        available = MinHeap((0..<graph.count).filter { pending[$0] == 0 }.map { ranking.rank(of: $0) })
    }

    mutating func nextLaunchStep() -> LaunchStep {
        guard let rank = available.popMin() else { return .finish }
        return .run(ranking.task(atRank: rank))
    }

    mutating func launchReturned(releasing released: inout [Int]) {}

    mutating func taskEnded(_ task: Int, releasing released: inout [Int]) {
        let start = Int(graph.dependentStart[task]), end = Int(graph.dependentStart[task + 1])
        for k in start..<end {
            let dependent = Int(graph.dependents[k])
            pending[dependent] -= 1
            if pending[dependent] == 0 { available.push(ranking.rank(of: dependent)) }
        }
    }
}
