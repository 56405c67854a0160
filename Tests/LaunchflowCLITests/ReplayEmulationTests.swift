import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// `replay --emulate` (issue 38, item 4): the places of §3.13's rule, the
/// device emulated on this machine's CPUs, and the cgroups' set-up and
/// removal on a fake cgroup root (a folder with the files the kernel would
/// have), removal after a failed run and the warnings when they cannot be
/// created. The real run is RealRunTests' `replayEmulated`.
@Suite struct ReplayEmulationTests {
    // MARK: The places (docs/model.md §3.13, step 2), on 1 P (1000) + 1 E (500)

    let pe = [1000, 500]

    @Test func theMainThreadHasPAndTheWorkersShareE() {
        // D3 at 0: the main thread runs, two default workers share E.
        #expect(
            CorePlacement.place(speeds: pe, mainRunning: true, workers: [.default, .default]) == [.core(1), .core(1)])
        // From 4 (main idle): one on P, one on E.
        #expect(
            CorePlacement.place(speeds: pe, mainRunning: false, workers: [.default, .default]) == [.core(0), .core(1)])
    }

    @Test func backgroundRunsOnlyOnTheSlowestCores() {
        // D2: background alone still takes E, never the free P.
        #expect(CorePlacement.place(speeds: pe, mainRunning: false, workers: [.background]) == [.core(1)])
        // D1: userInitiated on P, utility on E; background waits when E is taken.
        #expect(
            CorePlacement.place(speeds: pe, mainRunning: false, workers: [.utility, .userInitiated])
                == [.core(1), .core(0)])
        #expect(
            CorePlacement.place(speeds: pe, mainRunning: true, workers: [.utility, .background])
                == [.core(1), .waiting])
    }

    @Test func aClassWithMoreItemsThanCoresIsSpreadOverThemAndTheRestWait() {
        // Three on 1 P + 1 E: two share P, one has E, ½ each (the model's 1.5 / 3).
        #expect(
            CorePlacement.place(
                speeds: pe, mainRunning: false, workers: [.userInitiated, .userInitiated, .userInitiated, .utility])
                == [.core(0), .core(0), .core(1), .waiting])
        // A userInteractive worker is in the main thread's class: the next core after main's.
        #expect(
            CorePlacement.place(speeds: pe, mainRunning: true, workers: [.userInteractive, .userInitiated])
                == [.core(1), .waiting])
        // 2 P + 2 E: main on P0, two default workers on P1 and E0, background on the E left.
        #expect(
            CorePlacement.place(
                speeds: [1000, 1000, 500, 500], mainRunning: true, workers: [.default, .default, .background])
                == [.core(1), .core(2), .core(3)])
        #expect(
            CorePlacement.place(
                speeds: [1000, 1000, 500, 500], mainRunning: false, workers: [.background, .background, .background])
                == [.core(2), .core(3), .core(2)])
    }

    // MARK: The device emulated

    @Test func twoCPUsEmulateOnePAndOneE() throws {
        let phone = [CoreCluster(name: "P", count: 2, speed: 1), CoreCluster(name: "E", count: 4, speed: 0.5)]
        let device = try #require(EmulatedDevice(clusters: phone, machineCPUs: [0, 1]))
        #expect(
            device.clusters == [
                CoreCluster(name: "P", count: 1, speed: 1), CoreCluster(name: "E", count: 1, speed: 0.5),
            ])
        #expect(device.speeds == [1000, 500])
        #expect(device.cpus == [0, 1])
        #expect(
            device.description
                == "emulated 1 P at speed 1 (CPU 0) + 1 E at speed 0.5 (CPU 1) of the scenario's 2 P (speed 1) + 4 E (speed 0.5): this machine has 2 CPUs, so the simulation beside the runs is of the device emulated (device.clusters 1 P (speed 1) + 1 E (speed 0.5))"
        )
        // Three clusters on two CPUs: the fastest and the slowest; four CPUs: then the fastest first.
        let three = [
            CoreCluster(name: "little", count: 4, speed: 0.157), CoreCluster(name: "big", count: 2, speed: 1),
            CoreCluster(name: "mid", count: 2, speed: 0.486),
        ]
        let two = try #require(EmulatedDevice(clusters: three, machineCPUs: [2, 3]))
        #expect(two.clusters.map(\.name) == ["little", "big"])
        #expect(two.speeds == [1000, 157])
        let four = try #require(EmulatedDevice(clusters: three, machineCPUs: [0, 1, 2, 3]))
        #expect(four.speeds == [1000, 1000, 486, 157])
        #expect(EmulatedDevice(clusters: [], machineCPUs: [0, 1]) == nil)
    }

    // MARK: The cgroups, on a fake root

    /// A cgroup v1 root as the kernel shows it, cut to the files replay reads.
    private func fakeRoots(_ folder: TemporaryFolder) throws -> CgroupRoots {
        let roots = CgroupRoots(cpu: folder.path("cpu"), cpuset: folder.path("cpuset"))
        for dir in [roots.cpu, roots.cpuset] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        try "max\n".write(toFile: roots.cpu + "/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
        try "".write(toFile: roots.cpu + "/tasks", atomically: false, encoding: .utf8)
        try "0-1\n".write(toFile: roots.cpuset + "/cpuset.cpus", atomically: false, encoding: .utf8)
        try "0-1\n".write(toFile: roots.cpuset + "/cpuset.effective_cpus", atomically: false, encoding: .utf8)
        try "0\n".write(toFile: roots.cpuset + "/cpuset.mems", atomically: false, encoding: .utf8)
        try "".write(toFile: roots.cpuset + "/tasks", atomically: false, encoding: .utf8)
        return roots
    }

    private var iphone: Device {
        var device = Device(cores: 6)
        device.clusters = [CoreCluster(name: "P", count: 2, speed: 1), CoreCluster(name: "E", count: 4, speed: 0.5)]
        return device
    }

    private func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theGroupsAreWrittenThenRemoved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        var warnings: [String] = []
        let emulation = try #require(ReplayEmulation.start(iphone, warnings: &warnings, roots: roots, root: true))
        #expect(warnings == [])
        #expect(emulation.name == "launchflow-replay-\(getpid())")
        let cpu = emulation.cpuGroup
        let cpuset = emulation.cpusetGroup
        #expect(read(cpu + "/cpu.shares") == "29154")
        #expect(read(cpuset + "/cpuset.cpus") == "0,1")
        // P: no quota; E: ½ in 2 ms; waiting: E's quota, the least weight. The threads are pinned by the host.
        let expected: [(String, String, String, String?)] = [
            ("core0", "2000", "-1", nil), ("core1", "2000", "1000", nil), ("waiting", "2000", "1000", "2"),
        ]
        for (group, period, quota, shares) in expected {
            #expect(read("\(cpu)/\(group)/cpu.cfs_period_us") == period, "\(group)")
            #expect(read("\(cpu)/\(group)/cpu.cfs_quota_us") == quota, "\(group)")
            #expect(read("\(cpu)/\(group)/cpu.shares") == shares, "\(group)")
        }
        #expect(read(cpuset + "/cpuset.mems") == "0")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cpuset).sorted() == ["cpuset.cpus", "cpuset.mems"])
        // The host's arguments name them; a signal would remove them (deepest first).
        #expect(
            emulation.hostArguments == [
                "--core-speeds", "1000,500", "--core-cpus", "0,1", "--cgroup-cpu", cpu, "--cgroup-cpuset", cpuset,
            ])
        let registered = CgroupCleanup.registered
        #expect(registered.contains(cpu + "/waiting") && registered.contains(cpuset))
        #expect(registered.firstIndex(of: cpu + "/waiting")! < registered.firstIndex(of: cpu)!)
        emulation.remove()
        #expect(!FileManager.default.fileExists(atPath: cpu) && !FileManager.default.fileExists(atPath: cpuset))
        #expect(!CgroupCleanup.registered.contains { $0.hasPrefix(folder.url.path) })
    }

    @Test func aSlowClusterGetsALongerPeriod() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        var device = Device(cores: 4)
        device.clusters = [
            CoreCluster(name: "big", count: 1, speed: 1), CoreCluster(name: "little", count: 2, speed: 0.333),
        ]
        var warnings: [String] = []
        let emulation = try #require(ReplayEmulation.start(device, warnings: &warnings, roots: roots, root: true))
        defer { emulation.remove() }
        // 0.333 of 2 ms is under the kernel's least quota (1 ms): 4 ms, 1.332 ms.
        #expect(read(emulation.cpuGroup + "/core1/cpu.cfs_period_us") == "4000")
        #expect(read(emulation.cpuGroup + "/core1/cpu.cfs_quota_us") == "1332")
        #expect(CorePlacement.bandwidth(1000) == (2000, -1) && CorePlacement.bandwidth(500) == (2000, 1000))
        #expect(CorePlacement.bandwidth(157) == (8000, 1256))
    }

    @Test func aFailedRunStillRemovesTheGroups() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        var warnings: [String] = []
        var seen: String?
        #expect(throws: CLIError.self) {
            try ReplayEmulation.around(iphone, warnings: &warnings, roots: roots, root: true) {
                emulation throws(CLIError) -> Int in
                seen = emulation?.cpuGroup
                #expect(FileManager.default.fileExists(atPath: (emulation?.cpuGroup ?? "") + "/core1"))
                throw CLIError.input("the run under dag failed (launchflow-replay-host exit 3)")
            }
        }
        let group = try #require(seen)
        #expect(!FileManager.default.fileExists(atPath: group))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: roots.cpu).sorted() == ["cpu.cfs_quota_us", "tasks"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: roots.cpuset).filter { $0.hasPrefix("launchflow") }
                == [])
    }

    @Test func groupsThatCannotBeCreatedAreOneWarningAndNoEmulation() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        // The cpuset group's name is taken (by a file): the cpu group, created first, is removed again.
        try "".write(toFile: roots.cpuset + "/launchflow-replay-\(getpid())", atomically: false, encoding: .utf8)
        var warnings: [String] = []
        let ran = try ReplayEmulation.around(iphone, warnings: &warnings, roots: roots, root: true) {
            emulation throws(CLIError) in emulation == nil
        }
        #expect(ran)
        #expect(
            warnings == [
                "--emulate: cannot create \(roots.cpuset)/launchflow-replay-\(getpid()): File exists; the runs are not emulated"
            ])
        #expect(!FileManager.default.fileExists(atPath: roots.cpu + "/launchflow-replay-\(getpid())"))
    }

    @Test func aFileThatCannotBeWrittenIsSaid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        // The kernel refuses a value it does not take as a write error; /dev/full refuses every write (ENOSPC).
        let emulation = CgroupEmulation(
            roots: roots, name: "g",
            device: try #require(EmulatedDevice(clusters: iphone.clusters, machineCPUs: [0, 1])))
        try FileManager.default.createSymbolicLink(atPath: roots.cpuset + "/full", withDestinationPath: "/dev/full")
        #expect(throws: EmulationUnavailable(reason: "cannot write \(roots.cpuset)/full: No space left on device")) {
            try emulation.write("0", to: roots.cpuset + "/full")
        }
    }

    @Test func whyEmulationCannotRunIsSaid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let roots = try fakeRoots(folder)
        #if os(Linux)
            #expect(CgroupEmulation.precondition(roots, root: true) == nil)
            #expect(
                CgroupEmulation.precondition(roots, root: false)?.warning
                    == "--emulate: creating cgroups needs root (this process's user id is \(geteuid())); the runs are not emulated"
            )
            let missing = CgroupRoots(cpu: folder.path("none"), cpuset: roots.cpuset)
            let reason = try #require(CgroupEmulation.precondition(missing, root: true)?.reason)
            #expect(
                reason.contains("cgroup v1's cpu controller at \(missing.cpu)")
                    || reason.contains("no cgroup v1 cpu controller at \(missing.cpu)"))
        #else
            #expect(CgroupEmulation.precondition(roots, root: true)?.reason.contains("Linux-only") == true)
        #endif
        var warnings: [String] = []
        #expect(ReplayEmulation.start(Device(cores: 4), warnings: &warnings, roots: roots, root: true) == nil)
        #expect(
            warnings == [
                "--emulate: the scenario has no device.clusters or device.preset: there are no performance and efficiency cores to emulate; the runs are not emulated"
            ])
        #expect(CgroupEmulation.machineCPUs(roots) == [0, 1])
    }

    /// SIGTERM in the middle of `replay --emulate`'s runs (where cgroups can be written): launchflow dies of
    /// it, and its groups are gone.
    @Test func anInterruptedReplayRemovesItsGroups() throws {
        if let problem = CgroupEmulation.precondition(.system) {
            print("replay --emulate not interrupted here: \(problem.reason)")
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(
            "emulated.json",
            """
            {"name": "emulated", "device": {"preset": "iphone-16-pro"}, "preMain": [{"name": "dyld", "cost": 5}],
             "tasks": [{"id": "a", "cost": 20, "qos": "utility"}, {"id": "b", "cost": 20, "qos": "background"},
                       {"id": "m", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a", "b"]}]}
            """)
        let pid = try spawnQuietly(
            builtExecutable("launchflow").path, ["replay", file, "--emulate", "--runs", "100", "--strategy", "dag"])
        let group = "\(CgroupRoots.system.cpu)/launchflow-replay-\(pid)"
        // Signalled once a host runs in its groups (polled: no timing is asserted).
        var seen = false
        var status: Int32 = 0
        for _ in 0..<7500 where !seen && waitpid(pid, &status, WNOHANG) == 0 {
            seen = !((try? String(contentsOfFile: group + "/core0/tasks", encoding: .utf8)) ?? "").isEmpty
            if !seen { usleep(2000) }
        }
        kill(pid, SIGTERM)
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        #expect(seen, "no host ran in \(group)")
        // WTERMSIG, which Swift does not import: the low 7 bits are the signal.
        #expect(status & 0x7F == SIGTERM, "status \(status)")
        for root in [CgroupRoots.system.cpu, CgroupRoots.system.cpuset] {
            #expect(!FileManager.default.fileExists(atPath: "\(root)/launchflow-replay-\(pid)"), "\(root)")
        }
    }
}
