import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// `launchflow import` of Perfetto protobuf traces: traces written with the
/// official Perfetto protos (an independent writer, Support/PerfettoWriter)
/// from known schedules give back exactly those tasks; broken input is a
/// clear error, never a trap.
struct PerfettoImportTests {
    struct Imported {
        var tasks: [(id: String, cost: Double, main: Bool, dependsOn: [String])]
        var object: [String: Any]
        var log: ImportLog
    }

    static func run(_ path: String, _ options: ImportOptions = ImportOptions()) throws -> Imported {
        let outcome = try TraceImport.run(ImportRequest(traces: [path], options: options))
        _ = try ScenarioLoader.decode(outcome.scenario, file: "imported.json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        let tasks = (object["tasks"] as? [[String: Any]] ?? []).map { t in
            (
                id: t["id"] as! String, cost: (t["cost"] as! NSNumber).doubleValue,
                main: t["mainThreadOnly"] as? Bool ?? false, dependsOn: t["dependsOn"] as? [String] ?? []
            )
        }
        return Imported(tasks: tasks, object: object, log: outcome.log)
    }

    /// Every task of the schedule, with its cost to the nanosecond, its
    /// thread and its dependencies; nothing else; in the order of their starts.
    static func expectMatches(_ imported: Imported, _ schedule: PerfettoWriter.Schedule, _ label: String) {
        let expected = schedule.expected
        #expect(imported.tasks.count == expected.count, "\(label): \(imported.tasks.map(\.id))")
        for task in imported.tasks {
            guard let want = expected[task.id] else {
                Issue.record("\(label): unexpected task '\(task.id)'")
                continue
            }
            #expect(task.cost == scenarioMilliseconds(want.cost), "\(label): \(task.id) cost")
            #expect(task.main == want.main, "\(label): \(task.id) mainThreadOnly")
            #expect(Set(task.dependsOn) == want.dependsOn, "\(label): \(task.id) dependsOn")
            #expect(task.dependsOn.count == want.dependsOn.count, "\(label): \(task.id) repeats a dependency")
        }
        let starts = Dictionary(uniqueKeysWithValues: schedule.tasks.map { ($0.id, $0.start) })
        let order = imported.tasks.compactMap { starts[$0.id] }
        #expect(order == order.sorted(), "\(label): tasks in the order of their starts")
        let warnings = imported.log.diagnostics.filter { $0.severity != .note }
        #expect(warnings.isEmpty, "\(label): \(warnings)")
        #expect(imported.object["name"] as? String == schedule.appName, "\(label)")
    }

    // MARK: Written with the official protos

