/// The anchor closure of MODEL.md §4 (v2): the anchors — every `anchor` task,
/// and under `anchored` every `firstFrame` task too — and every task they
/// depend on, directly or not; then every `mainThreadOnly` task that shares a
/// `queue` with a task taken so far, except tasks with `after` (v2.1). `didFinishLaunching` runs the closure's
/// main-thread work itself, and its tasks rank first.
public struct AnchorClosure: Sendable {
    /// Whether each task is in the closure.
    public let contains: [Bool]
    /// The number of tasks in it.
    public let count: Int
    /// `firstFrame` tasks are anchors (the `anchored` strategy).
    public let firstFrameIsAnchor: Bool

    public var isEmpty: Bool { count == 0 }

    /// - Complexity: O(n + e).
    package init(tasks: [LaunchTask], graph: TaskGraph, queueOf: [Int32], firstFrameIsAnchor: Bool) {
        self.firstFrameIsAnchor = firstFrameIsAnchor
        let anchors = tasks.indices.filter { tasks[$0].anchor || (firstFrameIsAnchor && tasks[$0].firstFrame) }
        guard !anchors.isEmpty else {
            contains = [Bool](repeating: false, count: tasks.count)
            count = 0
            return
        }
        var inside = graph.dependencyClosure(of: anchors)
        let queueCount = (queueOf.max() ?? -1) + 1
        if queueCount > 0 {
            var queueTaken = [Bool](repeating: false, count: Int(queueCount))
            for i in tasks.indices where inside[i] && queueOf[i] >= 0 { queueTaken[Int(queueOf[i])] = true }
            // (v2.1) never a task with `after`: it waits for the first frame.
            for i in tasks.indices
            where !inside[i] && tasks[i].mainThreadOnly && tasks[i].after == nil && queueOf[i] >= 0 {
                if queueTaken[Int(queueOf[i])] { inside[i] = true }
            }
        }
        contains = inside
        count = inside.lazy.filter { $0 }.count
    }
}

extension AnchorClosure {
    /// The anchor closure `strategy` uses on `scenario` (for pictures and
    /// reports): the one of its plan under `dag` and `anchored`, nil under
    /// `serial` and `priority`, which ignore anchors. It may be empty.
    ///
    /// - Complexity: O(n + e).
    public init?(of scenario: Scenario, strategy: Strategy) {
        guard let closure = strategy.definition.plan(StrategyInputs(scenario)).closure else { return nil }
        self = closure
    }

    /// Whether `task` is one of the closure's anchors (an `anchor` task, or
    /// under `anchored` a `firstFrame` task) rather than something they need.
    public func isAnchor(_ task: LaunchTask) -> Bool { task.anchor || (firstFrameIsAnchor && task.firstFrame) }
}
