/// The dependency graph of a scenario in compressed (CSR) form: for each
/// task, its dependencies (in `dependsOn` order) and its *dependents* (the
/// tasks that depend on it, in ascending index order).
///
/// Built once per scenario in O(n + e); the strategies and metrics walk it
/// without allocating.
public struct TaskGraph: Sendable {
    /// `dependencies[dependencyStart[i]..<dependencyStart[i + 1]]` are task `i`'s dependencies.
    public let dependencyStart: [Int32]
    public let dependencies: [Int32]
    /// `dependents[dependentStart[i]..<dependentStart[i + 1]]` are the tasks that depend on task `i`.
    public let dependentStart: [Int32]
    public let dependents: [Int32]
    /// The number of dependencies of each task.
    public let dependencyCount: [Int32]

    public init(tasks: [LaunchTask]) {
        let total = tasks.reduce(0) { $0 + $1.dependsOn.count }
        self.init(count: tasks.count, edges: total) { body in
            tasks.withUnsafeBufferPointer { buffer in
                for i in 0..<buffer.count { body(i, buffer[i].dependsOn) }
            }
        }
    }

    package init(dependencies: [[Int]]) {
        self.init(count: dependencies.count, edges: dependencies.reduce(0) { $0 + $1.count }) { body in
            for i in 0..<dependencies.count { body(i, dependencies[i]) }
        }
    }

    private init(count n: Int, edges: Int, forEach: ((Int, [Int]) -> Void) -> Void) {
        var depStart = [Int32](repeating: 0, count: n + 1)
        var deps: [Int32] = []
        deps.reserveCapacity(edges)
        var dependentStart = [Int32](repeating: 0, count: n + 1)
        var counts = [Int32](repeating: 0, count: n)
        forEach { i, list in
            counts[i] = Int32(list.count)
            for d in list {
                deps.append(Int32(d))
                dependentStart[d + 1] += 1
            }
            depStart[i + 1] = Int32(deps.count)
        }
        for i in 0..<n { dependentStart[i + 1] += dependentStart[i] }
        var fill = Array(dependentStart[0..<n])
        var list = [Int32](repeating: 0, count: deps.count)
        for i in 0..<n {
            for k in Int(depStart[i])..<Int(depStart[i + 1]) {
                let d = Int(deps[k])
                list[Int(fill[d])] = Int32(i)
                fill[d] += 1
            }
        }
        dependencyStart = depStart
        dependencies = deps
        self.dependentStart = dependentStart
        dependents = list
        dependencyCount = counts
    }

    /// The dependencies of `task`, in `dependsOn` order.
    @inlinable
    public func dependencies(of task: Int) -> ArraySlice<Int32> {
        dependencies[Int(dependencyStart[task])..<Int(dependencyStart[task + 1])]
    }

    public var count: Int { dependencyCount.count }

    /// The tasks that depend on `task`.
    @inlinable
    public func dependents(of task: Int) -> ArraySlice<Int32> {
        dependents[Int(dependentStart[task])..<Int(dependentStart[task + 1])]
    }

    /// A topological order (dependencies first) by Kahn's algorithm; shorter
    /// than `count` when the graph has a cycle.
    ///
    /// Whether each task is one of `starts` or something they depend on,
    /// directly or through other tasks (what the first frame, or
    /// `didFinishLaunching`, waits for).
    ///
    /// - Complexity: O(n + e) at most: each task and dependency is visited once.
    public func dependencyClosure(of starts: some Sequence<Int>) -> [Bool] {
        var inside = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        for i in starts where !inside[i] {
            inside[i] = true
            stack.append(i)
        }
        while let task = stack.popLast() {
            for k in Int(dependencyStart[task])..<Int(dependencyStart[task + 1]) {
                let d = Int(dependencies[k])
                if !inside[d] {
                    inside[d] = true
                    stack.append(d)
                }
            }
        }
        return inside
    }

    /// - Complexity: O(n + e).
    public func topologicalOrder() -> [Int] {
        let n = count
        var pending = dependencyCount
        var order = [Int](repeating: 0, count: n)
        var tail = 0
        dependentStart.withUnsafeBufferPointer { start in
            dependents.withUnsafeBufferPointer { list in
                pending.withUnsafeMutableBufferPointer { pending in
                    order.withUnsafeMutableBufferPointer { order in
                        for i in 0..<n where pending[i] == 0 {
                            order[tail] = i
                            tail += 1
                        }
                        var head = 0
                        while head < tail {
                            let u = order[head]
                            head += 1
                            for k in Int(start[u])..<Int(start[u + 1]) {
                                let w = Int(list[k])
                                pending[w] -= 1
                                if pending[w] == 0 {
                                    order[tail] = w
                                    tail += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        order.removeLast(n - tail)
        return order
    }
}