    @Test(
        .enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)),
        arguments: 1...6)
    func trackEventTracesImportToTheirSchedule(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var schedule = PerfettoWriter.Schedule.random(seed: seed, form: .trackevent, taskCount: 10 + Int(seed) * 6)
        schedule.interned = seed % 2 == 1
        schedule.incrementalClock = seed % 3 == 0
        let paths = [folder.path("launch.pftrace"), folder.path("launch.pftrace.gz")]
        try PerfettoWriter.write(schedule, to: paths, in: folder)
        for path in paths {
            Self.expectMatches(try Self.run(path), schedule, "seed \(seed) \(path.hasSuffix(".gz") ? "gzip" : "plain")")
        }
    }

    @Test(
        .enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)),
        arguments: 1...4)
    func atraceInFtraceImportsToItsSchedule(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let schedule = PerfettoWriter.Schedule.random(seed: 100 + seed, form: .atrace, taskCount: 12 + Int(seed) * 5)
        let paths = [folder.path("launch.perfetto-trace"), folder.path("launch.perfetto-trace.gz")]
        try PerfettoWriter.write(schedule, to: paths, in: folder)
        for path in paths {
            let imported = try Self.run(path)
            Self.expectMatches(imported, schedule, "seed \(seed) \(path.hasSuffix(".gz") ? "gzip" : "plain")")
            // The counter and the async section are left out, with a note.
            #expect(imported.log.diagnostics.contains { $0.message.contains("C ×") && $0.message.contains("S ×") })
        }
    }

    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func legacyCompleteEventsAreSlices() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var schedule = PerfettoWriter.Schedule.random(seed: 77, form: .trackevent, taskCount: 20)
        // Legacy complete events carry whole microseconds.
        func micros(_ t: Int64) -> Int64 { t / 1000 * 1000 }
        for k in schedule.tasks.indices {
            schedule.tasks[k].start = micros(schedule.tasks[k].start)
            schedule.tasks[k].end = micros(schedule.tasks[k].end)
            schedule.tasks[k].children = []
        }
        schedule.tasks = schedule.tasks.filter { $0.end > $0.start }
        let ids = Set(schedule.tasks.map(\.id))
        for k in schedule.tasks.indices { schedule.tasks[k].dependsOn.removeAll { !ids.contains($0) } }
        schedule.legacyComplete = true
        let path = folder.path("legacy.pftrace")
        try PerfettoWriter.write(schedule, to: [path], in: folder)
        Self.expectMatches(try Self.run(path), schedule, "legacy X events")
    }

    // MARK: Scheduling

    /// Random thread states (valid transitions only) over the schedule's span, on each app thread.
    static func randomStates(_ schedule: inout PerfettoWriter.Schedule, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let first = schedule.tasks.map(\.start).min()!
        let last = schedule.tasks.map(\.end).max()!
        for (n, thread) in schedule.threads.enumerated() {
            var time = first - 500_000 + Int64(random.next() % 1_000_000)  // sometimes after a task began
            var state = "running"
            var changes = [PerfettoWriter.Schedule.Change(time: time, state: state)]
            while time < last {
                time += 1 + Int64(random.next() % 3_000_000)
                switch state {
                case "running": state = random.next() % 2 == 0 ? "runnable" : "sleeping"
                case "sleeping": state = "runnable"
                default: state = "running"
                }
                changes.append(.init(time: time, state: state))
            }
            schedule.sched.append((thread.tid, n, changes))
        }
    }

    /// (running, runnable, sleeping) of `tid` over [start, end), computed step by step.
    static func expectedStates(_ schedule: PerfettoWriter.Schedule, tid: Int, _ start: Int64, _ end: Int64)
        -> [String: Int64]
    {
        var out: [String: Int64] = ["running": 0, "runnable": 0, "sleeping": 0]
        guard let changes = schedule.sched.first(where: { $0.tid == tid })?.changes else { return out }
        for (k, change) in changes.enumerated() {
            let until = k + 1 < changes.count ? changes[k + 1].time : Int64.max
            let from = max(change.time, start)
            let to = min(until, end)
            if to > from { out[change.state]! += to - from }
        }
        return out
    }

    @Test(
        .enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)),
        arguments: [(PerfettoWriter.Schedule.Form.trackevent, false), (.trackevent, true), (.atrace, false)])
    func schedulerEventsGiveEachTasksRunningRunnableAndSleepingTime(
        form: PerfettoWriter.Schedule.Form, compact: Bool
    ) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var schedule = PerfettoWriter.Schedule.random(seed: compact ? 41 : 40, form: form, taskCount: 30)
        schedule.compactSched = compact
        Self.randomStates(&schedule, seed: 9)
        let path = folder.path("sched.pftrace")
        try PerfettoWriter.write(schedule, to: [path], in: folder)
        let label = "\(form) compact \(compact)"

        // The notes: each task's breakdown.
        let wall = try Self.run(path)
        Self.expectMatches(wall, schedule, label)
        let notes = wall.log.diagnostics.filter { $0.severity == .note }.map(\.message)
        for task in schedule.tasks {
            let states = Self.expectedStates(schedule, tid: task.tid, task.start, task.end)
            guard let note = notes.first(where: { $0.hasPrefix("'\(task.id)' ") }) else {
                Issue.record("\(label): no note for \(task.id)")
                continue
            }
            for state in ["running", "runnable", "sleeping"] {
                let value = formatMillis(nanos: states[state]!)
                #expect(note.contains("\(state) \(value)"), "\(label): \(note) (\(state) \(value))")
            }
        }

        // --cost running: the running time is the cost.
        let running = try Self.run(path, ImportOptions(cost: .running))
        for task in running.tasks {
            let source = try #require(schedule.tasks.first { $0.id == task.id })
            let states = Self.expectedStates(schedule, tid: source.tid, source.start, source.end)
            // Time before the thread's first event is unknown, and counted as running (with a warning).
            let unknown = (source.end - source.start) - states.values.reduce(0, +)
            #expect(task.cost == scenarioMilliseconds(states["running"]! + unknown), "\(label): \(task.id)")
            let warned = running.log.diagnostics.contains {
                $0.severity == .warning && $0.message.hasPrefix("'\(task.id)': ")
            }
            #expect(warned == (unknown > 0), "\(label): \(task.id)")
        }
        #expect((running.object["description"] as? String)?.contains("running (sched_switch)") == true)
    }

    @Test func costRunningNeedsSchedulerEvents() throws {
        #expect(throws: ImportError.self) {
            try TraceImport.run(
                ImportRequest(
                    traces: [ImportTests.fixture("chrome-bare-array.json")], options: ImportOptions(cost: .running)))
        }
    }

    // MARK: Committed fixtures (read even without the Python environment)

    static let fixtures = ["perfetto-trackevent.pftrace", "perfetto-atrace.pftrace.gz"]

    @Test func theCommittedTrackEventFixtureGivesItsREADMEsTasks() throws {
        let imported = try Self.run(ImportTests.fixture("perfetto-trackevent.pftrace"))
        let expected: [(String, Double, Bool, [String])] = [
            // The README's 5.6405, 9.3755 and 28.12575 ms to the microsecond, as the scenario holds them.
            ("crash-reporter", 5.641, true, []),
            ("network-config", 9.376, false, ["crash-reporter"]),
            ("zero-cost marker", 0, false, []),
            ("root-vc", 28.126, true, ["crash-reporter", "network-config"]),
        ]
        #expect(imported.tasks.map(\.id) == expected.map(\.0))
        #expect(imported.tasks.map(\.cost) == expected.map(\.1))
        #expect(imported.tasks.map(\.main) == expected.map(\.2))
        #expect(imported.tasks.map(\.dependsOn) == expected.map(\.3))
        #expect(imported.object["name"] as? String == "com.example.shop")
    }

    @Test func theCommittedAtraceFixtureGivesItsREADMEsTasks() throws {
        let imported = try Self.run(ImportTests.fixture("perfetto-atrace.pftrace.gz"))
        // bindApplication and activityStart are launch phases (issue 37): the sections nested in them are tasks.
        let expected: [(String, Double, Bool)] = [
            ("OpenDexFilesFromOat(/data/app/~~x==/base.apk)", 9, true), ("Application.onCreate", 26, true),
            ("network-config", 9.426, false), ("MainActivity.onCreate", 19.5, true),
        ]
        #expect(imported.tasks.map(\.id) == expected.map(\.0))
        #expect(imported.tasks.map(\.cost) == expected.map(\.1))
        #expect(imported.tasks.map(\.main) == expected.map(\.2))
        #expect(imported.object["name"] as? String == "com.acme.shop")
    }

    /// The committed fixtures are what the writer makes of their specs today.
    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func theCommittedFixturesAreRegeneratedByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in Self.fixtures {
            let stem = name.replacingOccurrences(of: ".pftrace.gz", with: "").replacingOccurrences(
                of: ".pftrace", with: "")
            let spec = ImportTests.fixture("\(stem).spec.json")
            let out = folder.path(name)
            let script = repositoryRoot.appendingPathComponent("Tools/perfetto-fixtures/write_trace.py").path
            let result = try runProcess(PerfettoWriter.venvPython, [script, spec, out])
            #expect(result.status == 0, "\(result.stderr)")
            let fresh = try Data(contentsOf: URL(fileURLWithPath: out))
            let committed = try Data(contentsOf: URL(fileURLWithPath: ImportTests.fixture(name)))
            #expect(fresh == committed, "\(name): regenerate with Tools/perfetto-fixtures/regenerate.sh")
        }
    }

    // MARK: Broken input

    static func read(_ bytes: [UInt8], format: ImportFormat? = .perfetto) -> (trace: Trace?, log: ImportLog) {
        var log = ImportLog()
        let input = TraceImport.read(bytes, file: "fuzz.pftrace", format: format, log: &log, progress: nil)
        if case .trace(let trace)? = input { return (trace, log) }
        return (nil, log)
    }

    @Test func aTruncatedTraceIsAnErrorWithItsByteOffset() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ImportTests.fixture(Self.fixtures[0]))))
        var boundaries = Set<Int>()  // where a whole packet ends, a shorter trace is still valid
        bytes.withUnsafeBufferPointer { buffer in
            var reader = ProtoReader(base: buffer.baseAddress!, range: 0..<buffer.count)
            while let field = try? reader.nextField(), (try? reader.skip(field.type, number: field.number)) != nil {
                boundaries.insert(reader.position)
            }
        }
        let firstPacket = boundaries.min()!
        for length in 1..<bytes.count where !boundaries.contains(length) {
            // Detected from the content once a whole packet is there.
            let (trace, log) = Self.read(Array(bytes.prefix(length)), format: length > firstPacket ? nil : .perfetto)
            #expect(trace == nil, "truncated at \(length)")
            #expect(log.text.contains("not a valid Perfetto trace: at byte "), "truncated at \(length): \(log.text)")
        }
    }

    @Test func aTruncatedGzipTraceIsAnError() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ImportTests.fixture(Self.fixtures[1]))))
        for length in stride(from: 2, to: bytes.count, by: 7) {
            let (trace, log) = Self.read(Array(bytes.prefix(length)))
            #expect(trace == nil)
            #expect(log.text.contains("gzip") || log.text.contains("byte"), "\(log.text)")
        }
    }

    /// Bit flips, wrong wire types, huge lengths and deep nesting: an error
    /// or a trace, never a trap or a hang.
    @Test func fuzzedInputNeverTrapsOrHangs() throws {
        var random = SplitMix64(seed: 17)
        let clock = ContinuousClock()
        for name in Self.fixtures {
            var original = Array(try Data(contentsOf: URL(fileURLWithPath: ImportTests.fixture(name))))
            if Gzip.isGzip(original) { original = try Gzip.decompress(original) }
            for round in 0..<1500 {
                var bytes = original
                switch round % 5 {
                case 0:  // bit flips
                    for _ in 0..<(1 + Int(random.next() % 4)) {
                        let k = Int(random.next() % UInt64(bytes.count))
                        bytes[k] ^= UInt8(1 << (random.next() % 8))
                    }
                case 1:  // a key's wire type changed
                    let k = Int(random.next() % UInt64(bytes.count))
                    bytes[k] = (bytes[k] & ~7) | UInt8(random.next() % 8)
                case 2:  // a huge length (a 10-byte varint) spliced in
                    let k = Int(random.next() % UInt64(bytes.count))
                    bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], at: k)
                case 3:  // random bytes overwritten
                    let k = Int(random.next() % UInt64(bytes.count))
                    for j in k..<min(k + 16, bytes.count) { bytes[j] = UInt8(truncatingIfNeeded: random.next()) }
                default:  // a random run of a packet duplicated
                    let k = Int(random.next() % UInt64(bytes.count))
                    let length = Int(random.next() % 64)
                    bytes.insert(contentsOf: bytes[k..<min(k + length, bytes.count)], at: k)
                }
                let started = clock.now
                var log = ImportLog()
                if let trace = PerfettoReader.read(bytes, file: "fuzz", log: &log) {
                    var trace = trace
                    _ = SliceSelection.run(
                        of: &trace, rules: try SelectionRules(ImportOptions()), mainThread: nil, log: &log)
                }
                #expect(clock.now - started < .seconds(2), "\(name) round \(round)")
            }
        }
        // Deep nesting: groups 100,000 deep, and packets nested in packets.
        let groups = [UInt8](repeating: 0x0B, count: 100_000)  // field 1, start-group
        let (trace, log) = Self.read([0x0A, 0x03, 0x0B, 0x0B, 0x0B] + groups)
        #expect(trace == nil && log.hasErrors)
        var nested: [UInt8] = [0x08, 0x01]
        for _ in 0..<2000 { nested = [0x0A] + varint(UInt64(nested.count)) + nested }
        _ = Self.read(nested)
        _ = Self.read([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        _ = Self.read([0x0A] + [UInt8](repeating: 0xFF, count: 20))

        // Timestamps at the ends of the range: no difference of two may overflow.
        func packet(_ fields: [UInt8]) -> [UInt8] { [0x0A] + varint(UInt64(fields.count)) + fields }
        func message(_ field: UInt8, _ body: [UInt8]) -> [UInt8] {
            [field << 3 | 2] + varint(UInt64(body.count)) + body
        }
        let thread = message(4, [0x08, 0x01, 0x10, 0x01] + message(5, Array("main".utf8)))
        let descriptor = packet(message(60, [0x08, 0x01] + thread))
        for (begin, end) in [(UInt64(1) << 63 | 5, (UInt64(1) << 63) - 16), (0, UInt64.max), (UInt64.max, 7)] {
            let slice = message(11, [0x48, 0x01, 0x58, 0x01] + message(23, Array("a".utf8)))
            let close = message(11, [0x48, 0x02, 0x58, 0x01])
            let bytes =
                descriptor + packet([0x40] + varint(begin) + slice) + packet([0x40] + varint(end) + close)
                + packet([0x40] + varint(0) + slice) + packet([0x40] + varint(UInt64(1) << 62 - 1) + close)
            let (trace, log) = Self.read(bytes)
            if var trace {
                var log = log
                _ = SliceSelection.run(
                    of: &trace, rules: try SelectionRules(ImportOptions(cost: .running)), mainThread: nil, log: &log)
            }
        }
    }

    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }

    @Test func theCommandStopsOnACorruptTraceAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ImportTests.fixture(Self.fixtures[0])))
        let cut = folder.path("cut.pftrace")
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: cut))
        let out = folder.path("out.json")
        let result = Launchflow.runInProcess(["import", cut, "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a valid Perfetto trace: at byte "))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
