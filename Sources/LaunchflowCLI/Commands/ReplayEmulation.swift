import Foundation
import LaunchflowCore

/// `replay --emulate`: the scenario's device as far as this machine's CPUs
/// allow — as many cores of its clusters as there are CPUs, the fastest and
/// the slowest cluster first — each core a CPU of its own at its speed.
struct EmulatedDevice: Equatable {
    /// The scenario's clusters, in their order, each with the cores emulated (clusters left out have none).
    var clusters: [CoreCluster]
    /// The cores fastest first (equal speeds in the clusters' order, as §3.13 orders them): speed in
    /// thousandths, and the CPU each is pinned to.
    var speeds: [Int]
    var cpus: [Int]
    /// The scenario's own clusters.
    var written: [CoreCluster]

    /// Nil without clusters or CPUs.
    init?(clusters written: [CoreCluster], machineCPUs: [Int]) {
        let total = written.reduce(0) { $0 + $1.count }
        let n = min(machineCPUs.count, total)
        guard n > 0 else { return nil }
        let bySpeed = written.indices.sorted {
            (written[$0].speedThousandths, -$0) > (written[$1].speedThousandths, -$1)
        }
        var counts = Array(repeating: 0, count: written.count)
        var left = n
        // One core of the fastest cluster and one of the slowest, then the others fastest first.
        for k in [bySpeed.first!, bySpeed.last!] where left > 0 && counts[k] == 0 {
            counts[k] = 1
            left -= 1
        }
        while left > 0 {
            for k in bySpeed where left > 0 && counts[k] < written[k].count {
                counts[k] += 1
                left -= 1
            }
        }
        clusters = written.indices.filter { counts[$0] > 0 }.map {
            CoreCluster(name: written[$0].name, count: counts[$0], speed: written[$0].speed)
        }
        speeds = bySpeed.flatMap { Array(repeating: written[$0].speedThousandths, count: counts[$0]) }
        cpus = Array(machineCPUs.prefix(n))
        self.written = written
    }

    /// One line for the report: what is emulated, on which CPUs, against the scenario's device.
    var description: String {
        var cores: [String] = []
        var k = 0
        for cluster in clusters.sorted(by: { $0.speedThousandths > $1.speedThousandths }) {
            let on = cpus[k..<(k + cluster.count)].map(String.init).joined(separator: ", ")
            cores.append("\(cluster.count) \(cluster.name) at speed \(formatNumber(cluster.speed)) (CPU \(on))")
            k += cluster.count
        }
        let same = clusters == written
        return "emulated " + cores.joined(separator: " + ")
            + (same
                ? ", the scenario's device"
                : " of the scenario's \(Device.clusterText(written)): this machine has \(cpus.count) CPU\(cpus.count == 1 ? "" : "s"), so the simulation beside the runs is of the device emulated (device.clusters \(Device.clusterText(clusters)))")
    }
}

/// The cgroup v1 hierarchies `replay --emulate` writes to.
struct CgroupRoots: Equatable {
    var cpu: String
    var cpuset: String
    #if os(Linux)
        static let system = CgroupRoots(cpu: "/sys/fs/cgroup/cpu", cpuset: "/sys/fs/cgroup/cpuset")
    #else
        /// None: `--emulate` is Linux-only (``CgroupEmulation/precondition(_:root:)`` says so first).
        static let system = CgroupRoots(cpu: "", cpuset: "")
    #endif
}

/// Why `--emulate` cannot run here (the one warning replay gives, then it runs without emulation).
struct EmulationUnavailable: Error, Equatable {
    var reason: String
    var warning: String { "--emulate: \(reason); the runs are not emulated" }
}

/// The emulation's own cgroups, `launchflow-replay-<pid>`: in the cpuset
/// hierarchy the CPUs of the cores emulated (the host pins each thread to
/// its core's CPU); in the cpu hierarchy the weight of nice −15 and a group
/// per place of ``CorePlacement`` — each core, its speed a CFS quota its
/// threads share, and waiting, at the least weight on the slowest core.
/// Created before the runs, removed after them — when they fail too, and on
/// SIGINT, SIGTERM or SIGHUP (``CgroupCleanup``).
final class CgroupEmulation {
    let roots: CgroupRoots
    let name: String
    let device: EmulatedDevice
    /// The directories created, in order (removed in the reverse order).
    private(set) var created: [String] = []

    init(roots: CgroupRoots = .system, name: String = "launchflow-replay-\(getpid())", device: EmulatedDevice) {
        self.roots = roots
        self.name = name
        self.device = device
    }

    var cpuGroup: String { "\(roots.cpu)/\(name)" }
    var cpusetGroup: String { "\(roots.cpuset)/\(name)" }

