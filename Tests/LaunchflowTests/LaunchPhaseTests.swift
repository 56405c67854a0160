import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// MODEL.md §7.3 (docs/model.md §3.12): launch phases, `startsIn`, the first
/// draw. B1 and B2 under every strategy are hand-worked fixtures 69–73; here:
/// the validation table, phases as running items under contention, an idle
/// task handed over during the later phases, the writer, the trace and
/// `compare`'s note. Expected runs are `[thread, ready, start, end]` in µs,
/// 1000 Hz (a vsync every millisecond).
struct LaunchPhaseTests {
    static let ms = 1000

    static func run(_ json: String, _ strategy: Strategy = .dag) throws -> SimulationResult {
        SimulationResult(try scenario(json), strategy: strategy)
    }

    static func phases(_ result: SimulationResult) -> [[Int]] {
        result.schedule.launchPhases.map { [$0.start, $0.costEnd, $0.end] }
    }

    // MARK: Validation

    @Test(arguments: [
        (
            #""launchPhases":[{"name":"didFinishLaunching","cost":1},{"name":"sceneWillConnect","cost":2}],"startsIn":"sceneWilConnect","#,
            "s.json: startsIn: names no launch phase: 'sceneWilConnect' (the phases are 'didFinishLaunching', 'sceneWillConnect'); did you mean 'sceneWillConnect'?"
        ),
        (
            #""launchPhases":[{"name":"willFinishLaunching","cost":1},{"name":"didFinishLaunchin","cost":2}],"#,
            "s.json: launchPhases: no launch phase is named 'didFinishLaunching', where didFinishLaunching runs by default: name the phase that runs it with startsIn (the phases are 'willFinishLaunching', 'didFinishLaunchin'); did you mean 'didFinishLaunchin'?"
        ),
        (
            #""launchPhases":[{"name":"didFinishLaunching","cost":1},{"name":"didFinishLaunching","cost":2}],"#,
            "s.json: launchPhases[1].name: phase 'didFinishLaunching' is declared twice (first at launchPhases[0])"
        ),
        (
            #""startsIn":"didFinishLaunching","#,
            "s.json: startsIn: startsIn names the launch phase in which didFinishLaunching runs, but the scenario has no launchPhases (add them, or leave startsIn out)"
        ),
        (
            #""launchPhases":[],"#,
            "s.json: launchPhases: launchPhases is empty: list the app's callbacks of the first run-loop turn, or leave the key out"
        ),
        (#""launchPhases":[{"name":"","cost":1}],"startsIn":"","#, "s.json: launchPhases[0].name: phase name is empty"),
        (
            #""launchPhases":[{"name":"didFinishLaunching","cost":-1}],"#,
            "s.json: launchPhases[0].cost: must be between 0 and 3600000 ms, found -1"
        ),
        (
            #""launchPhases":[{"name":"didFinishLaunching"}],"#,
            "s.json: launchPhases[0]: missing required key 'cost'"
        ),
        (
            #""launchPhases":[{"name":"didFinishLaunching","cost":1,"cots":2}],"#,
            "s.json: launchPhases[0].cots: unknown key 'cots'; did you mean 'cost'?"
        ),
        (#""startIn":"x","#, "s.json: startIn: unknown key 'startIn'; did you mean 'startsIn'?"),
    ])
    func badPhasesAreRejected(_ top: String, _ message: String) {
        let found = problems(#"{"name":"x",\#(top)"tasks":[{"id":"a","cost":1}]}"#)
        #expect(found.contains("error: \(message)"), "\(found)")
    }

    /// Every problem at once: a duplicate, a missing default phase and a bad cost in one file.
    @Test func everyPhaseProblemAtOnce() {
        let found = problems(
            """
            {"name":"x","launchPhases":[{"name":"a","cost":1},{"name":"a","cost":"2"},{"name":"b","cost":1}],
             "tasks":[{"id":"t","cost":1}]}
            """)
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.contains("launchPhases[1].cost: expected") })
        #expect(found.contains { $0.contains("launchPhases[1].name: phase 'a' is declared twice") })
        #expect(found.contains { $0.contains("no launch phase is named 'didFinishLaunching'") })
    }

    /// Built in code, the same rules.
    @Test func theRulesHoldForScenariosBuiltInCode() throws {
        let tasks = [LaunchTask(id: "a", cost: 1)]
        #expect(throws: ScenarioError.self) {
            try Scenario(name: "x", launchPhases: [LaunchPhase(name: "scene", cost: 1)], tasks: tasks)
        }
        #expect(throws: ScenarioError.self) { try Scenario(name: "x", startsIn: "scene", tasks: tasks) }
        let ok = try Scenario(
            name: "x", launchPhases: [LaunchPhase(name: "scene", cost: 1)], startsIn: "scene", tasks: tasks)
        #expect(ok.startPhase == 0)
    }

