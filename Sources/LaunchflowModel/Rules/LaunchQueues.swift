/// When a task the strategy has made ready is released (MODEL.md §3.6, §3.8).
@usableFromInline package enum ReleaseTime: Equatable {
    /// (v2.1) Not yet: it has `after` and the first frame is not on screen.
    /// ``LaunchQueues`` holds it until ``LaunchQueues/firstFrameShown()``.
    case heldForFirstFrame
    /// After its `delay` (µs), counted from now.
    case afterDelay(Micros)
    /// Now: call ``LaunchQueues/release(_:)``.
    case now
}

/// Where an admitted task goes at this instant (MODEL.md §3.6, §3.11; the
/// take-outs of §5).
@usableFromInline package enum HandOverRoute: Equatable {
    /// The workers' ready set, by rank.
    case readySet
    /// The main queue (the main dispatch queue).
    case mainQueue
    /// The idle queue.
    case idleQueue
    /// Kept apart for `didFinishLaunching`, which is running and may take it
    /// out of the main queue while it waits; back to the main queue, in its
    /// order, when it returns.
    case takeOutMain
    /// The same for the idle queue.
    case takeOutIdle
    /// (§3.11) The main operation queue's waiting set: already there
    /// (``LaunchQueues/route(_:rank:inLaunch:)`` put it), nothing for the
    /// executor to do until the queue admits it.
    case operationQueue
}

/// What the main operation queue or a serial queue admitted.
@usableFromInline package enum Admission: Equatable {
    /// A serial queue (a `queue` key) admitted `task`; it was released by
    /// ``LaunchStep/release(_:)`` (`didFinishLaunching` runs it itself) when
    /// `inline`, and is to be handed over otherwise.
    case queue(task: Int, inline: Bool)
    /// (§3.11) The main operation queue admitted `task` (of rank `rank`): it
    /// is enqueued on the main queue at this instant.
    case operation(task: Int, rank: Int32)
}

