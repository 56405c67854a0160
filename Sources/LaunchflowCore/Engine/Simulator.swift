// The main and idle queues' entries are `HandOver`s (LaunchflowModel/Rules),
// the runtime's as well.

/// A worker task's end.
struct WorkerEnd: Comparable {
    var time: Micros
    var worker: Int32

    static func < (a: Self, b: Self) -> Bool { (a.time, a.worker) < (b.time, b.worker) }
}

/// A task's release after a positive `delay`, its done after a positive
/// `latency`, or (v2.1) the first frame's presentation, which releases the
/// tasks held for it.
struct Timer: Comparable {
    var time: Micros
    /// `task × 2` for a release, `task × 2 + 1` for done, ``firstFramePresented``.
    var code: Int32

    static let firstFramePresented: Int32 = -1

    static func < (a: Self, b: Self) -> Bool { (a.time, a.code) < (b.time, b.code) }
}

/// What the engine keeps of its own for the shared steps of a task's way
/// (``LaunchFlow``): each task's run, the timers of its clock, the workers'
/// ready set, and the main and idle queues.
struct EngineTargets: ~Copyable, HandOverTargets {
    /// One entry per task, each written before it is read.
    var runs: FixedArray<TaskRun>
    /// Releases after a delay and dones after a latency.
    var timers: FixedHeap<Timer>
    /// The ranks of the tasks handed to the workers and not yet started.
    var readySet: FixedHeap<Int32>
    /// The main queue, in hand-over order while `mainQueueSorted`; the
    /// snapshot sorts it otherwise (an item handed over while
    /// `didFinishLaunching` ran, back from a take-out, may come after later ones).
    var mainQueue: [HandOver]
    var mainQueueSorted = true
    var idleQueue = MinHeap<HandOver>()

    init(runs: consuming FixedArray<TaskRun>, taskCount n: Int, mainQueue: [HandOver]) {
        self.runs = runs
        // A task is in the ready set, or waits for one timer (its release,
        // then its done), at most once at a time; plus the first frame's.
        readySet = FixedHeap(capacity: n)
        timers = FixedHeap(capacity: n + 1)
        self.mainQueue = mainQueue
        // (See `LaunchQueues.init`: a buffer of its own, even if it stays empty.)
        idleQueue.reserveCapacity(1)
    }

    @inline(__always)
    mutating func record(_ stamp: RunStamp, of task: Int, at time: Micros) { runs[task].record(stamp, at: time) }

    @inline(__always)
    mutating func releaseLater(_ task: Int, after delay: Micros, now: Micros) {
        timers.push(Timer(time: now + delay, code: Int32(task) << 1))
    }

    @inline(__always)
    mutating func handToWorkers(rank: Int32) { readySet.push(rank) }

    @inline(__always)
    mutating func handToMainQueue(_ item: HandOver) {
        if mainQueueSorted, let last = mainQueue.last, item < last { mainQueueSorted = false }
        mainQueue.append(item)
    }

    @inline(__always)
    mutating func handToIdleQueue(_ item: HandOver, launchReturned: Bool) { idleQueue.push(item) }
}

/// The growing arrays of a finished run, handed to the next run of the same
/// scenario so that a sweep of thousands of runs allocates them once. Only
/// their capacity is reused: every simulator starts from cleared arrays. (The
/// state whose size is known up front is ``FixedArray``s and ``FixedHeap``s.)
struct SimulatorBuffers {
    var runs: [TaskRun] = []
    var commits: [Commit] = []
    var blocked: [TimeSpan] = []
    var ready: [Int32] = []
    var queue: [HandOver] = []
    var snapshot: [HandOver] = []

    /// Moves all of `buffers` out, leaving empty ones.
    static func take(from buffers: inout SimulatorBuffers) -> SimulatorBuffers {
        var taken = SimulatorBuffers()
        swap(&taken, &buffers)
        return taken
    }

    /// Moves `array` out (leaving it empty), cleared but with its capacity —
    /// and a buffer of its own even on the first run (see ``Simulator/init``).
    static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        taken.reserveCapacity(1)
        return taken
    }
}

