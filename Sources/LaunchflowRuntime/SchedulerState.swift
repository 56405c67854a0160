import LaunchflowModel

/// What the scheduler must do once it has left its lock.
enum Effect: Sendable, Equatable {
    /// Run `task` on worker `worker` (1-based, as in `worker-k`).
    case startOnWorker(worker: Int, task: Int)
    /// Post the block that drains the state's main queue to the main
    /// dispatch queue (``SchedulerState/beginMainDrain()``). One is posted
    /// when a task is handed to the main queue and none is waiting to run;
    /// it runs what the main queue holds when it starts, in the queue's
    /// order — so the tasks reach the main thread in the order the state
    /// decided, whenever the block reaches the dispatch queue.
    case postToMain
    /// Release `task` after `delay` µs (its `delay` key).
    case releaseAfter(task: Int, delay: Micros)
    /// `didFinishLaunching` is blocked and something changed.
    case wakeLaunch
    /// The main run loop sleeps with idle work waiting: one more iteration.
    case wakeRunLoop
    /// Start the completion watchdog of `task`.
    case watch(task: Int)
    /// Commit `index` ended at `time`: ask the frame clock when it is on screen.
    case commitEnded(index: Int, at: Micros)
    /// Release the tasks held for the first frame at `time` (µs; now or later).
    case releaseHeld(at: Micros)
    /// Every task is done and the iteration that finished them has committed.
    case complete
}

/// What `didFinishLaunching` does next on the main thread.
enum LaunchAction {
    /// Run this task's body now (already started on the main thread), unless `skipped`.
    case run(Int, skipped: Bool)
    case block
    case finish
    /// It would wait forever: nothing in flight can wake it (the tasks it waits for).
    case deadlock([Int])
}

/// The state of one launch: MODEL.md §3's machinery (a task's way from
/// ready to done: delay, the first-frame hold, its queue, the main, idle and
/// worker hand-overs, the run loop's iterations and commits) driven by real
/// events instead of a clock. The strategy's decisions come from its
/// ``LaunchPolicy`` — the same one the simulator's engine drives — and from
/// its ``StrategyPlan`` (rank, routes, take-outs); the steps of a task's way
/// from ready to handed over (hold, delay, serial queues, the main operation
/// queue, routes) and of `didFinishLaunching` from ``LaunchFlow``, which the
/// engine drives too, acting on this state's ``RuntimeTargets``.
///
/// Only ever used under the ``Scheduler``'s lock; every method takes the
/// launch clock's `now` (µs) and leaves what must be done outside the lock in
/// ``effects``; every update ends with ``settle(at:)``.
struct SchedulerState: Sendable {
    /// The policy, a task's way from ready to handed over and
    /// `didFinishLaunching`'s state, with their steps (shared with the engine).
    private var flow: LaunchFlow<AnyLaunchPolicy>
    /// What those steps act on: the runs, the effects, the ready set, the main and idle queues.
    private var targets: RuntimeTargets
    private let plan: StrategyPlan
    private let graph: TaskGraph
    /// The `firstFrame` tasks.
    private let firstFrame: [Bool]
    private let idleMode: IdleMode
    private let maxInFlight: Int
    private let failurePolicy: FailurePolicy

    var runs: [TaskRun] { targets.runs }
    private(set) var outcomes: [TaskOutcome]
    /// Each task's thread CPU time around its body (µs; 0 until it ran).
    private(set) var cpuTimes: [Micros]
    /// Each task's QoS as its body ran (nil until it ran).
    private(set) var qos: [TaskQoS?]
    private(set) var commits: [Commit] = []
    /// When `didFinishLaunching` was blocked.
    var blocked: [TimeSpan] { flow.blocked }
    /// When `didFinishLaunching` ran.
    var launch: TimeSpan { flow.launch }
    private(set) var problems: [LaunchProblem] = []
    /// What must be done outside the lock (the scheduler takes them after every update).
    var effects: [Effect] {
        get { targets.effects }
        set { targets.effects = newValue }
    }

    private var notDone: Int
    /// The running drain: the main queue as it was when its block started
    /// (a run-loop iteration's snapshot), and the next of them to start.
    private var drain: [HandOver] = []
    private var drainNext = 0

    // The main thread.
    /// Whether `didFinishLaunching` has returned.
    var launchReturned: Bool { flow.returned }
    private(set) var launchWaiting = false
    private(set) var iteration: Int32 = 0
    private var iterationStart: Micros = 0
    private var iterationRanWork = false
    private var commitStart: Micros?

