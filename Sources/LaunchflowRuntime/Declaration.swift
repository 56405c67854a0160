import Foundation
import LaunchflowModel

/// What a task runs: the code an app hands to the launch.
///
/// The four shapes are the four ways launch work ends:
/// - ``sync(_:)``: a closure on a worker, done when it returns.
/// - ``mainActor(_:)``: a closure on the main thread (`mainThreadOnly`), done when it returns.
/// - ``completion(onMain:_:)``: a closure that starts asynchronous work and
///   calls its ``TaskCompletion`` when that work is done (a network reply, a
///   permission dialog answered): what the scenario's `latency` models — the
///   thread is free as soon as the closure returns.
/// - ``async(_:)``: a Swift `async` function, started from a worker; the
///   worker is free at once and the task is done when the function returns.
public enum TaskBody: Sendable {
    case sync(@Sendable () throws -> Void)
    case mainActor(@MainActor @Sendable () throws -> Void)
    case completion(onMain: Bool, @Sendable (TaskCompletion) throws -> Void)
    case async(@Sendable () async throws -> Void)

    /// Whether the body must run on the main thread.
    var needsMainThread: Bool {
        switch self {
        case .mainActor: true
        case .completion(let onMain, _): onMain
        case .sync, .async: false
        }
    }
}

/// The scheduling keys of one task, as code declares them (MODEL.md's task
/// keys, same names and meaning). A scenario or plan file given to
/// ``Launch`` wins over these for every key but ``dependsOn`` (see
/// docs/runtime.md, "Applying a plan").
public struct TaskKeys: Sendable, Equatable {
    /// Ids of the tasks that must be done before this one starts.
    public var dependsOn: [String] = []
    /// Rank among tasks ready together: lower runs first (0…1,000,000).
    public var priority: Int = 0
    /// Part of the first frame: the frame waits until every such task has run.
    public var firstFrame = false
    /// Part of the launch's full content (time to full display).
    public var fullyDrawn = false
    /// Held until the first frame is on screen (`after: "firstFrame"`).
    public var afterFirstFrame = false
    /// Run when the main run loop is about to sleep (a BeforeWaiting observer).
    public var idle = false
    /// Done before `didFinishLaunching` returns (under `dag` and `anchored`).
    public var anchor = false
    /// Released this long after it is ready, in milliseconds.
    public var delayMs: Double = 0
    /// A serial category: one task of the category at a time, until it is done.
    public var queue: String?
    /// The module the task belongs to (reports group by it).
    public var group: String?
    /// What the task is expected to cost, in milliseconds, for the scenario
    /// ``Launch/scenario()`` writes before a run has measured it.
    public var costMs: Double = 0
    /// The quality of service a worker runs the body at (§3.13; docs/runtime.md,
    /// "Quality of service"). The main thread keeps its own.
    public var qos: Foundation.QualityOfService = .default

    public init(
        dependsOn: [String] = [], priority: Int = 0, firstFrame: Bool = false, fullyDrawn: Bool = false,
        afterFirstFrame: Bool = false, idle: Bool = false, anchor: Bool = false, delayMs: Double = 0,
        queue: String? = nil, group: String? = nil, costMs: Double = 0, qos: Foundation.QualityOfService = .default
    ) {
        self.qos = qos
        self.dependsOn = dependsOn
        self.priority = priority
        self.firstFrame = firstFrame
        self.fullyDrawn = fullyDrawn
        self.afterFirstFrame = afterFirstFrame
        self.idle = idle
        self.anchor = anchor
        self.delayMs = delayMs
        self.queue = queue
        self.group = group
        self.costMs = costMs
    }
}

/// One task as declared: its id, its keys and its body.
public struct TaskDeclaration: Sendable {
    public let id: String
    public var keys: TaskKeys
    public let body: TaskBody
}