/// What the engine needs of one run besides the strategy: per-task costs
/// and latencies (the scenario's, or sampled ones), and the fixed facts.
struct RunInputs {
    var cost: [Micros]
    var latency: [Micros]
    var delay: [Micros]
    /// Each task's queue number, −1 for none.
    var queueOf: [Int32]
    var queueCount: Int
    var inputs: [UserInput]
    var idleMode: IdleMode
    /// At most this many worker tasks in flight (`Int.max`: no limit).
    var maxInFlight: Int
    /// (v2.1) The tasks with `after`, held until the first frame is
    /// presented; empty when the scenario has none.
    var deferred: [Bool]
    /// (v2.1) The `firstFrame` tasks (empty when nothing is deferred: only
    /// the hold needs to know when the first frame is presented).
    var firstFrame: [Bool]
    var firstFrameCount: Int
}

/// A finished run of the engine.
struct RunOutcome {
    var tasks: [TaskRun]
    var commits: [Commit]
    var blocked: [TimeSpan]
    var launch: TimeSpan
    var inputs: [InputRun]
    var launchPhases: [LaunchPhaseRun]
    /// (§3.13) Each task's cluster (``ClusterCores/taskClusters()``); empty without clusters.
    var taskClusters: [Int32] = []
}

/// The discrete-event engine of MODEL.md §3: the main thread's run loop
/// (snapshots, inputs, idle steps, commits, vsync), the workers and their
/// ready set, serial queues, delays and latencies, and the order of events
/// within one instant. Strategies plug in through ``LaunchPolicy``.
///
/// The main thread is a small state machine (``MainPhase``) plus what it is
/// busy with (``MainWork``); ``run(from:)`` reads as §3's three steps.
///
/// - Complexity: O((n + e + q) log n) for n tasks, e dependencies and q
///   inputs: each task passes through a few heaps once, each dependency is
///   visited once.
struct Simulator<Policy: LaunchPolicy>: ~Copyable {
    /// Where the main thread is in its run loop.
    enum MainPhase {
        /// No iteration: sleeps until the main queue, the idle queue or (after
        /// iteration 0) a pending input has work.
        case asleep
        /// Inside `didFinishLaunching` (iteration 0): asking the strategy for its next step.
        case launching
        /// Running the snapshot's inputs, then its items, then the idle step, then the commit.
        case iterating
    }

    /// What the main thread is busy with until `mainEnd`.
    enum MainWork: Equatable {
        case nothing
        case task(Int)
        case input(Int)
        case commit
        /// (§3.12) Launch phase k's own cost.
        case phase(Int)
    }

    private let plan: StrategyPlan
    private let run: RunInputs
    private let commitCost: Micros
    private let renderTime: Micros
    private let frameInterval: Micros

    private var now: Micros = 0
    private var commits: [Commit]
    private var inputRuns: [InputRun]
    private var notDone: Int

    /// The policy, a task's way from ready to handed over (the first-frame
    /// hold, serial queues, the main operation queue of §3.11, the routes)
    /// and `didFinishLaunching`'s state, with their steps, shared with the
    /// runtime; they act on `targets`: the runs, timers and the queues the
    /// engine hands tasks to.
    private var flow: LaunchFlow<Policy>
    private var targets: EngineTargets

    // The main thread.
    private var phase = MainPhase.asleep
    private var work = MainWork.nothing
    private var mainEnd: Micros = 0
    private var snapshot: [HandOver]
    private var cursor = 0
    private var snapshotInputs: Range<Int> = 0..<0
    private var inputCursor = 0
    private var idleStepTaken = false
    private var iteration: Int32 = 0
    private var iterationStart: Micros = 0
    private var iterationRanWork = false
    private var commitStart: Micros = 0

    // (§3.12) The launch phases: their costs, the one that runs
    // `didFinishLaunching` (−1: none, dFL is iteration 0's item), how each ran,
    // and whether that phase's cost has run and dFL is to start.
    private let phaseCosts: [Micros]
    private let startPhase: Int
    private var phaseRuns: [LaunchPhaseRun]
    private var launchDue = false

    // Inputs, by arrival: `inputOrder[firstPending..<arrived]` are pending.
    private let inputOrder: [Int]
    private var arrived = 0
    private var firstPending = 0