    // The first frame: `firstFrame` tasks not yet run, and the commit that
    // showed it (when it is on screen is `flow.firstFrameOnScreen`; `flow.queues`
    // holds the `after` tasks until then).
    private var firstFrameLeft: Int
    private var firstFrameCommit: Int?

    // The workers (their ready set is in `targets`).
    private var freeWorkers: MinHeap<Int32>
    private var inFlight = 0

    // What can still wake a blocked `didFinishLaunching`: delays pending
    // (`targets`), tasks started and not done.
    private var running = 0
    /// A completion called before its body returned.
    private var completedEarly: [Bool]
    private var skip: [Bool]
    private(set) var finished = false

    init(
        scenario: Scenario, plan: StrategyPlan, inputs: StrategyInputs, workers: Int, maxConcurrent: Int?,
        idleMode: IdleMode, failurePolicy: FailurePolicy
    ) {
        let n = scenario.tasks.count
        self.plan = plan
        graph = inputs.graph
        flow = LaunchFlow(
            policy: AnyLaunchPolicy(plan.makePolicy()),
            queues: LaunchQueues(
                plan: plan, queueOf: inputs.queueOf, queueCount: inputs.queueCount, delay: inputs.delays,
                deferred: inputs.deferred, mainExecutor: scenario.mainExecutor))
        firstFrame = scenario.tasks.map(\.firstFrame)
        firstFrameLeft = firstFrame.lazy.filter { $0 }.count
        self.idleMode = idleMode
        maxInFlight = plan.limitsConcurrency ? (maxConcurrent ?? .max) : .max
        self.failurePolicy = failurePolicy
        targets = RuntimeTargets(taskCount: n)
        outcomes = Array(repeating: .notRun, count: n)
        cpuTimes = Array(repeating: 0, count: n)
        qos = Array(repeating: nil, count: n)
        notDone = n
        freeWorkers = MinHeap((1...Int32(Swift.max(1, workers))).map { $0 })
        completedEarly = [Bool](repeating: false, count: n)
        skip = [Bool](repeating: false, count: n)
    }

    // MARK: didFinishLaunching (MODEL.md §3, iteration 0)

    /// `didFinishLaunching` has started on the main thread.
    mutating func beginLaunch(at now: Micros) {
        iterationStart = now
        iterationRanWork = true
        flow.beginLaunch(at: now, &targets)
    }

    /// What `didFinishLaunching` does next. A `.run` task has been started
    /// on the main thread (its run recorded); run its body, then call ``ended(_:at:latencyPending:failure:)``.
    mutating func nextLaunchAction(at now: Micros) -> LaunchAction {
        launchWaiting = false
        switch flow.nextLaunchMove(at: now, &targets) {
        case .run(let task):
            startOnMain(task, at: now)
            return .run(task, skipped: skip[task])
        case .blocked:
            if running == 0 && targets.pendingDelays == 0 && targets.readySet.isEmpty && !flow.queues.hasTouchedQueues {
                flow.endBlock(at: now)
                return .deadlock(
                    (0..<targets.runs.count).filter { outcomes[$0] == .notRun && targets.runs[$0].thread < 0 })
            }
            launchWaiting = true
            return .block
        case .returned:
            return .finish
        }
    }

    // MARK: Tasks starting and ending

    /// The drain block starts on the main thread: it takes every task the
    /// main queue holds, in its order — the snapshot of MODEL.md §3's
    /// iteration; tasks handed over from now on wait for the next block,
    /// posted when the first of them comes. Returns how many it took.
    mutating func beginMainDrain() -> Int {
        targets.drainPosted = false
        drain.removeAll(keepingCapacity: true)
        drainNext = 0
        while let item = targets.mainQueue.popMin() { drain.append(item) }
        return drain.count
    }

    /// The drain's next task starts on the main thread: returned with
    /// whether to run its body (false: skipped).
    mutating func mainTaskStarts(at now: Micros) -> (task: Int, run: Bool) {
        precondition(drainNext < drain.count, "launchflow: the main-queue drain ran past its tasks; this is a bug")
        let task = Int(drain[drainNext].task)
        drainNext += 1
        startOnMain(task, at: now)
        return (task, !skip[task])
    }

    /// An idle task the idle step took is about to run: returns whether to run its body.
    mutating func idleTaskStarts(_ task: Int, at now: Micros) -> Bool {
        startOnMain(task, at: now)
        return !skip[task]
    }

    private mutating func startOnMain(_ task: Int, at now: Micros) {
        // The iteration starts with its first work (MODEL.md §3.3: when there is something for the main
        // thread), not when the one before it committed: the loop may have slept in between.
        if !iterationRanWork { iterationStart = now }
        iterationRanWork = true
        if firstFrame[task] { firstFrameLeft -= 1 }
        targets.runs[task].start(on: 0, iteration: iteration, at: now)
        running += 1
    }

