import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// `before` (issue 26, what the app knows): the key, its validation, and how
/// `advise` and `validate`'s lint honour it. The simulation ignores it.
@Suite(.serialized)
struct BeforeTests {
    /// 1000 Hz, dag. As written, iteration 1 runs the main queue in index
    /// order: lock 0–3, home 3–8, sdk 8–28; first frame 28. Deferring lock and
    /// sdk would show home at 5 — before the lock screen is set up. With lock
    /// pinned before the first frame, only sdk is deferred: lock 0–3, home
    /// 3–8, first frame 8.
    static let lock = #"""
        { "name": "lock", "device": { "cores": 2, "refreshRate": 1000 },
          "tasks": [
            { "id": "lock", "cost": 3, "mainThreadOnly": true, "before": "firstFrame" },
            { "id": "home", "cost": 5, "mainThreadOnly": true, "firstFrame": true },
            { "id": "sdk", "cost": 20, "mainThreadOnly": true }
          ] }
        """#

    /// One worker. Under dag dFL returns at once (no anchor), so `crash`
    /// (0–10) is done after didFinishLaunching returns (at 0): late as
    /// written. Under priority dFL waits for it (T0, step 3): in time.
    static let crash = #"""
        { "name": "crash", "device": { "cores": 2, "refreshRate": 1000 },
          "tasks": [
            { "id": "crash", "cost": 10, "before": "launch" },
            { "id": "home", "cost": 1, "mainThreadOnly": true, "firstFrame": true }
          ] }
        """#

    static func configuration(_ knobs: [AdviseKnob] = AdviseKnob.defaults) -> AdviseConfiguration {
        var configuration = AdviseConfiguration()
        configuration.knobs = knobs
        configuration.jobs = 1
        return configuration
    }

    // MARK: The key

    @Test func theKeyIsReadWrittenAndIgnoredByTheSimulation() throws {
        let written = try scenario(Self.lock)
        #expect(written.tasks.map(\.before) == [.firstFrame, nil, nil])
        let reloaded = try ScenarioLoader.decode(written.jsonBytes(), file: "again.json")
        #expect(reloaded.tasks.map(\.before) == [.firstFrame, nil, nil])
        #expect(String(decoding: written.jsonBytes(), as: UTF8.self).contains(#""before": "firstFrame""#))
        var unpinned = written
        unpinned.tasks[0].before = nil
        for strategy in Strategy.allCases {
            #expect(LaunchEngine(written).metrics(strategy) == LaunchEngine(unpinned).metrics(strategy))
        }
    }

    // Bad values and contradictions with `after`: ValidationTests' rules.

    @Test func theCommandNamesFileKeyAndSuggestion() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(
            "s.json", Self.lock.replacingOccurrences(of: #""firstFrame" }"#, with: #""firstframe" }"#))
        let result = Launchflow.runInProcess(["advise", file])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "\(file): tasks[0].before (task 'lock'): must be 'firstFrame' or 'launch', found 'firstframe'; did you mean 'firstFrame'?"
            ), "\(result.stderr)")
    }

    // MARK: advise

    @Test func aPinnedTaskIsNeitherDeferredNorMadeIdle() throws {
        let plan = try Advise.plan(try scenario(Self.lock), Self.configuration())
        #expect(plan.baseline.timeToFirstFrame == 28_000)
        #expect(plan.metrics.timeToFirstFrame == 8_000)
        #expect(plan.scenario.tasks[0].after == nil && !plan.scenario.tasks[0].idle)
        #expect(plan.scenario.tasks[2].after != nil || plan.scenario.tasks[2].idle)
        #expect(!plan.changes.contains { $0.task == 0 && [.after, .idle].contains($0.key) })
        #expect(AdviseReport.title(plan).hasSuffix("; 1 task pinned by 'before'"))
        // Unpinned, the lock screen would be deferred past the first frame.
        var unpinned = try scenario(Self.lock)
        unpinned.tasks[0].before = nil
        #expect(try Advise.plan(unpinned, Self.configuration()).metrics.timeToFirstFrame == 5_000)
    }

    @Test func aTaskLateAsWrittenIsBroughtInTimeWhenAnAnchorMayBeAdded() throws {
        let plain = try Advise.plan(try scenario(Self.crash), Self.configuration())
        // No knob of the defaults can keep dFL waiting: the plan leaves it late, and says so.
        #expect(plain.scenario.tasks[0].after == nil)
        #expect(
            plain.notes.contains {
                $0.hasPrefix(
                    "'crash' must be done before didFinishLaunching returns (\"before\": \"launch\"), but is done at 10 ms"
                )
            }, "\(plain.notes)")
        let anchored = try Advise.plan(try scenario(Self.crash), Self.configuration(AdviseKnob.allCases))
        #expect(anchored.scenario.tasks[0].anchor)
        #expect(anchored.notes.contains { $0.hasSuffix("late as written, in time with the plan") }, "\(anchored.notes)")
        let result = LaunchEngine(anchored.scenario).result(.dag)
        #expect(!result.schedule.lateTasks(firstFrameIteration: result.metrics.firstFrameIteration)[0])
    }

    @Test func underPriorityAPinnedTaskKeepsItsTier() throws {
        var configuration = Self.configuration()
        configuration.strategy = .priority
        let written = try scenario(
            Self.crash.replacingOccurrences(of: #""cost": 1,"#, with: #""cost": 1, "priority": 1,"#))
        let plan = try Advise.plan(written, configuration)
        let result = LaunchEngine(plan.scenario).result(.priority)
        #expect(!result.schedule.lateTasks(firstFrameIteration: result.metrics.firstFrameIteration)[0])
    }

    /// Random scenarios with pinned tasks, some in time as written and some
    /// late: no plan defers a pinned task or what it needs, makes it idle,
    /// makes one late that is in time as written, or removes an anchor.
    @Test(arguments: [(21, false), (22, true), (23, true), (24, false), (25, true)] as [(UInt64, Bool)])
    func plansHonourPinsOnRandomScenarios(_ seed: UInt64, _ everyKey: Bool) throws {
        for strategy in [Strategy.dag, .anchored, .priority] {
            let base = try AdviseTests.random(seed, everyKey: everyKey)
            let asWritten = LaunchEngine(base).result(strategy)
            let frame = asWritten.schedule.instant(
                of: .firstFrame, firstFrameIteration: asWritten.metrics.firstFrameIteration)
            let graph = TaskGraph(tasks: base.tasks)
            var rng = SplitMix64(seed: seed &+ 1000)
            var pinnedScenario = base
            for i in base.tasks.indices where rng.nextUnit() < 0.15 {
                let closure = graph.dependencyClosure(of: [i])
                guard !base.tasks.indices.contains(where: { closure[$0] && base.tasks[$0].after != nil }) else {
                    continue
                }
                let done = asWritten.schedule.tasks[i].done
                pinnedScenario.tasks[i].before =
                    done <= asWritten.schedule.didFinishLaunching.end && rng.nextUnit() < 0.5
                    ? .launch : (done <= frame || rng.nextUnit() < 0.3 ? .firstFrame : .launch)
            }
            let written = try ScenarioLoader.decode(pinnedScenario.jsonBytes(), file: "pinned.json")
            // The simulation ignores `before`: the same schedule, now with the pins to check.
            let pinnedRun = LaunchEngine(written).result(strategy)
            #expect(pinnedRun.metrics == asWritten.metrics)
            let lateAsWritten = pinnedRun.schedule.lateTasks(firstFrameIteration: pinnedRun.metrics.firstFrameIteration)
            var configuration = Self.configuration(AdviseKnob.allCases)
            configuration.strategy = strategy
            configuration.jobs = 2
            configuration.maxEvaluations = 200
            let plan = try Advise.plan(written, configuration)
            // Every knob, the strategy too: the plan runs under its own (the written file's "strategy" when it switches).
            let result = LaunchEngine(plan.scenario).result(plan.strategy)
            #expect(result.metrics == plan.metrics)
            #expect(plan.strategy == strategy || plan.scenario.strategy == plan.strategy)
            let late = result.schedule.lateTasks(firstFrameIteration: result.metrics.firstFrameIteration)
            let pins = written.tasks.indices.filter { written.tasks[$0].before != nil }
            let needed = graph.dependencyClosure(of: pins)
            for i in written.tasks.indices {
                let id = "\(written.tasks[i].id) under \(strategy), seed \(seed)"
                if needed[i] {
                    #expect(plan.scenario.tasks[i].after == written.tasks[i].after, "\(id)")
                    #expect(plan.scenario.tasks[i].idle == written.tasks[i].idle, "\(id)")
                }
                if written.tasks[i].before != nil && !lateAsWritten[i] { #expect(!late[i], "\(id)") }
                if written.tasks[i].anchor { #expect(plan.scenario.tasks[i].anchor, "\(id)") }
            }
            #expect(late.filter { $0 }.count <= lateAsWritten.filter { $0 }.count)
        }
    }

    // MARK: lint

    @Test func lintWarnsAboutAPinnedTaskAStrategyRunsLate() throws {
        let warnings = Lint.warnings(try scenario(Self.crash), file: "s.json").filter { $0.rule == .pinnedTaskRunsLate }
        #expect(
            warnings.map(\.description) == [
                "warning: s.json: tasks[0].before (task 'crash'): must be done before didFinishLaunching returns (\"before\": \"launch\"), but under dag it is done at 10 ms, after didFinishLaunching returns at 0 ms (late under anchored too); under dag and anchored, an anchor (this task, or one that depends on it) keeps didFinishLaunching waiting for it"
            ])
        // An anchor fixes it under every strategy.
        let fixed = try scenario(
            Self.crash.replacingOccurrences(of: #""before": "launch""#, with: #""before": "launch", "anchor": true"#))
        #expect(Lint.warnings(fixed, file: "s.json").filter { $0.rule == .pinnedTaskRunsLate }.isEmpty)
        // Nothing suggests `after` for a pinned task; anchored runs the lock screen after the first frame
        // (dFL runs home first, iteration 0 commits at 5, lock runs 5–8 in iteration 1).
        let lock = Lint.warnings(try scenario(Self.lock), file: "s.json").filter { $0.problem.taskID == "lock" }
        #expect(lock.map(\.rule) == [.pinnedTaskRunsLate])
        #expect(
            lock.first?.problem.message.contains(
                "under anchored it is done at 8 ms, after the first-frame commit starts at 5 ms") == true)
    }
}
