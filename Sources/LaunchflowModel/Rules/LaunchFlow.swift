/// What an executor keeps of its own for the steps of ``LaunchFlow``: its
/// record of each task's run, its clock's timers, and the queues it hands
/// tasks to — the workers' ready set, the main queue, the idle queue. The
/// engine's are on its simulated clock; the runtime's scheduler's post
/// effects for its threads and timers to carry out.
@usableFromInline package protocol HandOverTargets: ~Copyable {
    /// Writes `stamp` of `task`'s run.
    mutating func record(_ stamp: RunStamp, of task: Int, at time: Micros)
    /// `task` is to be released `delay` µs after `now` (its `delay` key):
    /// call ``LaunchFlow/release(_:at:_:)`` then.
    mutating func releaseLater(_ task: Int, after delay: Micros, now: Micros)
    /// Hands the task of rank `rank` to the workers' ready set.
    mutating func handToWorkers(rank: Int32)
    /// Hands `item` to the main queue.
    mutating func handToMainQueue(_ item: HandOver)
    /// Hands `item` to the idle queue; `launchReturned`: whether
    /// `didFinishLaunching` has returned (the main run loop may be asleep).
    mutating func handToIdleQueue(_ item: HandOver, launchReturned: Bool)
}

/// A stamp of a task's run that the shared steps write (``TaskRun``).
@usableFromInline package enum RunStamp {
    /// The strategy made it ready (`madeReady`).
    case madeReady
    /// Released after its hold and delay (`released`).
    case released
    /// Admitted by its queue and handed over (`ready`).
    case handedOver
    /// All three at once: made ready, released and handed over.
    case madeReadyAndHandedOver
}

extension TaskRun {
    @inlinable @inline(__always)
    package mutating func record(_ stamp: RunStamp, at time: Micros) {
        switch stamp {
        case .madeReady: madeReady = time
        case .released: released = time
        case .handedOver: ready = time
        case .madeReadyAndHandedOver: handOver(at: time)
        }
    }
}

/// What `didFinishLaunching` does next (``LaunchFlow/nextLaunchMove(at:_:)``).
@usableFromInline package enum LaunchMove: Equatable {
    /// Run `task` on the main thread now, inside `didFinishLaunching` (its
    /// hand-over is recorded; the executor starts it).
    case run(Int)
    /// Blocked until something changes; `changed`: whether this call changed
    /// anything (released a task, or the block began now).
    case blocked(changed: Bool)
    /// `didFinishLaunching` has returned (``LaunchFlow/returnFromLaunch(at:_:)`` is done).
    case returned
}

