import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// `launchflow replay --emulate` for real (issue 38, item 4): where cgroup v1
/// can be written (Linux, root), each worker task's thread is in the group of
/// the core §3.13 gives it when its body starts, and no group is left after
/// the run. Structure only, never timings. Elsewhere the test says why it
/// did not run, and checks the one warning replay gives instead.
@Suite struct EmulatedReplayTests {
    /// One worker, so that the places do not depend on timing: `first` (userInitiated) runs alone, on P;
    /// `second` (background) may use only E; `root` runs on the main thread, after both.
    static let scenario = """
        {
          "name": "emulated",
          "device": { "refreshRate": 60, "clusters": [ { "name": "P", "count": 2, "speed": 1 }, { "name": "E", "count": 4, "speed": 0.5 } ] },
          "preMain": [ { "name": "dyld", "cost": 5 } ],
          "tasks": [
            { "id": "first", "cost": 8, "qos": "userInitiated" },
            { "id": "second", "cost": 8, "qos": "background", "dependsOn": ["first"] },
            { "id": "root", "cost": 4, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["second"] }
          ]
        }
        """

    @Test func replayEmulatedPlacesEachThreadByItsQoS() throws {
        let folder = try Host.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("emulated.json")
        try Data(Self.scenario.utf8).write(to: file)
        let out = folder.appendingPathComponent("out")
        let result = try Host.run(
            Host.binary("launchflow"),
            [
                "replay", file.path, "--emulate", "--strategy", "dag", "--runs", "1", "--workers", "1", "--format",
                "json", "--out", out.path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let warnings = try #require(object["warnings"] as? [String])
        if let problem = CgroupEmulation.precondition(.system) {
            print("replay --emulate not run for real here: \(problem.reason)")
            #expect(warnings.contains(problem.warning), "\(warnings)")
            #expect(object["emulation"] == nil)
            return
        }
        #expect(!warnings.contains { $0.hasPrefix("--emulate") }, "\(warnings)")
        let lines = try #require(object["emulation"] as? [String])
        #expect(lines.first?.hasPrefix("emulated 1 P at speed 1 (CPU ") == true, "\(lines)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("dag-1.json")))
                as? [String: Any])
        let emulation = try #require(record["emulation"] as? [String: Any])
        #expect(emulation["started"] as? [String] == ["core0", "core1", "core0"], "\(emulation)")
        #expect(emulation["failures"] as? [String] == [], "\(emulation)")
        // Each worker task moved its thread once at least (P, then E).
        #expect((emulation["moves"] as? Int ?? 0) >= 2, "\(emulation)")
        // No group of a process that has ended is left (other tests' replays may be running meanwhile).
        for root in [CgroupRoots.system.cpu, CgroupRoots.system.cpuset] {
            let left = try FileManager.default.contentsOfDirectory(atPath: root).filter {
                guard $0.hasPrefix("launchflow-replay-"), let pid = pid_t($0.dropFirst(18)) else { return false }
                return kill(pid, 0) == -1 && errno == ESRCH
            }
            #expect(left == [], "\(root)")
        }
    }
}