    /// A worker is about to run `task`: returns whether to run its body.
    mutating func workerTaskStarts(_ task: Int, at now: Micros) -> Bool {
        targets.runs[task].start = now
        return !skip[task]
    }

    /// Whether `task` is skipped (a dependency failed).
    func isSkipped(_ task: Int) -> Bool { skip[task] }

    /// `task`'s body returned (or threw: `failure`). With `latencyPending`
    /// the task is done when its completion is called.
    mutating func ended(
        _ task: Int, at now: Micros, latencyPending: Bool, failure: String? = nil, cpuTime: Micros = 0,
        qos: TaskQoS? = nil
    ) {
        cpuTimes[task] = cpuTime
        self.qos[task] = qos
        targets.runs[task].end = now
        targets.runs[task].done = now
        let worker = targets.runs[task].thread
        if worker > 0 { freeWorkers.push(worker) }
        flow.policy.taskEnded(task)
        if let failure {
            problems.append(
                LaunchProblem(
                    task: taskID(task), kind: .taskFailed, message: "task '\(taskID(task))' failed: \(failure)"))
            fail(task, failure, at: now)
        } else if skip[task] {
            outcomes[task] = .skipped(because: taskID(skippedBecause(task)))
            done(task, at: now)
        } else if latencyPending && !completedEarly[task] {
            outcomes[task] = .waiting
            targets.effects.append(.watch(task: task))
        } else {
            outcomes[task] = .succeeded
            done(task, at: now)
        }
    }

    /// `task`'s completion was called. Returns false when it was not
    /// waiting for one (called after a timeout: reported).
    @discardableResult
    mutating func completed(_ task: Int, at now: Micros) -> Bool {
        switch outcomes[task] {
        case .notRun:
            // Called before the body returned: done when it returns.
            completedEarly[task] = true
            return true
        case .waiting:
            outcomes[task] = .succeeded
            targets.runs[task].done = now
            done(task, at: now)
            return true
        default:
            return false
        }
    }

    /// The watchdog of `task` fired: still waiting means it timed out.
    mutating func watchdogFired(_ task: Int, at now: Micros, after timeout: String) {
        guard outcomes[task] == .waiting else { return }
        targets.runs[task].done = now
        // The cause first, then the dependents it skips.
        problems.append(
            LaunchProblem(
                task: taskID(task), kind: .completionTimedOut,
                message: "task '\(taskID(task))': its completion was not called within \(timeout) of its start"
                    + (launchReturned
                        ? ""
                        : " (didFinishLaunching held the main thread meanwhile: a completion delivered on the main queue cannot run until it returns)")
            ))
        fail(task, "its completion was not called within \(timeout)", at: now)
    }

    /// An `async` body threw after its task had ended.
    mutating func failedLater(_ task: Int, _ reason: String, at now: Micros) {
        guard outcomes[task] == .waiting else { return }
        targets.runs[task].done = now
        problems.append(
            LaunchProblem(task: taskID(task), kind: .taskFailed, message: "task '\(taskID(task))' failed: \(reason)"))
        fail(task, reason, at: now)
    }

    /// A problem found outside the state (a completion called twice).
    mutating func report(_ problem: LaunchProblem) { problems.append(problem) }

    /// `task` was handed to `worker` after the launch had ended (the pool
    /// refused it): it did not run. Returns the problem recorded.
    mutating func cancelledOnWorker(_ task: Int, worker: Int, at now: Micros) -> LaunchProblem {
        outcomes[task] = .cancelled
        freeWorkers.push(Int32(worker))
        let problem = LaunchProblem(
            task: taskID(task), kind: .taskCancelled,
            message: "task '\(taskID(task))' was handed to worker-\(worker) after the launch had ended: it did not run")
        problems.append(problem)
        return problem
    }

    /// `didFinishLaunching` failed at `now`: the launch stops. It returns
    /// now; what waits in the main queue is cancelled (its drain block, if
    /// posted, finds nothing); nothing completes it any more.
    mutating func stop(at now: Micros) {
        flow.endBlock(at: now)
        flow.inLaunch = false
        launchWaiting = false
        flow.launch.end = now
        while let item = targets.mainQueue.popMin() { outcomes[Int(item.task)] = .cancelled }
        targets.drainPosted = false
        finished = true
    }

    private var ids: [String] = []
    mutating func setIDs(_ ids: [String]) { self.ids = ids }
    private func taskID(_ task: Int) -> String { task < ids.count ? ids[task] : "#\(task)" }

