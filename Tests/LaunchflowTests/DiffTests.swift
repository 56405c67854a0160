import Foundation
import Testing

@testable import LaunchflowCore

/// `launchflow diff` on hand-built pairs: what is reported, the effect of
/// each change (re-simulated alone on OLD), the order, the critical path.
struct DiffTests {
    /// `net` on the worker feeds `ui`, the first frame, on main; `log` is side work.
    static func app(
        net: Int = 10, log: Int = 5, extraTasks: String = "", ui: String = #""dependsOn": ["net"]"#,
        device: String = #"{"cores": 2}"#, preMain: String = "[]", name: String = "app"
    ) -> String {
        """
        {"name": "\(name)", "device": \(device), "preMain": \(preMain), "tasks": [
          {"id": "net", "cost": \(net)},
          {"id": "log", "cost": \(log), "priority": 1},
          {"id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, \(ui)}\(extraTasks)
        ]}
        """
    }

    func diff(
        _ old: String, _ new: String, strategies: [Strategy] = Strategy.allCases,
        limit: Int = ScenarioDiff.defaultMeasureLimit
    )
        throws -> ScenarioDiff
    {
        ScenarioDiff(
            old: try scenario(old), oldFile: "old.json", new: try scenario(new), newFile: "new.json",
            strategies: strategies, measureLimit: limit)
    }

    func lines(_ diff: ScenarioDiff) -> [String] { diff.changes.map(ScenarioDiff.describe) }

    @Test func aCostChangeAndItsEffectOnTheFirstFrame() throws {
        let d = try diff(Self.app(), Self.app(net: 20))
        #expect(lines(d) == ["'net': cost 10 → 20 ms (+10)"])
        let dag = Strategy.allCases.firstIndex(of: .dag)!
        #expect(d.changes[0].effect?[dag] == 16_667)  // the first frame misses one more vsync
        #expect(d.newMetrics[dag].timeToFirstFrame - d.oldMetrics[dag].timeToFirstFrame == 16_667)
        #expect(d.enteredCriticalPath.isEmpty && d.leftCriticalPath.isEmpty)
        #expect(d.newCriticalLength - d.oldCriticalLength == 10_000)
    }

    /// (§3.13) The clusters are one device change, measured like the others.
    @Test func aClusterChangeIsADeviceChange() throws {
        let fast =
            #"{"cores": 3, "clusters": [{"name": "P", "count": 1, "speed": 1}, {"name": "E", "count": 2, "speed": 0.5}]}"#
        let slow = fast.replacingOccurrences(of: "0.5", with: "0.25")
        let d = try diff(Self.app(device: fast), Self.app(device: slow))
        #expect(lines(d) == ["device: clusters 1 P (speed 1) + 2 E (speed 0.5) → 1 P (speed 1) + 2 E (speed 0.25)"])
        let none = try diff(Self.app(), Self.app(device: fast))
        #expect(lines(none).contains { $0.contains("+ clusters 1 P (speed 1) + 2 E (speed 0.5)") }, "\(lines(none))")
    }

    @Test func changesAreOrderedByTheirEffectNotTheirSize() throws {
        let d = try diff(Self.app(), Self.app(net: 12, log: 60))
        // log grows by 55 ms but the first frame does not wait for it; net grows by 2 ms and it does.
        #expect(lines(d) == ["'net': cost 10 → 12 ms (+2)", "'log': cost 5 → 60 ms (+55)"])
        #expect(d.changes.map { $0.effect?.last } == [16_667, 0])
        // Over the work limit, nothing is re-simulated and the cost change orders them.
        let capped = try diff(Self.app(), Self.app(net: 12, log: 60), limit: 0)
        #expect(!capped.effectsMeasured)
        #expect(lines(capped) == ["'log': cost 5 → 60 ms (+55)", "'net': cost 10 → 12 ms (+2)"])
        #expect(capped.changes.allSatisfy { $0.effect == nil })
        #expect(capped.text().contains("effects not measured"))
    }

