import Dispatch
import LaunchflowModel

/// A lifecycle event an app delegate (or scene delegate) receives, which
/// modules handle: `didFinishLaunching`, `didBecomeActive`, a scene's
/// connection, …
public struct LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    public var name: String

    public init(_ name: String) { self.name = name }

    public static let didFinishLaunching = LifecycleEvent("didFinishLaunching")
    public static let sceneWillConnect = LifecycleEvent("sceneWillConnect")
    public static let willEnterForeground = LifecycleEvent("willEnterForeground")
    public static let didBecomeActive = LifecycleEvent("didBecomeActive")
    public static let didEnterBackground = LifecycleEvent("didEnterBackground")

    public var description: String { name }
}

/// A part of the app (a feature, an SDK) that handles lifecycle events: the
/// app delegate split into modules ordered by level (lower first; equal
/// levels in registration order).
public protocol LaunchModule: Sendable {
    /// The module's name: the `group` of its tasks.
    var name: String { get }
    var level: Int { get }
    /// The events it handles.
    var events: Set<LifecycleEvent> { get }
    @MainActor func handle(_ event: LifecycleEvent) throws
}

/// One handler's run: which module, which event, when (µs of the launch
/// clock), and whether it threw.
public struct ModuleRun: Sendable, Equatable {
    public var module: String
    public var event: LifecycleEvent
    public var start: Micros
    public var end: Micros
    /// The error's description, when the handler threw.
    public var failure: String?
}

extension LaunchGraph {
    /// The modules' `event` handlers as tasks of the launch, on the main
    /// thread, in level order: each handler a task `<module>.<event>` of
    /// group `<module>` that depends on every handler of the level before
    /// (so the launch's strategy, the simulator and the record see them).
    public mutating func add(_ modules: [any LaunchModule], for event: LifecycleEvent = .didFinishLaunching) {
        var previous: [String] = []
        var current: [String] = []
        var level: Int?
        for module in ModuleDispatcher.ordered(modules) where module.events.contains(event) {
            if module.level != level {
                previous = current.isEmpty ? previous : current
                current = []
                level = module.level
            }
            let id = "\(module.name).\(event.name)"
            mainTask(id, dependsOn: previous, group: module.name) { try module.handle(event) }
            current.append(id)
        }
    }
}

/// Dispatches lifecycle events after the launch (`didBecomeActive`, scene
/// connection, …) to the modules that handle them, in level order, on the
/// main thread; each handler timed and recorded (``runs``). A handler that
/// throws is recorded and the next one runs. A module done with its work can
/// be removed.
public final class ModuleDispatcher: Sendable {
    private let modules: Locked<[any LaunchModule]>
    private let recorded = Locked<[ModuleRun]>([])
    private let clock: LaunchClock

    /// - Parameter origin: the clock's zero (the launch's, to put the runs on its time line); default now.
    public init(_ modules: [any LaunchModule], origin: DispatchTime? = nil) {
        self.modules = Locked(Self.ordered(modules))
        clock = LaunchClock(origin: (origin ?? .now()).uptimeNanoseconds)
    }

    /// Calls every module that handles `event`, in level order; returns this dispatch's runs.
    @MainActor @discardableResult
    public func dispatch(_ event: LifecycleEvent) -> [ModuleRun] {
        let handlers = modules.withLock { $0.filter { $0.events.contains(event) } }
        var runs: [ModuleRun] = []
        for module in handlers {
            let start = clock.now
            var failure: String?
            do {
                try module.handle(event)
            } catch {
                failure = String(describing: error)
            }
            runs.append(ModuleRun(module: module.name, event: event, start: start, end: clock.now, failure: failure))
        }
        recorded.withLock { $0 += runs }
        return runs
    }

    /// Stops dispatching to the module `name` (its work is done).
    public func remove(_ name: String) {
        modules.withLock { $0.removeAll { $0.name == name } }
    }

    /// The modules still registered, in dispatch order.
    public var names: [String] { modules.withLock { $0.map(\.name) } }

    /// Every handler run so far, in order.
    public var runs: [ModuleRun] { recorded.withLock { $0 } }

    /// Level order; equal levels keep their order.
    static func ordered(_ modules: [any LaunchModule]) -> [any LaunchModule] {
        modules.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
    }
}
