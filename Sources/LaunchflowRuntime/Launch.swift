import Dispatch
import LaunchflowModel

/// The launch scheduler an app links: its task graph is a launchflow
/// scenario, it runs any of the four strategies (or the plan `launchflow
/// advise --out` wrote) on the real main run loop and a worker pool of its
/// own, and records what it did.
///
/// ```swift
/// // application(_:didFinishLaunchingWithOptions:)
/// var graph = LaunchGraph()
/// graph.task("config") { try Config.load() }
/// graph.mainTask("rootView", dependsOn: ["config"], firstFrame: true) { showRootView() }
/// let launch = try Launch(graph, plan: Bundle.main.path(forResource: "launch", ofType: "json"),
///                         configuration: LaunchConfiguration())  // the file's strategy, else dag
/// try launch.didFinishLaunching()
/// launch.whenComplete { record in upload(record.traceJSON()) }
/// ```
///
/// A launch is used once: made (``State/created``), started by
/// ``didFinishLaunching()`` (``State/launching``), and ended —
/// ``State/complete`` when every task is done and committed, or
/// ``State/failed(_:)`` when `didFinishLaunching` threw; either way its
/// run-loop observers are removed and its worker threads end.
///
/// See docs/runtime.md.
public final class Launch: Sendable {
    /// Where a launch is in its life: created → launching → complete or failed.
    public enum State: Sendable {
        /// Made: the graph resolved, the workers started; ``Launch/didFinishLaunching()`` not called yet.
        case created
        /// ``Launch/didFinishLaunching()`` was called; tasks run.
        case launching
        /// Every task is done and the iteration that finished them has committed: ``Launch/record`` is final.
        case complete
        /// ``Launch/didFinishLaunching()`` threw this: the launch stopped; ``Launch/record`` says how far it got.
        case failed(LaunchError)
    }

    let scheduler: Scheduler

    /// Resolves the graph (with the scenario or plan file at `plan`, when
    /// given: the file wins for the scheduling keys, dependencies are the
    /// union) and starts the worker pool. Throws every problem at once —
    /// an unknown dependency, a cycle, a task without a body or a body
    /// without a task — before anything runs.
    ///
    /// - Parameter origin: the launch clock's zero (`DispatchTime`), e.g. the
    ///   process's start; default now. Times in the record count from it.
    public convenience init(
        _ graph: LaunchGraph, plan: String? = nil, configuration: LaunchConfiguration = LaunchConfiguration(),
        origin: DispatchTime? = nil
    ) throws(LaunchError) {
        try self.init(graph, plan: plan, configuration: configuration, origin: origin, hooks: LaunchTestHooks())
    }

    /// The same, with test hooks (the runtime's own tests).
    package init(
        _ graph: LaunchGraph, plan: String? = nil, configuration: LaunchConfiguration = LaunchConfiguration(),
        origin: DispatchTime? = nil, hooks: LaunchTestHooks
    ) throws(LaunchError) {
        guard configuration.workers >= 1 else {
            throw LaunchError([
                Diagnostic(file: "", path: "workers", message: "must be at least 1, found \(configuration.workers)")
            ])
        }
        if let limit = configuration.maxConcurrent, limit < 1 {
            throw LaunchError([
                Diagnostic(file: "", path: "maxConcurrent", message: "must be at least 1, found \(limit)")
            ])
        }
        let resolved = try Resolution.resolve(
            graph, file: plan, workers: configuration.workers, strategy: configuration.strategy,
            startsIn: configuration.startsIn?.name)
        let clock = LaunchClock(origin: (origin ?? .now()).uptimeNanoseconds)
        scheduler = Scheduler(resolved, configuration: configuration, clock: clock, hooks: hooks)
    }

    /// Where the launch is in its life.
    public var state: State { scheduler.lifecycle }

    /// The scenario being run (code and file merged), before any measurement.
    public var scenario: Scenario { scheduler.resolved.scenario }

    /// The strategy the launch runs: the code's (``LaunchConfiguration/strategy``),
    /// else the plan file's `"strategy"`, else `dag`.
    public var strategy: Strategy { scheduler.resolved.strategy }

    /// Differences between the code and the file, kept (a dependency only one declares).
    public var warnings: [Diagnostic] { scheduler.resolved.warnings }

    /// Call from `application(_:didFinishLaunchingWithOptions:)`, on the main
    /// thread: starts the launch and returns when the strategy lets
    /// `didFinishLaunching` return — having run its inline tasks (`serial`,
    /// `priority`'s first tier) or waited for the anchors (`dag`,
    /// `anchored`), the main thread blocked meanwhile and the time recorded.
    ///
    /// Throws, the launch unchanged, when called a second time; throws, the
    /// launch then ``State/failed(_:)``, when it would wait forever (nothing
    /// in flight can finish what it waits for).
    @MainActor
    public func didFinishLaunching() throws(LaunchError) {
        try scheduler.didFinishLaunching()
    }

    /// Calls `handler` once the launch has ended (at once if it has), on the
    /// thread that ended it: every task done, or `didFinishLaunching` failed
    /// (``LaunchRecord/failure`` says so).
    public func whenComplete(_ handler: @escaping @Sendable (LaunchRecord) -> Void) {
        scheduler.whenComplete(handler)
    }

    /// Calls `handler` once the launch has ended, asynchronously on `queue`
    /// (`.main` for UI work): every task done, or `didFinishLaunching` failed
    /// (``LaunchRecord/failure`` says so). Registered after the end, it is
    /// still called, on `queue`, never on the calling thread.
    public func whenComplete(on queue: DispatchQueue, _ handler: @escaping @Sendable (LaunchRecord) -> Void) {
        scheduler.whenComplete { record in queue.async { handler(record) } }
    }

    /// The record, once the launch has ended; nil before.
    public var record: LaunchRecord? { scheduler.record }

    /// Blocks the calling thread until the launch has ended or `timeout`
    /// passes. Never on the main thread before the launch has ended: the
    /// launch needs it, so that traps, saying so.
    public func waitUntilComplete(timeout: Duration) -> LaunchRecord? {
        scheduler.waitUntilComplete(timeout: timeout)
    }

    // MARK: For the runtime's tests

    /// Whether the launch's run-loop observers are installed.
    @MainActor package var observersInstalled: Bool { scheduler.observersInstalled }

    /// The launch's worker threads still running.
    package var runningWorkerThreads: Int { scheduler.runningWorkerThreads }

    /// Waits until every worker thread has ended (once the launch has ended).
    package func joinWorkers() { scheduler.joinWorkers() }

    /// Hands `task` to worker `worker` as a late effect would, whatever the state decided.
    package func startLate(_ task: Int, onWorker worker: Int) { scheduler.startLate(task, onWorker: worker) }
}
