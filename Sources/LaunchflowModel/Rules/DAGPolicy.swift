/// `dag` and `anchored` (MODEL.md §4), operation-queue style: a task is ready
/// the instant its last dependency is done (tasks without dependencies when
/// `didFinishLaunching` starts). With an anchor closure,
/// `didFinishLaunching` keeps the main thread — running the closure's main
/// tasks as the engine takes them out of the main queue — until every
/// `anchor` task is done and (under `anchored`) every other `firstFrame` task
/// has ended.
///
/// - Complexity: O(n + e) besides the engine's heaps.
package struct DAGPolicy: LaunchPolicy, Sendable {
    private let graph: TaskGraph
    private var pending: [Int32]
    /// Whether `didFinishLaunching` waits at all (the closure is not empty).
    private let keepsMainThread: Bool
    /// The tasks it waits for until done (`anchor`), and until ended (the
    /// other `firstFrame` tasks, under `anchored`).
    private let untilDone: [Bool]
    private let untilEnded: [Bool]
    private var waitingForDone: Int
    private var waitingForEnd: Int

    package init(graph: TaskGraph, tasks: [LaunchTask], closure: AnchorClosure) {
        self.graph = graph
        pending = graph.dependencyCount
        keepsMainThread = !closure.isEmpty
        // Without a closure nothing is waited for: no per-task bookkeeping.
        guard keepsMainThread else {
            untilDone = []
            untilEnded = []
            waitingForDone = 0
            waitingForEnd = 0
            return
        }
        untilDone = tasks.map(\.anchor)
        untilEnded = tasks.map { closure.firstFrameIsAnchor && $0.firstFrame && !$0.anchor }
        waitingForDone = untilDone.lazy.filter { $0 }.count
        waitingForEnd = untilEnded.lazy.filter { $0 }.count
    }

    package mutating func launchBegan(ready: inout [Int32]) {
        for i in 0..<graph.count where pending[i] == 0 { ready.append(Int32(i)) }
    }

    package mutating func nextLaunchStep() -> LaunchStep {
        !keepsMainThread || (waitingForDone == 0 && waitingForEnd == 0) ? .finish : .wait
    }

    package mutating func taskEnded(_ task: Int) {
        if keepsMainThread && untilEnded[task] { waitingForEnd -= 1 }
    }

    package mutating func taskDone(_ task: Int, ready: inout [Int32]) {
        if keepsMainThread && untilDone[task] { waitingForDone -= 1 }
        let start = Int(graph.dependentStart[task])
        let end = Int(graph.dependentStart[task + 1])
        guard start < end else { return }
        graph.dependents.withUnsafeBufferPointer { dependents in
            pending.withUnsafeMutableBufferPointer { pending in
                for k in start..<end {
                    let dependent = Int(dependents[k])
                    pending[dependent] -= 1
                    if pending[dependent] == 0 { ready.append(Int32(dependent)) }
                }
            }
        }
    }
}