    /// What the host is given: the cores' speeds and the two groups.
    var hostArguments: [String] {
        [
            "--core-speeds", device.speeds.map(String.init).joined(separator: ","), "--core-cpus",
            cpuList(device.cpus), "--cgroup-cpu", cpuGroup, "--cgroup-cpuset", cpusetGroup,
        ]
    }

    /// Why emulation cannot run with `roots` before trying (not Linux, not root, no cgroup v1 cpu or
    /// cpuset controller); nil when it may.
    static func precondition(_ roots: CgroupRoots, root: Bool = geteuid() == 0) -> EmulationUnavailable? {
        #if os(Linux)
            guard root else {
                return EmulationUnavailable(
                    reason: "creating cgroups needs root (this process's user id is \(geteuid()))")
            }
            let files = FileManager.default
            let v1 =
                files.fileExists(atPath: "\(roots.cpu)/cpu.cfs_quota_us")
                && files.fileExists(atPath: "\(roots.cpuset)/cpuset.cpus")
            guard v1 else {
                let v2 = files.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers")
                return EmulationUnavailable(
                    reason: v2
                        ? "only cgroup v2 is mounted (it needs cgroup v1's cpu controller at \(roots.cpu) and cpuset at \(roots.cpuset))"
                        : "no cgroup v1 cpu controller at \(roots.cpu) with cpuset at \(roots.cpuset)")
            }
            return nil
        #else
            return EmulationUnavailable(
                reason: "it is Linux-only (it emulates slower cores with cgroup v1's cpu and cpuset controllers)")
        #endif
    }

