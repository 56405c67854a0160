// The import benchmark (issue 10): a Chrome trace of about 200 MB and 2.15
// million events, generated into a temporary folder, imported by the
// `launchflow` binary beside this one: wall time and peak memory.
//
//   launchflow-bench --import [--events 2150000]
//   launchflow-bench --import --write-trace FILE [--events N]   (only writes the trace)
//
// Then the Instruments export benchmark (XctraceBench.swift; `--import --xctrace` runs it alone).
import Foundation
import LaunchflowCore

/// Writes a Chrome trace shaped like a long profile of an app: 8 threads of
/// one process (plus a second process), top-level task slices (`X`) each
/// holding a few hundred nested calls (`X`, and `B`/`E` pairs) up to depth 3,
/// flow arrows between tasks, counters and instants, fractional timestamps.
/// About `events` events; returns the number written.
func writeBenchmarkTrace(to path: String, events: Int, seed: UInt64 = 7) throws -> Int {
    var out = try EventLines(path: path, header: "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [")
    var generator = ChromeLaunchGenerator(seed: seed)
    try generator.writeMetadata(to: &out)
    while out.written < events { try generator.writeTask(to: &out) }
    try out.finish("\n]}\n")
    return out.written
}

/// The elements of a JSON array, one a line, written to a file in pieces of about 4 MB.
struct EventLines {
    private let file: FileHandle
    private var buffer = ""
    private(set) var written = 0

    /// A new (or emptied) file that starts with `header`.
    init(path: String, header: String) throws {
        file = try newFile(path)
        try file.write(contentsOf: Data(header.utf8))
        buffer.reserveCapacity(8 << 20)
    }

