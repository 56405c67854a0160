/// `dag` (MODEL.md §4), operation-queue style: `didFinishLaunching` adds every
/// task as an operation and returns at once; a task is released the instant
/// its last dependency ends (tasks without dependencies at `t0`).
///
/// - Complexity: O(n + e) besides the engine's heaps.
struct DAGPolicy: LaunchPolicy {
    private let graph: TaskGraph
    private var pending: [Int32]

    init(graph: TaskGraph) {
        self.graph = graph
        pending = graph.dependencyCount
    }

    mutating func launchBegan(releasing released: inout [Int]) {
        for i in 0..<graph.count where pending[i] == 0 { released.append(i) }
    }

    mutating func nextLaunchStep() -> LaunchStep { .finish }

    mutating func launchReturned(releasing released: inout [Int]) {}

    mutating func taskEnded(_ task: Int, releasing released: inout [Int]) {
        let start = Int(graph.dependentStart[task]), end = Int(graph.dependentStart[task + 1])
        guard start < end else { return }
        graph.dependents.withUnsafeBufferPointer { dependents in
            pending.withUnsafeMutableBufferPointer { pending in
                for k in start..<end {
                    let dependent = Int(dependents[k])
                    pending[dependent] -= 1
                    if pending[dependent] == 0 { released.append(dependent) }
                }
            }
        }
    }
}