    // (v2.1) The hold for the first frame (the held tasks are in
    // `flow.queues`, and when the first-frame commit is presented is
    // `flow.firstFrameOnScreen`): the `firstFrame` tasks not yet run.
    private var firstFrameLeft: Int

    // The workers (their ready set is in `targets`).
    private var freeWorkers: FixedHeap<Int32>
    private var workerEnds: FixedHeap<WorkerEnd>
    private var workerTask: FixedArray<Int>
    private var inFlight = 0

    // (§3.10) CPU contention, only with `cpus` < `cores` (otherwise every rate
    // is 1 and the loop below never looks at these). The main thread's item
    // has `mainLeft` µs of work left; a running worker item is in
    // `workerWork` keyed by its cost plus `workerWorkDone` when it started, so
    // that its work left is its key − `workerWorkDone` (every running worker
    // progresses at the same rate, so one counter advances them all).
    private let contended: Bool
    private let cpus: Int
    private let mainThreadPriority: Bool
    private var mainLeft: Micros = 0
    private var workerWork: FixedHeap<WorkerEnd>
    private var workerWorkDone: Micros = 0

    // (§3.13) Performance and efficiency cores: every running item gets a
    // core (or a share of several) by its QoS at every visited instant, so
    // each running worker keeps its own work left. Only with `clusters`.
    private var clusters: ClusterCores?
    /// `clusters != nil`, kept apart: testing the optional itself copies it
    /// (its arrays retained and released) at every event of every run.
    private let onClusters: Bool
    private var clusterEnded: [Int32] = []

    /// Runs `policy` on the scenario from `t0` (the end of pre-main) until
    /// nothing is left to do, reusing the arrays of `buffers` and leaving
    /// this run's there.
    static func run(
        scenario: Scenario, plan: StrategyPlan, run: RunInputs, policy: Policy, from t0: Micros,
        buffers: inout SimulatorBuffers
    ) -> RunOutcome {
        let n = run.cost.count
        // Every field of every task's run is written before it is read (every
        // run ends with every task done), so an earlier run's array of the
        // same size is reused as it is.
        var runs = buffers.runs
        buffers.runs = []
        if runs.count != n {
            runs = Array(
                repeating: TaskRun(
                    thread: -1, iteration: -1, ready: 0, start: 0, end: 0, done: 0, madeReady: 0, released: 0),
                count: n)
        }
        var rest = SimulatorBuffers.take(from: &buffers)
        var outcome = runs.withUnsafeMutableBufferPointer { runs in
            var simulator = Simulator(
                scenario: scenario, plan: plan, run: run, policy: policy, runs: FixedArray(borrowing: runs),
                buffers: rest)
            let outcome = simulator.run(from: t0)
            rest = simulator.takeBuffers()
            return outcome
        }
        outcome.tasks = runs
        buffers = rest
        buffers.runs = runs
        return outcome
    }

