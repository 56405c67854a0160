import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// `calibrate SCENARIO --trace TRACE`: each task's measured start and end
/// against the simulated ones, the largest errors first.
struct CalibrateTraceTests {
    static let article = repositoryRoot.appendingPathComponent("scenarios/article.json").path

    /// A launchflow trace of `scenario` under dag, written to `folder`.
    static func trace(_ scenario: Scenario, _ folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path(name)
        try Data(TraceExport.json(SimulationResult(scenario, strategy: .dag))).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theModelAgainstItsOwnTraceHasNoError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try ScenarioLoader.load(path: Self.article)
        let comparison = try TraceComparison.run(scenario, trace: try Self.trace(scenario, folder, "own.json"))
        #expect(comparison.rows.count == scenario.tasks.count)
        #expect(comparison.rows.allSatisfy { $0.startError == 0 && $0.endError == 0 })
        #expect(comparison.phases.count == scenario.preMain.count)
        #expect(comparison.missing.isEmpty)
        let frame = try #require(comparison.firstFrame)
        #expect(frame.measured == frame.simulated)
    }

    @Test func aSlowerTaskShowsWhereTheModelIsEarly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try ScenarioLoader.load(path: Self.article)
        var slow = scenario
        let k = try #require(slow.tasks.firstIndex { $0.id == "network-config" })
        slow.tasks[k].cost += 16_000  // the real launch: network-config 16 ms slower than the model says
        let comparison = try TraceComparison.run(scenario, trace: try Self.trace(slow, folder, "slow.json"))
        let rows = Dictionary(uniqueKeysWithValues: comparison.rows.map { ($0.id, $0) })
        let network = try #require(rows["network-config"])
        #expect(network.startError == 0)
        #expect(network.endError == -16_000)
        #expect(network.durationError == -16_000)
        // Its dependents start late in the trace: the model runs them early.
        #expect(rows["user-info-refresh"]!.startError == -16_000)
        #expect(comparison.rows.first!.largestError >= 16_000)
        #expect(zip(comparison.rows, comparison.rows.dropFirst()).allSatisfy { $0.largestError >= $1.largestError })
        #expect(comparison.summary.early >= 2)
        let text = comparison.text()
        #expect(text.contains("network-config") && text.contains("−16"))
        #expect(text.contains("Where the model runs early or late"))
    }

    @Test func theCommandWritesTheOverlayGanttAndJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try ScenarioLoader.load(path: Self.article)
        var slow = scenario
        slow.tasks[0].cost += 5000
        let trace = try Self.trace(slow, folder, "slow.json")
        let gantt = folder.path("overlay.svg")
        let text = Launchflow.runInProcess(["calibrate", Self.article, "--trace", trace, "--gantt", gantt])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("task by task"))
        let svg = try String(contentsOfFile: gantt, encoding: .utf8)
        #expect(svg.contains("lf&#45;trace&#45;measured&#45;0") && svg.contains("lf&#45;trace&#45;simulated&#45;0"))
        #expect(svg.contains("stroke-dasharray"))  // measured: dashed outlines

        let json = Launchflow.runInProcess(["calibrate", Self.article, "--trace", trace, "--format", "json"])
        #expect(json.status == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tasks = try #require(object["tasks"] as? [[String: Any]])
        #expect(tasks.count == scenario.tasks.count)
        #expect(tasks.first?["endErrorMs"] != nil)
        #expect(object["firstFrame"] != nil)

        let report = folder.path("report.html")
        let page = Launchflow.runInProcess(["report", Self.article, "--trace", trace, "--out", report])
        #expect(page.status == 0, "\(page.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("Measured against simulated") && html.contains("trace&#45;measured&#45;0"))
    }

    @Test func badUsageIsExplained() throws {
        let none = Launchflow.runInProcess(["calibrate", Self.article])
        #expect(none.status == 2 && none.stderr.contains("'--measured <file>' or '--trace <file>'"))
        let measured = ImportTests.fixture("measured-ttff.json")
        let gantt = Launchflow.runInProcess(["calibrate", Self.article, "--measured", measured, "--gantt", "x.svg"])
        #expect(gantt.status == 2 && gantt.stderr.contains("it needs '--trace'"))
        let unknown = Launchflow.runInProcess([
            "calibrate", Self.article, "--trace", ImportTests.fixture("chrome-bare-array.json"),
        ])
        #expect(unknown.status == 2 && unknown.stderr.contains("no task of"))
    }
}
