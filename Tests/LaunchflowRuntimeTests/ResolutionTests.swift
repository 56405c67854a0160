import Foundation
import LaunchflowRuntime
import Testing

/// Code and file together, and every problem before anything runs: one
/// error listing all of them, each naming the file, the place and the task.
struct ResolutionTests {
    static func file(_ json: String) throws -> String {
        let url = try Host.temporaryFolder().appendingPathComponent("plan.json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    static let plan = """
        {"name": "plan", "device": {"cores": 2},
         "tasks": [
           {"id": "config", "cost": 2},
           {"id": "root", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["config"]},
           {"id": "analytics", "cost": 3, "after": "firstFrame"}
         ]}
        """

    /// `plan`'s three tasks in code, bodies only: their keys come from the file.
    static func planGraph() -> LaunchGraph {
        var graph = LaunchGraph()
        graph.task("config") {}
        graph.mainTask("root") {}
        graph.task("analytics") {}
        return graph
    }

    static func refusal(_ graph: LaunchGraph, plan: String?) -> [String] {
        do {
            _ = try Launch(graph, plan: plan)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func everyProblemAtOnce() throws {
        let path = try Self.file(Self.plan)
        var graph = LaunchGraph()
        graph.task("config") {}
        graph.mainTask("root") {}
        graph.task("push-registration") {}  // no task in the file
        // "analytics" has no body
        let problems = Self.refusal(graph, plan: path)
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.contains {
                $0.contains(path) && $0.contains("push-registration") && $0.contains("not in the file")
            })
        #expect(problems.contains { $0.contains(path) && $0.contains("analytics") && $0.contains("no body") })
    }

    @Test func codeOnlyProblems() {
        var graph = LaunchGraph()
        graph.task("a", dependsOn: ["b"]) {}
        graph.task("b", dependsOn: ["a"]) {}
        graph.task("c", dependsOn: ["konfig"]) {}
        graph.task("c") {}
        let problems = Self.refusal(graph, plan: nil)
        #expect(problems.contains { $0.contains("declared twice") }, "\(problems)")
        #expect(problems.contains { $0.contains("unknown task 'konfig'") }, "\(problems)")
        var cyclic = LaunchGraph()
        cyclic.task("a", dependsOn: ["b"]) {}
        cyclic.task("b", dependsOn: ["a"]) {}
        let cycle = Self.refusal(cyclic, plan: nil)
        #expect(cycle.contains { $0.contains("cycle") }, "\(cycle)")
    }

    /// The file wins for the scheduling keys; a dependency only the code
    /// declares is kept, and said.
    @Test func fileWinsAndDependenciesAreTheUnion() throws {
        let path = try Self.file(Self.plan)
        var graph = LaunchGraph()
        graph.task("config", priority: 3) {}
        graph.mainTask("root") {}
        graph.task("analytics", dependsOn: ["config"]) {}
        let launch = try Launch(graph, plan: path, configuration: LaunchConfiguration(strategy: .dag, workers: 1))
        let tasks = launch.scenario.tasks
        #expect(tasks.map(\.id) == ["config", "root", "analytics"])
        #expect(tasks[0].priority == 0)  // the file's
        #expect(tasks[1].firstFrame && tasks[1].mainThreadOnly)
        #expect(tasks[2].dependsOn == [0])  // the code's, kept
        #expect(tasks[2].after != nil)
        // root: the code declares none, the file decides; analytics: kept and said; config: the file's priority wins.
        let warnings = launch.warnings.map(\.description)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("'analytics' depends on 'config', the file does not; kept") })
        #expect(warnings.contains { $0.contains("the code says priority: 3 for task 'config'") })
    }

    /// (§3.12) The file's `startsIn` (with its `launchPhases`) is the phase
    /// the launch starts in unless the code pins one; a pinned one that
    /// differs is a warning; a file without phases says nothing about it.
    @Test func theFilesStartsInUnlessTheCodePinsOne() throws {
        let phases =
            #""launchPhases": [{"name": "didFinishLaunching", "cost": 1}, {"name": "sceneWillConnect", "cost": 5}], "#
        let path = try Self.file(
            Self.plan.replacingOccurrences(
                of: #""name": "plan","#, with: #""name": "plan", "# + phases + #""startsIn": "sceneWillConnect","#))
        let fromFile = try Launch(Self.planGraph(), plan: path, configuration: LaunchConfiguration(workers: 1))
        #expect(fromFile.startsIn == .sceneWillConnect)
        #expect(fromFile.scenario.launchPhases.map(\.name) == ["didFinishLaunching", "sceneWillConnect"])
        #expect(fromFile.warnings.isEmpty, "\(fromFile.warnings)")
        let pinned = try Launch(
            Self.planGraph(), plan: path, configuration: LaunchConfiguration(startsIn: .didFinishLaunching, workers: 1))
        #expect(pinned.startsIn == .didFinishLaunching)
        let warnings = pinned.warnings.map(\.description)
        #expect(
            warnings.count == 1
                && warnings[0].contains(path) && warnings[0].contains("startsIn")
                && warnings[0].contains("sceneWillConnect") && warnings[0].contains("didFinishLaunching"),
            "\(warnings)")
        // Phases without startsIn: didFinishLaunching, and a pin of it is no difference.
        let defaulted = try Self.file(
            Self.plan.replacingOccurrences(of: #""name": "plan","#, with: #""name": "plan", "# + phases))
        let same = try Launch(
            Self.planGraph(), plan: defaulted,
            configuration: LaunchConfiguration(startsIn: .didFinishLaunching, workers: 1))
        #expect(same.startsIn == .didFinishLaunching && same.warnings.isEmpty, "\(same.warnings)")
        // No phases in the file, or no file: the code's, else didFinishLaunching, silently.
        let plain = try Self.file(Self.plan)
        let code = try Launch(
            Self.planGraph(), plan: plain, configuration: LaunchConfiguration(startsIn: .appInit, workers: 1))
        #expect(code.startsIn == .appInit && code.warnings.isEmpty)
        #expect(
            try Launch(Self.planGraph(), configuration: LaunchConfiguration(workers: 1)).startsIn == .didFinishLaunching
        )
    }

    /// A task's `qos` in code reaches the scenario; a file's wins, and the
    /// code's that it overrides is said (as for every other key).
    @Test func qosFromCodeAndFromTheFile() throws {
        var graph = LaunchGraph()
        graph.task("config", qos: .utility) {}
        graph.mainTask("root", dependsOn: ["config"], firstFrame: true) {}
        graph.task("analytics", afterFirstFrame: true, qos: .background) {}
        let code = try Launch(graph, configuration: LaunchConfiguration(strategy: .dag, workers: 1))
        #expect(code.scenario.tasks.map(\.qos.rawValue) == ["utility", "default", "background"])
        let path = try Self.file(
            Self.plan.replacingOccurrences(
                of: #""cost": 3, "after""#, with: #""cost": 3, "qos": "userInitiated", "after""#))
        let launch = try Launch(graph, plan: path, configuration: LaunchConfiguration(strategy: .dag, workers: 1))
        #expect(launch.scenario.tasks.map(\.qos.rawValue) == ["default", "default", "userInitiated"])
        let warnings = launch.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("the code says qos: \"utility\" for task 'config'") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("the code says qos: \"background\" for task 'analytics'") })
    }

    /// The file's `"strategy"` is the strategy the app runs unless the code
    /// pins one; a pinned one that differs is a warning (issue 35, item 5).
    @Test func theFilesStrategyRunsUnlessTheCodePinsOne() throws {
        let path = try Self.file(
            Self.plan.replacingOccurrences(of: #""name": "plan","#, with: #""name": "plan", "strategy": "serial","#))
        let fromFile = try Launch(Self.planGraph(), plan: path, configuration: LaunchConfiguration(workers: 1))
        #expect(fromFile.strategy == .serial)
        #expect(fromFile.scenario.strategy == .serial)
        #expect(fromFile.warnings.isEmpty, "\(fromFile.warnings)")
        let pinned = try Launch(
            Self.planGraph(), plan: path, configuration: LaunchConfiguration(strategy: .anchored, workers: 1))
        #expect(pinned.strategy == .anchored)
        let warnings = pinned.warnings.map(\.description)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.contains {
                $0.contains(path) && $0.contains("strategy") && $0.contains("anchored") && $0.contains("serial")
            }, "\(warnings)")
        let same = try Launch(
            Self.planGraph(), plan: path, configuration: LaunchConfiguration(strategy: .serial, workers: 1))
        #expect(same.strategy == .serial && same.warnings.isEmpty)
        // Neither: dag; the file without the key: dag, or the code's.
        #expect(try Launch(Self.planGraph(), configuration: LaunchConfiguration(workers: 1)).strategy == .dag)
        let plain = try Self.file(Self.plan)
        #expect(
            try Launch(Self.planGraph(), plan: plain, configuration: LaunchConfiguration(workers: 1)).strategy == .dag)
        let code = try Launch(
            Self.planGraph(), plan: plain, configuration: LaunchConfiguration(strategy: .priority, workers: 1))
        #expect(code.strategy == .priority && code.warnings.isEmpty)
    }

    /// A broken file and broken code: both in one error.
    @Test func aBrokenFileAndBrokenCodeAtOnce() throws {
        let path = try Self.file(#"{"name": "plan", "tasks": [{"id": "a", "cost": 1, "priorty": 2}]}"#)
        var graph = LaunchGraph()
        graph.task("a", dependsOn: ["b"]) {}
        graph.task("b", dependsOn: ["a"]) {}
        graph.task("c", dependsOn: ["zz"]) {}
        let problems = Self.refusal(graph, plan: path)
        #expect(problems.contains { $0.contains("priorty") }, "\(problems)")
        #expect(problems.contains { $0.contains("unknown task 'zz'") }, "\(problems)")
        #expect(problems.contains { $0.contains("cycle") }, "\(problems)")
    }

    @Test func badConfiguration() {
        var graph = LaunchGraph()
        graph.task("a") {}
        #expect(throws: LaunchError.self) { try Launch(graph, configuration: LaunchConfiguration(workers: 0)) }
        #expect(throws: LaunchError.self) {
            try Launch(graph, configuration: LaunchConfiguration(strategy: .dag, maxConcurrent: 0))
        }
        #expect(throws: LaunchError.self) { try Launch(graph, plan: "/nonexistent/plan.json") }
    }
}

/// The refusal docs/runtime.md shows ("Applying a plan"), exactly.
@Test func theDocumentedRefusal() throws {
    let folder = try Host.temporaryFolder()
    let path = folder.appendingPathComponent("launch.json").path
    try Data(
        """
        {"name": "app", "tasks": [
          {"id": "config", "cost": 2},
          {"id": "feed", "cost": 5},
          {"id": "analytics", "cost": 3, "after": "firstFrame"}
        ]}
        """.utf8
    ).write(to: URL(fileURLWithPath: path))
    var graph = LaunchGraph()
    graph.task("config") {}
    graph.task("feed", dependsOn: ["konfig"]) {}
    graph.task("push-registration") {}
    let problems = ResolutionTests.refusal(graph, plan: path).map {
        $0.replacingOccurrences(of: folder.path + "/", with: "")
    }
    let documented = try String(
        contentsOf: repositoryRoot.appendingPathComponent("docs/runtime.md"), encoding: .utf8)
    #expect(!problems.isEmpty)
    for problem in problems { #expect(documented.contains(problem + "\n"), "not in docs/runtime.md: \(problem)") }
}