/// The launch's task graph, declared in code: the same graph a scenario file
/// describes. Declaration order is the tasks' index order (ties in rank go to
/// the task declared first).
///
/// ```swift
/// var graph = LaunchGraph()
/// graph.task("config") { try Config.load() }
/// graph.task("database", dependsOn: ["config"]) { try Database.open() }
/// graph.mainTask("rootView", dependsOn: ["config"], firstFrame: true) { window.rootViewController = Root() }
/// graph.callbackTask("pushToken", afterFirstFrame: true) { done in Push.register { _ in done() } }
/// ```
public struct LaunchGraph: Sendable {
    public private(set) var tasks: [TaskDeclaration] = []

    public init() {}

    /// Adds a task with its keys and body.
    public mutating func add(_ id: String, keys: TaskKeys = TaskKeys(), body: TaskBody) {
        tasks.append(TaskDeclaration(id: id, keys: keys, body: body))
    }

    /// A task that runs on a worker and is done when `body` returns.
    public mutating func task(
        _ id: String, dependsOn: [String] = [], priority: Int = 0, afterFirstFrame: Bool = false,
        anchor: Bool = false, delayMs: Double = 0, queue: String? = nil, group: String? = nil, costMs: Double = 0,
        qos: Foundation.QualityOfService = .default, _ body: @escaping @Sendable () throws -> Void
    ) {
        add(
            id,
            keys: TaskKeys(
                dependsOn: dependsOn, priority: priority, afterFirstFrame: afterFirstFrame, anchor: anchor,
                delayMs: delayMs, queue: queue, group: group, costMs: costMs, qos: qos),
            body: .sync(body))
    }

    /// A task that runs on the main thread (`mainThreadOnly`) and is done when `body` returns.
    public mutating func mainTask(
        _ id: String, dependsOn: [String] = [], priority: Int = 0, firstFrame: Bool = false,
        fullyDrawn: Bool = false, afterFirstFrame: Bool = false, idle: Bool = false, anchor: Bool = false,
        delayMs: Double = 0, queue: String? = nil, group: String? = nil, costMs: Double = 0,
        _ body: @escaping @MainActor @Sendable () throws -> Void
    ) {
        add(
            id,
            keys: TaskKeys(
                dependsOn: dependsOn, priority: priority, firstFrame: firstFrame, fullyDrawn: fullyDrawn,
                afterFirstFrame: afterFirstFrame, idle: idle, anchor: anchor, delayMs: delayMs, queue: queue,
                group: group, costMs: costMs),
            body: .mainActor(body))
    }

    /// A task whose work ends when it calls its completion (`latency`): on a
    /// worker, or on the main thread with `onMain: true`.
    public mutating func callbackTask(
        _ id: String, onMain: Bool = false, dependsOn: [String] = [], priority: Int = 0,
        afterFirstFrame: Bool = false, anchor: Bool = false, delayMs: Double = 0, queue: String? = nil,
        group: String? = nil, costMs: Double = 0, qos: Foundation.QualityOfService = .default,
        _ body: @escaping @Sendable (TaskCompletion) throws -> Void
    ) {
        add(
            id,
            keys: TaskKeys(
                dependsOn: dependsOn, priority: priority, afterFirstFrame: afterFirstFrame, anchor: anchor,
                delayMs: delayMs, queue: queue, group: group, costMs: costMs, qos: qos),
            body: .completion(onMain: onMain, body))
    }

    /// A task that is a Swift `async` function: started from a worker, done when it returns.
    public mutating func asyncTask(
        _ id: String, dependsOn: [String] = [], priority: Int = 0, afterFirstFrame: Bool = false,
        anchor: Bool = false, delayMs: Double = 0, queue: String? = nil, group: String? = nil, costMs: Double = 0,
        qos: Foundation.QualityOfService = .default, _ body: @escaping @Sendable () async throws -> Void
    ) {
        add(
            id,
            keys: TaskKeys(
                dependsOn: dependsOn, priority: priority, afterFirstFrame: afterFirstFrame, anchor: anchor,
                delayMs: delayMs, queue: queue, group: group, costMs: costMs, qos: qos),
            body: .async(body))
    }
}