    // MARK: Semantics

    /// A phase is a running item of the main thread: with one CPU it shares it
    /// with a worker. t1 = 0 (a zero-cost didFinishLaunching phase); `w` (2 ms)
    /// on worker-1 and the 4 ms scene phase run at ½ from 0: `w` ends at 4, the
    /// phase has 2 ms left and runs alone until 6; the commit (no cost) ends at
    /// 6: first draw 6, the main thread busy 6 (the phase's wall time).
    @Test func aPhaseSharesTheCPU() throws {
        let result = try Self.run(
            """
            {"name":"c","device":{"cores":2,"cpus":1,"refreshRate":1000},
             "launchPhases":[{"name":"didFinishLaunching","cost":0},{"name":"sceneWillConnect","cost":4}],
             "tasks":[{"id":"w","cost":2}]}
            """)
        ContentionTests.expectRuns(result, ["w": [1, 0, 0, 4 * Self.ms]])
        #expect(Self.phases(result) == [[0, 0, 0], [0, 6 * Self.ms, 6 * Self.ms]])
        #expect(result.metrics.firstDraw == 6 * Self.ms)
        #expect(result.metrics.mainThreadBusy == 6 * Self.ms)
        // Work 4 + 2 over 1 CPU × 6: fully used.
        #expect(abs(result.metrics.cpuUtilization - 1) < 1e-9)
    }

    /// An idle task handed over while a later phase runs joins the idle queue,
    /// and iteration 0's idle step, after the last phase, runs it: `x` 0–1 on
    /// worker-1, `i` (idle, needs `x`) idle-ready at 1, the scene phase 0–3,
    /// `i` 3–4 in iteration 0, the commit at 4.
    @Test func anIdleTaskHandedOverDuringThePhasesRunsInIterationZero() throws {
        let result = try Self.run(
            """
            {"name":"i","device":{"cores":2,"refreshRate":1000},
             "launchPhases":[{"name":"didFinishLaunching","cost":0},{"name":"sceneWillConnect","cost":3}],
             "tasks":[{"id":"x","cost":1},{"id":"i","cost":1,"mainThreadOnly":true,"idle":true,"dependsOn":["x"]}]}
            """)
        ContentionTests.expectRuns(
            result, ["x": [1, 0, 0, 1 * Self.ms], "i": [0, 1 * Self.ms, 3 * Self.ms, 4 * Self.ms]])
        #expect(result.schedule.tasks[1].iteration == 0)
        #expect(ContentionTests.commits(result) == [[4 * Self.ms, 4 * Self.ms, 4 * Self.ms]])
        #expect(result.metrics.firstDraw == 4 * Self.ms)
    }

    /// Without launch phases nothing moves: t1 = t0, `phases` is `[]`, and
    /// the first draw is iteration 0's commit's end on every bundled scenario.
    @Test func withoutPhasesTheFirstDrawIsTheFirstCommit() throws {
        for name in GoldenMetricsTests.scenarios {
            let scenario = try ScenarioLoader.load(
                path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path)
            for result in SimulationResult.compare(scenario, strategies: Strategy.allCases) {
                #expect(result.metrics.firstDraw == result.schedule.commits[0].end, "\(name)")
                if scenario.launchPhases.isEmpty {
                    #expect(result.schedule.launchPhases.isEmpty && result.schedule.t1 == result.schedule.t0)
                    let object = try resultObject(scenario, result.schedule.strategy)
                    #expect((object["phases"] as? [Any])?.isEmpty == true, "\(name)")
                }
            }
        }
    }

    // MARK: Writing, the trace, compare

