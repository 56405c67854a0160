/// What `didFinishLaunching` does next on the main thread.
enum LaunchStep {
    /// Run this task on the main thread, inside `didFinishLaunching`.
    case run(Int)
    /// Block (not busy) until something changes.
    case wait
    /// Return from `didFinishLaunching`.
    case finish
}

/// A strategy, as seen by the engine: what `didFinishLaunching` does, and which
/// tasks become ready when. Tasks a policy *releases* are handed over by the
/// engine at that instant — `mainThreadOnly` ones to the main queue, the
/// others to the workers' ready set.
protocol LaunchPolicy {
    /// `didFinishLaunching` has started.
    mutating func launchBegan(releasing released: inout [Int])
    /// The next step of `didFinishLaunching`; asked again after every change
    /// while it waits.
    mutating func nextLaunchStep() -> LaunchStep
    /// `didFinishLaunching` has returned.
    mutating func launchReturned(releasing released: inout [Int])
    /// A task has ended.
    mutating func taskEnded(_ task: Int, releasing released: inout [Int])
}

/// An entry of the main queue.
struct MainQueueItem: Comparable {
    var time: Micros
    /// The task's rank position; −1 for `didFinishLaunching`.
    var rank: Int32
    /// The task; −1 for `didFinishLaunching`.
    var task: Int32

    static func < (a: Self, b: Self) -> Bool { (a.time, a.rank) < (b.time, b.rank) }
}

/// A worker task's end.
struct WorkerEnd: Comparable {
    var time: Micros
    var worker: Int32

    static func < (a: Self, b: Self) -> Bool { (a.time, a.worker) < (b.time, b.worker) }
}

/// The arrays of a finished run, handed to the next run of the same scenario
/// so that a sweep of thousands of runs allocates them once. Only their
/// capacity is reused: every simulator starts from cleared arrays.
struct SimulatorBuffers {
    var runs: [TaskRun] = []
    var commits: [Commit] = []
    var blocked: [TimeSpan] = []
    var released: [Int] = []
    var queue: [MainQueueItem] = []
    var snapshot: [MainQueueItem] = []
    var readySet: [Int32] = []
    var freeWorkers: [Int32] = []
    var workerEnds: [WorkerEnd] = []
    var workerTask: [Int] = []

    /// Moves all of `buffers` out, leaving empty ones.
    static func take(from buffers: inout SimulatorBuffers) -> SimulatorBuffers {
        var taken = SimulatorBuffers()
        swap(&taken, &buffers)
        return taken
    }

    /// Moves `array` out (leaving it empty), cleared but with its capacity.
    static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}

/// The discrete-event engine of MODEL.md §3: the main thread's run loop
/// (snapshots, commits, vsync), the workers and their ready set, and the order
/// of events within one instant. Strategies plug in through ``LaunchPolicy``.
///
/// - Complexity: O((n + e) log n) for n tasks and e dependencies: each task is
///   pushed and popped once from a heap, each dependency is visited once.
struct Simulator<Policy: LaunchPolicy> {
    enum MainWork: Equatable {
        case idle
        case task(Int)
        case commit
    }

    private var policy: Policy
    private let cost: [Micros]
    private let mainOnly: [Bool]
    private let ranking: Ranking
    private let commitCost: Micros
    private let renderTime: Micros
    private let frameInterval: Micros
    private let maxConcurrent: Int

    private var now: Micros = 0
    private var runs: [TaskRun]
    private var commits: [Commit]
    private var blocked: [TimeSpan]
    private var released: [Int]
    private var unfinished: Int

    // The main thread.
    private var mainWork = MainWork.idle
    private var mainEnd: Micros = 0
    private var queue: [MainQueueItem]
    private var snapshot: [MainQueueItem]
    private var cursor = 0
    private var iterationActive = false
    private var iterationStart: Micros = 0
    private var iteration: Int32 = 0
    private var commitStart: Micros = 0
    private var inLaunch = false
    private var launch = TimeSpan(start: 0, end: 0)
    private var blockedSince: Micros?

    // The workers.
    private var readySet: MinHeap<Int32>
    private var freeWorkers: MinHeap<Int32>
    private var workerEnds: MinHeap<WorkerEnd>
    private var workerTask: [Int]
    private var running = 0

