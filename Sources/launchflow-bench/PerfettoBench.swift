// The Perfetto import benchmark (issue 17): a protobuf trace of a million
// slices (about 70 MB) as the Perfetto SDK writes it — a track per thread,
// one packet sequence per thread, names interned, TYPE_SLICE_BEGIN/END
// nested three deep, an argument on each slice, flows between tasks — generated into a temporary
// folder and imported by the `launchflow` binary beside this one: wall time
// and peak memory.
//
//   launchflow-bench --perfetto [--slices 1000000]
//   launchflow-bench --perfetto --write-trace FILE [--slices N]   (only writes the trace)
import Foundation
import LaunchflowCore

/// The few protobuf writes the generator needs (the wire format; field
/// numbers as in Perfetto's trace_packet.proto, track_event.proto,
/// track_descriptor.proto and interned_data.proto).
private struct ProtoBytes {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func field(_ number: Int, varint value: UInt64) {
        varint(UInt64(number << 3))
        varint(value)
    }

    mutating func field(_ number: Int, fixed64 value: UInt64) {
        varint(UInt64(number << 3 | 1))
        for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
    }

    mutating func field(_ number: Int, bytes value: [UInt8]) {
        varint(UInt64(number << 3 | 2))
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func field(_ number: Int, string: String) { field(number, bytes: Array(string.utf8)) }

    mutating func field(_ number: Int, message: (inout ProtoBytes) -> Void) {
        var inner = ProtoBytes()
        message(&inner)
        field(number, bytes: inner.bytes)
    }
}

/// Writes the trace; returns (slices, top-level tasks).
func writePerfettoBenchmarkTrace(to path: String, slices target: Int, seed: UInt64 = 7) throws -> (Int, Int) {
    let file = try newFile(path)
    var generator = PerfettoLaunchGenerator(seed: seed)
    generator.writeTracks()
    while generator.written < target {
        generator.writeTask()
        if generator.out.bytes.count > 4 << 20 {
            try file.write(contentsOf: Data(generator.out.bytes))
            generator.out.bytes.removeAll(keepingCapacity: true)
        }
    }
    try file.write(contentsOf: Data(generator.out.bytes))
    try file.close()
    return (generator.written, generator.tasks)
}

/// The launch ``writePerfettoBenchmarkTrace(to:slices:seed:)`` writes: the
/// tracks, then task by task, into `out`.
private struct PerfettoLaunchGenerator {
    static let pid = 100
    static let threads = 8
    var rng: SplitMix64
    let functions = (0..<600).map { "fn_\($0)_\(["layout", "decode", "parse", "fetch", "draw", "bind"][$0 % 6])" }
    let taskNames = (0..<4000).map { "task-\($0)" }
    var out = ProtoBytes()
    /// Per thread, when its next task starts (ns).
    var clock = [UInt64](repeating: 1_000_000_000, count: threads)
    var written = 0
    var tasks = 0
    var flow: UInt64 = 0
    /// The task before, for the flows: its thread and its flow id.
    var previous: (thread: Int, flow: UInt64)? = nil

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        out.bytes.reserveCapacity(8 << 20)
    }

    /// The process track; per thread its track and its sequence's interned
    /// names (functions 1…600, tasks 601…).
    mutating func writeTracks() {
        out.field(1) { p in
            p.field(10, varint: 1)
            p.field(60) { d in
                d.field(1, varint: 1)
                d.field(3) { process in
                    process.field(1, varint: UInt64(Self.pid))
                    process.field(6, string: "com.example.big")
                }
            }
        }
        let names = functions + taskNames
        for t in 0..<Self.threads {
            out.field(1) { p in
                p.field(10, varint: UInt64(10 + t))
                p.field(13, varint: 1)  // SEQ_INCREMENTAL_STATE_CLEARED
                p.field(60) { d in
                    d.field(1, varint: UInt64(100 + t))
                    d.field(5, varint: 1)
                    d.field(4) { thread in
                        thread.field(1, varint: UInt64(Self.pid))
                        thread.field(2, varint: UInt64(Self.pid + t))
                        thread.field(5, string: t == 0 ? "main" : "worker-\(t)")
                    }
                }
                p.field(59) { defaults in defaults.field(11) { e in e.field(11, varint: UInt64(100 + t)) } }
                p.field(12) { interned in
                    interned.field(1) { c in
                        c.field(1, varint: 1)
                        c.field(2, string: "app")
                    }
                    for (k, name) in names.enumerated() {
                        interned.field(2) { n in
                            n.field(1, varint: UInt64(k + 1))
                            n.field(2, string: name)
                        }
                    }
                }
            }
        }
    }

