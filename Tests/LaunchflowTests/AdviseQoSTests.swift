import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// Issue 38 item 5: with performance and efficiency cores a worker task's
/// `qos` is a change: raise what the first frame waits for, lower what takes
/// a performance core from it (docs/model.md §3.13). Without clusters the
/// knob changes nothing.
@Suite(.serialized)
struct AdviseQoSTests {
    /// cores 3 (two workers), one P core (speed 1) and one E core (½), 1000
    /// Hz, no commit or render time, dag. `sync` (index 0, worker-1) and `feed`
    /// (worker-2) are ready at 0; `home` on the main thread needs `feed`.
    static func twoCores(sync: String, feed: String, clusters: Bool = true) -> String {
        let cores =
            clusters
            ? #", "clusters": [ { "name": "P", "count": 1, "speed": 1 }, { "name": "E", "count": 1, "speed": 0.5 } ]"#
            : ""
        return """
            { "name": "qos", "device": { "cores": 3, "refreshRate": 1000\(cores) },
              "tasks": [
                { "id": "sync", "cost": 4\(sync) },
                { "id": "feed", "cost": 4\(feed) },
                { "id": "home", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["feed"] }
              ] }
            """
    }

    /// As written `sync` (userInitiated) takes P and `feed` (default) E: feed
    /// does 2 ms of work by 4, when sync ends, and its last 2 on P: 4–6;
    /// `home` 6–7, first frame 7, launch complete 7. Raising feed puts it in
    /// sync's class, behind it (worker-1 first): nothing. Lowering sync to
    /// utility gives feed P: feed 0–4, home 4–5 (first frame 5, the bound);
    /// sync on E does 2 ms by 4 and ½ more by 5 while home has P, then its
    /// last 1.5 on P: launch complete 6.5. To background, sync stays on E
    /// (8 ms): launch complete 8. Deferring sync (`after`) gives 5 and 9;
    /// a rank changes nothing (the class decides the core).
    static let lower = twoCores(sync: #", "qos": "userInitiated""#, feed: "")

    /// As written `sync` (default) takes P and `feed` (utility) E: first frame
    /// 7. Raising feed to userInitiated puts it ahead of sync: feed 0–4, home
    /// 4–5, sync ends at 6.5 as above. Lowering sync to utility puts it in
    /// feed's class, ahead of it (worker-1): nothing; to background: first
    /// frame 5, launch complete 8.
    static let raise = twoCores(sync: "", feed: #", "qos": "utility""#)

    static func plan(_ json: String) throws -> AdvicePlan {
        var configuration = AdviseConfiguration()
        configuration.jobs = 1
        return try Advise.plan(try scenario(json), configuration)
    }

    @Test func lowerTheWorkThatTakesThePerformanceCore() throws {
        let plan = try Self.plan(Self.lower)
        #expect(plan.baseline.timeToFirstFrame == 7_000 && plan.baseline.launchComplete == 7_000)
        #expect(plan.metrics.timeToFirstFrame == 5_000 && plan.metrics.launchComplete == 6_500)
        #expect(
            plan.changes == [
                AdviseChange(
                    task: 0, key: .qos, from: "\"userInitiated\"", to: "\"utility\"", gain: 2_000, readyGain: 2_000,
                    fullDisplayGain: 2_000, launchGain: 500, firstFrameGain: 2_000)
            ])
        #expect(plan.scenario.tasks.map(\.qos) == [.utility, .default, .default])
        let text = AdviseReport.text(plan)
        #expect(text.contains("may change after, priority, idle, qos\n"), "\(text)")
        #expect(text.contains("  change the QoS of 1 worker task: −2 ms (launch complete −0.5 ms)\n"), "\(text)")
        #expect(text.contains("      lower sync to utility (was userInitiated): −2 ms (launch complete −0.5 ms)\n"))
        #expect(text.contains("      how — iOS: DispatchQueue.global(qos:) or Task(priority:)"))
    }

    @Test func raiseTheWorkTheFirstFrameWaitsFor() throws {
        let plan = try Self.plan(Self.raise)
        #expect(plan.baseline.timeToFirstFrame == 7_000)
        #expect(plan.metrics.timeToFirstFrame == 5_000 && plan.metrics.launchComplete == 6_500)
        #expect(plan.changes.map { [$0.task, $0.gain] } == [[1, 2_000]] && plan.changes[0].key == .qos)
        #expect(plan.changes[0].from == "\"utility\"" && plan.changes[0].to == "\"userInitiated\"")
        #expect(AdviseReport.text(plan).contains("      raise feed to userInitiated (was utility): −2 ms"))
    }

    /// The same scenarios with three identical cores: feed 0–4 and home 4–5
    /// as written, at the bound; no QoS can matter and none is proposed.
    @Test func withoutClustersTheKnobProposesNothing() throws {
        for (sync, feed) in [(#", "qos": "userInitiated""#, ""), ("", #", "qos": "utility""#)] {
            let json = Self.twoCores(sync: sync, feed: feed, clusters: false)
            let plan = try Self.plan(json)
            #expect(plan.baseline.timeToFirstFrame == 5_000 && plan.changes.isEmpty)
            let text = AdviseReport.text(plan)
            #expect(text.contains("may change after, priority, idle\n") && !text.contains("QoS"), "\(text)")
            let search = try AdviseSearch(try scenario(json), AdviseConfiguration())
            #expect(search.qosTargets.allSatisfy { $0.isEmpty })
        }
    }

    /// Raise only the worker tasks the first frame (or full display) waits
    /// for, below userInitiated; lower only the others, to utility and
    /// background below their own; never a main-thread or kept task.
    @Test func theTargetsFollowThePath() throws {
        let json = """
            { "name": "t", "device": { "preset": "iphone-16" },
              "tasks": [
                { "id": "a", "cost": 1, "qos": "background" },
                { "id": "b", "cost": 1, "qos": "userInitiated" },
                { "id": "c", "cost": 1, "qos": "utility" },
                { "id": "d", "cost": 1, "qos": "background" },
                { "id": "e", "cost": 1, "qos": "userInteractive" },
                { "id": "f", "cost": 1 },
                { "id": "home", "cost": 1, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a", "b"] },
                { "id": "feed", "cost": 1, "mainThreadOnly": true, "fullyDrawn": true, "dependsOn": ["f"] }
              ] }
            """
        var configuration = AdviseConfiguration()
        let search = try AdviseSearch(try scenario(json), configuration)
        #expect(
            search.qosTargets == [
                [.userInitiated], [], [.background], [], [.utility, .background], [.userInitiated], [], [],
            ])
        configuration.keep = ["a"]
        configuration.knobs = [.after]
        #expect(try AdviseSearch(try scenario(json), configuration).qosTargets.allSatisfy { $0.isEmpty })
        configuration.knobs = [.qos]
        #expect(try AdviseSearch(try scenario(json), configuration).qosTargets[0] == [])
    }

    /// The plan file says the new QoS, in place; the JSON lists the change.
    @Test func thePlanFileCarriesTheQoS() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("raise.json", Self.raise)
        let out = folder.path("plan.json")
        let result = Launchflow.runInProcess(["advise", path, "--out", out, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #"{ "task": "feed", "key": "qos", "from": "utility", "to": "userInitiated", "gainMs": 2"#),
            "\(result.stdout)")
        #expect(result.stdout.contains(#""key": "qos", "mechanism": "iOS: DispatchQueue.global(qos:)"#))
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.contains(#"{ "id": "feed", "cost": 4, "qos": "userInitiated" },"#), "\(written)")
        let planned = try ScenarioLoader.load(path: out)
        #expect(LaunchEngine(planned).metrics(.dag).timeToFirstFrame == 5_000)
    }
}
