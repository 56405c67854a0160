import Foundation
import Testing

/// What `import LaunchflowRuntime` alone gives an app, checked as an app's
/// compiler sees it: snippets type-checked (`swiftc -typecheck`) against the
/// module SwiftPM built for these tests. The runtime's own types and the
/// model's value types it exports resolve; the simulator's writers and tables
/// do not (no `@_exported import LaunchflowModel`); a file importing both
/// modules sees one type under each exported name, not two.
struct SurfaceTests {
    /// An app's use of the surface: every exported name, outcomes and problems by id, `whenComplete(on:)`.
    static let app = """
        import Dispatch
        import LaunchflowRuntime

        func adopt() throws {
            var graph = LaunchGraph()
            graph.task("config") {}
            graph.mainTask("root", dependsOn: ["config"], firstFrame: true) {}
            let configuration = LaunchConfiguration(strategy: Strategy.dag, idleMode: IdleMode.batch)
            let launch = try Launch(graph, configuration: configuration)
            let scenario: Scenario = launch.scenario
            let first: LaunchTask? = scenario.tasks.first
            let device: Device = scenario.device
            let warnings: [Diagnostic] = launch.warnings
            _ = (first, device, warnings)
            launch.whenComplete(on: .main) { (record: LaunchRecord) in
                let schedule: Schedule = record.schedule
                let run: TaskRun? = schedule.tasks.first
                let commit: Commit? = schedule.commits.first
                let blocked: [TimeSpan] = schedule.blocked
                let start: Micros = run?.start ?? 0
                let who: String? = record.problems.first?.task
                if case .skipped(let because)? = record.outcome(of: "root") { _ = because as String }
                let broken: [(task: String, dependency: String)] = record.brokenDependencies
                let metrics: LaunchMetrics? = record.metrics
                let phases: [LaunchPhase] = record.measuredScenario.launchPhases
                let phaseRuns: [LaunchPhaseRun] = schedule.launchPhases
                _ = (commit, blocked, start, who, broken, metrics, phases, phaseRuns)
            }
        }
        """

    /// The simulator's writers and tables, and the model's loaders: none visible.
    static let hidden = ["JSONWriter", "Metric", "TraceExport", "Platform", "ScenarioLoader", "StrategyDefinition"]

    @Test func anAppSeesTheRuntimeAndTheScenarioTypes() throws {
        let result = try Self.typecheck(Self.app)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func writersAndTablesAreNotExported() throws {
        let uses = Self.hidden.map { "_ = \($0).self" }.joined(separator: "\n")
        let result = try Self.typecheck("import LaunchflowRuntime\n\(uses)\n")
        #expect(result.status != 0)
        for name in Self.hidden {
            #expect(result.stderr.contains("cannot find '\(name)' in scope"), "\(name) is visible: \(result.stderr)")
        }
    }

    @Test func bothModulesTogetherAreNotAmbiguous() throws {
        let result = try Self.typecheck(
            """
            import LaunchflowModel
            import LaunchflowRuntime
            let strategy: Strategy = .serial
            let micros: Micros = 1
            let span = TimeSpan(start: micros, end: 2)
            let configuration = LaunchConfiguration(strategy: strategy)
            _ = (span, configuration, JSONWriter.self)
            """)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `swiftc -typecheck` of `source` against the modules built beside the test runner.
    static func typecheck(_ source: String) throws -> Launchflow.Output {
        let folder = try Host.temporaryFolder()
        let file = folder.appendingPathComponent("snippet.swift")
        try Data(source.utf8).write(to: file)
        let modules = builtExecutable("launchflow").deletingLastPathComponent().appendingPathComponent("Modules")
        return try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
                "-module-cache-path", folder.appendingPathComponent("cache").path, file.path,
            ])
    }
}