    /// - Parameter runs: one entry per task, each written before it is read.
    private init(
        scenario: Scenario, plan: StrategyPlan, run: RunInputs, policy: Policy, runs: consuming FixedArray<TaskRun>,
        buffers: consuming SimulatorBuffers
    ) {
        self.plan = plan
        self.run = run
        commitCost = scenario.device.commitCost
        renderTime = scenario.device.renderTime
        frameInterval = scenario.device.frameInterval
        let workers = scenario.device.workerCount
        let n = run.cost.count
        commits = SimulatorBuffers.take(&buffers.commits)
        snapshot = SimulatorBuffers.take(&buffers.snapshot)
        targets = EngineTargets(runs: runs, taskCount: n, mainQueue: SimulatorBuffers.take(&buffers.queue))
        firstFrameLeft = run.firstFrameCount
        freeWorkers = FixedHeap(capacity: workers)
        for worker in 1...Int32(workers) { freeWorkers.push(worker) }
        workerEnds = FixedHeap(capacity: workers)
        workerTask = FixedArray(repeating: -1, count: workers + 1)
        contended = scenario.device.sharesCPUs
        onClusters = scenario.device.hasClusters
        clusters =
            onClusters
            ? ClusterCores(device: scenario.device, workers: workers, qos: scenario.tasks.map(\.qos)) : nil
        cpus = scenario.device.cpuCount
        mainThreadPriority = scenario.device.mainThreadPriority
        workerWork = FixedHeap(capacity: contended ? workers : 0)
        flow = LaunchFlow(
            policy: policy,
            queues: LaunchQueues(
                plan: plan, queueOf: run.queueOf, queueCount: run.queueCount, delay: run.delay,
                deferred: run.deferred, mainExecutor: scenario.mainExecutor),
            ready: SimulatorBuffers.take(&buffers.ready), blocked: SimulatorBuffers.take(&buffers.blocked))
        // Arrays that stay empty in many scenarios (no inputs; `flow` and
        // `targets` do the same with theirs) still get a buffer of their
        // own: the shared empty buffer is never uniquely referenced, so a
        // uniqueness check that the optimiser hoists out of a loop would
        // "copy" it on every call.
        inputRuns = run.inputs.indices.map { InputRun(input: $0, at: run.inputs[$0].at, start: 0, end: 0) }
        inputRuns.reserveCapacity(1)
        inputOrder = run.inputs.indices.sorted { (run.inputs[$0].at, $0) < (run.inputs[$1].at, $1) }
        notDone = n
        phaseCosts = scenario.launchPhases.map(\.cost)
        startPhase = scenario.startPhase ?? -1
        phaseRuns = []
    }

    /// The arrays, for the next run (the simulator is spent afterwards).
    private mutating func takeBuffers() -> SimulatorBuffers {
        var buffers = SimulatorBuffers()
        swap(&buffers.commits, &commits)
        swap(&buffers.blocked, &flow.blocked)
        swap(&buffers.ready, &flow.ready)
        swap(&buffers.queue, &targets.mainQueue)
        swap(&buffers.snapshot, &snapshot)
        return buffers
    }

    /// Runs the launch from `t0` until nothing is left to do; the outcome's
    /// `tasks` are left empty (they are the borrowed `runs`).
    private mutating func run(from t0: Micros) -> RunOutcome {
        now = t0
        arriveInputs()
        if phaseCosts.isEmpty {
            targets.mainQueue.append(HandOver(time: t0, rank: -1, task: HandOver.didFinishLaunching))
        } else {
            // (§3.12) Iteration 0 holds the phases; the `startsIn` one runs dFL.
            for k in phaseCosts.indices {
                targets.mainQueue.append(HandOver.launchPhase(k, of: phaseCosts.count, at: t0))
            }
            phaseRuns = Array(repeating: LaunchPhaseRun(start: t0, costEnd: t0, end: t0), count: phaseCosts.count)
        }
        while true {
            // End of step 1: free queues admit.
            flow.admit(at: now, &targets)
            // Step 2: the main thread, then the workers, until neither moves.
            while true {
                // (The checks before each call skip the call when nothing can move.)
                let mainMoved = work == .nothing && advanceMain()
                let workersMoved =
                    !targets.readySet.isEmpty && inFlight < run.maxInFlight && !freeWorkers.isEmpty && advanceWorkers()
                if !mainMoved && !workersMoved { break }
            }
            // Step 3: the next event.
            var next = Micros.max
            if onClusters {
                next = advanceOnClusters()
            } else if contended {
                next = advanceSharingCPUs()
            } else {
                if work != .nothing { next = mainEnd }
                if let end = workerEnds.min, end.time < next { next = end.time }
                if let timer = targets.timers.min, timer.time < next { next = timer.time }
                if arrived < inputOrder.count, run.inputs[inputOrder[arrived]].at < next {
                    next = run.inputs[inputOrder[arrived]].at
                }
            }
            if next == .max { break }
            now = next
            // Step 1: every event at `now`.
            if work != .nothing && mainEnd == now { finishMainWork() }
            while let end = workerEnds.min, end.time == now {
                workerEnds.popMin()
                freeWorkers.push(end.worker)
                taskEnded(workerTask[Int(end.worker)])
            }
            while let timer = targets.timers.min, timer.time == now {
                targets.timers.popMin()
                if timer.code == Timer.firstFramePresented {
                    flow.releaseHeldForFirstFrame(at: now, &targets)
                    continue
                }
                let task = Int(timer.code >> 1)
                if timer.code & 1 == 0 {
                    flow.release(task, at: now, &targets)
                } else {
                    taskDone(task, onWorker: targets.runs[task].thread > 0)
                }
            }
            arriveInputs()
        }
        precondition(notDone == 0, "launchflow: the simulation stopped with \(notDone) tasks not done; this is a bug")
        return RunOutcome(
            tasks: [], commits: commits, blocked: flow.blocked, launch: flow.launch, inputs: inputRuns,
            launchPhases: phaseRuns,
            taskClusters: clusters?.taskClusters() ?? [])
    }

