import Foundation
import LaunchflowModel
import Testing

/// Every 2026 life cycle (docs/runtime.md, "Every life cycle") under every
/// strategy on a real main run loop, in the probe's child process
/// (Tests/RuntimeProbe/LifeCycles.swift plays UIKit's and SwiftUI's
/// callbacks in the run loop's first turn, each marked as a launch phase):
/// the phases recorded in order, the strategy started in its phase, and the
/// window's data (an anchor) done before the callback that builds the window
/// runs. Structure only, never timings.
@Suite(.serialized)
struct LifeCycleTests {
    /// Each life cycle: its phases in UIKit's order, the one the strategy starts in, the one that builds the window.
    static let lifeCycles: [String: (phases: [String], startsIn: String, window: String)] = [
        "app-delegate": (["willFinishLaunching", "didFinishLaunching"], "didFinishLaunching", "didFinishLaunching"),
        "scene": (
            ["didFinishLaunching", "sceneWillConnect", "sceneWillEnterForeground", "sceneDidBecomeActive"],
            "didFinishLaunching", "sceneWillConnect"
        ),
        "scene-connect": (
            ["didFinishLaunching", "sceneWillConnect", "sceneWillEnterForeground", "sceneDidBecomeActive"],
            "sceneWillConnect", "sceneWillConnect"
        ),
        "swiftui": (["App.init", "WindowGroup body"], "App.init", "WindowGroup body"),
        "swiftui-adaptor": (
            ["App.init", "didFinishLaunching", "sceneWillConnect", "WindowGroup body"], "didFinishLaunching",
            "WindowGroup body"
        ),
    ]

    static func probe(_ arguments: [String]) throws -> (output: Host.Output, found: [String: Any]?) {
        let output = try Host.run(Host.binary("launchflow-runtime-probe"), arguments)
        guard output.status == 0 else { return (output, nil) }
        return (output, try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: ["app-delegate", "scene", "scene-connect", "swiftui", "swiftui-adaptor"])
    func lifeCycleOrder(_ kind: String) throws {
        let expected = try #require(Self.lifeCycles[kind])
        for strategy in ["serial", "priority", "dag", "anchored"] {
            let (output, found) = try Self.probe(["life-cycle", kind, strategy])
            let result = try #require(found, "\(kind) \(strategy): \(output.status) \(output.stderr)")
            let phases = try #require(result["phases"] as? [[String: Any]])
            let names = phases.compactMap { $0["name"] as? String }
            let spans = phases.compactMap { p in
                (p["start"] as? Int).flatMap { s in (p["end"] as? Int).map { (s, $0) } }
            }
            let context = "\(kind) under \(strategy): \(result)"
            // The phases recorded, in order, one after another.
            #expect(names == expected.phases, "\(context)")
            #expect(
                spans.count == names.count && zip(spans, spans.dropFirst()).allSatisfy { $0.1 <= $1.0 }, "\(context)")
            // The strategy started in its phase: didFinishLaunching's span inside that phase's.
            #expect(result["startsIn"] as? String == expected.startsIn, "\(context)")
            #expect(result["startsInDeclared"] as? String == expected.startsIn, "\(context)")
            let launch = try #require(result["didFinishLaunching"] as? [Int])
            let k = try #require(names.firstIndex(of: expected.startsIn))
            #expect(spans[k].0 <= launch[0] && launch[1] <= spans[k].1, "\(context)")
            // No task before the strategy started; every task done.
            let tasks = try #require(result["tasks"] as? [String: [String: Any]])
            #expect(tasks.values.allSatisfy { ($0["start"] as? Int ?? -1) >= launch[0] }, "\(context)")
            #expect(tasks.values.allSatisfy { $0["outcome"] as? String == "succeeded" }, "\(context)")
            // The anchor done before didFinishLaunching returned, so before the window's callback ran.
            let ready = try #require(result["windowDataReadyWhenBuilt"] as? [String: Bool])
            #expect(ready == [expected.window: true], "\(context)")
            #expect(try #require(result["windowDataDone"] as? Int) <= launch[1], "\(context)")
            // The run loop's first turn starts with the first phase and commits after the last.
            let commit = try #require(result["firstCommit"] as? [Int])
            #expect(result["t0"] as? Int == spans[0].0 && commit[0] == spans[0].0, "\(context)")
            #expect(spans[spans.count - 1].1 <= commit[1], "\(context)")
        }
    }

    /// A recorded launch's trace imports with its phases and the phase it started in.
    @Test func phasesImportBack() throws {
        let folder = try Host.temporaryFolder()
        let trace = folder.appendingPathComponent("trace.json")
        let (output, found) = try Self.probe(["life-cycle", "scene-connect", "dag", trace.path])
        let result = try #require(found, "\(output.stderr)")
        let imported = folder.appendingPathComponent("imported.json")
        let run = try Host.run(Host.binary("launchflow"), ["import", trace.path, "--out", imported.path])
        #expect(run.status == 0, "\(run.stderr)")
        let back = try ScenarioLoader.load(path: imported.path)
        #expect(back.launchPhases.map(\.name) == Self.lifeCycles["scene-connect"]!.phases)
        #expect(back.startsIn == "sceneWillConnect")
        #expect(back.strategy == .dag)
        let costs = try #require(result["phases"] as? [[String: Any]]).compactMap { $0["cost"] as? Int }
        #expect(back.launchPhases.map(\.cost) == costs, "\(result)")
    }
}