    @Test func thePhasesAreWrittenOnlyWhenSetAndReadBack() throws {
        let plain = try scenario(#"{"name":"p","tasks":[{"id":"a","cost":1}]}"#)
        let plainText = String(decoding: plain.jsonBytes(), as: UTF8.self)
        #expect(!plainText.contains("launchPhases") && !plainText.contains("startsIn"))
        let set = try scenario(
            """
            {"name":"s","launchPhases":[{"name":"App.init","cost":2},{"name":"body","cost":5}],"startsIn":"App.init",
             "tasks":[{"id":"a","cost":1}]}
            """)
        let again = try ScenarioLoader.decode(set.jsonBytes(), file: "again.json")
        #expect(again.launchPhases == set.launchPhases)
        #expect(again.startsIn == "App.init")
        #expect(again.startPhase == 0)
    }

    /// The trace holds each phase as a slice of the main thread, the `startsIn`
    /// one around `didFinishLaunching`.
    @Test func theTraceHoldsThePhases() throws {
        let fixture = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent(
                    "Fixtures/handworked/71-dag-launch-phases-b1-first-draw-before-first-frame.json"),
            encoding: .utf8)
        let b1 = try scenario(try fixture.extractScenario())
        let result = SimulationResult(b1, strategy: .dag)
        let trace = try #require(
            JSONSerialization.jsonObject(with: Data(TraceExport.json(result.schedule, metrics: result.metrics)))
                as? [String: Any])
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        let phases = events.filter { $0["cat"] as? String == "launchPhase" }
        #expect(
            phases.map { $0["name"] as? String } == [
                "willFinishLaunching", "didFinishLaunching", "sceneWillConnect", "sceneDidBecomeActive",
            ])
        #expect(phases.map { $0["ts"] as? Int } == [10_000, 11_000, 17_000, 22_000])
        #expect(phases.map { $0["dur"] as? Int } == [1_000, 6_000, 5_000, 1_000])
        let dFL = try #require(
            events.first { $0["name"] as? String == "didFinishLaunching" && $0["cat"] as? String == "runloop" })
        #expect(dFL["ts"] as? Int == 13_000 && dFL["dur"] as? Int == 4_000)
    }

    /// launchflow's own trace carries the phases, their own costs and the
    /// `startsIn` one, and `import` reads them back: B2 imported from its
    /// `dag` trace simulates to the same phases and first draw.
    @Test func aTraceImportsItsPhasesBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixture = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/handworked/73-dag-starts-in-scene-b2.json"),
            encoding: .utf8)
        let b2 = try scenario(try fixture.extractScenario())
        let result = SimulationResult(b2, strategy: .dag)
        let trace = try folder.write(
            "b2.trace.json", String(decoding: TraceExport.json(result.schedule, metrics: result.metrics), as: UTF8.self)
        )
        let outcome = try TraceImport.run(ImportRequest(traces: [trace]))
        let imported = try ScenarioLoader.decode(outcome.scenario, file: "imported.json")
        #expect(imported.launchPhases == b2.launchPhases)
        #expect(imported.startsIn == "sceneWillConnect")
        let again = SimulationResult(imported, strategy: .dag)
        #expect(again.schedule.launchPhases == result.schedule.launchPhases)
        #expect(again.metrics.firstDraw == 24 * Self.ms && again.metrics.timeToFirstFrame == 31 * Self.ms)
    }
}

extension String {
    /// The `scenario` object of a hand-worked fixture, as JSON text.
    fileprivate func extractScenario() throws -> String {
        let object = try #require(JSONSerialization.jsonObject(with: Data(utf8)) as? [String: Any])
        let data = try JSONSerialization.data(withJSONObject: try #require(object["scenario"]))
        return String(decoding: data, as: UTF8.self)
    }
}

/// `compare` names the first draw and says when it shows no firstFrame task.
@Test func compareSaysWhenTheFirstDrawIsNotTheFirstFrame() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let b1 = try folder.write(
        "b1.json",
        """
        {"name":"B1","device":{"cores":2,"refreshRate":1000,"commitCost":1},"preMain":[{"name":"dyld","cost":10}],
         "launchPhases":[{"name":"willFinishLaunching","cost":1},{"name":"didFinishLaunching","cost":2},
                         {"name":"sceneWillConnect","cost":5},{"name":"sceneDidBecomeActive","cost":1}],
         "tasks":[{"id":"config","cost":4,"anchor":true},
                  {"id":"feed","cost":6,"mainThreadOnly":true,"firstFrame":true,"dependsOn":["config"]},
                  {"id":"analytics","cost":3}]}
        """)
    let out = Launchflow.runInProcess(["compare", b1])
    #expect(out.status == 0)
    #expect(out.stdout.contains("time to first draw (ms)"), "\(out.stdout)")
    #expect(
        out.stdout.contains(
            "under dag it shows no firstFrame task (first draw 24 ms, first frame 31 ms)"), "\(out.stdout)")
    #expect(!out.stdout.contains("under anchored it shows"))
    let anchoredOnly = Launchflow.runInProcess(["compare", b1, "--strategies", "serial,anchored"])
    #expect(!anchoredOnly.stdout.contains("Time to first draw is Apple's"))
}