    private mutating func fail(_ task: Int, _ reason: String, at now: Micros) {
        outcomes[task] = .failed(reason)
        if failurePolicy == .skipDependents {
            let skipped = markDependentsSkipped(of: task)
            if !skipped.isEmpty {
                let names = skipped.sorted().map { "'\(taskID($0))'" }.joined(separator: ", ")
                problems.append(
                    LaunchProblem(
                        task: taskID(task), kind: .dependentsSkipped,
                        message: "task '\(taskID(task))' failed, so its dependents are not run: \(names)"))
            }
        }
        done(task, at: now)
    }

    /// Marks every task that depends on `task`, directly or not, as skipped; returns the newly marked.
    private mutating func markDependentsSkipped(of task: Int) -> [Int] {
        var marked: [Int] = []
        var stack = [task]
        while let t = stack.popLast() {
            let range = Int(graph.dependentStart[t])..<Int(graph.dependentStart[t + 1])
            for k in range {
                let d = Int(graph.dependents[k])
                if !skip[d] && outcomes[d] == .notRun {
                    skip[d] = true
                    marked.append(d)
                    stack.append(d)
                }
            }
        }
        return marked
    }

    /// The failed dependency (direct or not) that made `task` skipped.
    private func skippedBecause(_ task: Int) -> Int {
        var stack = Array(graph.dependencies(of: task).map(Int.init))
        var seen = Set<Int>()
        while let d = stack.popLast() {
            if case .failed = outcomes[d] { return d }
            guard seen.insert(d).inserted else { continue }
            stack.append(contentsOf: graph.dependencies(of: d).map(Int.init))
        }
        return task
    }

    private mutating func done(_ task: Int, at now: Micros) {
        notDone -= 1
        running -= 1
        if targets.runs[task].thread > 0 { inFlight -= 1 }
        flow.taskDone(task, at: now, &targets)
    }

    // MARK: A task's way (MODEL.md §3)

    /// The end of every update (``Scheduler`` calls it under the lock once
    /// the update's change is made, as the engine ends an instant's events,
    /// MODEL.md §3): free queues admit, free workers take the best-ranked
    /// ready tasks, and a waiting `didFinishLaunching` is woken. Everything
    /// that happened in one update happened at one instant, and is settled
    /// together. (A main-thread hand-over posts its drain block at once,
    /// ``RuntimeTargets/handToMainQueue(_:)``: the block runs the queue in its order whenever it comes.)
    mutating func settle(at now: Micros) {
        flow.releaseReady(at: now, &targets)
        flow.admit(at: now, &targets)
        assignWorkers(now)
        if launchWaiting { targets.effects.append(.wakeLaunch) }
    }

    /// A delay has passed.
    mutating func delayPassed(_ task: Int, at now: Micros) {
        targets.pendingDelays -= 1
        flow.release(task, at: now, &targets)
    }

    /// The first frame is on screen: the held tasks are released now, or `delay` from now.
    mutating func releaseHeldForFirstFrame(at now: Micros) {
        flow.releaseHeldForFirstFrame(at: now, &targets)
    }

    /// Free workers, lowest index first, take the best-ranked ready tasks.
    private mutating func assignWorkers(_ now: Micros) {
        while inFlight < maxInFlight, !targets.readySet.isEmpty, let worker = freeWorkers.popMin() {
            let task = plan.ranking.task(atRank: targets.readySet.popMin()!)
            targets.runs[task].start(on: worker, iteration: -1, at: now)
            inFlight += 1
            running += 1
            targets.effects.append(.startOnWorker(worker: Int(worker), task: task))
        }
    }

    // MARK: The run loop (BeforeWaiting observers)

    /// The idle step (observer before Core Animation's commit): with the main
    /// queue empty, every waiting idle task (`batch`) or the first
    /// (`oneByOne`), started on the main thread in this iteration.
    mutating func idleStep(at now: Micros) -> [Int] {
        guard launchReturned, targets.mainQueue.isEmpty, drainNext == drain.count, !targets.idleQueue.isEmpty else {
            return []
        }
        var tasks: [Int] = []
        if idleMode == .batch {
            while let item = targets.idleQueue.popMin() { tasks.append(Int(item.task)) }
        } else if let item = targets.idleQueue.popMin() {
            tasks.append(Int(item.task))
        }
        if !targets.idleQueue.isEmpty { targets.effects.append(.wakeRunLoop) }
        return tasks
    }

    /// Core Animation's commit is about to run (observer just before it).
    mutating func commitBegins(at now: Micros) {
        commitStart = now
    }

