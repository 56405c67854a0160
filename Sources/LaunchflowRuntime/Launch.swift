import Dispatch
@_exported import LaunchflowModel

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
///                         configuration: LaunchConfiguration(strategy: .dag))
/// try launch.didFinishLaunching()
/// launch.whenComplete { record in upload(record.traceJSON()) }
/// ```
///
/// See docs/runtime.md.
public final class Launch: Sendable {
    private let scheduler: Scheduler

    /// Resolves the graph (with the scenario or plan file at `plan`, when
    /// given: the file wins for the scheduling keys, dependencies are the
    /// union) and starts the worker pool. Throws every problem at once —
    /// an unknown dependency, a cycle, a task without a body or a body
    /// without a task — before anything runs.
    ///
    /// - Parameter origin: the launch clock's zero (`DispatchTime`), e.g. the
    ///   process's start; default now. Times in the record count from it.
    public init(
        _ graph: LaunchGraph, plan: String? = nil, configuration: LaunchConfiguration = LaunchConfiguration(),
        origin: DispatchTime? = nil
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
        let resolved = try Resolution.resolve(graph, file: plan, workers: configuration.workers)
        let clock = LaunchClock(origin: (origin ?? .now()).uptimeNanoseconds)
        scheduler = Scheduler(resolved, configuration: configuration, clock: clock)
    }

    /// The scenario being run (code and file merged), before any measurement.
    public var scenario: Scenario { scheduler.resolved.scenario }

    /// Differences between the code and the file, kept (a dependency only one declares).
    public var warnings: [Diagnostic] { scheduler.resolved.warnings }

    /// Call from `application(_:didFinishLaunchingWithOptions:)`, on the main
    /// thread: starts the launch and returns when the strategy lets
    /// `didFinishLaunching` return — having run its inline tasks (`serial`,
    /// `priority`'s first tier) or waited for the anchors (`dag`,
    /// `anchored`), the main thread blocked meanwhile and the time recorded.
    @MainActor
    public func didFinishLaunching() throws(LaunchError) {
        try scheduler.didFinishLaunching()
    }

    /// Calls `handler` once every task is done (at once if it already is), on the thread that finished the launch.
    public func whenComplete(_ handler: @escaping @Sendable (LaunchRecord) -> Void) {
        scheduler.whenComplete(handler)
    }

    /// The record, once the launch is complete; nil before.
    public var record: LaunchRecord? { scheduler.record }

    /// Blocks the calling thread (never the main one: the launch needs it)
    /// until the launch is complete or `timeout` passes.
    public func waitUntilComplete(timeout: Duration) -> LaunchRecord? {
        scheduler.waitUntilComplete(timeout: timeout)
    }
}
