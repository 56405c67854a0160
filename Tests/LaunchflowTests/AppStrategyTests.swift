import Foundation
import Testing

@testable import LaunchflowCore

/// Issue 26 item 2: `"strategy"`, the strategy the app uses today — metadata
/// that changes no schedule, compare's baseline, advise's default, and the
/// dependencies a plan for another strategy breaks under it.
struct AppStrategyTests {
    /// A priority app: under its tiers, token (tier 1) runs beside two 30 ms
    /// tasks and data (tier 2) after them, so the first frame waits for the
    /// junk. A dag plan raises token and data to priority 0: under dag data
    /// still waits for token, but under priority both are tier 0 and start
    /// together (one worker each, cores 3) — data starts before token is done.
    static func tiers(strategy: String?) -> String {
        """
        {
          "name": "tiers",\(strategy.map { "\n  \"strategy\": \"\($0)\"," } ?? "")
          "device": { "cores": 3, "refreshRate": 60, "commitCost": 1, "renderTime": 1 },
          "tasks": [
            { "id": "junk", "cost": 30, "priority": 1 },
            { "id": "junk2", "cost": 30, "priority": 1 },
            { "id": "token", "cost": 5, "priority": 1 },
            { "id": "data", "cost": 10, "priority": 2, "dependsOn": ["token"] },
            { "id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "priority": 3, "dependsOn": ["data"] }
          ]
        }
        """
    }

    @Test func badValuesAreRejectedWithTheirPath() {
        let cases: [(String, String)] = [
            (#""strategy": "priorty","#, "strategy: must be"),
            (#""strategy": "priorty","#, "did you mean 'priority'?"),
            (#""strategy": 1,"#, "strategy: expected a string"),
            (#""strategy": "DAG","#, "found 'DAG'"),
        ]
        for (top, message) in cases {
            let found = problems(#"{"name":"x",\#(top)"tasks":[{"id":"a","cost":1}]}"#)
            #expect(found.contains { $0.contains(message) }, "\(message) not in \(found)")
        }
        #expect(problems(#"{"name":"x","strategy":"anchored","tasks":[{"id":"a","cost":1}]}"#).isEmpty)
    }

    @Test func itChangesNoScheduleAndRoundTrips() throws {
        let with = try scenario(Self.tiers(strategy: "priority"))
        let without = try scenario(Self.tiers(strategy: nil))
        #expect(with.strategy == .priority && without.strategy == nil)
        for strategy in Strategy.allCases {
            let a = SimulationResult(with, strategy: strategy).schedule.tasks.map { [$0.start, $0.done] }
            let b = SimulationResult(without, strategy: strategy).schedule.tasks.map { [$0.start, $0.done] }
            #expect(a == b, "\(strategy)")
        }
        let written = String(decoding: with.jsonBytes(), as: UTF8.self)
        #expect(written.contains(#""strategy": "priority""#))
        #expect(try scenario(written).strategy == .priority)
        #expect(!String(decoding: without.jsonBytes(), as: UTF8.self).contains(#""strategy""#))
    }

    @Test func compareTakesItsDeltasAgainstTheAppsStrategy() throws {
        let results = SimulationResult.compare(
            try scenario(Self.tiers(strategy: "priority")), strategies: Strategy.allCases)
        let text = TextReport.comparison(results, markdown: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // serial 83.335, priority 66.668 (by hand: tiers 1 then 2 then 3; see `tiers`), anchored 33.334.
        #expect(lines[2].hasPrefix("metric") && lines[2].contains("priority (the app's)"))
        let firstFrame = try #require(lines.first { $0.hasPrefix("time to first frame") })
        #expect(firstFrame.contains("83.335 (+16.667)"))
        // priority's own cell has no delta; dag's is against it.
        #expect(firstFrame.contains("  66.668       66.668 (±0)"))
        #expect(firstFrame.contains("33.334* (−33.334)"))
        #expect(text.contains("(±x) is the change against priority (the app's).\n"))
        #expect(text.contains("Deltas are against priority, the app's strategy ('strategy' in the file).\n"))
        #expect(text.contains("(33.334 ms sooner than priority (the app's))"))

        // Without the key: serial is the baseline, as before.
        let plain = TextReport.comparison(
            SimulationResult.compare(try scenario(Self.tiers(strategy: nil)), strategies: Strategy.allCases),
            markdown: false)
        #expect(!plain.contains("the app's"))
        #expect(plain.contains("(±x) is the change against serial.\n"))
        #expect(plain.contains("66.668 (−16.667)"))

        // The app's strategy not compared: serial stays the baseline, and the table says so.
        let some = TextReport.comparison(
            SimulationResult.compare(try scenario(Self.tiers(strategy: "priority")), strategies: [.serial, .dag]),
            markdown: true)
        #expect(some.contains("(±x) is the change against serial.\n"))
        #expect(some.contains("is priority, not compared here: deltas are against serial."))
    }

    @Test func adviseDefaultsToTheAppsStrategyAndSaysSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("tiers.json", Self.tiers(strategy: "priority"))
        let own = Launchflow.runInProcess(["advise", path])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout.hasPrefix("tiers — advice under priority, the app's strategy ('strategy' in the file),"))
        #expect(!own.stdout.contains("under priority, the app's strategy, this plan"))

        let plain = Launchflow.runInProcess(["advise", try folder.write("plain.json", Self.tiers(strategy: nil))])
        #expect(plain.stdout.hasPrefix("tiers — advice under dag, objective"))
    }

    @Test func aDagPlanSaysWhichDependenciesItBreaksUnderTheAppsPriorities() throws {
        var configuration = AdviseConfiguration()
        configuration.strategy = .dag
        let plan = try Advise.plan(try scenario(Self.tiers(strategy: "priority")), configuration)
        // The plan gives token and data priority 0 (the rank changes of `tiers`).
        #expect(plan.scenario.tasks.map(\.priority) == [1, 1, 0, 0, 3])
        let app = try #require(plan.underAppStrategy)
        #expect(app.strategy == .priority)
        #expect(app.broken.map { [$0.task, $0.dependency] } == [[3, 2]])
        #expect(app.writtenBroken == 0)
        // Under priority as written: tiers 1 (30 ms) → 2 (10) → ui on main: ready 52 ms, shown at the 66.668 vsync.
        #expect(app.written.timeToFirstFrame == 66_668)
        let text = AdviseReport.text(plan)
        #expect(
            text.contains(
                "note: under priority, the app's strategy, this plan (for dag) breaks 1 dependency: data starts before its dependency token is done; first frame 50.001 ms there (as written 66.668 ms)\n"
            ))
        var writer = JSONWriter()
        writer.advice(plan)
        let json = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            json.contains(
                #""appStrategy": { "strategy": "priority", "brokenDependencies": [{ "task": "data", "dependency": "token" }], "writtenBrokenDependencies": 0"#
            ))
        // Without the key: no note, no appStrategy.
        let plain = try Advise.plan(try scenario(Self.tiers(strategy: nil)), configuration)
        #expect(plain.underAppStrategy == nil)
    }

    // MARK: Item 6: the platform's words

    @Test func platformIsValidatedLikeEveryKey() {
        #expect(
            problems(#"{"name":"x","platform":"iOS","tasks":[{"id":"a","cost":1}]}"#).contains {
                $0.contains("platform: must be") && $0.contains("did you mean 'ios'?")
            })
        #expect(
            problems(#"{"name":"x","platform":true,"tasks":[{"id":"a","cost":1}]}"#).contains {
                $0.contains("platform: expected a string")
            })
        #expect(problems(#"{"name":"x","platform":"android","tasks":[{"id":"a","cost":1}]}"#).isEmpty)
    }