    // MARK: The main thread (MODEL.md §3, step 2a)

    /// Takes main-thread steps until it starts something of positive duration,
    /// is blocked, or sleeps. Returns whether anything changed.
    private mutating func advanceMain() -> Bool {
        var moved = false
        while work == .nothing {
            switch phase {
            case .asleep:
                guard !targets.mainQueue.isEmpty || !targets.idleQueue.isEmpty || (iteration > 0 && inputPending) else {
                    return moved
                }
                takeSnapshot()
                moved = true
            case .launching:
                switch flow.nextLaunchMove(at: now, &targets) {
                case .run(let task):
                    moved = true
                    if startOnMain(task) { return true }
                case .blocked(let changed):
                    return moved || changed
                case .returned:
                    moved = true
                    phase = .iterating
                    if startPhase >= 0 { phaseRuns[startPhase].end = now }
                }
            case .iterating:
                moved = true
                if launchDue {
                    // (§3.12) The `startsIn` phase's own work is done: dFL runs in it.
                    launchDue = false
                    beginLaunch()
                } else if inputCursor < snapshotInputs.count {
                    let input = inputOrder[snapshotInputs.lowerBound + inputCursor]
                    inputCursor += 1
                    if startInput(input) { return true }
                } else if cursor < snapshot.count {
                    let item = snapshot[cursor]
                    cursor += 1
                    if item.task == HandOver.didFinishLaunching {
                        beginLaunch()
                    } else if item.task < 0 {
                        if startPhase(Int(-2 - item.task)) { return true }
                    } else if startOnMain(Int(item.task)) {
                        return true
                    }
                } else if !idleStepTaken {
                    idleStepTaken = true
                    if targets.mainQueue.isEmpty && !inputPending && !targets.idleQueue.isEmpty { takeIdleTasks() }
                } else {
                    commitStart = now
                    if commitCost > 0 {
                        work = .commit
                        mainEnd = now + commitCost
                        mainLeft = commitCost
                        return true
                    }
                    finishCommit()
                }
            }
        }
        return moved
    }

    private var inputPending: Bool { firstPending < arrived }

    /// A new run-loop iteration: the whole main queue by enqueue time then
    /// rank, and (from iteration 1 on) every pending input.
    private mutating func takeSnapshot() {
        swap(&snapshot, &targets.mainQueue)
        targets.mainQueue.removeAll(keepingCapacity: true)
        if !targets.mainQueueSorted { snapshot.sort() }
        targets.mainQueueSorted = true
        cursor = 0
        if iteration > 0 {
            snapshotInputs = firstPending..<arrived
            firstPending = arrived
        } else {
            snapshotInputs = 0..<0
        }
        inputCursor = 0
        idleStepTaken = false
        iterationStart = now
        iterationRanWork = false
        phase = .iterating
    }

    /// The idle step: every waiting idle task (`batch`) or the first (`oneByOne`)
    /// become items of this iteration.
    private mutating func takeIdleTasks() {
        snapshot.removeAll(keepingCapacity: true)
        cursor = 0
        if run.idleMode == .batch {
            while let item = targets.idleQueue.popMin() { snapshot.append(item) }
        } else if let item = targets.idleQueue.popMin() {
            snapshot.append(item)
        }
    }

    private mutating func beginLaunch() {
        phase = .launching
        iterationRanWork = true
        flow.beginLaunch(at: now, &targets)
    }