    /// The CPUs `roots`' cpuset allows ("0-1,4" → [0, 1, 4]); nil when it cannot be read.
    static func machineCPUs(_ roots: CgroupRoots) -> [Int]? {
        guard
            let text = (try? String(contentsOfFile: "\(roots.cpuset)/cpuset.effective_cpus", encoding: .utf8))
                ?? (try? String(contentsOfFile: "\(roots.cpuset)/cpuset.cpus", encoding: .utf8))
        else { return nil }
        var cpus: [Int] = []
        for part in text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
            let ends = part.split(separator: "-").compactMap { Int($0) }
            guard let first = ends.first, let last = ends.last, first <= last else { return nil }
            cpus += Array(first...last)
        }
        return cpus.isEmpty ? nil : cpus
    }

    /// Creates the groups and writes their files; on the first failure removes what it created and throws
    /// why (the path and the system's reason).
    func create() throws(EmulationUnavailable) {
        let mems = (try? String(contentsOfFile: "\(roots.cpuset)/cpuset.mems", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try make(cpuGroup)
            try make(cpusetGroup)
            // The weight of nice −15 (what the runs ask for without emulation): a group's threads compete
            // with other processes by the group's weight, not their own nice value.
            try write("29154", to: "\(cpuGroup)/cpu.shares")
            try write(cpuList(device.cpus), to: "\(cpusetGroup)/cpuset.cpus")
            try write(mems ?? "0", to: "\(cpusetGroup)/cpuset.mems")
            for place in CorePlacement.all(cores: device.speeds.count) {
                let group = "\(cpuGroup)/\(place.group)"
                try make(group)
                // Waiting: the slowest core's quota, the least weight (it runs only when nothing else there
                // does; a group cannot stop a thread outright without stalling whatever it holds).
                let speed: Int
                switch place {
                case .core(let k): speed = device.speeds[k]
                case .waiting: speed = device.speeds[device.speeds.count - 1]
                }
                let (period, quota) = CorePlacement.bandwidth(speed)
                try write(String(period), to: "\(group)/cpu.cfs_period_us")
                try write(String(quota), to: "\(group)/cpu.cfs_quota_us")
                if place == .waiting { try write("2", to: "\(group)/cpu.shares") }
            }
        } catch {
            remove()
            throw error
        }
        CgroupCleanup.register(created, cpuRoot: roots.cpu, cpusetRoot: roots.cpuset)
    }

    /// Removes every group created, deepest first: threads still in one (a host killed mid-run) are
    /// moved to the hierarchy's root first. Idempotent.
    func remove() {
        for dir in created.reversed() {
            let root = dir.hasPrefix(roots.cpuset + "/") ? roots.cpuset : roots.cpu
            CgroupCleanup.removeGroup(dir, rootTasks: "\(root)/tasks")
        }
        CgroupCleanup.unregister(created)
        created = []
    }

    private func make(_ dir: String) throws(EmulationUnavailable) {
        guard mkdir(dir, 0o755) == 0 else {
            throw EmulationUnavailable(reason: "cannot create \(dir): \(String(cString: strerror(errno)))")
        }
        created.append(dir)
    }

    func write(_ text: String, to path: String) throws(EmulationUnavailable) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var failure = fd < 0 ? errno : 0
        if fd >= 0 {
            let bytes = Array(text.utf8)
            if bytes.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) != bytes.count {
                failure = errno
            }
            close(fd)
        }
        guard failure == 0 else {
            throw EmulationUnavailable(reason: "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    private func cpuList(_ cpus: [Int]) -> String { cpus.map(String.init).joined(separator: ",") }
}

/// `replay --emulate` in the command: the groups set up (or the one warning why not), the report's lines.
enum ReplayEmulation {
    /// Runs `body` with the emulation of `device`'s clusters set up (nil: no `--emulate`, or it cannot
    /// run here, with a warning saying why; then the runs are as without it), and removes its groups
    /// after it — when it throws too.
    static func around<T>(
        _ device: Device?, warnings: inout [String], roots: CgroupRoots = .system, root: Bool = geteuid() == 0,
        _ body: (CgroupEmulation?) throws(CLIError) -> T
    ) throws(CLIError) -> T {
        let emulation = device.flatMap { start($0, warnings: &warnings, roots: roots, root: root) }
        defer { emulation?.remove() }
        return try body(emulation)
    }

    /// The groups for `device`'s clusters as this machine's CPUs allow, created; nil and a warning when not.
    static func start(_ device: Device, warnings: inout [String], roots: CgroupRoots, root: Bool)
        -> CgroupEmulation?
    {
        guard device.hasClusters else {
            warnings.append(
                EmulationUnavailable(
                    reason:
                        "the scenario has no device.clusters or device.preset: there are no performance and efficiency cores to emulate"
                ).warning)
            return nil
        }
        if let problem = CgroupEmulation.precondition(roots, root: root) {
            warnings.append(problem.warning)
            return nil
        }
        guard let cpus = CgroupEmulation.machineCPUs(roots),
            let emulated = EmulatedDevice(clusters: device.clusters, machineCPUs: cpus)
        else {
            warnings.append(EmulationUnavailable(reason: "cannot read the CPUs of \(roots.cpuset)").warning)
            return nil
        }
        let emulation = CgroupEmulation(roots: roots, device: emulated)
        do {
            try emulation.create()
        } catch {
            warnings.append(error.warning)
            return nil
        }
        return emulation
    }

    /// The report's lines: the device emulated against the scenario's, and where the worker tasks started.
    static func describe(
        _ emulation: CgroupEmulation, _ comparisons: [Replay.Comparison], in report: inout ReplayReport
    ) {
        var lines = [emulation.device.description]
        let names = placeNames(emulation.device)
        var counts: [String: Int] = [:]
        var moves: [Int] = []
        var failures: Set<String> = []
        for run in comparisons.flatMap(\.runs) {
            for (i, group) in run.coreGroups.enumerated() where !group.isEmpty && run.schedule.tasks[i].thread > 0 {
                counts[group, default: 0] += 1
            }
            moves.append(run.coreMoves)
            failures.formUnion(run.coreFailures)
        }
        let order = CorePlacement.all(cores: emulation.device.speeds.count).map(\.group)
        let started = order.filter { counts[$0] != nil }.map { "\(counts[$0]!) on \(names[$0] ?? $0)" }
        moves.sort()
        lines.append(
            "worker task bodies started (all runs): " + (started.isEmpty ? "none" : started.joined(separator: ", "))
                + "; threads moved between cores \(moves.isEmpty ? 0 : moves[(moves.count - 1) / 2]) times a run (median), as docs/model.md §3.13 places them whenever an item starts or ends"
        )
        report.emulation = lines
        for failure in failures.sorted() {
            report.warnings.append("--emulate: the host could not move a thread: \(failure)")
        }
    }

    /// Each place's group named by its core: `core0` → `P (CPU 0)`, `waiting` → `no core (waiting)`.
    static func placeNames(_ device: EmulatedDevice) -> [String: String] {
        var clusterOf: [String] = []
        for cluster in device.clusters.sorted(by: { $0.speedThousandths > $1.speedThousandths }) {
            clusterOf += Array(repeating: cluster.name, count: cluster.count)
        }
        var names: [String: String] = [:]
        for place in CorePlacement.all(cores: device.speeds.count) {
            switch place {
            case .core(let k): names[place.group] = "\(clusterOf[k]) (CPU \(device.cpus[k]))"
            case .waiting: names[place.group] = "no core (waiting)"
            }
        }
        return names
    }
}
