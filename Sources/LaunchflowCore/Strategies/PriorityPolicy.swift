/// `priority` (MODEL.md §4): tiers are the distinct priorities, ascending.
///
/// `didFinishLaunching` hands tier 0's worker tasks to the ready set, runs its
/// `mainThreadOnly` tasks on the main thread in index order, blocks until the
/// tier's worker tasks are done, and returns; then tier 1 opens. Each later
/// tier opens the instant the last task of the one before it ends.
/// `dependsOn` is ignored here (violations are counted by the metrics).
///
/// - Complexity: O(n) besides the engine's heaps.
struct PriorityPolicy: LaunchPolicy {
    /// The tasks of each tier, in index order.
    private let tiers: [[Int]]
    private let tierOf: [Int32]
    /// Tasks of each tier not yet ended.
    private var remaining: [Int]
    /// Tier 0's main-thread tasks, which `didFinishLaunching` runs itself.
    private let launchTasks: [Int]
    /// Tier 0's other tasks, which `didFinishLaunching` hands to the workers.
    private let workerTasksOfTierZero: [Int]
    private var nextLaunchTask = 0

    /// Builds the tiers from the ranking: in rank order, the tasks of a tier
    /// are contiguous and in index order.
    init(tasks: [LaunchTask], ranking: Ranking) {
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
        remaining = tiers.map(\.count)
        launchTasks = tiers.first?.filter { tasks[$0].mainThreadOnly } ?? []
        workerTasksOfTierZero = tiers.first?.filter { !tasks[$0].mainThreadOnly } ?? []
    }

    mutating func launchBegan(releasing released: inout [Int]) {
        released.append(contentsOf: workerTasksOfTierZero)
    }

    mutating func nextLaunchStep() -> LaunchStep {
        if nextLaunchTask < launchTasks.count {
            defer { nextLaunchTask += 1 }
            return .run(launchTasks[nextLaunchTask])
        }
        return remaining.isEmpty || remaining[0] == 0 ? .finish : .wait
    }

    mutating func launchReturned(releasing released: inout [Int]) {
        open(tier: 1, releasing: &released)
    }

    mutating func taskEnded(_ task: Int, releasing released: inout [Int]) {
        let k = Int(tierOf[task])
        remaining[k] -= 1
        // Tier 0 ends inside didFinishLaunching; its return opens tier 1.
        if k >= 1 && remaining[k] == 0 { open(tier: k + 1, releasing: &released) }
    }

    private func open(tier k: Int, releasing released: inout [Int]) {
        if k < tiers.count { released.append(contentsOf: tiers[k]) }
    }
}
