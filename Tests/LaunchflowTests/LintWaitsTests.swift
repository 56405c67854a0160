import Foundation
import Testing

@testable import LaunchflowCore

/// `validate`'s warnings about the v2 keys: idle and delayed tasks the first
/// frame needs, and an anchor closure that keeps `didFinishLaunching` blocked.
struct LintWaitsTests {
    func lint(_ json: String) throws -> [LintWarning] {
        Lint.warnings(try scenario(json, file: "s.json"), file: "s.json")
    }

    static func doc(_ tasks: String) -> String { #"{"name": "x", "tasks": [\#(tasks)]}"# }

    @Test func anIdleTaskTheFirstFrameNeedsIsReportedAtItsIdleKey() throws {
        let json =
            #"{"name": "x", "device": {"refreshRate": 1000}, "tasks": ["#
            + #"{"id": "setup", "cost": 20, "mainThreadOnly": true},"#
            + #"{"id": "theme", "cost": 4, "mainThreadOnly": true, "idle": true},"#
            + #"{"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["theme"]}]}"#
        let found = try lint(json).filter { $0.rule == .idleTaskDelaysFirstFrame }
        #expect(found.map(\.problem.path) == ["tasks[1].idle"])
        #expect(found.first?.description.contains("the first frame ('root') needs idle task 'theme'") == true)
        // And it does delay the frame: under dag theme waits for setup's iteration to
        // drain (setup 0–20, theme 20–24, root 24–34); anchored runs theme and root at once.
        let s = try scenario(json)
        #expect(SimulationResult(s, strategy: .dag).metrics.timeToFirstFrame == 34_000)
        #expect(SimulationResult(s, strategy: .anchored).metrics.timeToFirstFrame == 14_000)
    }

    @Test func anIdleTaskNobodyNeedsIsFine() throws {
        let json = Self.doc(
            #"{"id": "theme", "cost": 4, "mainThreadOnly": true, "idle": true},"#
                + #"{"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true}"#)
        #expect(try lint(json).filter { $0.rule == .idleTaskDelaysFirstFrame }.isEmpty)
    }

    @Test func aDelayOnTheFirstFramePathSaysHowLong() throws {
        let json = Self.doc(
            #"{"id": "flags", "cost": 3, "delay": 20, "mainThreadOnly": true},"#
                + #"{"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["flags"]}"#)
        let found = try lint(json).filter { $0.rule == .delayOnFirstFramePath }
        #expect(found.map(\.problem.path) == ["tasks[0].delay"])
        #expect(found.first?.problem.message.contains("released 20 ms after it becomes ready") == true)
    }

    @Test func aLongAnchorWaitIsMeasuredUnderAnchoredAndDag() throws {
        let json = Self.doc(
            #"{"id": "net", "cost": 2, "latency": 40},"#
                + #"{"id": "config", "cost": 1, "mainThreadOnly": true, "anchor": true, "dependsOn": ["net"]},"#
                + #"{"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true}"#)
        let found = try lint(json).filter { $0.rule == .anchorClosureBlocksLaunch }
        #expect(found.map(\.problem.path) == ["tasks[1].anchor"])
        // net ends at 2, is done at 42; root runs 0..10 under anchored, so dFL is blocked 10..42.
        #expect(
            found.first?.problem.message.hasPrefix("under anchored, didFinishLaunching waits 32 ms (blocked, of 43 ms)")
                == true)
        #expect(found.first?.problem.message.contains("under dag, didFinishLaunching waits 42 ms") == true)
    }

    @Test func aShortAnchorWaitIsFine() throws {
        let json = Self.doc(
            #"{"id": "net", "cost": 2},"#
                + #"{"id": "config", "cost": 1, "mainThreadOnly": true, "anchor": true, "dependsOn": ["net"]}"#)
        #expect(try lint(json).filter { $0.rule == .anchorClosureBlocksLaunch }.isEmpty)
    }
}
