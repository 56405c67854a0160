import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// The smaller defects of issue 26, each with its test.
@Suite(.serialized)
struct AdviseSmallDefectsTests {
    /// 60 Hz (a frame every 16.667 ms). As written, iteration 1 runs sdk 0–20
    /// and home 20–20+h: presented at a later vsync. Deferring sdk shows home
    /// at the first vsync, 16.667, ready at h: with h = 16.5 only 0.167 ms
    /// before it (fragile), with h = 15 1.667 ms before it.
    static func vsync(home: String) -> String {
        #"""
        { "name": "vsync", "device": { "cores": 2, "refreshRate": 60 },
          "tasks": [
            { "id": "sdk", "cost": 20, "mainThreadOnly": true },
            { "id": "home", "cost": \#(home), "mainThreadOnly": true, "firstFrame": true }
          ] }
        """#
    }

    static func configuration() -> AdviseConfiguration {
        var configuration = AdviseConfiguration()
        configuration.jobs = 1
        return configuration
    }

    @Test func aPlanThatWinsItsFrameByLessThanAMillisecondIsFragile() throws {
        let close = try Advise.plan(try scenario(Self.vsync(home: "16.5")), Self.configuration())
        #expect(close.metrics.timeToFirstFrame == 16_667 && close.margin == 167 && close.fragile)
        #expect(
            AdviseReport.text(close).contains(
                "note: fragile: the plan's first frame is ready only 0.167 ms before the vsync at 16.667 ms"))
        var writer = JSONWriter()
        writer.advice(close)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""marginMs": 0.167, "fragile": true"#))
        let safe = try Advise.plan(try scenario(Self.vsync(home: "15")), Self.configuration())
        #expect(safe.metrics.timeToFirstFrame == 16_667 && safe.margin == 1_667 && !safe.fragile)
        #expect(!AdviseReport.text(safe).contains("fragile"))
        // The margin is configurable.
        var wide = Self.configuration()
        wide.minMargin = 2_000
        #expect(try Advise.plan(try scenario(Self.vsync(home: "15")), wide).fragile)
    }

    @Test func runsWithNothingToSampleClaimNothingAboutP90() throws {
        var configuration = Self.configuration()
        configuration.runs = 50
        let plan = try Advise.plan(try scenario(Self.vsync(home: "15")), configuration)
        #expect(plan.uncertainty == nil)
        let text = AdviseReport.text(plan)
        #expect(!text.contains("p90 "), "\(text)")
        #expect(text.contains("note: --runs 50: nothing to sample (no task has costP90 or latencyP90, and no jitter)"))
        // With something to sample, p50 and p90 are reported as before.
        let sampled = try Advise.plan(
            try scenario(
                Self.vsync(home: "15").replacingOccurrences(of: #""cost": 20,"#, with: #""cost": 20, "costP90": 30,"#)),
            configuration)
        #expect(sampled.uncertainty?.runs == 50)
    }

    @Test func anEmptyAllowNamesTheKnobsAsAList() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("s.json", Self.vsync(home: "15"))
        let result = Launchflow.runInProcess(["advise", file, "--allow", ""])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "'--allow' needs at least one of after, priority, idle, anchor, qos, strategy, comma-separated"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("[\""))
    }

    @Test func reduceTakesAPercentageWithOrWithoutItsSign() throws {
        let path = repositoryRoot.appendingPathComponent("scenarios/article.json").path
        for value in ["50", "50%"] {
            let result = Launchflow.runInProcess(["whatif", path, "--format", "json", "--reduce", value])
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
            #expect(object["reducePercent"] as? Double == 50, "\(value)")
        }
        let ambiguous = Launchflow.runInProcess(["whatif", path, "--reduce", "0.5"])
        #expect(ambiguous.status == 2)
        #expect(
            ambiguous.stderr.contains("ambiguous value '0.5' for '--reduce': write 50% (a share of 0.5) or 0.5%"),
            "\(ambiguous.stderr)")
        let bad = Launchflow.runInProcess(["whatif", path, "--reduce", "150"])
        #expect(bad.status == 2 && bad.stderr.contains("invalid value '150' for '--reduce'"))
    }
}