    /// `cost`: each task's cost in µs (the scenario's, or sampled ones);
    /// `buffers`: arrays of an earlier run to reuse.
    init(
        scenario: Scenario, mainOnly: [Bool], cost: [Micros], ranking: Ranking, policy: Policy, maxConcurrent: Int,
        buffers: consuming SimulatorBuffers = SimulatorBuffers()
    ) {
        self.policy = policy
        self.ranking = ranking
        self.cost = cost
        self.mainOnly = mainOnly
        commitCost = scenario.device.commitCost
        renderTime = scenario.device.renderTime
        frameInterval = scenario.device.frameInterval
        self.maxConcurrent = maxConcurrent
        let workers = scenario.device.workerCount
        runs = SimulatorBuffers.take(&buffers.runs)
        runs.append(
            contentsOf: repeatElement(TaskRun(thread: -1, iteration: -1, ready: 0, start: 0, end: 0, done: 0, madeReady: 0, released: 0), count: cost.count)
        )
        commits = SimulatorBuffers.take(&buffers.commits)
        blocked = SimulatorBuffers.take(&buffers.blocked)
        released = SimulatorBuffers.take(&buffers.released)
        queue = SimulatorBuffers.take(&buffers.queue)
        snapshot = SimulatorBuffers.take(&buffers.snapshot)
        readySet = MinHeap(reusing: SimulatorBuffers.take(&buffers.readySet))
        var free = SimulatorBuffers.take(&buffers.freeWorkers)
        free.append(contentsOf: 1...Int32(workers))  // ascending: already a heap
        freeWorkers = MinHeap(reusing: free)
        workerEnds = MinHeap(reusing: SimulatorBuffers.take(&buffers.workerEnds))
        workerTask = SimulatorBuffers.take(&buffers.workerTask)
        workerTask.append(contentsOf: repeatElement(-1, count: workers + 1))
        unfinished = cost.count
    }

    /// The arrays, for the next run (the simulator is spent afterwards).
    mutating func takeBuffers() -> SimulatorBuffers {
        var buffers = SimulatorBuffers()
        swap(&buffers.runs, &runs)
        swap(&buffers.commits, &commits)
        swap(&buffers.blocked, &blocked)
        swap(&buffers.released, &released)
        swap(&buffers.queue, &queue)
        swap(&buffers.snapshot, &snapshot)
        buffers.readySet = readySet.takeStorage()
        buffers.freeWorkers = freeWorkers.takeStorage()
        buffers.workerEnds = workerEnds.takeStorage()
        swap(&buffers.workerTask, &workerTask)
        return buffers
    }

    /// Runs the launch from `t0` (the end of pre-main) until nothing is left to do.
    mutating func run(from t0: Micros) -> (tasks: [TaskRun], commits: [Commit], blocked: [TimeSpan], launch: TimeSpan) {
        now = t0
        queue.append(MainQueueItem(time: t0, rank: -1, task: -1))
        while true {
            // Step 2: the main thread, then the workers, until neither moves.
            while true {
                let mainMoved = advanceMain()
                let workersMoved = advanceWorkers()
                if !mainMoved && !workersMoved { break }
            }
            // Step 3: the next end time.
            var next = Micros.max
            if mainWork != .idle { next = mainEnd }
            if let end = workerEnds.min, end.time < next { next = end.time }
            if next == .max { break }
            now = next
            // Step 1: everything of positive duration that ends now.
            if mainWork != .idle && mainEnd == now { finishMainWork() }
            while let end = workerEnds.min, end.time == now {
                workerEnds.popMin()
                let worker = end.worker
                let task = workerTask[Int(worker)]
                freeWorkers.push(worker)
                running -= 1
                finish(task)
            }
        }
        precondition(unfinished == 0, "launchflow: the simulation stopped with \(unfinished) tasks left; this is a bug")
        return (runs, commits, blocked, launch)
    }

    // MARK: The main thread (MODEL.md §3, step 2a)

    /// Takes main-thread steps until it starts something of positive duration,
    /// is blocked, or sleeps with an empty queue. Returns whether anything changed.
    private mutating func advanceMain() -> Bool {
        var moved = false
        while mainWork == .idle {
            if inLaunch {
                switch policy.nextLaunchStep() {
                case .run(let task):
                    endBlock()
                    runs[task].ready = launch.start
                    moved = true
                    if startOnMain(task) { return true }
                    continue
                case .wait:
                    if blockedSince == nil {
                        blockedSince = now
                        moved = true
                    }
                    return moved
                case .finish:
                    endBlock()
                    inLaunch = false
                    launch.end = now
                    policy.launchReturned(releasing: &released)
                    handOverReleased()
                    moved = true
                    continue
                }
            }
            if iterationActive {
                moved = true
                if cursor < snapshot.count {
                    let item = snapshot[cursor]
                    cursor += 1
                    if item.task < 0 {
                        inLaunch = true
                        launch = TimeSpan(start: now, end: now)
                        policy.launchBegan(releasing: &released)
                        handOverReleased()
                    } else if startOnMain(Int(item.task)) {
                        return true
                    }
                    continue
                }
                commitStart = now
                if commitCost > 0 {
                    mainWork = .commit
                    mainEnd = now + commitCost
                    return true
                }
                finishCommit()
                continue
            }
            guard !queue.isEmpty else { return moved }
            takeSnapshot()
            moved = true
        }
        return moved
    }

