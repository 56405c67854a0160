/// A main-thread hand-over, the one item of both executors' main queues (the
/// engine's `Simulator`, the runtime's `SchedulerState`): ordered by when it
/// was handed over, then rank (MODEL.md §3: the main and idle queues). The
/// engine's queue also holds `didFinishLaunching` and (§3.12) the launch
/// phases, with negative tasks and ranks.
@usableFromInline package struct HandOver: Comparable, Sendable {
    @usableFromInline package var time: Micros
    /// The task's rank position; negative for `didFinishLaunching` and the launch phases.
    @usableFromInline package var rank: Int32
    /// The task; −1 for `didFinishLaunching`, −2 − k for launch phase k (§3.12).
    @usableFromInline package var task: Int32

    @inlinable package init(time: Micros, rank: Int32, task: Int32) {
        self.time = time
        self.rank = rank
        self.task = task
    }

    package static let didFinishLaunching: Int32 = -1

    /// (§3.12) Launch phase k of `count`: iteration 0's items, in order, before any task.
    package static func launchPhase(_ k: Int, of count: Int, at time: Micros) -> HandOver {
        HandOver(time: time, rank: Int32(k - count - 1), task: Int32(-2 - k))
    }

    @inlinable package static func < (a: Self, b: Self) -> Bool { (a.time, a.rank) < (b.time, b.rank) }
}
