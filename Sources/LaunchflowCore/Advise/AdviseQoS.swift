/// The `qos` knob (issue 38 item 5; docs/model.md §3.13): with
/// `device.clusters` a worker task's QoS decides which cores it gets. The plan
/// may raise a worker task the first frame or full display waits for to
/// `userInitiated` (a class ahead of `default`, `utility` and `background`
/// for the performance cores), and lower one neither waits for to `utility` or
/// `background` (`background` runs only on the slowest cores), so that it
/// leaves the fast cores to the work on the first frame's path. Never
/// `userInteractive`: a worker there shares the main thread's class. Without
/// clusters the QoS has no effect, and the knob proposes nothing.
extension AdviseSearch {
    /// The QoS each task may be given besides its own: `[.userInitiated]` for a
    /// worker task below it that the first frame, an anchor, a pinned task or
    /// full display waits for; `utility` and `background`, those below its own,
    /// for any other worker task; nothing for main-thread and kept tasks, nor
    /// without the knob or without clusters.
    static func qosTargets(
        _ scenario: Scenario, graph: TaskGraph, needed: [Bool], kept: [Bool], knobs: Set<AdviseKnob>
    ) -> [[QualityOfService]] {
        let tasks = scenario.tasks
        guard knobs.contains(.qos), scenario.device.hasClusters else { return tasks.map { _ in [] } }
        let fullDisplay = graph.dependencyClosure(of: tasks.indices.filter { tasks[$0].fullyDrawn })
        return tasks.indices.map { i in
            guard !kept[i], !tasks[i].mainThreadOnly else { return [] }
            let own = tasks[i].qos
            if needed[i] || fullDisplay[i] { return own > .userInitiated ? [.userInitiated] : [] }
            return [QualityOfService.utility, .background].filter { $0 > own }
        }
    }

    /// Every task that may be raised raised, and every task that may be
    /// lowered lowered to `lowest` when that is one of its targets (nil: none lowered).
    func qosShifted(_ s: AdviseSettings, lowest: QualityOfService?) -> AdviseSettings {
        var s = s
        for i in 0..<n {
            let targets = qosTargets[i]
            if targets == [.userInitiated] {
                s.qos[i] = .userInitiated
            } else if let lowest, targets.contains(lowest) {
                s.qos[i] = lowest
            }
        }
        return s
    }

    /// The constructive plans with QoS changes, after the others: the path
    /// raised as written; raised and the rest at `utility`, as written and
    /// with the simple plan; the simple plan with the rest at `background`.
    func qosStarts(_ simple: AdviseSettings) -> [AdviseSettings] {
        guard qosTargets.contains(where: { !$0.isEmpty }) else { return [] }
        return [
            qosShifted(original, lowest: nil), qosShifted(original, lowest: .utility),
            qosShifted(simple, lowest: .utility), qosShifted(simple, lowest: .background),
        ]
    }
}