    /// The iteration's commit has ended (observer just after Core Animation's).
    mutating func commitEnded(at now: Micros) {
        guard !finished else { return }
        // A pass that ran nothing of the launch (the loop woken by a timer, a
        // completion, another source) is not one of the model's iterations
        // (§3.3: an iteration starts when there is something for the main
        // thread), and Core Animation has nothing to commit.
        guard iterationRanWork else {
            commitStart = nil
            iterationStart = now
            finishIfIdle()
            return
        }
        let start = commitStart ?? now
        commits.append(
            Commit(iterationStart: iterationStart, start: start, end: now, presented: now, ranWork: iterationRanWork))
        commitStart = nil
        if firstFrameCommit == nil && firstFrameLeft == 0 { firstFrameCommit = commits.count - 1 }
        targets.effects.append(.commitEnded(index: commits.count - 1, at: now))
        iteration += 1
        iterationStart = now
        iterationRanWork = false
        finishIfIdle()
    }

    /// Every task done, `didFinishLaunching` returned, nothing held: the launch is complete.
    private mutating func finishIfIdle() {
        if notDone == 0 && launchReturned && !flow.queues.holdsTasks {
            finished = true
            targets.effects.append(.complete)
        }
    }

    /// The frame clock says when commit `index` is on screen.
    mutating func commitPresented(_ index: Int, at time: Micros) {
        guard index < commits.count else { return }
        commits[index].presented = time
        if index == firstFrameCommit && flow.queues.holdsForFirstFrame && flow.firstFrameOnScreen == .max {
            targets.effects.append(.releaseHeld(at: time))
        }
    }

    /// Off the main thread: the last task is done there, and the main
    /// thread may be asleep with no iteration to come, so the launch is
    /// complete now — unless the main thread's iteration ran work and its
    /// commit has not ended yet (a latency shorter than the commit): that
    /// commit is part of the launch (launch complete waits for it, §4), and
    /// its end completes it. (On the main thread the iteration's commit
    /// completes it.)
    mutating func finishIfDone() {
        guard notDone == 0 && launchReturned && !finished && !iterationRanWork else { return }
        finished = true
        targets.effects.append(.complete)
    }
}

/// What the runtime's state keeps of its own for the shared steps of a task's
/// way (``LaunchFlow``): each task's run, the effects to carry out outside the
/// lock (a delay's timer, a drain block posted, a wake), the workers' ready
/// set, and the main and idle queues.
struct RuntimeTargets: HandOverTargets, Sendable {
    var runs: [TaskRun]
    var effects: [Effect] = []
    /// Delays whose release is pending (they can still wake a blocked `didFinishLaunching`).
    var pendingDelays = 0
    /// The ranks of the tasks handed to the workers and not yet started.
    var readySet = MinHeap<Int32>()
    /// The main queue (MODEL.md §3: by hand-over time, then rank): the tasks
    /// handed to the main thread and not yet taken by a drain. The state
    /// keeps it, not the main dispatch queue: the block posted there only
    /// drains it (``Effect/postToMain``), so a block that reaches the
    /// dispatch queue late — its thread preempted between the lock and the
    /// post — cannot run tasks out of the order decided here.
    var mainQueue = MinHeap<HandOver>()
    /// Whether a drain block is posted and has not started.
    var drainPosted = false
    var idleQueue = MinHeap<HandOver>()

    init(taskCount n: Int) {
        runs = Array(
            repeating: TaskRun(
                thread: -1, iteration: -1, ready: 0, start: 0, end: 0, done: 0, madeReady: 0, released: 0),
            count: n)
    }

    mutating func record(_ stamp: RunStamp, of task: Int, at time: Micros) { runs[task].record(stamp, at: time) }

    mutating func releaseLater(_ task: Int, after delay: Micros, now: Micros) {
        pendingDelays += 1
        effects.append(.releaseAfter(task: task, delay: delay))
    }

    mutating func handToWorkers(rank: Int32) { readySet.push(rank) }

    /// Hands `item` to the main queue, posting a drain block if none is waiting.
    mutating func handToMainQueue(_ item: HandOver) {
        mainQueue.push(item)
        if !drainPosted {
            drainPosted = true
            effects.append(.postToMain)
        }
    }

    /// Hands `item` to the idle queue, waking the main run loop (it may sleep)
    /// once `didFinishLaunching` has returned.
    mutating func handToIdleQueue(_ item: HandOver, launchReturned: Bool) {
        idleQueue.push(item)
        if launchReturned { effects.append(.wakeRunLoop) }
    }
}
