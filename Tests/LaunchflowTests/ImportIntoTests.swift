import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore
@testable import LaunchflowImport

/// `import --into`: only costs (and costP90) change; every other byte of the
/// scenario stays as written — keys this version's decoder does not know
/// included — and the summary says what moved.
@Suite(.serialized)
struct ImportIntoTests {
    /// A scenario with everything a user may write: odd spacing, v2 keys,
    /// unknown keys, budgets, descriptions with escapes, unicode, `costP90: null`.
    static func scenario(
        crash: String = "4", net: String = "8.0", netP90: String = "12", root: String = "30",
        rootP90: String = "null", dyld: String = "50"
    ) -> String {
        """
        {
          "$schema": "scenario.schema.json",
          "name": "Shop — hand-tuned",
          "description": "Keep \\"this\\" text\\nas it is. Costs: \\"cost\\": 4",
          "device": {"cores": 4,"refreshRate": 120,   "commitCost": 1.5},
          "budgets": { "timeToFirstFrameMs": 400 },
          "idleMode": "oneByOne",
          "inputs": [ { "name": "tap", "at": 300, "cost": 4 } ],
          "preMain": [ { "name": "dyld: load dylibs", "cost": \(dyld) }, { "name": "+load", "cost": 7 } ],
          "tasks": [
            { "id": "crash-reporter", "cost": \(crash), "priority": 0, "group": "infra" },
            {
              "id": "network-config",
              "cost":\(net),
              "costP90": \(netP90),
              "latency": 120, "latencyP90": 300, "queue": "net", "delay": 0,
              "dependsOn": [ "crash-reporter" ]
            },
            { "id": "root-vc", "cost": \(root), "costP90": \(rootP90), "mainThreadOnly": true, "firstFrame": true, "anchor": true,
              "dependsOn": ["network-config"] },
            { "id": "legacy-sync", "cost": 2, "idle": true, "mainThreadOnly": true }
          ]
        }

        """
    }

    func runImport(_ args: [String]) -> (status: Int32, out: String, err: String) {
        var streams: any OutputStreams = CapturedStreams()
        let status = LaunchflowCommand.main(["import"] + args, streams: &streams)
        let captured = streams as! CapturedStreams
        return (status, captured.outputText, captured.error)
    }

