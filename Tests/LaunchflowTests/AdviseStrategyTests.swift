import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore
@testable import LaunchflowRender

/// Issue 35 item 5: the strategy is a change like any other. Without
/// `--strategy` advise also searches under dag and anchored, and a plan under
/// another strategy than the app's starts with the switch, its effect alone.
@Suite(.serialized)
struct AdviseStrategyTests {
    /// 1000 Hz, no commit or render time, one worker. Under serial dFL runs
    /// `sdk` 0–10 and `home` 10–12 on the main thread; the one commit at 12 is
    /// the first frame: 12, launch complete 12, 1 commit. No key changes that
    /// (serial ignores `after` and runs everything before its commit).
    /// Under dag dFL returns at 0, iteration 0 commits at 0, `home` runs 0–2 in
    /// iteration 1, commit at 2: first frame 2 (the bound); `sdk` 0–10 on the
    /// worker: launch complete 10, 2 commits. Under anchored dFL runs `home`
    /// 0–2 itself and commits at 2: the same first frame and launch, 1 commit
    /// — a tie that dag, searched first after the app's, keeps.
    static let serialApp = #"""
        { "name": "switch", "strategy": "serial", "device": { "cores": 2, "refreshRate": 1000 },
          "tasks": [
            { "id": "sdk", "cost": 10 },
            { "id": "home", "cost": 2, "mainThreadOnly": true, "firstFrame": true }
          ] }
        """#

    static func configuration(_ strategy: Strategy, knobs: [AdviseKnob]) -> AdviseConfiguration {
        var configuration = AdviseConfiguration()
        configuration.strategy = strategy
        configuration.knobs = knobs
        configuration.jobs = 1
        return configuration
    }

    @Test func theStrategiesSearchedAreTheAppsThenDagAndAnchored() {
        let all = AdviseKnob.defaults(strategyPinned: false)
        #expect(all == [.after, .priority, .idle, .qos, .strategy])
        #expect(AdviseKnob.defaults(strategyPinned: true) == AdviseKnob.defaults)
        #expect(Self.configuration(.serial, knobs: all).searchStrategies == [.serial, .dag, .anchored])
        #expect(Self.configuration(.priority, knobs: all).searchStrategies == [.priority, .dag, .anchored])
        #expect(Self.configuration(.dag, knobs: all).searchStrategies == [.dag, .anchored])
        #expect(Self.configuration(.anchored, knobs: all).searchStrategies == [.anchored, .dag])
        #expect(Self.configuration(.serial, knobs: AdviseKnob.defaults).searchStrategies == [.serial])
        let budget = Self.configuration(.serial, knobs: all).evaluationBudget(taskCount: 100)
        #expect(Self.configuration(.serial, knobs: all).totalBudget(taskCount: 100) == 3 * budget)
    }

    @Test func aSerialAppSwitchesToDagWithTheSwitchAsItsFirstChange() throws {
        let written = try scenario(Self.serialApp)
        let plan = try Advise.plan(
            written, Self.configuration(.serial, knobs: AdviseKnob.defaults(strategyPinned: false)))
        #expect(plan.configuration.strategy == .serial && plan.strategy == .dag)
        #expect(plan.baseline.timeToFirstFrame == 12_000 && plan.baseline.launchComplete == 12_000)
        #expect(plan.metrics.timeToFirstFrame == 2_000 && plan.metrics.launchComplete == 10_000)
        // The plan file carries the new strategy and nothing else changes.
        #expect(plan.scenario.strategy == .dag && plan.changes.isEmpty && plan.changeCount == 1)
        var expected = written
        expected.strategy = .dag
        #expect(plan.scenario.jsonBytes() == expected.jsonBytes())
        let change = try #require(plan.strategyChange)
        #expect(change.from == .serial && change.to == .dag && change.gain == 10_000)
        #expect(change.written.frames == 1 && change.switched.frames == 2)
        #expect(change.keeping?.changeCount == 0)
        let text = AdviseReport.text(plan)
        #expect(text.contains("as written (serial)  plan (dag)  best built-in: dag\n"), "\(text)")
        #expect(!text.contains("plan keeping serial"))
        #expect(
            text.contains(
                "changes (1; each effect on the time to first frame measured by taking it out of the plan):\n  strategy: serial → dag: −10 ms, the switch alone on the file as written (launch complete −2 ms; commits (frames) 1 → 2)\n      how — iOS: operations with dependencies"
            ), "\(text)")
        #expect(text.contains("LaunchConfiguration(strategy: .dag) in the code"))
        #expect(text.contains("      keeping serial, no change improves on the file as written\n"))
        #expect(AdviseReport.markdown(plan).contains("- strategy: serial → dag: −10 ms"))
        var writer = JSONWriter()
        writer.advice(plan)
        let json = String(decoding: writer.bytes, as: UTF8.self)
        #expect(json.contains(#""strategy": "dag",\#n  "baselineStrategy": "serial""#), "\(json)")
        #expect(
            json.contains(
                #""strategyChange": { "from": "serial", "to": "dag", "gainMs": 10, "readyGainMs": 10, "fullDisplayGainMs": 10, "launchGainMs": 2, "blockedMs": 0"#
            ), "\(json)")
        #expect(json.contains(#""framesFrom": 1, "framesTo": 2"#))
    }

    /// AdviseCostTests.tap (60 Hz, a tap at 16): keeping dag, deferring sdk
    /// gives home 0–15, the frame at 16.667, the tap 16–17, sdk 17–37 (launch
    /// 37, no input waits). Under anchored dFL runs home 0–15 and iteration 0
    /// commits it (16.667 too); sdk runs 15–35 in iteration 1 and the tap
    /// waits until 35 (input latency 19), launch complete 35. The same frame,
    /// a launch 2 ms sooner — but a switch must move the frame on screen (or
    /// meet a constraint the app's strategy cannot), so the plan keeps dag
    /// with its one change and says nothing of a switch.
    @Test func aSwitchThatDoesNotMoveTheFrameIsNotProposed() throws {
        let plan = try Advise.plan(
            try scenario(AdviseCostTests.tap),
            Self.configuration(.dag, knobs: AdviseKnob.defaults(strategyPinned: false)))
        #expect(plan.strategy == .dag && plan.strategyChange == nil)
        #expect(plan.changes.count == 1 && plan.metrics.launchComplete == 37_000)
        #expect(plan.scenario.tasks[0].after == .firstFrame)
        #expect(plan.metrics.timeToFirstFrame == 16_667)
        #expect(!AdviseReport.text(plan).contains("strategy: dag →"))
    }

    @Test func pinnedOrTiedTheAppsStrategyStays() throws {
        // Pinned (the knob off): serial can change nothing.
        let pinned = try Advise.plan(
            try scenario(Self.serialApp), Self.configuration(.serial, knobs: AdviseKnob.defaults))
        #expect(pinned.strategy == .serial && pinned.strategyChange == nil && pinned.changeCount == 0)
        #expect(AdviseReport.text(pinned).contains("no change improves on the scenario as written"))
        // A dag app at the bound: anchored ties on every part of the key but the switch itself.
        let dagApp = try scenario(Self.serialApp.replacingOccurrences(of: #""serial""#, with: #""dag""#))
        let plan = try Advise.plan(dagApp, Self.configuration(.dag, knobs: AdviseKnob.defaults(strategyPinned: false)))
        #expect(plan.strategy == .dag && plan.strategyChange == nil && plan.scenario.strategy == .dag)
        var writer = JSONWriter()
        writer.advice(plan)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""strategyChange": null"#))
    }

    /// The README's compare table of scenarios/article.json: serial 250.005 ms;
    /// dag and anchored 166.670 (the bound), ready 161 and 159, anchored
    /// blocking the main thread 18 ms. As a serial app the plan switches
    /// (anchored by the frame before vsync); with --max-blocked 0 to dag.
    @Test func theArticleAsASerialAppGetsAPlanForAnotherStrategy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("scenarios/article.json"), encoding: .utf8)
        let name = try #require(text.range(of: #""name":"#))
        let serial = text.replacingCharacters(in: name, with: #""strategy": "serial", "name":"#)
        let path = try folder.write("article.json", serial)
        let out = folder.path("plan.json")
        let result = Launchflow.runInProcess(["advise", path, "--out", out, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let planned = try ScenarioLoader.load(path: out)
        #expect(planned.strategy == .anchored)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["strategy"] as? String == "anchored" && report["baselineStrategy"] as? String == "serial")
        let metrics = (report["plan"] as! [String: Any])["metrics"] as! [String: Any]
        #expect((metrics["timeToFirstFrameMs"] as! NSNumber).doubleValue == 166.67)
        #expect(LaunchEngine(planned).metrics(.anchored).timeToFirstFrame == 166_670)
        let change = report["strategyChange"] as! [String: Any]
        #expect(change["from"] as? String == "serial" && (change["gainMs"] as! NSNumber).doubleValue == 83.335)
        #expect((change["blockedMs"] as! NSNumber).doubleValue == 18)

        let unblocked = Launchflow.runInProcess(["advise", path, "--max-blocked", "0", "--out", out])
        #expect(unblocked.status == 0, "\(unblocked.stderr)")
        #expect(unblocked.stdout.contains("  strategy: serial → dag: −83.335 ms"), "\(unblocked.stdout)")
        #expect(try ScenarioLoader.load(path: out).strategy == .dag)
    }

    @Test func allowingTheStrategyWhilePinningItIsAUsageError() {
        let result = Launchflow.runInProcess(["advise", "x.json", "--strategy", "dag", "--allow", "after,strategy"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "'--allow strategy' lets the plan change the strategy, which '--strategy' pins: give one of them"),
            "\(result.stderr)")
    }

    /// report --advise simulates the scenario as written under the app's
    /// strategy and the plan under its own.
    @Test func theReportsPanelsRunEachUnderItsStrategy() throws {
        let plan = try Advise.plan(
            try scenario(Self.serialApp), Self.configuration(.serial, knobs: AdviseKnob.defaults(strategyPinned: false))
        )
        let advice = ReportAdvice(plan)
        #expect(advice.written.metrics == plan.baseline && advice.planned.metrics == plan.metrics)
        #expect(advice.planned.metrics.timeToFirstFrame == 2_000)
    }

    @Test func eachPlatformSaysWhatTheSwitchMeansInCode() {
        for strategy in [Strategy.dag, .anchored] {
            let texts = [Platform.ios, .android, nil].map { AdviseMechanism.strategyText(to: strategy, $0) }
            #expect(Set(texts).count == 3, "\(strategy)")
            #expect(texts[0].contains("LaunchConfiguration(strategy: .\(strategy.rawValue))"))
            #expect(texts[0].contains("main queue") && texts[1].contains("main Looper"))
        }
        #expect(AdviseMechanism.strategyText(to: .anchored, .ios).contains("waits (a DispatchGroup's wait())"))
        #expect(AdviseMechanism.strategyText(to: .anchored, .android).contains("CountDownLatch"))
    }
}