    @Test func eachChangeNamesTheMechanismOnThePlatform() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ios = try folder.write(
            "ios.json",
            Self.tiers(strategy: "priority").replacingOccurrences(
                of: #""name": "tiers","#, with: #""name": "tiers", "platform": "ios","#))
        let plain = try folder.write("plain.json", Self.tiers(strategy: "priority"))
        // Under priority the plan defers junk and junk2 (see `tiers`): an after group. (With the
        // strategy allowed, the plan switches to anchored: strategyMechanismOnEachPlatform.)
        let keys = ["--allow", "after,priority,idle"]
        let onIOS = Launchflow.runInProcess(["advise", ios] + keys)
        #expect(onIOS.status == 0, "\(onIOS.stderr)")
        #expect(onIOS.stdout.contains("  defer 2 tasks until after the first frame: −33.334 ms"))
        #expect(
            onIOS.stdout.contains(
                "      how — on iOS: the runtime's afterFirstFrame: true (the plan's \"after\": \"firstFrame\"); without it, a CATransaction completion block around the first commit, or work started after the first viewDidAppear\n"
            ))
        #expect(!onIOS.stdout.contains("IdleHandler") && !onIOS.stdout.contains("Choreographer"))
        // --platform overrides the file.
        let onAndroid = Launchflow.runInProcess(["advise", ios, "--platform", "android"] + keys)
        #expect(
            onAndroid.stdout.contains(
                "      how — on Android: Choreographer.getInstance().postFrameCallback, or View.post after the first draw\n"
            ))
        #expect(!onAndroid.stdout.contains("CATransaction"))
        // Neither: both, briefly; JSON carries it per group.
        let both = Launchflow.runInProcess(["advise", plain, "--format", "json"] + keys)
        #expect(
            both.stdout.contains(
                #""key": "after", "mechanism": "iOS: the runtime's afterFirstFrame (or a CATransaction completion block); Android: Choreographer.postFrameCallback / View.post""#
            ))
        let bad = Launchflow.runInProcess(["advise", plain, "--platform", "windows"])
        #expect(bad.status == 2)
    }

    @Test func everyKeyAndPlatformHasAMechanism() {
        for key in AdviseChange.Key.allCases {
            let texts = [Platform.ios, .android, nil].map { AdviseMechanism.text(key, $0) }
            #expect(Set(texts).count == 3, "\(key)")
            #expect(texts[0].hasPrefix("on iOS: ") && texts[1].hasPrefix("on Android: "))
            #expect(texts[2].hasPrefix("iOS: ") && texts[2].contains("; Android: "))
        }
    }
}
