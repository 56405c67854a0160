import Foundation
import LaunchflowModel

/// How a ``Launch`` runs: the strategy, the worker pool, and what to do
/// when a task fails.
public struct LaunchConfiguration: Sendable {
    /// The strategy (MODEL.md §4): `serial`, `priority`, `dag` or `anchored`.
    /// nil (the default): the plan file's `"strategy"`, else `dag`. A strategy
    /// pinned here runs whatever the file says; one that differs from the
    /// file's is a warning (``Launch/warnings``).
    public var strategy: Strategy?
    /// (MODEL.md §3.12) The launch phase in which the strategy starts
    /// (``Launch/phaseBegan(_:)``). nil (the default): the plan file's
    /// `startsIn` when it has `launchPhases`, else `didFinishLaunching`. One
    /// pinned here that differs from the file's is a warning (``Launch/warnings``).
    public var startsIn: Launch.Phase?
    /// Worker threads of the launch's own pool; default the machine's cores − 1 (at least 1).
    public var workers: Int
    /// At most this many worker tasks in flight under `dag` and `anchored` (`--max-concurrent`); nil: no limit.
    public var maxConcurrent: Int?
    /// `batch` (every waiting idle task when the run loop is about to sleep)
    /// or `oneByOne` (one per turn); nil: the scenario file's, else `batch`.
    public var idleMode: IdleMode?
    /// What happens to the dependents of a task that failed.
    public var failurePolicy: FailurePolicy
    /// A completion not called this long after its task started is reported
    /// with the task's id and the task is treated as failed (the watchdog
    /// that kills slow launches is real); nil: wait forever.
    public var completionTimeout: Duration?
    /// When the first-frame commit is on screen (releases the `after` tasks).
    public var frameClock: any FrameClock
    /// Receives each task's start and end as it happens (signposts on Apple platforms).
    public var traceSink: (any LaunchTraceSink)?
    /// Read each task's thread CPU time around its body (``LaunchRecord/cpuTimes``,
    /// ``LaunchMetrics/Task/cpuMs``, the trace's `cpuMs` that `launchflow import
    /// --cost running` reads). Off by default: two `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`
    /// per task, a system call each on Linux (about 0.8 µs on the machine of
    /// docs/benchmarks.md), about as much as the rest of the runtime's own work
    /// per task. `launchflow replay` turns it on.
    public var recordsCPUTime: Bool

    public init(
        strategy: Strategy? = nil, startsIn: Launch.Phase? = nil, workers: Int? = nil, maxConcurrent: Int? = nil,
        idleMode: IdleMode? = nil,
        failurePolicy: FailurePolicy = .skipDependents, completionTimeout: Duration? = .seconds(20),
        frameClock: any FrameClock = VsyncFrameClock(), traceSink: (any LaunchTraceSink)? = nil,
        recordsCPUTime: Bool = false
    ) {
        self.strategy = strategy
        self.startsIn = startsIn
        self.workers = workers ?? Swift.max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        self.maxConcurrent = maxConcurrent
        self.idleMode = idleMode
        self.failurePolicy = failurePolicy
        self.completionTimeout = completionTimeout
        self.frameClock = frameClock
        self.traceSink = traceSink
        self.recordsCPUTime = recordsCPUTime
    }
}

/// What happens to the dependents of a task that threw (or whose completion timed out).
public enum FailurePolicy: Sendable {
    /// Its dependents, and theirs, are not run; the record says which and why (the default).
    case skipDependents
    /// Its dependents run as if it had succeeded.
    case runDependents
}

/// Tells the runtime when a commit's frame is on screen.
///
/// The runtime calls ``commitEnded(at:presented:)`` at the end of every
/// run-loop iteration (after Core Animation's commit observer), with the
/// launch clock's time in µs; the clock calls `presented` once, with the time
/// the frame is (or will be) on screen. ``VsyncFrameClock`` follows the
/// model's rule; on iOS a `CADisplayLink` clock reports the real presentation
/// (docs/runtime.md, "On Apple platforms").
public protocol FrameClock: Sendable {
    func commitEnded(at time: Micros, presented: @escaping @Sendable (Micros) -> Void)
}

/// The model's vsync rule (MODEL.md §3): a commit ending at `e` is on screen
/// at the first vsync at or after `e + renderTime`, vsyncs every
/// `1 / refreshRate` from the launch clock's origin.
public struct VsyncFrameClock: FrameClock {
    public var refreshRate: Double
    public var renderTimeMs: Double

    public init(refreshRate: Double = 60, renderTimeMs: Double = 0) {
        self.refreshRate = refreshRate
        self.renderTimeMs = renderTimeMs
    }

    public func commitEnded(at time: Micros, presented: @escaping @Sendable (Micros) -> Void) {
        presented(presentation(ofCommitEndingAt: time))
    }

    /// The presentation time of a commit ending at `time` (µs).
    public func presentation(ofCommitEndingAt time: Micros) -> Micros {
        let interval = Micros((1_000_000 / refreshRate).rounded())
        let presentable = time + microseconds(fromMilliseconds: renderTimeMs)
        return (presentable + interval - 1) / interval * interval
    }
}

/// Receives the launch's events as they happen, for a profiler: on Apple
/// platforms an `OSSignposter` interval per task (docs/runtime.md).
/// Called on the thread that runs the task, outside the scheduler's lock.
public protocol LaunchTraceSink: Sendable {
    func taskBegan(_ id: String, thread: Int)
    func taskEnded(_ id: String, thread: Int)
}