    /// Starts `task` on the main thread; true if it occupies the thread (positive cost).
    private mutating func startOnMain(_ task: Int) -> Bool {
        runs[task] = TaskRun(thread: 0, iteration: iteration, ready: runs[task].ready, start: now, end: now, done: now, madeReady: runs[task].ready, released: runs[task].ready)
        if cost[task] > 0 {
            mainWork = .task(task)
            mainEnd = now + cost[task]
            return true
        }
        finish(task)
        return false
    }

    private mutating func finishMainWork() {
        let work = mainWork
        mainWork = .idle
        switch work {
        case .task(let task): finish(task)
        case .commit: finishCommit()
        case .idle: break
        }
    }

    /// A new run-loop iteration: the whole queue, by enqueue time then rank.
    private mutating func takeSnapshot() {
        swap(&snapshot, &queue)
        queue.removeAll(keepingCapacity: true)
        if !isSorted(snapshot) { snapshot.sort() }
        cursor = 0
        iterationActive = true
        iterationStart = now
    }

    private func isSorted(_ items: [MainQueueItem]) -> Bool {
        var i = 1
        while i < items.count {
            if items[i] < items[i - 1] { return false }
            i += 1
        }
        return true
    }

    private mutating func finishCommit() {
        let presentable = now + renderTime
        let presented = (presentable + frameInterval - 1) / frameInterval * frameInterval
        commits.append(Commit(iterationStart: iterationStart, start: commitStart, end: now, presented: presented))
        iterationActive = false
        iteration += 1
    }

    private mutating func endBlock() {
        guard let since = blockedSince else { return }
        if now > since { blocked.append(TimeSpan(start: since, end: now)) }
        blockedSince = nil
    }

    // MARK: The workers (MODEL.md §3, step 2b)

    /// Free workers, lowest index first, take the best-ranked ready tasks.
    private mutating func advanceWorkers() -> Bool {
        var moved = false
        while running < maxConcurrent, !readySet.isEmpty, let worker = freeWorkers.min {
            let task = ranking.task(atRank: readySet.popMin()!)
            runs[task] = TaskRun(thread: worker, iteration: -1, ready: runs[task].ready, start: now, end: now, done: now, madeReady: runs[task].ready, released: runs[task].ready)
            moved = true
            if cost[task] == 0 {
                finish(task)
                continue
            }
            freeWorkers.popMin()
            running += 1
            workerTask[Int(worker)] = task
            workerEnds.push(WorkerEnd(time: now + cost[task], worker: worker))
        }
        return moved
    }

    // MARK: Effects

    private mutating func finish(_ task: Int) {
        runs[task].end = now
        runs[task].done = now
        unfinished -= 1
        policy.taskEnded(task, releasing: &released)
        handOverReleased()
    }

    /// Hands the released tasks over at `now`: main-thread-only tasks to the
    /// main queue, the others to the ready set.
    private mutating func handOverReleased() {
        guard !released.isEmpty else { return }
        for task in released {
            runs[task].ready = now
            let rank = ranking.rank(of: task)
            if mainOnly[task] {
                queue.append(MainQueueItem(time: now, rank: rank, task: Int32(task)))
            } else {
                readySet.push(rank)
            }
        }
        released.removeAll(keepingCapacity: true)
    }
}

/// Tasks ordered by rank `(priority, index)`: position 0 is the best.
struct Ranking: Sendable {
    private let rankOf: [Int32]
    private let taskAt: [Int32]

    /// - Complexity: O(n): a stable radix sort of the indices by priority
    ///   (priorities are below 2²⁰), so ties keep index order.
    init(tasks: [LaunchTask]) {
        let n = tasks.count
        var order = Array(0..<n)
        let priority = tasks.map(\.priority)
        if zip(priority, priority.dropFirst()).contains(where: { $0 > $1 }) {
            var buffer = [Int](repeating: 0, count: n)
            for shift in stride(from: 0, to: 21, by: 11) {  // two passes of 11 bits
                var counts = [Int](repeating: 0, count: 2049)
                for i in order { counts[((priority[i] >> shift) & 2047) + 1] += 1 }
                for b in 0..<2048 { counts[b + 1] += counts[b] }
                for i in order {
                    let bucket = (priority[i] >> shift) & 2047
                    buffer[counts[bucket]] = i
                    counts[bucket] += 1
                }
                swap(&order, &buffer)
            }
        }
        var rankOf = [Int32](repeating: 0, count: n)
        for (position, task) in order.enumerated() { rankOf[task] = Int32(position) }
        self.rankOf = rankOf
        taskAt = order.map(Int32.init)
    }

    @inline(__always) func rank(of task: Int) -> Int32 { rankOf[task] }
    @inline(__always) func task(atRank rank: Int32) -> Int { Int(taskAt[Int(rank)]) }
}