/// The machinery of a task's way from ready to handed over (MODEL.md §3.6),
/// written once for both executors — the simulator's engine, on its clock, and
/// the runtime's scheduler, on real events under its lock: the first-frame
/// hold of `after` tasks (§3.8), the `delay`, the serial queues of the `queue`
/// key, the main operation queue of `mainExecutor: "operationQueue"`
/// (§3.11), and where an admitted task is handed over (the strategy's
/// routes and take-outs, ``StrategyPlan``).
///
/// It keeps no time: the executor tells it what happened (a task made ready,
/// released, done) and reads back what to do — hold or wait for a delay, hand
/// over now, where to — and keeps the times, timers, main queue, idle queue
/// and ready set itself.
///
/// The order of one admission round (§3.6, "Admission happens after a whole
/// event has been applied"; §6.1): ``admitNext()`` until it returns nil —
/// every free serial queue admits its best-ranked waiting task, repeated until
/// none can, then the main operation queue, if free, admits one.
///
/// The engine inlines it: the type and what its methods read are
/// `@usableFromInline` (a `package` type's `@inlinable` methods are not
/// inlined into another module otherwise).
///
/// - Complexity: O(log n) per task and queue operation.
@usableFromInline package struct LaunchQueues: Sendable {
    @usableFromInline let plan: StrategyPlan
    @usableFromInline let queueOf: [Int32]
    @usableFromInline let delay: [Micros]
    /// The `after` tasks; empty when there are none.
    @usableFromInline let deferred: [Bool]
    /// Whether any task has a `queue`.
    @usableFromInline package let hasQueues: Bool
    /// (v2.1) Whether any task waits for the first frame (has `after`).
    @usableFromInline package let holdsForFirstFrame: Bool
    /// (§3.11) Whether main-thread tasks go through the main operation queue.
    @usableFromInline package let hasOperationQueue: Bool

    /// Per serial queue: the task keeping it busy from its admission until it
    /// is done (−1: free), and the ranks of the released tasks waiting for it.
    @usableFromInline var holder: [Int32]
    @usableFromInline var waiting: [MinHeap<Int32>]
    /// The queues that gained a waiting task or were freed since the last
    /// admission round (the only ones that may admit).
    @usableFromInline var touched: [Int32] = []
    /// The tasks `didFinishLaunching` released itself (``LaunchStep/release(_:)``).
    @usableFromInline var inline: [Bool]
    /// (§3.11) The task keeping the main operation queue busy (−1: free) and
    /// the ranks of the tasks waiting for it.
    @usableFromInline var operationHolder: Int32 = -1
    @usableFromInline var operationWaiting = MinHeap<Int32>()
    /// (v2.1) The tasks held until the first frame is on screen, in the order
    /// they were made ready.
    @usableFromInline var heldForFirstFrame: [Int32] = []

    /// - Parameters:
    ///   - queueOf: each task's queue number, −1 for none (``StrategyInputs/queueOf``).
    ///   - delay: each task's `delay` in µs.
    ///   - deferred: the tasks with `after`; empty when there are none.
    ///   - mainExecutor: the scenario's; the main operation queue exists
    ///     under `"operationQueue"` for the strategies with an anchor closure
    ///     (`dag`, `anchored`: §3.11, the others ignore the key).
    package init(
        plan: StrategyPlan, queueOf: [Int32], queueCount: Int, delay: [Micros], deferred: [Bool],
        mainExecutor: MainExecutor
    ) {
        self.plan = plan
        self.queueOf = queueOf
        self.delay = delay
        self.deferred = deferred
        let n = queueOf.count
        hasQueues = queueCount > 0
        holdsForFirstFrame = !deferred.isEmpty
        hasOperationQueue = mainExecutor == .operationQueue && plan.closure != nil
        // (§3.11) Tasks of the anchor closure bypass the main operation queue;
        // ``route(_:rank:inLaunch:)`` asks whether a task may be taken out
        // instead (one rule for both, and a bit it reads anyway): under dag
        // and anchored the take-out set is the anchor closure
        // (``StrategyInputs/anchoredPlan(firstFrameIsAnchor:)``).
        assert(!hasOperationQueue || Self.takesOutTheClosure(plan), "the take-out set is the anchor closure")
        // Arrays that stay empty in many scenarios still get a buffer of their
        // own: the shared empty buffer is never uniquely referenced, so a
        // uniqueness check that the optimiser hoists out of a loop would
        // "copy" it on every call (see the engine's `Simulator.init`).
        holder = [Int32](repeating: -1, count: Swift.max(queueCount, 1))
        waiting = [MinHeap<Int32>](repeating: MinHeap(), count: Swift.max(queueCount, 1))
        inline = [Bool](repeating: false, count: hasQueues ? n : 1)
        touched.reserveCapacity(Swift.max(queueCount, 1))
        operationWaiting.reserveCapacity(hasOperationQueue ? n : 1)
    }

    /// Whether the plan's take-out set is its anchor closure.
    private static func takesOutTheClosure(_ plan: StrategyPlan) -> Bool {
        guard let closure = plan.closure else { return false }
        return closure.contains.indices.allSatisfy { (plan.hasTakeOut && plan.takeOut[$0]) == closure.contains[$0] }
    }

    // MARK: Ready → released (§3.6, §3.8)

    /// `task` has been made ready by the strategy: when it is released. Held
    /// for the first frame — when it has `after` and the first frame is not
    /// yet on screen (`firstFrameShown` false) — it is kept here until
    /// ``firstFrameShown()``; its `delay` then counts from there.
    @inlinable @inline(__always)
    package mutating func ready(_ task: Int, firstFrameShown: Bool) -> ReleaseTime {
        if holdsForFirstFrame && deferred[task] && !firstFrameShown {
            heldForFirstFrame.append(Int32(task))
            return .heldForFirstFrame
        }
        return releaseTime(afterHoldOf: task)
    }

    /// When `task`, no longer held for the first frame, is released: after its
    /// `delay`, or now.
    @inlinable @inline(__always)
    package func releaseTime(afterHoldOf task: Int) -> ReleaseTime {
        let delay = delay[task]
        return delay > 0 ? .afterDelay(delay) : .now
    }

    /// (v2.1) The first frame is on screen: the tasks held for it, in the
    /// order they were made ready, each to be released at
    /// ``releaseTime(afterHoldOf:)``. Nothing is held afterwards.
    @inlinable
    package mutating func firstFrameShown() -> [Int32] {
        let tasks = heldForFirstFrame
        heldForFirstFrame = []
        return tasks
    }

    /// Whether tasks are held for the first frame.
    package var holdsTasks: Bool { !heldForFirstFrame.isEmpty }

    // MARK: Released → admitted (§3.6, §3.11)

    /// Whether `task` has a `queue`.
    @inlinable @inline(__always)
    package func hasQueue(_ task: Int) -> Bool { hasQueues && queueOf[task] >= 0 }

    /// `didFinishLaunching` releases `task` itself (``LaunchStep/release(_:)``,
    /// a task with a `queue`): its admission is told to the policy instead
    /// of handing it over.
    @inlinable
    package mutating func releaseInline(_ task: Int) { inline[task] = true }

    /// Whether `didFinishLaunching` released `task` itself (it was not handed over).
    @inlinable @inline(__always)
    package func releasedInline(_ task: Int) -> Bool { hasQueues && inline[task] }

    /// `task` is released: true if it is admitted at once (it has no
    /// `queue`; hand it over now), false if it waits for its queue, which
    /// admits it at an admission round (``admitNext()``).
    @inlinable @inline(__always)
    package mutating func release(_ task: Int) -> Bool {
        let queue = hasQueues ? queueOf[task] : -1
        guard queue >= 0 else { return true }
        waiting[Int(queue)].push(plan.ranking.rank(of: task))
        touched.append(queue)
        return false
    }

    /// Whether an admission round may admit anything: a serial queue was
    /// touched, or the main operation queue is free with a task waiting.
    @inlinable @inline(__always)
    package var mayAdmit: Bool { !touched.isEmpty || (operationHolder < 0 && !operationWaiting.isEmpty) }

    /// Whether a serial queue gained a waiting task or was freed since the
    /// last admission round.
    @inlinable
    package var hasTouchedQueues: Bool { !touched.isEmpty }

    /// The next admission of this round, nil when nothing more is admitted
    /// now: first every free serial queue admits its best-ranked waiting
    /// task (repeated until none can: handing a task over touches no serial
    /// queue), then (§3.11) the main operation queue — it admits last — if
    /// free, one task. The admitted task keeps its queue busy until it is
    /// done (``taskDone(_:)``).
    @inlinable
    package mutating func admitNext() -> Admission? {
        while let queue = touched.popLast() {
            let q = Int(queue)
            guard holder[q] < 0, let rank = waiting[q].popMin() else { continue }
            let task = plan.ranking.task(atRank: rank)
            holder[q] = Int32(task)
            return .queue(task: task, inline: inline[task])
        }
        if operationHolder < 0, let rank = operationWaiting.popMin() {
            let task = plan.ranking.task(atRank: rank)
            operationHolder = Int32(task)
            return .operation(task: task, rank: rank)
        }
        return nil
    }

    /// `task` is done: the queues it kept busy — its `queue`, and (§3.11) the
    /// main operation queue — are free, and admit at the next round.
    @inlinable @inline(__always)
    package mutating func taskDone(_ task: Int) {
        if hasOperationQueue && operationHolder == Int32(task) { operationHolder = -1 }
        if hasQueues {
            let queue = queueOf[task]
            if queue >= 0 {
                holder[Int(queue)] = -1
                touched.append(queue)
            }
        }
    }

    // MARK: Admitted → handed over (§3.6, §3.11)

    /// Where the admitted `task` (of rank `rank`) is handed over now, while
    /// `didFinishLaunching` runs (`inLaunch`) or not: a worker task to the
    /// ready set; a main-thread task that `didFinishLaunching` may take out
    /// (the plan's take-outs: priority's tasks with a `queue`, the anchor
    /// closure under dag and anchored) apart for it while it runs, to the
    /// main queue otherwise; (§3.11) any other main-thread task, under a main
    /// operation queue, to the operation queue's waiting set (this call puts
    /// it there), otherwise to the main queue; an idle task apart while
    /// `didFinishLaunching` may take it out, to the idle queue otherwise.
    @inlinable @inline(__always)
    package mutating func route(_ task: Int, rank: Int32, inLaunch: Bool) -> HandOverRoute {
        switch plan.route[task] {
        case .worker:
            return .readySet
        case .main:
            if plan.hasTakeOut && plan.takeOut[task] { return inLaunch ? .takeOutMain : .mainQueue }
            guard hasOperationQueue else { return .mainQueue }
            operationWaiting.push(rank)
            return .operationQueue
        case .idle:
            return inLaunch && plan.hasTakeOut && plan.takeOut[task] ? .takeOutIdle : .idleQueue
        }
    }
}
