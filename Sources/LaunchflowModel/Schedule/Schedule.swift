/// A span of time `[start, end)` in microseconds.
public struct TimeSpan: Sendable, Equatable {
    public var start: Micros
    public var end: Micros

    public init(start: Micros, end: Micros) {
        self.start = start
        self.end = end
    }

    public var duration: Micros { end - start }
}

/// How one task ran.
public struct TaskRun: Sendable, Equatable {
    /// 0 for `main`, k for `worker-k`.
    public var thread: Int32
    /// The run-loop iteration a main-thread task ran in; −1 on a worker.
    public var iteration: Int32
    /// When the task was handed to the main queue, the idle queue or the
    /// ready set (or `didFinishLaunching` started, for the tasks it runs
    /// itself): `readyMs`.
    public var ready: Micros
    public var start: Micros
    public var end: Micros
    /// (v2) `end` + latency: when dependents, tiers and its queue see it finished.
    public var done: Micros
    /// (v2) When the strategy made the task ready (before its `delay`).
    public var madeReady: Micros
    /// (v2) When it was released (`madeReady` + delay), before waiting for its queue.
    public var released: Micros

    public init(
        thread: Int32, iteration: Int32, ready: Micros, start: Micros, end: Micros, done: Micros,
        madeReady: Micros, released: Micros
    ) {
        self.thread = thread
        self.iteration = iteration
        self.ready = ready
        self.start = start
        self.end = end
        self.done = done
        self.madeReady = madeReady
        self.released = released
    }

    /// Made ready, released and handed over at `time` (one write for the
    /// engine's common case).
    @inlinable
    package mutating func handOver(at time: Micros) {
        madeReady = time
        released = time
        ready = time
    }

    @inlinable
    package mutating func start(on thread: Int32, iteration: Int32, at time: Micros) {
        self.thread = thread
        self.iteration = iteration
        start = time
    }

    @inlinable
    package mutating func end(at time: Micros, doneAt done: Micros) {
        end = time
        self.done = done
    }

    public var isOnMain: Bool { thread == 0 }
    /// Time between hand-over and start (waiting for a thread).
    public var wait: Micros { start - ready }
    /// Time between release and hand-over (waiting for its queue).
    public var queueWait: Micros { ready - released }
    /// Time between being made ready and released (its delay).
    public var delayed: Micros { released - madeReady }
    public var latency: Micros { done - end }
}

/// How one user input was handled (v2).
public struct InputRun: Sendable, Equatable {
    /// Its position in ``Scenario/inputs``.
    public var input: Int
    public var at: Micros
    public var start: Micros
    public var end: Micros

    /// How long it was pending before its handler started.
    public var wait: Micros { start - at }

    package init(
        input: Int, at: Micros, start: Micros, end: Micros
    ) {
        self.input = input
        self.at = at
        self.start = start
        self.end = end
    }
}

/// One Core Animation commit: the end of a run-loop iteration.
public struct Commit: Sendable, Equatable {
    /// When the iteration's first item started.
    public var iterationStart: Micros
    public var start: Micros
    public var end: Micros
    /// The first vsync at or after `end + renderTime`.
    public var presented: Micros
    /// (v2) Whether its iteration ran `didFinishLaunching` or a task (not only inputs).
    public var ranWork: Bool = true

    package init(
        iterationStart: Micros, start: Micros, end: Micros, presented: Micros, ranWork: Bool = true
    ) {
        self.iterationStart = iterationStart
        self.start = start
        self.end = end
        self.presented = presented
        self.ranWork = ranWork
    }
}

/// (§3.12) How one launch phase ran on the main thread.
public struct LaunchPhaseRun: Sendable, Equatable {
    public var start: Micros
    /// When its own cost had run (with contention, its wall time on the thread is `costEnd − start`).
    public var costEnd: Micros
    /// When it ended: its cost's end, or for the `startsIn` phase when `didFinishLaunching` returned.
    public var end: Micros

    package init(start: Micros, costEnd: Micros, end: Micros) {
        self.start = start
        self.costEnd = costEnd
        self.end = end
    }

    public var span: TimeSpan { TimeSpan(start: start, end: end) }
}

/// The finished schedule of one strategy on one scenario: where and when
/// everything ran. Metrics are computed from it (see ``Metrics``).
public struct Schedule: Sendable {
    public let scenario: Scenario
    public let strategy: Strategy
    /// `--max-concurrent` as applied: at most this many worker tasks in
    /// flight; nil when nothing but the workers limits them.
    public let maxConcurrent: Int?
    /// Each task's cost in µs in this run: the scenario's, unless the run
    /// used other costs (a sampled launch of `sweep`, a what-if).
    public let costs: [Micros]
    /// Each task's latency in µs in this run (v2).
    public let latencies: [Micros]
    /// When the run loop started: the end of the pre-main phases.
    public let t0: Micros
    public let preMain: [TimeSpan]
    /// One entry per scenario task, in scenario order.
    public package(set) var tasks: [TaskRun]
    /// In time order; commit `i` ends run-loop iteration `i`.
    public package(set) var commits: [Commit]
    /// The spans the main thread spent blocked in `didFinishLaunching`.
    public package(set) var blocked: [TimeSpan]
    /// From the start of `didFinishLaunching` until it returned.
    public package(set) var didFinishLaunching: TimeSpan
    /// (v2) One entry per scenario input, in scenario order.
    public package(set) var inputs: [InputRun]
    /// (v2) The idle mode the run used (the scenario's, or the option's).
    public package(set) var idleMode: IdleMode
    /// (§3.12) One entry per launch phase, in order; empty without `launchPhases`.
    public package(set) var launchPhases: [LaunchPhaseRun]
    /// (§3.13) Each task's cluster (an index into `device.clusters`): where
    /// it ran longest on a worker; −1 for none (the main thread). Empty
    /// without clusters.
    public package(set) var taskClusters: [Int32] = []

    /// t1: when the strategy's `didFinishLaunching` started (t0 without launch phases).
    public var t1: Micros { didFinishLaunching.start }

    /// The display name of a thread: `main`, `worker-1`, …
    public static func threadName(_ thread: Int32) -> String {
        thread == 0 ? "main" : "worker-\(thread)"
    }

    package init(
        scenario: Scenario, strategy: Strategy, maxConcurrent: Int?, costs: [Micros], latencies: [Micros], t0: Micros,
        preMain: [TimeSpan], tasks: [TaskRun], commits: [Commit], blocked: [TimeSpan], didFinishLaunching: TimeSpan,
        inputs: [InputRun], idleMode: IdleMode, launchPhases: [LaunchPhaseRun] = []
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.maxConcurrent = maxConcurrent
        self.costs = costs
        self.latencies = latencies
        self.t0 = t0
        self.preMain = preMain
        self.tasks = tasks
        self.commits = commits
        self.blocked = blocked
        self.didFinishLaunching = didFinishLaunching
        self.inputs = inputs
        self.idleMode = idleMode
        self.launchPhases = launchPhases
    }
}

extension [PreMainPhase] {
    /// The phases one after another from 0: each one's span on the main thread.
    package var spans: [TimeSpan] {
        var clock: Micros = 0
        return map { phase in
            defer { clock += phase.cost }
            return TimeSpan(start: clock, end: clock + phase.cost)
        }
    }
}