/// The part of a launch both executors share — the simulator's engine, on
/// its clock, and the runtime's scheduler, on real events under its lock —
/// with its steps, written once: the strategy's policy; a task's way from
/// ready to handed over (``LaunchQueues``: the first-frame hold, `delay`, the
/// serial queues, the main operation queue, the routes) — release
/// (``releaseReady(at:_:)``, ``release(_:at:_:)``), admission
/// (``admit(at:_:)``), hand-over (``enqueue(_:at:_:)``); and
/// `didFinishLaunching` — its start (``beginLaunch(at:_:)``), its steps and
/// blocks (``nextLaunchMove(at:_:)``), its return
/// (``returnFromLaunch(at:_:)``) — and a task done (``taskDone(_:at:_:)``).
///
/// Each step takes the executor's ``HandOverTargets`` for what it keeps of
/// its own, and the time of the step. The executor keeps the flow and its
/// targets as two stored properties and passes the second to the first's
/// methods. (A protocol the executor conforms to, with the flow as a
/// requirement, read as well but cost a sweep a twentieth more
/// instructions: the engine's accesses to the requirement stayed calls.)
///
/// Its methods are `@inlinable`, and what they read `@usableFromInline`:
/// the engine's copies are specialised for its policy and targets and
/// inlined into its loop.
@usableFromInline package struct LaunchFlow<Policy: LaunchPolicy> {
    @usableFromInline package var policy: Policy
    @usableFromInline package var queues: LaunchQueues
    /// Tasks the last step made ready, waiting to be released (``releaseReady(at:_:)``).
    @usableFromInline package var ready: [Int32]
    /// Whether `didFinishLaunching` is running.
    @usableFromInline package var inLaunch = false
    /// Whether `didFinishLaunching` has returned (set once the take-outs are
    /// back in their queues, before the tasks its return makes ready are handed over).
    @usableFromInline package var returned = false
    /// (v2.1) When the first frame is (or will be) on screen: from then on
    /// the `after` tasks made ready are not held. `.max` until it is known.
    @usableFromInline package var firstFrameOnScreen = Micros.max
    /// When `didFinishLaunching` ran (its end is its start until it returns).
    @usableFromInline package var launch = TimeSpan(start: 0, end: 0)
    /// The spans `didFinishLaunching` was blocked, and the start of the current one.
    @usableFromInline package var blocked: [TimeSpan]
    @usableFromInline package var blockedSince: Micros?
    /// Take-out candidates handed over while `didFinishLaunching` runs, by queue.
    @usableFromInline package var launchMain = MinHeap<HandOver>()
    @usableFromInline package var launchIdle = MinHeap<HandOver>()

    /// - Parameters:
    ///   - ready, blocked: empty arrays, perhaps with capacity (the engine reuses a run's for the next).
    @inlinable
    package init(
        policy: consuming Policy, queues: consuming LaunchQueues, ready: consuming [Int32] = [],
        blocked: consuming [TimeSpan] = []
    ) {
        self.policy = policy
        self.queues = queues
        self.ready = ready
        self.blocked = blocked
        // Heaps that stay empty in many scenarios still get a buffer of their
        // own (see ``LaunchQueues/init``).
        launchMain.reserveCapacity(1)
        launchIdle.reserveCapacity(1)
    }

    // MARK: didFinishLaunching (MODEL.md §3, iteration 0; §4)

    /// `didFinishLaunching` starts at `now`: the tasks the strategy makes
    /// ready at once are released, and free queues admit.
    @inlinable
    package mutating func beginLaunch<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        inLaunch = true
        launch = TimeSpan(start: now, end: now)
        policy.launchBegan(ready: &ready)
        releaseReady(at: now, &targets)
        admit(at: now, &targets)
    }

    /// The strategy's steps of `didFinishLaunching` until one the executor
    /// must carry out: a task to run inside it (its own, or a take-out), a
    /// block, or its return (done here). A `release` step is carried out
    /// here: the task goes into its queue, and `didFinishLaunching` runs it
    /// once the queue admits it.
    @inlinable
    package mutating func nextLaunchMove<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T)
        -> LaunchMove
    {
        var changed = false
        while true {
            switch policy.nextLaunchStep() {
            case .run(let task):
                endBlock(at: now)
                if !queues.releasedInline(task) { targets.record(.madeReadyAndHandedOver, of: task, at: launch.start) }
                return .run(task)
            case .release(let task):
                changed = true
                queues.releaseInline(task)
                targets.record(.madeReady, of: task, at: now)
                release(task, at: now, &targets)
                admit(at: now, &targets)
            case .wait:
                if queues.plan.hasTakeOut && !(launchMain.isEmpty && launchIdle.isEmpty),
                    let item = launchMain.popMin() ?? launchIdle.popMin()
                {
                    endBlock(at: now)
                    return .run(Int(item.task))
                }
                if blockedSince == nil {
                    blockedSince = now
                    changed = true
                }
                return .blocked(changed: changed)
            case .finish:
                endBlock(at: now)
                returnFromLaunch(at: now, &targets)
                return .returned
            }
        }
    }

    /// A block of `didFinishLaunching` ends at `now` (kept when it lasted).
    @inlinable
    package mutating func endBlock(at now: Micros) {
        guard let since = blockedSince else { return }
        if now > since { blocked.append(TimeSpan(start: since, end: now)) }
        blockedSince = nil
    }

    /// `didFinishLaunching` returns at `now`: what waited for a take-out goes
    /// back to its queue, in its order; then the tasks the strategy makes
    /// ready on its return are released, and free queues admit.
    @inlinable
    package mutating func returnFromLaunch<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        inLaunch = false
        launch.end = now
        while let item = launchMain.popMin() { targets.handToMainQueue(item) }
        // (Not yet `returned`: the main thread is running this return, so
        // its run loop needs no wake for them.)
        while let item = launchIdle.popMin() { targets.handToIdleQueue(item, launchReturned: false) }
        returned = true
        policy.launchReturned(ready: &ready)
        releaseReady(at: now, &targets)
        admit(at: now, &targets)
    }

    // MARK: A task's way (MODEL.md §3.6)

    /// `task` is done at `now`: its queues are free, and the tasks the
    /// strategy makes ready are released (admission waits for ``admit(at:_:)``).
    @inlinable
    package mutating func taskDone<T: HandOverTargets & ~Copyable>(_ task: Int, at now: Micros, _ targets: inout T) {
        queues.taskDone(task)
        policy.taskDone(task, ready: &ready)
        releaseReady(at: now, &targets)
    }

    /// Releases the tasks the last step made ready: held for the first
    /// frame, after their `delay`, or now.
    @inlinable @inline(__always)
    package mutating func releaseReady<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        // (Most calls find nothing: the check stays inline, the loop apart.)
        if !ready.isEmpty { releaseEachReady(at: now, &targets) }
    }

    @inlinable
    package mutating func releaseEachReady<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        let shown = now >= firstFrameOnScreen
        for t in ready {
            let task = Int(t)
            switch queues.ready(task, firstFrameShown: shown) {
            case .heldForFirstFrame:
                targets.record(.madeReady, of: task, at: now)
            case .afterDelay(let delay):
                targets.record(.madeReady, of: task, at: now)
                targets.releaseLater(task, after: delay, now: now)
            case .now where queues.hasQueue(task):
                targets.record(.madeReady, of: task, at: now)
                release(task, at: now, &targets)
            case .now:
                // Made ready, released, admitted and handed over at once.
                targets.record(.madeReadyAndHandedOver, of: task, at: now)
                enqueue(task, at: now, &targets)
            }
        }
        ready.removeAll(keepingCapacity: true)
    }

    /// (v2.1) The first frame is on screen at `now`: the tasks held for it
    /// are released now, or `delay` from now (their `madeReady` stays when
    /// the strategy made them ready); tasks made ready from now on are not held.
    @inlinable
    package mutating func releaseHeldForFirstFrame<T: HandOverTargets & ~Copyable>(
        at now: Micros, _ targets: inout T
    ) {
        firstFrameOnScreen = Swift.min(firstFrameOnScreen, now)
        for t in queues.firstFrameShown() {
            let task = Int(t)
            switch queues.releaseTime(afterHoldOf: task) {
            case .afterDelay(let delay): targets.releaseLater(task, after: delay, now: now)
            case .now, .heldForFirstFrame: release(task, at: now, &targets)
            }
        }
    }

    /// `task` is released at `now`: into its queue's waiting set, or
    /// admitted and handed over at once.
    @inlinable
    package mutating func release<T: HandOverTargets & ~Copyable>(_ task: Int, at now: Micros, _ targets: inout T) {
        targets.record(.released, of: task, at: now)
        if queues.release(task) {
            targets.record(.handedOver, of: task, at: now)
            enqueue(task, at: now, &targets)
        }
    }

    /// Every free queue admits its best-ranked waiting task (MODEL.md §3.6,
    /// "When queues admit"); then (§3.11) the main operation queue, if free,
    /// admits one. A serial queue's task is handed over — or, released by
    /// `didFinishLaunching` itself, told to the policy; the operation queue's
    /// is enqueued on the main queue (its `ready` stays its hand-over).
    @inlinable @inline(__always)
    package mutating func admit<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        if queues.mayAdmit { admitEach(at: now, &targets) }
    }

    @inlinable
    package mutating func admitEach<T: HandOverTargets & ~Copyable>(at now: Micros, _ targets: inout T) {
        while let admission = queues.admitNext() {
            switch admission {
            case .queue(let task, let inline):
                targets.record(.handedOver, of: task, at: now)
                if inline {
                    policy.inlineAdmitted(task)
                } else {
                    enqueue(task, at: now, &targets)
                }
            case .operation(let task, let rank):
                targets.handToMainQueue(HandOver(time: now, rank: rank, task: Int32(task)))
            }
        }
    }

    /// Hands the admitted `task` over at `now` (its `ready` stamp written):
    /// to the ready set, the main queue or the idle queue, or keeps it apart
    /// for a take-out, or (§3.11) in the main operation queue.
    @inlinable
    package mutating func enqueue<T: HandOverTargets & ~Copyable>(_ task: Int, at now: Micros, _ targets: inout T) {
        let rank = queues.plan.ranking.rank(of: task)
        let item = HandOver(time: now, rank: rank, task: Int32(task))
        switch queues.route(task, rank: rank, inLaunch: inLaunch) {
        case .readySet: targets.handToWorkers(rank: rank)
        case .mainQueue: targets.handToMainQueue(item)
        case .takeOutMain: launchMain.push(item)
        case .idleQueue: targets.handToIdleQueue(item, launchReturned: returned)
        case .takeOutIdle: launchIdle.push(item)
        case .operationQueue: break
        }
    }
}

extension LaunchFlow: Sendable where Policy: Sendable {}

/// A policy of a type known only at run time (the runtime's scheduler runs
/// whichever strategy the app chose), as a ``LaunchPolicy``.
package struct AnyLaunchPolicy: LaunchPolicy, Sendable {
    private var base: any LaunchPolicy & Sendable

    package init(_ base: any LaunchPolicy & Sendable) { self.base = base }

    package mutating func launchBegan(ready: inout [Int32]) { base.launchBegan(ready: &ready) }
    package mutating func nextLaunchStep() -> LaunchStep { base.nextLaunchStep() }
    package mutating func launchReturned(ready: inout [Int32]) { base.launchReturned(ready: &ready) }
    package mutating func taskEnded(_ task: Int) { base.taskEnded(task) }
    package mutating func taskDone(_ task: Int, ready: inout [Int32]) { base.taskDone(task, ready: &ready) }
    package mutating func inlineAdmitted(_ task: Int) { base.inlineAdmitted(task) }
}
