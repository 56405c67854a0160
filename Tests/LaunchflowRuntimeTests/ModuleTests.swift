import Foundation
import LaunchflowRuntime
import Testing

/// The app delegate split into modules by level: handlers in level order,
/// timed and recorded, a module removable once done.
struct ModuleTests {
    struct Module: LaunchModule {
        var name: String
        var level: Int
        var events: Set<LifecycleEvent>
        var log: Log
        var fails = false

        @MainActor func handle(_ event: LifecycleEvent) throws {
            log.append("\(name).\(event)")
            if fails { throw Failure() }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    final class Log: Sendable {
        let lines = Locked<[String]>([])  // the runtime's lock (package access)
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func modules(_ log: Log) -> [any LaunchModule] {
        [
            Module(name: "feed", level: 2, events: [.didFinishLaunching, .didBecomeActive], log: log),
            Module(name: "crash", level: 0, events: [.didFinishLaunching], log: log),
            Module(name: "account", level: 1, events: [.didFinishLaunching, .didBecomeActive], log: log, fails: true),
            Module(name: "ads", level: 2, events: [.didBecomeActive], log: log),
            Module(name: "session", level: 1, events: [.didFinishLaunching], log: log),
        ]
    }

    /// didFinishLaunching's handlers become tasks of the launch: one per module, its group the
    /// module, each depending on every handler of the level before.
    @Test func handlersAreTasksInLevelOrder() throws {
        var graph = LaunchGraph()
        graph.add(Self.modules(Log()))
        let launch = try Launch(graph, configuration: LaunchConfiguration(strategy: .dag, workers: 1))
        let tasks = launch.scenario.tasks
        #expect(
            tasks.map(\.id) == [
                "crash.didFinishLaunching", "account.didFinishLaunching", "session.didFinishLaunching",
                "feed.didFinishLaunching",
            ])
        #expect(tasks.map(\.group) == ["crash", "account", "session", "feed"])
        #expect(tasks.allSatisfy { $0.mainThreadOnly })
        #expect(tasks.map(\.dependsOn) == [[], [0], [0], [1, 2]])
    }

    /// Later events: level order, each run timed, a throwing handler recorded and the next run,
    /// a removed module no longer called.
    @Test @MainActor func dispatchRecordsEachHandler() {
        let log = Log()
        let dispatcher = ModuleDispatcher(Self.modules(log))
        let runs = dispatcher.dispatch(.didBecomeActive)
        #expect(log.all == ["account.didBecomeActive", "feed.didBecomeActive", "ads.didBecomeActive"])
        #expect(runs.map(\.module) == ["account", "feed", "ads"])
        #expect(runs.allSatisfy { $0.end >= $0.start })
        #expect(runs.map(\.failure) == ["disk full", nil, nil])
        dispatcher.remove("feed")
        dispatcher.dispatch(.didBecomeActive)
        #expect(log.all.suffix(2) == ["account.didBecomeActive", "ads.didBecomeActive"])
        #expect(dispatcher.runs.count == 5)
        #expect(dispatcher.names == ["crash", "account", "session", "ads"])
    }
}