    mutating func emit(_ line: String) throws {
        buffer += written == 0 ? "\n" : ",\n"
        buffer += line
        written += 1
        if buffer.utf8.count > 4 << 20 {
            try file.write(contentsOf: Data(buffer.utf8))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what is left and `tail`, and closes the file.
    mutating func finish(_ tail: String) throws {
        buffer += tail
        try file.write(contentsOf: Data(buffer.utf8))
        try file.close()
    }
}

/// `path` created anew (or emptied) and opened for writing.
func newFile(_ path: String) throws -> FileHandle {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let file = FileHandle(forWritingAtPath: path) else { throw NSError(domain: "bench", code: 1) }
    return file
}

/// The launch ``writeBenchmarkTrace(to:events:seed:)`` writes, task by task.
private struct ChromeLaunchGenerator {
    static let threads = 8
    var rng: SplitMix64
    let functions = (0..<600).map { "fn_\($0)_\(["layout", "decode", "parse", "fetch", "draw", "bind"][$0 % 6])" }
    /// Per thread, when its next task starts (µs).
    var clock = [Double](repeating: 1_000_000.25, count: threads)
    var task = 0
    var flow = 0
    var lastTask: [(tid: Int, ts: Double)] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The process and thread names: the app's 8 threads and a daemon's one.
    func writeMetadata(to out: inout EventLines) throws {
        try out.emit(
            #"{"name": "process_name", "ph": "M", "pid": 100, "tid": 100, "args": {"name": "com.example.big"}}"#)
        for t in 0..<Self.threads {
            let name = t == 0 ? "main" : "worker-\(t)"
            try out.emit(
                #"{"name": "thread_name", "ph": "M", "pid": 100, "tid": \#(100 + t), "args": {"name": "\#(name)"}}"#)
        }
        try out.emit(#"{"name": "thread_name", "ph": "M", "pid": 200, "tid": 201, "args": {"name": "daemon"}}"#)
    }

    /// The next task on the next thread: its slice, a flow from the task
    /// before half of the time, its calls, and now and then the daemon's work.
    mutating func writeTask(to out: inout EventLines) throws {
        let t = task % Self.threads
        let tid = 100 + t
        let start = clock[t]
        let callCount = 150 + Int(rng.nextUnit() * 300)
        var body: [String] = []
        let end = calls(callCount, depth: 3, from: start + 1.5, tid: tid, into: &body, written: out.written) + 1
        try out.emit(
            #"{"name": "task-\#(task % 4000)", "cat": "launch", "ph": "X", "ts": \#(start), "dur": \#(end - start), "pid": 100, "tid": \#(tid)}"#
        )
        if let previous = lastTask.last, rng.nextUnit() < 0.5 {
            flow += 1
            try out.emit(
                #"{"name": "dep", "cat": "flow", "ph": "s", "id": \#(flow), "ts": \#(previous.ts), "pid": 100, "tid": \#(previous.tid)}"#
            )
            try out.emit(
                #"{"name": "dep", "cat": "flow", "ph": "f", "bp": "e", "id": \#(flow), "ts": \#(start + 0.5), "pid": 100, "tid": \#(tid)}"#
            )
        }
        for line in body { try out.emit(line) }
        if task % 50 == 0 {
            try out.emit(#"{"name": "daemon-work", "ph": "X", "ts": \#(start), "dur": 10, "pid": 200, "tid": 201}"#)
        }
        lastTask.append((tid, start + 1))
        clock[t] = end + 2
        task += 1
    }

    /// Calls from `time` on, nested up to `depth` more levels, appended to
    /// `body` (a parent before its calls); returns the time after them.
    /// `written` (the events so far) numbers the memory counters.
    mutating func calls(
        _ count: Int, depth: Int, from time: Double, tid: Int, into body: inout [String], written: Int
    ) -> Double {
        var ts = time
        var left = count
        while left > 0 {
            let name = functions[Int(rng.nextUnit() * Double(functions.count))]
            let roll = rng.nextUnit()
            if depth > 0, left > 3, roll < 0.15 {
                // A parent holding a few calls: written before them, its end known after them.
                let index = body.count
                body.append("")
                let inner = 2 + Int(rng.nextUnit() * 4)
                let end =
                    calls(
                        min(inner, left - 1), depth: depth - 1, from: ts + 0.5, tid: tid, into: &body, written: written)
                    + 0.25
                body[index] =
                    #"{"name": "\#(name)", "cat": "app", "ph": "X", "ts": \#(ts), "dur": \#(end - ts), "pid": 100, "tid": \#(tid), "args": {"n": \#(index)}}"#
                left -= min(inner, left - 1) + 1
                ts = end + 0.25
                continue
            }
            let dur = (rng.nextUnit() * 40).rounded() / 4 + 0.25
            if roll < 0.35 {
                body.append(#"{"name": "\#(name)", "cat": "app", "ph": "B", "ts": \#(ts), "pid": 100, "tid": \#(tid)}"#)
                body.append(#"{"ph": "E", "ts": \#(ts + dur), "pid": 100, "tid": \#(tid)}"#)
            } else {
                body.append(
                    #"{"name": "\#(name)", "cat": "app", "ph": "X", "ts": \#(ts), "dur": \#(dur), "pid": 100, "tid": \#(tid)}"#
                )
            }
            ts += dur + 0.25
            left -= 1
            if rng.nextUnit() < 0.05 {
                body.append(
                    #"{"name": "memory", "ph": "C", "ts": \#(ts), "pid": 100, "tid": \#(tid), "args": {"kb": \#(written % 9000)}}"#
                )
            }
        }
        return ts
    }
}

/// Generates the trace, then times `launchflow import TRACE --out FILE` (best of
/// three) and reports the peak memory against the file size.
func runImportBenchmark(_ arguments: [String]) {
    if arguments.contains("--xctrace") || arguments.contains("--write-export") {
        runXctraceBenchmark(arguments)
        return
    }
    defer { if !arguments.contains("--write-trace") { print(); runXctraceBenchmark(arguments) } }
    var events = 2_150_000  // about 200 MB
    if let i = arguments.firstIndex(of: "--events"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
        events = n
    }
    if let i = arguments.firstIndex(of: "--write-trace"), i + 1 < arguments.count {
        do {
            print(
                "\(try writeBenchmarkTrace(to: arguments[i + 1], events: events)) events written to \(arguments[i + 1])"
            )
        } catch {
            print("cannot write the trace: \(error)")
        }
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launchflow-import-bench-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("big-trace.json").path
        let generation = try seconds { _ = try writeBenchmarkTrace(to: trace, events: events) }
        let size = (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0
        print("launchflow import benchmark — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(
            String(
                format: "trace: %d events, %.1f MB (%.0f MiB), generated in %.1f s", events, Double(size) / 1e6,
                Double(size) / 1_048_576, generation))
        let imported = try timeImport(trace, in: folder, size: size)
        print("\(imported.line); \(imported.scenario.tasks.count) tasks")
        print("target: ≤ 10 s, peak memory well under 3 × the file")
    } catch {
        print("import benchmark failed: \(error)")
    }
}

/// `launchflow import TRACE --out FILE` by the binary beside this one, best
/// wall time of three: the scenario it wrote, and its figures in a line
/// (wall and CPU time, the load average, peak memory against the file's `size`).
func timeImport(_ trace: String, in folder: URL, size: Int) throws -> (scenario: Scenario, line: String) {
    let out = folder.appendingPathComponent("scenario.json").path
    var best = (seconds: Double.infinity, peakMiB: 0.0, cpuSeconds: 0.0)
    for _ in 0..<3 {
        let run = try runCommand(["import", trace, "--out", out], quiet: true)
        if run.seconds < best.seconds { best = run }
    }
    var load = [0.0, 0, 0]
    _ = getloadavg(&load, 3)
    let line = String(
        format: "import: %.2f s wall, %.2f s CPU (best of 3; load average %.1f), peak RSS %.0f MiB = %.2f × the file",
        best.seconds, best.cpuSeconds, load[0], best.peakMiB, best.peakMiB * 1_048_576 / Double(size))
    return (try ScenarioLoader.load(path: out), line)
}