    @Test func onlyTheCostsChangeByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("app.json", Self.scenario())
        let result = runImport([ImportTests.fixture("chrome-app-launch.json"), "--into", path])
        #expect(result.status == 0, "\(result.err)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        // One trace: costs replaced; network-config's costP90 keeps its ratio 12/8 to the cost
        // (9.3755 × 1.5 = 14.06325, to the µs 14.063); root-vc's `null` stays; legacy-sync is not in the trace.
        let expected = Self.scenario(
            crash: "5.6405", net: "9.3755", netP90: "14.063", root: "28.12575", dyld: "61.25")
        #expect(written == expected)
        #expect(result.out.contains("Refreshed 3 of 4 tasks in \(path)"))
        #expect(result.out.contains("preMain 'dyld: load dylibs'"))
        #expect(result.out.contains("+11.25 (+22.5%)"))
        #expect(result.out.contains("12 → 14.063"))
        #expect(result.out.contains("Not in the trace, cost kept: legacy-sync."))
        #expect(result.out.contains("Slices with no task (not imported): 'home-feed' (22.81025 ms)"))
        #expect(result.out.hasSuffix("Wrote \(path).\n"))
        // The changes are listed largest first.
        let lines = result.out.split(separator: "\n").map(String.init)
        let order = ["preMain 'dyld", "root-vc", "crash-reporter", "network-config"].map { name in
            lines.firstIndex { $0.contains(name) } ?? -1
        }
        #expect(order == order.sorted() && !order.contains(-1))
        // The v2 keys (latency, queue, anchor…) are kept as written, and raise no problem.
        #expect(result.err.isEmpty, "\(result.err)")
    }

    /// Issue 19: writing by rename turned `--into link.json` into a regular file and left its target as it was.
    @Test func intoASymbolicLinkRefreshesItsTargetAndKeepsTheLink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: true)
        let target = try folder.write("real/app.json", Self.scenario())
        #expect(symlink("real/app.json", folder.path("link.json")) == 0)
        let result = runImport([ImportTests.fixture("chrome-app-launch.json"), "--into", folder.path("link.json")])
        #expect(result.status == 0, "\(result.err)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.json")) == "real/app.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8) != Self.scenario())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real")) == ["app.json"])
    }

    @Test func severalTracesWriteCostP90ReplacingNullOrInsertingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("app.json", Self.scenario())
        let runs = (1...5).map { ImportTests.fixture("chrome-several-runs/run\($0).json") }
        let result = runImport(runs + ["--into", path, "--premain", "dyld"])
        #expect(result.status == 0, "\(result.err)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        let expected = Self.scenario(
            crash: "5.65, \"costP90\": 7.21", net: "10.25", netP90: "13.36", root: "29", rootP90: "33.16", dyld: "61")
        #expect(written == expected)
        #expect(result.out.contains("costP90 (ms)"))
        #expect(result.out.contains("— → 7.21"))
    }

    @Test func runningItAgainChangesNothingAndLeavesTheFileAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("app.json", Self.scenario())
        let trace = ImportTests.fixture("chrome-app-launch.json")
        #expect(runImport([trace, "--into", path]).status == 0)
        let once = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let again = runImport([trace, "--into", path])
        #expect(again.status == 0)
        #expect(again.out.contains("No cost changed."))
        #expect(again.out.contains("is left as it was."))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == once)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
    }

    @Test func outWritesElsewhereAndLeavesTheScenario() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("app.json", Self.scenario())
        let out = folder.path("refreshed.json")
        let result = runImport([ImportTests.fixture("chrome-app-launch.json"), "--into", path, "--out", out])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.scenario())
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains(#""cost": 28.12575"#))
    }

    @Test func aMapRenamesSlicesOntoTheScenariosTasks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "app.json",
            #"{"name": "x", "tasks": [{"id": "logging", "cost": 1}, {"id": "root", "cost": 1, "mainThreadOnly": true}]}"#
        )
        let map = try folder.write("map.json", #"{"setup-logging": "logging", "viewDidLoad": "root"}"#)
        // viewDidLoad is nested in root-vc, which is no task: the slice named after a task is found inside it.
        let result = runImport([ImportTests.fixture("chrome-bare-array.json"), "--into", path, "--map", map])
        #expect(result.status == 0, "\(result.err)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == #"{"name": "x", "tasks": [{"id": "logging", "cost": 1.8}, {"id": "root", "cost": 20, "mainThreadOnly": true}]}"#
        )
        #expect(result.out.contains("'root-vc' (24.5 ms)") == false)  // it holds a task: not "unmatched"
        #expect(result.out.contains("'config-fetch' (8.25 ms)"))
    }

    @Test func aResultTheLoaderRejectsIsNotWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = #"{"name": "x", "tasks": [{"id": "a", "cost": 1}]}"#
        let path = try folder.write("app.json", text)
        let target = try IntoTarget(path: path)
        var log = ImportLog()
        // A distribution whose p90 is below its median cannot come from a trace; the loader is the safety net.
        let run = ImportedRun(
            file: "t.json", format: "test", tasks: [ImportedTask(id: "a", cost: 5_000_000, p90: 4_000_000, onMain: nil)]
        )
        let merged = MergedImport([run], log: &log)
        #expect(throws: ImportError.self) { try target.refresh(with: merged, log: log) }
        do {
            _ = try target.refresh(with: merged, log: log)
        } catch {
            #expect(error.log.text.contains("would be invalid; nothing was written"))
            #expect(error.log.text.contains("tasks[0].costP90"))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func scenarioTextFindsEveryCostAndAppendsPhases() throws {
        let text = try ScenarioText(Array(Self.scenario().utf8))
        #expect(text.tasks.map(\.id) == ["crash-reporter", "network-config", "root-vc", "legacy-sync"])
        #expect(text.tasks.map { $0.cost?.value } == [4, 8, 30, 2])
        #expect(text.tasks[1].costP90?.value == 12)
        #expect(text.tasks[2].costP90Null != nil)
        #expect(text.phases.map(\.name) == ["dyld: load dylibs", "+load"])
        let appended = String(decoding: text.applying([text.appendPhase(name: "x", cost: "3")!]), as: UTF8.self)
        #expect(appended.contains(#"{ "name": "+load", "cost": 7 }, { "name": "x", "cost": 3 } ],"#))
        let bare = try ScenarioText(Array("{\n  \"name\": \"n\",\n  \"tasks\": []\n}".utf8))
        let added = String(decoding: bare.applying([bare.appendPhase(name: "x", cost: "3")!]), as: UTF8.self)
        #expect(
            added == "{\n  \"name\": \"n\",\n  \"preMain\": [{ \"name\": \"x\", \"cost\": 3 }],\n  \"tasks\": []\n}")
    }
}
