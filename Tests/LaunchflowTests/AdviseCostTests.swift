import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// The cost beside the gain (issue 26 item 4): the margin to the vsync, max
/// input delay and input latency in the table and beside each change,
/// `--max-regression maxInputDelay=…`, `--min-margin`.
@Suite(.serialized)
struct AdviseCostTests {
    /// 60 Hz (F = 16,667 µs), no commit cost, no render time. As written
    /// (dag) iteration 0 runs sdk 0–20 and home 20–35: ready 35, presented at
    /// the vsync 3F = 50.001. The tap arriving at 16 waits for iteration 1,
    /// which handles it 35–36: input latency 19, max input delay 1 (iteration
    /// 1, the only one after the first frame's). Deferring sdk (the plan):
    /// home 0–15, ready 15, presented at F = 16.667 (margin 1.667); the tap
    /// is handled at once in iteration 1, 16–17 (latency 0), and sdk, released
    /// at 16.667, runs in iteration 2, 17–37: max input delay 20, launch
    /// complete 37 (+2).
    static let tap = #"""
        { "name": "tap", "device": { "cores": 2, "refreshRate": 60, "commitCost": 0, "renderTime": 0 },
          "inputs": [ { "at": 16, "cost": 1 } ],
          "tasks": [
            { "id": "sdk", "cost": 20, "mainThreadOnly": true },
            { "id": "home", "cost": 15, "mainThreadOnly": true, "firstFrame": true }
          ] }
        """#

    /// 60 Hz as above. As written iteration 0 runs a 0–0.3 and home 0.3–16.8:
    /// ready 16.8, just past the vsync F = 16.667, presented at 2F = 33.334.
    /// Deferring a: home 0–16.5, ready 16.5, presented at 16.667 — a whole
    /// frame (−16.667 ms) for 0.3 ms of work, won by 0.167 ms (fragile under
    /// the default 1 ms, not under --min-margin 0.1).
    static let hair = #"""
        { "name": "hair", "device": { "cores": 2, "refreshRate": 60, "commitCost": 0, "renderTime": 0 },
          "tasks": [
            { "id": "a", "cost": 0.3, "mainThreadOnly": true },
            { "id": "home", "cost": 16.5, "mainThreadOnly": true, "firstFrame": true }
          ] }
        """#

    static func configuration() -> AdviseConfiguration {
        var configuration = AdviseConfiguration()
        configuration.jobs = 1
        return configuration
    }

    static func json(_ plan: AdvicePlan) -> String {
        var writer = JSONWriter()
        writer.advice(plan)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func aPlanThatRaisesMaxInputDelaySaysSoInTheTableAndBesideTheChange() throws {
        let plan = try Advise.plan(try scenario(Self.tap), Self.configuration())
        #expect(plan.baseline.timeToFirstFrame == 50_001 && plan.metrics.timeToFirstFrame == 16_667)
        #expect(plan.baseline.maxInputDelay == 1_000 && plan.metrics.maxInputDelay == 20_000)
        #expect(plan.baseline.inputLatencyMax == 19_000 && plan.metrics.inputLatencyMax == 0)
        let rows = AdviseReport.rows(plan)
        #expect(
            rows.first { $0[0] == "max input delay (ms)" }?.prefix(3) == ["max input delay (ms)", "1.000", "20.000"])
        #expect(rows.first { $0[0] == "input latency (ms)" }?.prefix(3) == ["input latency (ms)", "19.000", "0.000"])
        #expect(
            rows.first { $0[0] == "margin to the vsync (ms)" }?.prefix(3) == [
                "margin to the vsync (ms)", "15.001", "1.667",
            ])
        #expect(plan.changes.count == 1)
        let c = plan.changes[0]
        #expect(c.inputDelayGain == -19_000 && c.inputLatencyGain == 19_000 && c.launchGain == -2_000)
        let text = AdviseReport.text(plan)
        #expect(
            text.contains("sdk (−33.334 ms; launch complete +2 ms, max input delay +19 ms, input latency −19 ms)"),
            "\(text)")
        let json = Self.json(plan)
        #expect(
            json.contains(#""inputDelayGainMs": -19, "inputLatencyGainMs": 19, "marginGainMs": -13.334"#), "\(json)")
        #expect(json.contains(#""margins": { "baseline": 15.001, "plan": 1.667, "bestBuiltIn": 1.667 }"#))
        // Without inputs the table has no input latency row, but keeps max input delay.
        let hair = try Advise.plan(try scenario(Self.hair), Self.configuration())
        let hairRows = AdviseReport.rows(hair).map { $0[0] }
        #expect(hairRows.contains("max input delay (ms)") && !hairRows.contains("input latency (ms)"))
    }

    @Test func maxRegressionOfMaxInputDelayRefusesThePlan() throws {
        var configuration = Self.configuration()
        configuration.maxRegressions = [AdviseRegressionLimit(metric: .maxInputDelayMs, allowance: .micros(5_000))]
        let plan = try Advise.plan(try scenario(Self.tap), configuration)
        // Deferring sdk raises it by 19 ms: nothing else moves the frame, so nothing is changed.
        #expect(plan.changes.isEmpty && plan.metrics.maxInputDelay == 1_000)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("tap.json", Self.tap)
        let refused = Launchflow.runInProcess(["advise", file, "--max-regression", "maxInputDelay=5ms"])
        #expect(refused.status == 0)
        #expect(refused.stdout.contains("constraints: maxInputDelay within +5 ms of as written — met"))
        #expect(refused.stdout.contains("no change improves on the scenario as written"), "\(refused.stdout)")
        // Under dag (the switch to anchored would win the same frame with a launch 2 ms sooner).
        let allowed = Launchflow.runInProcess([
            "advise", file, "--max-regression", "maxInputDelay=20ms", "--strategy", "dag",
        ])
        #expect(allowed.stdout.contains("sdk (−33.334 ms"), "\(allowed.stdout)")
        let latency = Launchflow.runInProcess([
            "advise", file, "--max-regression", "inputLatencyMax=0ms", "--strategy", "dag",
        ])
        #expect(latency.status == 0 && latency.stdout.contains("sdk (−33.334 ms"))
        let typo = Launchflow.runInProcess(["advise", file, "--max-regression", "maxInputDelai=5ms"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'maxInputDelay'?"), "\(typo.stderr)")
    }

    @Test func aFrameWonByLessThanAFrameOfWorkSaysSoAndMinMarginSetsFragile() throws {
        let plan = try Advise.plan(try scenario(Self.hair), Self.configuration())
        #expect(plan.metrics.timeToFirstFrame == 16_667 && plan.margin == 167 && plan.fragile)
        #expect(plan.changes.count == 1 && plan.changes[0].gain == 16_667 && plan.changes[0].readyGain == 300)
        let text = AdviseReport.text(plan)
        #expect(
            text.contains(
                "a (−16.667 ms; the frame's work only 0.3 ms sooner, less than a frame: the plan's frame is ready 0.167 ms before its vsync; launch complete +0.167 ms, max input delay +0.3 ms)"
            ), "\(text)")
        #expect(Self.json(plan).contains(#""marginGainMs": -16.367, "belowFrame": true"#))
        // A change that wins its frame with work moved by more than a frame says nothing of the kind.
        let tap = try Advise.plan(try scenario(Self.tap), Self.configuration())
        #expect(!AdviseReport.text(tap).contains("less than a frame"))
        #expect(Self.json(tap).contains(#""belowFrame": false"#))

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("hair.json", Self.hair)
        let strict = Launchflow.runInProcess(["advise", file, "--format", "json"])
        #expect(strict.stdout.contains(#""marginMs": 0.167, "fragile": true, "minMarginMs": 1"#), "\(strict.stdout)")
        let loose = Launchflow.runInProcess(["advise", file, "--min-margin", "0.1", "--format", "json"])
        #expect(loose.stdout.contains(#""marginMs": 0.167, "fragile": false, "minMarginMs": 0.1"#), "\(loose.stdout)")
        // The tap plan wins its frame by 1.667 ms: fragile only from --min-margin 2 on.
        let tapFile = try folder.write("tap.json", Self.tap)
        #expect(!Launchflow.runInProcess(["advise", tapFile]).stdout.contains("fragile"))
        let wide = Launchflow.runInProcess(["advise", tapFile, "--min-margin", "2"])
        #expect(
            wide.stdout.contains("note: fragile: the plan's first frame is ready only 1.667 ms before the vsync"),
            "\(wide.stdout)")
        #expect(AdviseConfiguration().minMargin == AdviseConfiguration.defaultMinMargin)
    }

    static let badMinMargin: [(args: [String], message: String)] = [
        (["advise", "--min-margin", "-1"], "invalid value '-1' for '--min-margin': expected a number of ms ≥ 0"),
        (["advise", "--min-margin", "1ms"], "invalid value '1ms' for '--min-margin'"),
        (["advise", "--min-margin", "nan"], "invalid value 'nan' for '--min-margin'"),
        (["advise", "--min-margin", "inf"], "invalid value 'inf' for '--min-margin'"),
        (["report", "--advise", "--min-margin", "x"], "invalid value 'x' for '--min-margin'"),
        (["report", "--min-margin", "1"], "'--min-margin' is an option of '--advise', which is not given"),
    ]

    @Test(arguments: badMinMargin.indices)
    func aBadMinMarginIsAClearErrorAndWritesNothing(_ k: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("s.json", Self.hair)
        let out = folder.path("out.file")
        let (command, rest) = (Self.badMinMargin[k].args[0], Array(Self.badMinMargin[k].args.dropFirst()))
        let result = Launchflow.runInProcess([command, file, "--out", out] + rest)
        #expect(result.status == 2)
        #expect(result.stderr.contains(Self.badMinMargin[k].message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