    /// The next task on the next thread, depending on the task before half
    /// of the time (task names repeat every 4000: all of them would make a cycle).
    mutating func writeTask() {
        let t = tasks % Self.threads
        let start = clock[t]
        flow += 1
        event(
            t, start, begin: true, name: functions.count + 1 + tasks % taskNames.count, flows: [flow],
            terminating: rng.next() % 2 == 0 ? previous.map { [$0.flow] } ?? [] : [])
        previous = (t, flow)
        written += 1
        let end = calls(t, 40 + Int(rng.next() % 80), depth: 3, from: start + 1500) + 1000
        event(t, end, begin: false)
        clock[t] = end + 2000
        tasks += 1
    }

    /// A TYPE_SLICE_BEGIN (with an argument, as instrumented code often
    /// records, read past by the importer) or TYPE_SLICE_END on thread `t`'s track.
    mutating func event(
        _ t: Int, _ time: UInt64, begin: Bool, name: Int = 0, flows: [UInt64] = [], terminating: [UInt64] = []
    ) {
        let written = written
        out.field(1) { p in
            p.field(8, varint: time)
            p.field(10, varint: UInt64(10 + t))
            p.field(13, varint: 2)  // SEQ_NEEDS_INCREMENTAL_STATE
            p.field(11) { e in
                e.field(9, varint: begin ? 1 : 2)
                if begin {
                    e.field(3, varint: 1)
                    e.field(10, varint: UInt64(name))
                    e.field(4) { annotation in
                        annotation.field(10, string: "item.position")
                        annotation.field(6, string: "row \(written % 1000) of the feed")
                    }
                }
                for id in flows { e.field(47, fixed64: id) }
                for id in terminating { e.field(48, fixed64: id) }
            }
        }
    }

    /// Calls nested up to `depth` levels from `time`; returns the time after them.
    mutating func calls(_ t: Int, _ count: Int, depth: Int, from time: UInt64) -> UInt64 {
        var time = time
        for _ in 0..<count {
            let name = 1 + Int(rng.next() % UInt64(functions.count))
            event(t, time, begin: true, name: name)
            written += 1
            time += 500
            if depth > 0, rng.next() % 6 == 0 { time = calls(t, 2 + Int(rng.next() % 3), depth: depth - 1, from: time) }
            time += 1000 + rng.next() % 40_000
            event(t, time, begin: false)
            time += 250
        }
        return time
    }
}

/// Generates the trace, then times `launchflow import TRACE --out FILE` (best of 3).
func runPerfettoBenchmark(_ arguments: [String]) {
    var slices = 1_000_000
    if let i = arguments.firstIndex(of: "--slices"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
        slices = n
    }
    if let i = arguments.firstIndex(of: "--write-trace"), i + 1 < arguments.count {
        do {
            let (written, _) = try writePerfettoBenchmarkTrace(to: arguments[i + 1], slices: slices)
            print("\(written) slices written to \(arguments[i + 1])")
        } catch {
            print("cannot write the trace: \(error)")
        }
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launchflow-perfetto-bench-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("big.pftrace").path
        var counts = (0, 0)
        let generation = try seconds { counts = try writePerfettoBenchmarkTrace(to: trace, slices: slices) }
        let size = (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0
        print(
            "launchflow Perfetto import benchmark — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        print(
            String(
                format: "trace: %d slices (%d tasks), %.1f MB (%.0f MiB), generated in %.1f s", counts.0, counts.1,
                Double(size) / 1e6, Double(size) / 1_048_576, generation))
        let imported = try timeImport(trace, in: folder, size: size)
        let scenario = imported.scenario
        print(
            "\(imported.line); \(scenario.tasks.count) tasks, \(scenario.tasks.reduce(0) { $0 + $1.dependsOn.count }) dependencies"
        )
        print("target: ≤ 10 s and ≤ 1 GB of memory")
    } catch {
        print("Perfetto import benchmark failed: \(error)")
    }
}
