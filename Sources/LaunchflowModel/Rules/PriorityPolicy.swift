/// `priority` (MODEL.md §4): tiers are the distinct priorities, ascending;
/// `dependsOn` is ignored (violations are counted by the metrics).
///
/// `didFinishLaunching` (1) makes tier 0's non-inline tasks ready, (2) runs
/// its inline tasks — `mainThreadOnly`, not idle, no delay, no `after` —
/// itself in index order (one with a `queue` is released and run once
/// admitted), (3) waits until tier 0's worker tasks without delay or `after`
/// are done, and (4) returns. While it waits, the engine takes out tasks that
/// keep a queue busy (the plan's take-out set). Tier 1 opens at the later of
/// the return and tier 0 being done; each later tier when the last task of
/// the one before it is done. (v2.1) Tasks with `after` do not count: a tier
/// of only such tasks is done the instant it opens.
///
/// - Complexity: O(n) besides the engine's heaps.
package struct PriorityPolicy: LaunchPolicy, Sendable {
    /// The tasks of each tier, in index order.
    private let tiers: [[Int]]
    private let tierOf: [Int32]
    /// Tasks of each tier not yet done, those with `after` left out.
    private var remaining: [Int]
    /// (v2.1) Tasks with `after` (empty when there are none).
    private let deferred: [Bool]
    /// Tier 0's inline tasks, which `didFinishLaunching` runs itself.
    private let inlineTasks: [Int]
    /// Tier 0's other tasks, which `didFinishLaunching` makes ready.
    private let otherTasksOfTierZero: [Int]
    /// Step (3) waits for these: tier 0, neither `mainThreadOnly` nor delayed.
    private let awaited: [Bool]
    private var awaitedLeft: Int
    private let hasQueue: [Bool]
    private var nextInline = 0
    private var inlineReleased = false
    private var inlineAdmitted = false
    private var returned = false

    /// Builds the tiers from the ranking: in rank order, the tasks of a tier
    /// are contiguous and in index order.
    /// `deferred`: the tasks held until the first frame (``StrategyInputs/deferred``; empty: none).
    package init(tasks: [LaunchTask], ranking: Ranking, delay: [Micros], queueOf: [Int32], deferred: [Bool]) {
        var tiers: [[Int]] = []
        var tierOf = [Int32](repeating: 0, count: tasks.count)
        var level: Int?
        for rank in 0..<tasks.count {
            let task = ranking.task(atRank: Int32(rank))
            if tasks[task].priority != level {
                level = tasks[task].priority
                tiers.append([])
            }
            tierOf[task] = Int32(tiers.count - 1)
            tiers[tiers.count - 1].append(task)
        }
        self.tiers = tiers
        self.tierOf = tierOf
        self.deferred = deferred
        remaining = deferred.isEmpty ? tiers.map(\.count) : tiers.map { $0.count(where: { !deferred[$0] }) }
        let first = tiers.first ?? []
        func isInline(_ i: Int) -> Bool {
            tasks[i].mainThreadOnly && !tasks[i].idle && delay[i] == 0 && tasks[i].after == nil
        }
        inlineTasks = first.filter(isInline)
        otherTasksOfTierZero = first.filter { !isInline($0) }
        var awaited = [Bool](repeating: false, count: tasks.count)
        for i in first where !tasks[i].mainThreadOnly && delay[i] == 0 && tasks[i].after == nil { awaited[i] = true }
        self.awaited = awaited
        awaitedLeft = awaited.lazy.filter { $0 }.count
        hasQueue = queueOf.map { $0 >= 0 }
    }

    package mutating func launchBegan(ready: inout [Int32]) {
        for task in otherTasksOfTierZero { ready.append(Int32(task)) }
    }

    package mutating func nextLaunchStep() -> LaunchStep {
        if nextInline < inlineTasks.count {
            let task = inlineTasks[nextInline]
            if hasQueue[task] {
                if !inlineReleased {
                    inlineReleased = true
                    return .release(task)
                }
                guard inlineAdmitted else { return .wait }
            }
            nextInline += 1
            inlineReleased = false
            inlineAdmitted = false
            return .run(task)
        }
        return awaitedLeft > 0 ? .wait : .finish
    }

    package mutating func inlineAdmitted(_ task: Int) { inlineAdmitted = true }

    package mutating func launchReturned(ready: inout [Int32]) {
        returned = true
        if remaining.first == 0 { open(tier: 1, ready: &ready) }
    }

    package mutating func taskDone(_ task: Int, ready: inout [Int32]) {
        if awaited[task] { awaitedLeft -= 1 }
        if !deferred.isEmpty && deferred[task] { return }
        let k = Int(tierOf[task])
        remaining[k] -= 1
        guard remaining[k] == 0 else { return }
        // Tier 1 opens at the later of the return and tier 0 being done.
        if k >= 1 || returned { open(tier: k + 1, ready: &ready) }
    }

    /// Opens tier `k`: its tasks become ready; (v2.1) a tier of only tasks
    /// with `after` is done at once, and the next one opens in the same step.
    private func open(tier k: Int, ready: inout [Int32]) {
        var k = k
        while k < tiers.count {
            ready.append(contentsOf: tiers[k].map(Int32.init))
            guard remaining[k] == 0 else { return }
            k += 1
        }
    }
}
