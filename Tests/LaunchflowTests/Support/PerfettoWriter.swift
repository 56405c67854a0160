import Foundation

@testable import LaunchflowCore

/// Perfetto traces of known schedules, written by an independent writer:
/// `Tools/perfetto-fixtures/write_trace.py` with the official Perfetto protos
/// (PyPI `perfetto`), in the virtual environment `Tools/perfetto-fixtures/setup.sh`
/// creates (`make test` runs it first).
enum PerfettoWriter {
    static let venvPython = repositoryRoot.appendingPathComponent(".build/venv-perfetto/bin/python")

    /// Whether the writer can run: the environment exists, or setup.sh creates it now.
    static let isAvailable: Bool = {
        if check() { return true }
        let setup = repositoryRoot.appendingPathComponent("Tools/perfetto-fixtures/setup.sh")
        _ = try? runProcess(URL(fileURLWithPath: "/bin/sh"), [setup.path])
        return check()
    }()

    private static func check() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: venvPython.path) else { return false }
        let result = try? runProcess(
            venvPython, ["-c", "from perfetto.protos.perfetto.trace import perfetto_trace_pb2"])
        return result?.status == 0
    }

    static let unavailable =
        "the official Perfetto protos could not be installed (Tools/perfetto-fixtures/setup.sh: python3 -m venv, pip install perfetto protobuf); the committed fixtures are still read"

    /// Writes `schedule` as a trace to each of `paths` (`.gz`: gzip'd).
    static func write(_ schedule: Schedule, to paths: [String], in folder: TemporaryFolder) throws {
        let data = try JSONSerialization.data(withJSONObject: schedule.spec, options: [.sortedKeys])
        let spec = folder.path("spec-\(UUID().uuidString).json")
        try data.write(to: URL(fileURLWithPath: spec))
        let script = repositoryRoot.appendingPathComponent("Tools/perfetto-fixtures/write_trace.py").path
        let result = try runProcess(venvPython, [script, spec] + paths)
        if result.status != 0 {
            throw WriterError(message: "write_trace.py failed (\(result.status)): \(result.stderr)")
        }
    }

    struct WriterError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A launch as the trace will hold it: the app's threads and task slices
    /// (nanoseconds), their nested children and dependencies.
    struct Schedule {
        enum Form: String { case trackevent, atrace }

        struct Slice {
            var name: String
            var start: Int64
            var end: Int64
        }

        struct Task {
            var id: String
            var tid: Int
            var start: Int64
            var end: Int64
            var children: [Slice] = []
            var dependsOn: [String] = []
        }

        struct Change {
            var time: Int64
            var state: String
        }

        var form: Form
        var interned = true
        var incrementalClock = false
        var legacyComplete = false
        var compactSched = false
        var pid = 4100
        var appName = "com.example.shop"
        var threads: [(tid: Int, name: String)] = []
        var tasks: [Task] = []
        /// Another process's slices, which the import must leave out.
        var others: [(pid: Int, name: String, tid: Int, thread: String, slices: [Slice])] = []
        var sched: [(tid: Int, cpu: Int, changes: [Change])] = []
        /// A `CpuInfo` packet with this many CPUs, a `SystemInfo` packet with this `num_cpus`.
        var cpuInfo: Int?
        var numCpus: Int?

        var spec: [String: Any] {
            var spec: [String: Any] = [
                "form": form.rawValue, "interned": interned, "incrementalClock": incrementalClock,
                "legacyComplete": legacyComplete, "compactSched": compactSched,
                "app": ["pid": pid, "name": appName],
                "threads": threads.map { ["tid": $0.tid, "name": $0.name] },
                "tasks": tasks.map { task in
                    [
                        "id": task.id, "tid": task.tid, "start": task.start, "end": task.end,
                        "children": task.children.map { ["name": $0.name, "start": $0.start, "end": $0.end] },
                        "dependsOn": task.dependsOn,
                    ] as [String: Any]
                },
                "others": others.map { other in
                    [
                        "pid": other.pid, "name": other.name, "tid": other.tid, "thread": other.thread,
                        "slices": other.slices.map { ["name": $0.name, "start": $0.start, "end": $0.end] },
                    ] as [String: Any]
                },
                "sched": sched.map { entry in
                    [
                        "tid": entry.tid, "cpu": entry.cpu,
                        "changes": entry.changes.map { [$0.time, $0.state] as [Any] },
                    ]
                        as [String: Any]
                },
            ]
            if let cpuInfo { spec["cpuInfo"] = cpuInfo }
            if let numCpus { spec["numCpus"] = numCpus }
            return spec
        }

        /// A random launch: 2–5 threads, tasks one after another on each
        /// (touching, or with gaps), some zero-length, some with nested
        /// children, each depending on up to 3 tasks that end before it starts; and a system
        /// process with its own slices.
        static func random(seed: UInt64, form: Form, taskCount: Int) -> Schedule {
            var random = SplitMix64(seed: seed)
            func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
            var schedule = Schedule(form: form)
            let threadCount = 2 + below(4)
            schedule.threads = [(schedule.pid, "main")]
            for k in 1..<threadCount { schedule.threads.append((schedule.pid + 20 + k * 3, "worker-\(k)")) }
            var cursor = [Int64](repeating: 1_000_000_000, count: threadCount)
            var lastWasZero = [Bool](repeating: false, count: threadCount)
            let names = ["Choreographer#doFrame 1", "init ✓ (fast)", "db/migrate v41->v42", "a=b~c"]
            for k in 0..<taskCount {
                let thread = below(threadCount)
                var start = cursor[thread]
                if below(3) > 0 || lastWasZero[thread] { start += Int64(1 + below(2_000_000)) }
                let zero = below(10) == 0
                let length: Int64 = zero ? 0 : Int64(1000 + below(20_000_000))
                let id = k < names.count && below(2) == 0 ? names[k] : "task-\(k)"
                var task = Task(id: id, tid: schedule.threads[thread].tid, start: start, end: start + length)
                if !zero, length > 10_000, below(2) == 0 {
                    var childStart = start + Int64(below(Int(length / 4)))
                    for c in 0..<(1 + below(2)) {
                        let childEnd = min(childStart + Int64(below(Int(length / 4)) + 1), task.end)
                        guard childEnd > childStart else { break }
                        task.children.append(Slice(name: "\(id) part \(c)", start: childStart, end: childEnd))
                        childStart = childEnd
                    }
                }
                // Dependencies end before their task starts (flows go forward in time).
                let earlier = schedule.tasks.filter { $0.end <= start }.map(\.id)
                if !earlier.isEmpty {
                    var deps: [String] = []
                    for _ in 0..<below(4) {
                        let d = earlier[below(earlier.count)]
                        if !deps.contains(d) { deps.append(d) }
                    }
                    task.dependsOn = deps
                }
                schedule.tasks.append(task)
                cursor[thread] = task.end
                lastWasZero[thread] = zero
            }
            schedule.others = [
                (
                    1503, "system_server", 1530, "ActivityManager",
                    [Slice(name: "task-0", start: 999_000_000, end: 1_000_500_000)]
                )
            ]
            return schedule
        }

        /// The tasks the import must give: id, cost (ns), main thread, dependencies (atrace has no flows).
        var expected: [String: (cost: Int64, main: Bool, dependsOn: Set<String>)] {
            var out: [String: (Int64, Bool, Set<String>)] = [:]
            for task in tasks {
                out[task.id] = (
                    task.end - task.start, task.tid == pid, form == .atrace ? [] : Set(task.dependsOn)
                )
            }
            return out
        }
    }
}

/// `ns` as exact decimal milliseconds, written independently of the importer.
func exactMilliseconds(_ ns: Int64) -> Double {
    let fraction = String(ns % 1_000_000)
    return Double("\(ns / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)")!
}

/// The cost a new scenario holds for `ns` of trace time: the exact
/// milliseconds, to the microsecond as the loader reads a file's (MODEL.md §2).
func scenarioMilliseconds(_ ns: Int64) -> Double {
    Double(microseconds(fromMilliseconds: exactMilliseconds(ns))) / 1000
}