    /// Starts `task` on the main thread; true if it occupies the thread (positive cost).
    private mutating func startOnMain(_ task: Int) -> Bool {
        iterationRanWork = true
        if flow.queues.holdsForFirstFrame && run.firstFrame[task] { firstFrameLeft -= 1 }
        targets.runs[task].start(on: 0, iteration: iteration, at: now)
        if run.cost[task] > 0 {
            work = .task(task)
            mainEnd = now + run.cost[task]
            mainLeft = run.cost[task]
            return true
        }
        taskEnded(task)
        flow.admit(at: now, &targets)
        return false
    }

    /// (§3.12) Starts launch phase `k`; true if it occupies the thread (positive cost).
    private mutating func startPhase(_ k: Int) -> Bool {
        phaseRuns[k].start = now
        if phaseCosts[k] > 0 {
            work = .phase(k)
            mainEnd = now + phaseCosts[k]
            mainLeft = phaseCosts[k]
            return true
        }
        phaseCostRan(k)
        return false
    }

    /// (§3.12) Phase `k`'s own work has run: it ends, or (the `startsIn`
    /// phase) runs dFL as the main thread's next step and ends when dFL returns.
    private mutating func phaseCostRan(_ k: Int) {
        phaseRuns[k].costEnd = now
        phaseRuns[k].end = now
        if k == startPhase { launchDue = true }
    }

    private mutating func startInput(_ input: Int) -> Bool {
        inputRuns[input].start = now
        let cost = run.inputs[input].cost
        if cost > 0 {
            work = .input(input)
            mainEnd = now + cost
            mainLeft = cost
            return true
        }
        inputRuns[input].end = now
        return false
    }

    @inline(__always)
    private mutating func finishMainWork() {
        let finished = work
        work = .nothing
        switch finished {
        case .task(let task): taskEnded(task)
        case .input(let input): inputRuns[input].end = now
        case .commit: finishCommit()
        case .phase(let k): phaseCostRan(k)
        case .nothing: break
        }
    }

    private mutating func finishCommit() {
        let presentable = now + renderTime
        let presented = (presentable + frameInterval - 1) / frameInterval * frameInterval
        commits.append(
            Commit(
                iterationStart: iterationStart, start: commitStart, end: now, presented: presented,
                ranWork: iterationRanWork))
        iteration += 1
        phase = .asleep
        // (v2.1) The first-frame commit: every `firstFrame` task has run. Its
        // presentation releases the held tasks, an event of that instant
        // (a further step 1 when it is this very instant).
        if flow.queues.holdsForFirstFrame && firstFrameLeft == 0 && flow.firstFrameOnScreen == .max {
            flow.firstFrameOnScreen = presented
            targets.timers.push(Timer(time: presented, code: Timer.firstFramePresented))
        }
    }

    // MARK: The workers (MODEL.md §3, step 2b)

    /// Free workers, lowest index first, take the best-ranked ready tasks
    /// while fewer than `maxInFlight` worker tasks are in flight.
    private mutating func advanceWorkers() -> Bool {
        var moved = false
        while inFlight < run.maxInFlight, !targets.readySet.isEmpty, let worker = freeWorkers.min {
            let task = plan.ranking.task(atRank: targets.readySet.popMin()!)
            targets.runs[task].start(on: worker, iteration: -1, at: now)
            inFlight += 1
            moved = true
            if run.cost[task] == 0 {
                taskEnded(task)
                flow.admit(at: now, &targets)
                continue
            }
            freeWorkers.popMin()
            workerTask[Int(worker)] = task
            if onClusters {
                clusters!.start(task, cost: run.cost[task], on: worker)
            } else if contended {
                workerWork.push(WorkerEnd(time: workerWorkDone + run.cost[task], worker: worker))
            } else {
                workerEnds.push(WorkerEnd(time: now + run.cost[task], worker: worker))
            }
        }
        return moved
    }

    // MARK: CPU contention (MODEL.md §3.10)

