// The Instruments import benchmark (issue 27): an `xctrace export` of the
// os-signpost-interval table with 10⁶ rows, generated into a temporary folder,
// imported by the `launchflow` binary beside this one: wall time and peak memory.
//
//   launchflow-bench --import --xctrace [--rows 1000000]
//   launchflow-bench --import --xctrace --write-export FILE [--rows N]   (only writes the export)
//
// `--import` alone runs the Chrome benchmark (ImportBench.swift) and then this one.
import Foundation
import LaunchflowCore

/// Writes an export shaped as `xctrace export --xpath '…table[@schema="os-signpost-interval"]'`
/// prints it, following the structure Tools/instruments-fixtures/write_exports.py
/// documents: one `<node>` with the table's `<schema>` (13 columns), then a `<row>`
/// per interval whose k-th child is the k-th column; every value's first appearance
/// carries `id="N"` and its content (ids minted at any depth: the `<process>` and
/// `<tid>` inside a `<thread>`), later ones `<tag ref="N"/>`; times and durations
/// in integer nanoseconds with a display `fmt`; `<sentinel/>` for an empty cell.
///
/// One process (`com.example.big`, pid 581) with four threads (the main thread,
/// two named workers, one unnamed), each running intervals back to back with
/// gaps of 1–20 µs and durations of 5 µs–2 ms (in ns), the rows in start order
/// across the threads; 4,000 signpost names, a tenth of them with one of two
/// messages (so those become two tasks each); a new signpost identifier per row.
/// Returns the number of rows written.
func writeBenchmarkExport(to path: String, rows: Int, seed: UInt64 = 7) throws -> Int {
    var out = try XMLChunks(path: path)
    var x = ExportValues()
    out.append("<?xml version=\"1.0\"?>\n<trace-query-result>\n")
    out.append("<node xpath='//trace-toc[1]/run[1]/data[1]/table[12]'><schema name=\"os-signpost-interval\">")
    let columns = [
        ("start", "Start", "start-time"), ("duration", "Duration", "duration"),
        ("layout-qualifier", "Layout Qualifier", "layout-id"), ("name", "Name", "string"),
        ("category", "Category", "string"), ("subsystem", "Subsystem", "string"),
        ("identifier", "Identifier", "os-signpost-identifier"), ("process", "Process", "process"),
        ("end-process", "End Process", "process"), ("start-thread", "Start Thread", "thread"),
        ("end-thread", "End Thread", "thread"), ("start-message", "Start Message", "os-log-metadata"),
        ("end-message", "End Message", "os-log-metadata"),
    ]
    for (mnemonic, name, type) in columns {
        out.append(
            "<col><mnemonic>\(mnemonic)</mnemonic><name>\(name)</name><engineering-type>\(type)</engineering-type></col>"
        )
    }
    out.append("</schema>\n")
    let threads: [(tid: Int, name: String)] = [
        (4778, "Main Thread"), (4790, "com.example.big.launch-1"), (4791, "com.example.big.launch-2"),
        (4795, "Thread"),
    ]
    var rng = SplitMix64(seed: seed)
    var clock = [Int](repeating: 200_000_000, count: threads.count)
    for (t, _) in threads.enumerated() { clock[t] += t * 1_000 }
    for row in 0..<rows {
        // The thread whose next interval starts first: the rows in start order.
        var t = 0
        for k in 1..<threads.count where clock[k] < clock[t] { t = k }
        let start = clock[t]
        let duration = 5_000 + Int(rng.nextUnit() * 1_995_000)
        clock[t] = start + duration + 1_000 + Int(rng.nextUnit() * 19_000)
        let task = Int(rng.nextUnit() * 4_000)
        let message = task % 10 == 0 ? (rng.nextUnit() < 0.5 ? "cold" : "warm") : nil
        let thread = threads[t]
        out.append("<row>")
        out.append(x.time("start-time", start))
        out.append(x.time("duration", duration))
        out.append(x.value("layout-id", "0", fmt: "0"))
        out.append(x.value("string", "task-\(task)", fmt: "task-\(task)"))
        out.append(x.value("string", "PointsOfInterest", fmt: "PointsOfInterest"))
        out.append(x.value("string", "com.example.big", fmt: "com.example.big"))
        out.append(x.fresh("os-signpost-identifier", String(row + 1), fmt: "0x" + String(row + 1, radix: 16)))
        out.append(x.process())
        out.append(x.process())
        out.append(x.thread(thread.tid, thread.name))
        out.append(x.thread(thread.tid, thread.name))
        if let message {
            out.append(
                x.value(
                    "os-log-metadata", nil, fmt: message, key: "message " + message,
                    inner: { x in x.value("string", message, fmt: message) }))
        } else {
            out.append("<sentinel/>")
        }
        out.append("<sentinel/></row>\n")
        try out.flushIfFull()
    }
    out.append("</node>\n</trace-query-result>\n")
    try out.finish()
    return rows
}