    @Test func anAddedTaskCarriesTheEdgesToItAndEntersTheCriticalPath() throws {
        let new = Self.app(extraTasks: #", {"id": "flags", "cost": 30}"#, ui: #""dependsOn": ["net", "flags"]"#)
        let d = try diff(Self.app(), new)
        #expect(lines(d) == ["added 'flags': 30 ms; needed by ui"])
        #expect(d.changes[0].kind == .taskAdded && d.changes[0].linked == ["ui"])
        #expect((d.changes[0].effect?.last ?? 0) > 0)
        #expect(d.enteredCriticalPath == ["flags"] && d.leftCriticalPath == ["net"])
    }

    @Test func aRemovedTaskTakesItsEdgesAndLeavesTheCriticalPath() throws {
        let old = Self.app(net: 20, log: 1)
        let new = Self.app(log: 1, ui: #""dependsOn": []"#).replacingOccurrences(
            of: #"{"id": "net", "cost": 10},"#, with: "")
        let d = try diff(old, new)
        #expect(lines(d) == ["removed 'net' (20 ms); was needed by ui"])
        #expect(d.changes[0].effect?.last == -16_667)
        #expect(d.leftCriticalPath == ["net"] && d.enteredCriticalPath.isEmpty)
    }

    @Test func dependencyAndFlagChanges() throws {
        let old =
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 2}, {"id": "c", "cost": 3, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a"]}]}"#
        let new =
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "mainThreadOnly": true, "priority": 2}, {"id": "b", "cost": 2}, {"id": "c", "cost": 3, "mainThreadOnly": true, "dependsOn": ["b"]}]}"#
        let d = try diff(old, new)
        #expect(
            Set(lines(d)) == [
                "'a': now mainThreadOnly; priority 0 → 2",
                "'c': no longer firstFrame; dependsOn +b −a",
            ])
        let fields = d.changes.first { $0.task == "c" }?.fields.map(\.field)
        #expect(fields == ["firstFrame", "dependsOn"])
    }

    @Test func deviceAndPreMainChanges() throws {
        let old = Self.app(preMain: #"[{"name": "dyld", "cost": 10}]"#)
        let new = Self.app(
            device: #"{"cores": 4, "commitCost": 1}"#,
            preMain: #"[{"name": "dyld", "cost": 20}, {"name": "+load", "cost": 5}]"#)
        let d = try diff(old, new)
        #expect(
            Set(lines(d)) == [
                "device: cores 2 → 4; commitCost 0 → 1 ms",
                "pre-main: 'dyld' 10 → 20 ms; + '+load' 5 ms (total +15)",
            ])
        let preMain = try #require(d.changes.first { $0.kind == .preMain })
        #expect(preMain.effect?.last == 16_667)  // 15 ms later: the first frame misses one more vsync
    }

    @Test func aChangeThatWouldCloseACycleAloneIsNotMeasured() throws {
        let old = #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "dependsOn": ["b"]}, {"id": "b", "cost": 1}]}"#
        let new = #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["a"]}]}"#
        let d = try diff(old, new)
        let b = try #require(d.changes.first { $0.task == "b" })
        #expect(b.effect == nil && b.note == "not measured: alone it would close a dependency cycle")
        #expect(d.changes.first { $0.task == "a" }?.effect != nil)
        #expect(d.text().contains("'b': dependsOn +a (not measured: alone it would close a dependency cycle)"))
    }

    @Test func orderNameAndInformationalChanges() throws {
        let old =
            #"{"name": "x", "device": {"cores": 2}, "tasks": [{"id": "a", "cost": 20}, {"id": "b", "cost": 20}, {"id": "ui", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["b"]}]}"#
        let new =
            #"{"name": "y", "device": {"cores": 2}, "budgets": {"frames": 3}, "tasks": [{"id": "b", "cost": 20, "costP90": 29}, {"id": "a", "cost": 20}, {"id": "ui", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["b"]}]}"#
        let d = try diff(old, new, strategies: [.dag])
        // With one worker, b now runs first: the first frame comes a vsync earlier.
        #expect(
            lines(d) == [
                "task order changed (equal priorities are ranked by position)",
                "'b': + costP90 29 ms",
                "name x → y; budgets none → frames=3",
            ])
        #expect(d.changes[0].effect == [-16_667])
        #expect(d.changes[1].effect == nil && d.changes[2].effect == nil)
    }

    /// A key added to the field table is compared without code of its own in diff.
    @Test func v2KeysAreComparedRowByRow() throws {
        let old =
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1, "group": "Core"}, {"id": "ui", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a"]}]}"#
        let new =
            #"{"name": "x", "idleMode": "oneByOne", "inputs": [{"name": "tap", "at": 500, "cost": 20}], "tasks": [{"id": "a", "cost": 1, "latency": 300, "queue": "net", "group": "Net"}, {"id": "ui", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "anchor": true, "dependsOn": ["a"]}, {"id": "later", "cost": 2, "delay": 5, "mainThreadOnly": true, "idle": true}]}"#
        let d = try diff(old, new, strategies: [.dag])
        #expect(
            Set(lines(d)) == [
                "idleMode batch → oneByOne",
                "inputs: + 'tap' at 500 ms (20 ms)",
                "'a': latency 0 → 300 ms; + queue net; group Core → Net",
                "'ui': now anchor",
                "added 'later': 2 ms, main thread only, delay 5 ms, idle",
            ])
        let kinds = Dictionary(d.changes.map { (Self.describe($0), $0.kind) }, uniquingKeysWith: { a, _ in a })
        #expect(kinds["idleMode batch → oneByOne"] == .setting)
        #expect(kinds["inputs: + 'tap' at 500 ms (20 ms)"] == .inputs)
        #expect(kinds["'a': latency 0 → 300 ms; + queue net; group Core → Net"] == .taskChanged)
        // group alone does not change the schedule: information, not re-simulated.
        let regrouped = try diff(old, old.replacingOccurrences(of: "Core", with: "Auth"), strategies: [.dag])
        #expect(lines(regrouped) == ["'a': group Core → Auth"])
        #expect(regrouped.changes[0].kind == .info && regrouped.changes[0].effect == nil)
    }

    static func describe(_ change: ScenarioChange) -> String { ScenarioDiff.describe(change) }

    @Test func identicalScenariosHaveNoChanges() throws {
        let d = try diff(Self.app(), Self.app())
        #expect(d.changes.isEmpty)
        #expect(d.text().contains("No changes: both files describe the same launch."))
    }

    // MARK: The command

    @Test func theCommandPrintsMetricsChangesAndTheCriticalPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = try folder.write("old.json", Self.app())
        let new = try folder.write("new.json", Self.app(net: 20))
        let out = try Launchflow.run(["diff", old, new, "--strategies", "dag"])
        #expect(out.status == 0 && out.stderr.isEmpty)
        #expect(
            out.stdout == """
                diff: \(old) → \(new) (app)

                Metrics (old → new; times in ms)
                  metric                                      dag
                  timeToFirstFrameMs    16.667 → 33.334 (+16.667)
                  firstFrameReadyMs                 15 → 25 (+10)
                  firstDrawMs                                   0
                  prewarmedFirstDrawMs                          0
                  timeToFullDisplayMs   16.667 → 33.334 (+16.667)
                  launchCompleteMs                  15 → 25 (+10)
                  mainThreadBusyMs                              5
                  mainThreadBlockedMs                           0
                  cpuUtilization           0.6667 → 0.6 (−0.0667)
                  frames                                        2
                  maxInputDelayMs                               0
                  inputLatencyMaxMs                             0
                  criticalPathMs                    15 → 25 (+10)
                  lowerBoundMs                      15 → 25 (+10)
                  firstFrameBoundMs     16.667 → 33.334 (+16.667)
                  dependencyViolations                          0

                Changes, by their effect on time to first frame under dag (ms: each change applied alone to \(old) and simulated again; effects need not add up)
                    Δ dag  change
                  +16.667  'net': cost 10 → 20 ms (+10)

                Critical path (dependsOn only, without pre-main)
                  old: net → ui (15 ms)
                  new: net → ui (25 ms)
                  the same tasks

                """)
        let json = try Launchflow.run(["diff", old, new, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["task"] as? String == "net")
        #expect((changes[0]["timeToFirstFrameEffectMs"] as? [String: Any])?["dag"] as? Double == 16.667)
        let metrics = try #require((object["metrics"] as? [String: Any])?["serial"] as? [String: Any])
        #expect((metrics["launchCompleteMs"] as? [String: Any])?["delta"] as? Double == 10)
    }

    @Test func anInvalidFileExitsTwoNamingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = try folder.write("old.json", Self.app())
        let bad = try folder.write("bad.json", #"{"name": "x", "tasks": [{"id": "a", "cost": -1}]}"#)
        let out = try Launchflow.run(["diff", old, bad])
        #expect(out.status == 2 && out.stdout.isEmpty)
        #expect(out.stderr.hasPrefix("error: \(bad): tasks[0].cost (task 'a'): must be between 0 and 3600000 ms"))
        let missing = try Launchflow.run(["diff", old])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("error: missing argument <new>"))
    }
}
