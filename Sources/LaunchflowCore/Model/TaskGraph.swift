/// The dependency graph of a scenario in compressed form: for each task, the
/// tasks that depend on it (its *dependents*), and how many dependencies it has.
///
/// Built once per run in O(n + e); the strategies and metrics walk it without
/// allocating.
public struct TaskGraph: Sendable {
    /// `dependents[dependentStart[i]..<dependentStart[i + 1]]` are the tasks that depend on task `i`,
    /// in ascending index order.
    public let dependentStart: [Int32]
    public let dependents: [Int32]
    /// The number of (resolved) dependencies of each task.
    public let dependencyCount: [Int32]

    public init(tasks: [LaunchTask]) {
        self.init(count: tasks.count) { tasks[$0].dependsOn }
    }

    init(dependencies: [[Int]]) {
        self.init(count: dependencies.count) { dependencies[$0] }
    }

    private init(count n: Int, dependenciesOf: (Int) -> [Int]) {
        var start = [Int32](repeating: 0, count: n + 1)
        var counts = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let deps = dependenciesOf(i)
            counts[i] = Int32(deps.count)
            for d in deps { start[d + 1] += 1 }
        }
        for i in 0..<n { start[i + 1] += start[i] }
        var fill = Array(start[0..<n])
        var list = [Int32](repeating: 0, count: Int(start[n]))
        for i in 0..<n {
            for d in dependenciesOf(i) {
                list[Int(fill[d])] = Int32(i)
                fill[d] += 1
            }
        }
        dependentStart = start
        dependents = list
        dependencyCount = counts
    }

    public var count: Int { dependencyCount.count }

    /// The tasks that depend on `task`.
    @inlinable
    public func dependents(of task: Int) -> ArraySlice<Int32> {
        dependents[Int(dependentStart[task])..<Int(dependentStart[task + 1])]
    }

    /// A topological order (dependencies first) by Kahn's algorithm; shorter
    /// than `count` when the graph has a cycle.
    public func topologicalOrder() -> [Int] {
        var pending = dependencyCount
        var order: [Int] = []
        order.reserveCapacity(count)
        for i in 0..<count where pending[i] == 0 { order.append(i) }
        var head = 0
        while head < order.count {
            let u = order[head]
            head += 1
            for w in dependents(of: u) {
                pending[Int(w)] -= 1
                if pending[Int(w)] == 0 { order.append(Int(w)) }
            }
        }
        return order
    }
}