/// The ids of one document: each value's first appearance mints one, later ones refer to it.
private struct ExportValues {
    var next = 1
    var defined: [String: Int] = [:]
    var times: [Int: Int] = [:]
    var durations: [Int: Int] = [:]

    mutating func mint() -> Int {
        defer { next += 1 }
        return next
    }

    /// `<tag id="N" fmt="…">text</tag>` the first time `key` (tag, text and fmt by default) is written, `<tag ref="N"/>` after.
    mutating func value(
        _ tag: String, _ text: String?, fmt: String, key: String? = nil,
        inner: ((inout ExportValues) -> String)? = nil
    ) -> String {
        let key = key ?? "\(tag)\u{1}\(text ?? "")\u{1}\(fmt)"
        if let n = defined[key] { return "<\(tag) ref=\"\(n)\"/>" }
        let n = mint()
        defined[key] = n
        let body = inner.map { $0(&self) } ?? text ?? ""
        return "<\(tag) id=\"\(n)\" fmt=\"\(fmt)\">\(body)</\(tag)>"
    }

    /// A value written once (no later row repeats it).
    mutating func fresh(_ tag: String, _ text: String, fmt: String) -> String {
        "<\(tag) id=\"\(mint())\" fmt=\"\(fmt)\">\(text)</\(tag)>"
    }

    /// A time or duration in ns, with a display string as Instruments writes one (`00:01.234.567`).
    mutating func time(_ tag: String, _ ns: Int) -> String {
        if let n = (tag == "duration" ? durations[ns] : times[ns]) { return "<\(tag) ref=\"\(n)\"/>" }
        let n = mint()
        if tag == "duration" { durations[ns] = n } else { times[ns] = n }
        let micros = ns / 1_000
        let fmt =
            "\(pad(micros / 60_000_000, 2)):\(pad(micros / 1_000_000 % 60, 2)).\(pad(micros / 1_000 % 1_000, 3)).\(pad(micros % 1_000, 3))"
        return "<\(tag) id=\"\(n)\" fmt=\"\(fmt)\">\(ns)</\(tag)>"
    }

    mutating func process() -> String {
        value(
            "process", nil, fmt: "com.example.big (581)", key: "process 581",
            inner: { x in
                x.value("pid", "581", fmt: "581") + x.value("device-session", "TODO", fmt: "TODO")
            })
    }

    mutating func thread(_ tid: Int, _ name: String) -> String {
        let hex = "0x" + String(tid, radix: 16)
        return value(
            "thread", nil, fmt: "\(name) \(hex) (com.example.big, pid: 581)", key: "thread \(tid)",
            inner: { x in x.value("tid", String(tid), fmt: hex) + x.process() })
    }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let digits = String(n)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// A file written in pieces of about 4 MB.
private struct XMLChunks {
    private let file: FileHandle
    private var buffer: [UInt8] = []

    init(path: String) throws {
        file = try newFile(path)
        buffer.reserveCapacity(5 << 20)
    }

    mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    mutating func flushIfFull() throws {
        guard buffer.count > 4 << 20 else { return }
        try file.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws {
        try file.write(contentsOf: buffer)
        try file.close()
    }
}

/// Generates the export, then times `launchflow import EXPORT --out FILE` (best of
/// three) and reports the peak memory against the file size.
func runXctraceBenchmark(_ arguments: [String]) {
    var rows = 1_000_000
    if let i = arguments.firstIndex(of: "--rows"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) {
        rows = n
    }
    if let i = arguments.firstIndex(of: "--write-export"), i + 1 < arguments.count {
        do {
            print("\(try writeBenchmarkExport(to: arguments[i + 1], rows: rows)) rows written to \(arguments[i + 1])")
        } catch {
            print("cannot write the export: \(error)")
        }
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launchflow-xctrace-bench-\(getpid())")
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("signposts.xml").path
        let generation = try seconds { _ = try writeBenchmarkExport(to: export, rows: rows) }
        let size = (try FileManager.default.attributesOfItem(atPath: export)[.size] as? Int) ?? 0
        print(
            "launchflow import benchmark (Instruments export) — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores"
        )
        print(
            String(
                format:
                    "export: os-signpost-interval, %d rows (1 process, 4 threads, 4,000 names), %.1f MB (%.0f MiB), generated in %.1f s",
                rows, Double(size) / 1e6, Double(size) / 1_048_576, generation))
        let imported = try timeImport(export, in: folder, size: size)
        print("\(imported.line); \(imported.scenario.tasks.count) tasks")
        print("target: ≤ 10 s and ≤ 1 GB for 10⁶ rows")
    } catch {
        print("Instruments import benchmark failed: \(error)")
    }
}