    /// Step 3 when threads share CPUs: the next instant — the earliest end
    /// projected from the running items' work left and rates (those after
    /// step 2 at `now`), timer or input arrival — after which every running
    /// item has lost ⌊elapsed × rate⌋ µs of work; those left with none end
    /// there (their ends become events of that instant's step 1). `.max`
    /// when nothing is left to happen.
    private mutating func advanceSharingCPUs() -> Micros {
        let mainRunning = work != .nothing
        let running = workerWork.count
        // The rates n/d: the main thread's, and every running worker's.
        var mainRate = (n: 1, d: 1)
        var workerRate = (n: 1, d: 1)
        if mainThreadPriority {
            // The main thread keeps a CPU while it runs; the workers share the rest.
            let shared = mainRunning ? cpus - 1 : cpus
            if running > shared { workerRate = (shared, running) }
        } else {
            let threads = running + (mainRunning ? 1 : 0)
            if threads > cpus {
                mainRate = (cpus, threads)
                workerRate = (cpus, threads)
            }
        }
        var next = Micros.max
        if mainRunning { next = now + (mainLeft * mainRate.d + mainRate.n - 1) / mainRate.n }
        if workerRate.n > 0, let first = workerWork.min {
            let left = first.time - workerWorkDone
            next = Swift.min(next, now + (left * workerRate.d + workerRate.n - 1) / workerRate.n)
        }
        if let timer = targets.timers.min, timer.time < next { next = timer.time }
        if arrived < inputOrder.count, run.inputs[inputOrder[arrived]].at < next {
            next = run.inputs[inputOrder[arrived]].at
        }
        guard next != .max else { return next }
        let elapsed = next - now
        if mainRunning {
            mainLeft = Swift.max(0, mainLeft - elapsed * mainRate.n / mainRate.d)
            // Step 1 ends the main thread's item when `mainEnd` is the instant.
            mainEnd = mainLeft == 0 ? next : .max
        }
        if running > 0 {
            workerWorkDone += elapsed * workerRate.n / workerRate.d
            while let first = workerWork.min, first.time <= workerWorkDone {
                workerWork.popMin()
                workerEnds.push(WorkerEnd(time: next, worker: first.worker))
            }
        }
        return next
    }

    /// (§3.13) Step 3 on clusters of cores: the running items get their
    /// cores and rates (those after step 2 at `now`), and time moves to the
    /// earliest projected end, timer or input arrival; every running item has
    /// then lost ⌊elapsed × rate⌋ µs of work, and those left with none end
    /// there (events of that instant's step 1). `.max` when nothing is left.
    private mutating func advanceOnClusters() -> Micros {
        let mainRunning = work != .nothing
        var next = clusters!.assign(mainLeft: mainRunning ? mainLeft : nil, now: now)
        if let timer = targets.timers.min, timer.time < next { next = timer.time }
        if arrived < inputOrder.count, run.inputs[inputOrder[arrived]].at < next {
            next = run.inputs[inputOrder[arrived]].at
        }
        guard next != .max else { return next }
        clusters!.progress(by: next - now, mainLeft: &mainLeft, mainRunning: mainRunning, ended: &clusterEnded)
        for worker in clusterEnded { workerEnds.push(WorkerEnd(time: next, worker: worker)) }
        if mainRunning { mainEnd = mainLeft == 0 ? next : .max }
        return next
    }

    // MARK: A task's way (MODEL.md §3)

    private mutating func taskEnded(_ task: Int) {
        let latency = run.latency[task]
        targets.runs[task].end(at: now, doneAt: now + latency)
        flow.policy.taskEnded(task)
        if latency == 0 {
            taskDone(task, onWorker: targets.runs[task].thread > 0)
        } else {
            targets.timers.push(Timer(time: now + latency, code: Int32(task) << 1 | 1))
        }
    }

    /// `task` is done (its `done` time is already set).
    private mutating func taskDone(_ task: Int, onWorker: Bool) {
        notDone -= 1
        if onWorker { inFlight -= 1 }
        flow.taskDone(task, at: now, &targets)
    }

    // MARK: Inputs

    /// Inputs whose `at` has come are pending.
    @inline(__always)
    private mutating func arriveInputs() {
        if arrived < inputOrder.count { arrivePendingInputs() }
    }

    private mutating func arrivePendingInputs() {
        while arrived < inputOrder.count, run.inputs[inputOrder[arrived]].at <= now { arrived += 1 }
    }
}
