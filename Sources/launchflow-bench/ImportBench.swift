// The import benchmark (issue 10): a Chrome trace of about 200 MB and 2.15
// million events, generated into a temporary folder, imported by the
// `launchflow` binary beside this one: wall time and peak memory.
//
//   launchflow-bench --import [--events 2150000]
//   launchflow-bench --import --write-trace FILE [--events N]   (only writes the trace)
import Foundation
import LaunchflowCore

/// Writes a Chrome trace shaped like a long profile of an app: 8 threads of
/// one process (plus a second process), top-level task slices (`X`) each
/// holding a few hundred nested calls (`X`, and `B`/`E` pairs) up to depth 3,
/// flow arrows between tasks, counters and instants, fractional timestamps.
/// About `events` events; returns the number written.
func writeBenchmarkTrace(to path: String, events: Int, seed: UInt64 = 7) throws -> Int {
    _ = FileManager.default.createFile(atPath: path, contents: nil)  // new, or emptied
    guard let file = FileHandle(forWritingAtPath: path) else { throw NSError(domain: "bench", code: 1) }
    defer { try? file.close() }
    var rng = SplitMix64(seed: seed)
    var buffer = ""
    buffer.reserveCapacity(8 << 20)
    var written = 0
    func emit(_ line: String) throws {
        buffer += written == 0 ? "\n" : ",\n"
        buffer += line
        written += 1
        if buffer.utf8.count > 4 << 20 {
            try file.write(contentsOf: Data(buffer.utf8))
            buffer.removeAll(keepingCapacity: true)
        }
    }
    try file.write(contentsOf: Data("{\"displayTimeUnit\": \"ms\", \"traceEvents\": [".utf8))
    let threads = 8
    try emit(#"{"name": "process_name", "ph": "M", "pid": 100, "tid": 100, "args": {"name": "com.example.big"}}"#)
    for t in 0..<threads {
        let name = t == 0 ? "main" : "worker-\(t)"
        try emit(#"{"name": "thread_name", "ph": "M", "pid": 100, "tid": \#(100 + t), "args": {"name": "\#(name)"}}"#)
    }
    try emit(#"{"name": "thread_name", "ph": "M", "pid": 200, "tid": 201, "args": {"name": "daemon"}}"#)
    let functions = (0..<600).map { "fn_\($0)_\(["layout", "decode", "parse", "fetch", "draw", "bind"][$0 % 6])" }
    var clock = [Double](repeating: 1_000_000.25, count: threads)
    var task = 0
    var flow = 0
    var lastTask: [(tid: Int, ts: Double)] = []
    while written < events {
        let t = task % threads
        let tid = 100 + t
        let start = clock[t]
        let callCount = 150 + Int(rng.nextUnit() * 300)
        var ts = start + 1.5
        var body: [String] = []
        /// Calls from `ts` on, nested up to `depth` more levels; returns the time after them.
        func calls(_ count: Int, depth: Int, from time: Double) -> Double {
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
                    let end = calls(min(inner, left - 1), depth: depth - 1, from: ts + 0.5) + 0.25
                    body[index] =
                        #"{"name": "\#(name)", "cat": "app", "ph": "X", "ts": \#(ts), "dur": \#(end - ts), "pid": 100, "tid": \#(tid), "args": {"n": \#(index)}}"#
                    left -= min(inner, left - 1) + 1
                    ts = end + 0.25
                    continue
                }
                let dur = (rng.nextUnit() * 40).rounded() / 4 + 0.25
                if roll < 0.35 {
                    body.append(
                        #"{"name": "\#(name)", "cat": "app", "ph": "B", "ts": \#(ts), "pid": 100, "tid": \#(tid)}"#)
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
        ts = calls(callCount, depth: 3, from: ts)
        let end = ts + 1
        try emit(
            #"{"name": "task-\#(task % 4000)", "cat": "launch", "ph": "X", "ts": \#(start), "dur": \#(end - start), "pid": 100, "tid": \#(tid)}"#
        )
        if let previous = lastTask.last, rng.nextUnit() < 0.5 {
            flow += 1
            try emit(
                #"{"name": "dep", "cat": "flow", "ph": "s", "id": \#(flow), "ts": \#(previous.ts), "pid": 100, "tid": \#(previous.tid)}"#
            )
            try emit(
                #"{"name": "dep", "cat": "flow", "ph": "f", "bp": "e", "id": \#(flow), "ts": \#(start + 0.5), "pid": 100, "tid": \#(tid)}"#
            )
        }
        for line in body { try emit(line) }
        if task % 50 == 0 {
            try emit(#"{"name": "daemon-work", "ph": "X", "ts": \#(start), "dur": 10, "pid": 200, "tid": 201}"#)
        }
        lastTask.append((tid, start + 1))
        clock[t] = end + 2
        task += 1
    }
    buffer += "\n]}\n"
    try file.write(contentsOf: Data(buffer.utf8))
    return written
}

/// Generates the trace, then times `launchflow import TRACE --out FILE` (best of
/// `repeats`) and reports the peak memory against the file size.
func runImportBenchmark(_ arguments: [String]) {
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
        let out = folder.appendingPathComponent("scenario.json").path
        var best = (seconds: Double.infinity, peakMiB: 0.0, cpuSeconds: 0.0)
        for _ in 0..<3 {
            let run = try runCommand(["import", trace, "--out", out], quiet: true)
            if run.seconds < best.seconds { best = run }
        }
        let scenario = try ScenarioLoader.load(path: out)
        var load = [0.0, 0, 0]
        _ = getloadavg(&load, 3)
        print(
            String(
                format:
                    "import: %.2f s wall, %.2f s CPU (best of 3; load average %.1f), peak RSS %.0f MiB = %.2f × the file; %d tasks",
                best.seconds, best.cpuSeconds, load[0], best.peakMiB, best.peakMiB * 1_048_576 / Double(size),
                scenario.tasks.count))
        print("target: ≤ 10 s, peak memory well under 3 × the file")
    } catch {
        print("import benchmark failed: \(error)")
    }
}
