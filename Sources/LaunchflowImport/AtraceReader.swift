import LaunchflowCore

/// Reads Android atrace/systrace text (the ftrace text format) into the slice
/// model: the `tracing_mark_write` events that `Trace.beginSection` /
/// `endSection` (and `android.os.Trace`, `androidx.tracing`, ATrace) write.
///
/// A line (Linux `Documentation/trace/ftrace.rst`, "Output format"):
///
///     TASK-PID (TGID) [CPU] FLAGS  TIMESTAMP: tracing_mark_write: PAYLOAD
///
/// where `(TGID)` and `FLAGS` may be absent, TGID may be `(-----)`, TASK may
/// hold spaces or be `<...>`, and TIMESTAMP is seconds with up to 9 decimals.
/// Payloads (catapult `linux_perf/android_parser.js`): `B|pid|name` begins a
/// section on the writing thread, `E|pid` (or a bare `E`) ends its innermost
/// open section; `C|…` counters and `S|`/`F|` async sections are skipped, as
/// are all other events (`sched_switch`, …) and `#` comment lines.
///
/// A thread's process is its TGID, or the pid its `B|pid|…` payloads name.
/// A thread's name is its TASK (not `<...>`); the name of a process is that of
/// its thread whose tid equals the pid.
///
/// - Complexity: O(n) in the file size.
enum AtraceReader {
    /// Whether `bytes` look like atrace text (a `# tracer:` header or a `tracing_mark_write` event).
    static func looksLikeAtrace(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(1 << 16)
        return contains(head, "# tracer:") || contains(bytes.prefix(4 << 20), ": tracing_mark_write: ")
    }

    /// The event name of `trace_marker` writes: `tracing_mark_write`, or `0`
    /// in captures of old kernels (`… 50260.929925: 0: B|124|name`).
    static let markers = [Array(": tracing_mark_write: ".utf8), Array(": 0: ".utf8)]

    private struct Record {
        var tid: Int
        var task: String?
        var time: Nanos
        var begin: Bool
        var name: String
        var line: Int
        var offset: Int
    }

    /// The trace in `bytes`, or nil after recording errors in `log`: the
    /// lines' sections, then each `E` matched with the `B` it closes.
    static func read(
        _ bytes: [UInt8], file: String, log: inout ImportLog, progress: ((Int) -> Void)? = nil,
        container: Trace.Format = .atrace
    ) -> Trace? {
        let lines = scan(bytes, file: file, log: &log, progress: progress)
        if lines.records.isEmpty {
            let others = lines.otherMarks.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            log.error(
                file,
                "\(container == .systrace ? "systrace HTML" : "atrace text") without tracing_mark_write B/E sections\(others.isEmpty ? "" : " (only \(others.joined(separator: ", ")): counters, async sections or other marks)"): nothing to import (is tracing of the app's category ('-a PACKAGE' or 'app') on?)"
            )
            return nil
        }
        var trace = Trace(file: file, format: .atrace, bytes: bytes)
        var threads = Threads(lines)
        for (tid, task) in lines.taskOf where lines.pidOf[tid] == tid { trace.processNames[tid] = task }
        trace.cpus = lines.cpus
        trace.asyncMarkers = lines.markers
        matchSections(lines, threads: &threads, into: &trace)
        for record in lines.records where record.begin { _ = threads.index(record.tid, in: &trace) }
        return trace
    }

    /// What the `tracing_mark_write` lines say: their `B` and `E` records in
    /// file order, and each thread's process and task name.
    private struct Lines {
        var records: [Record] = []
        var pidOf: [Int: Int] = [:]
        /// Tids whose pid came from the TGID column (a payload's pid does not override it).
        var columnPID: Set<Int> = []
        var taskOf: [Int: String] = [:]
        /// Async sections (Android's `launching: PACKAGE`).
        var markers: [AsyncMarker] = []
        /// Marks other than B and E, by kind (for the message when there are no sections).
        var otherMarks: [String: Int] = [:]
        /// The header's `#P:N` (ftrace's online CPUs), and the CPU column's highest number.
        var cpus = TraceCPUs()

        /// One line's header and payload (`B|pid|name`, `E|pid`, `C|…`, …).
        mutating func add(_ header: Header, payload: String, line: Int, offset: Int) {
            let fields = payload.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard let kind = fields.first else { return }
            let payloadPID = fields.count > 1 ? Int(fields[1]) : nil
            if let tgid = header.tgid {
                pidOf[header.tid] = tgid
                columnPID.insert(header.tid)
            } else if let payloadPID, !columnPID.contains(header.tid) {
                if kind == "B" || pidOf[header.tid] == nil { pidOf[header.tid] = payloadPID }
            }
            if let task = header.task { taskOf[header.tid] = task }
            if let cpu = header.cpu { cpus.saw(cpu: cpu, in: "the [CPU] column of the tracing_mark_write lines") }
            guard kind == "B" || kind == "E" else {  // C counters, S/F async sections, others
                otherMarks[String(kind.prefix(8)), default: 0] += 1
                if kind == "S" || kind == "F", fields.count > 2 {
                    markers.note(String(fields[2]), begins: kind == "S", at: header.time)
                }
                return
            }
            records.append(
                Record(
                    tid: header.tid, task: header.task, time: header.time, begin: kind == "B",
                    name: kind == "B" && fields.count > 2 ? String(fields[2]) : "", line: line, offset: offset))
        }
    }

    /// Every `tracing_mark_write` line of `bytes`; a line whose header cannot
    /// be read is skipped with a warning.
    private static func scan(
        _ bytes: [UInt8], file: String, log: inout ImportLog, progress: ((Int) -> Void)?
    ) -> Lines {
        var lines = Lines()
        var lineNumber = 0
        var start = 0
        let n = bytes.count
        while start < n {
            lineNumber += 1
            var end = start
            while end < n, bytes[end] != 0x0A { end += 1 }
            defer { start = end + 1 }
            if lineNumber & 65535 == 0, let progress { progress(start) }
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd > start, bytes[start] == UInt8(ascii: "#") {
                // `# entries-in-buffer/entries-written: 12/12   #P:8`: the CPUs ftrace had online.
                if let mark = firstIndex(of: Array("#P:".utf8), in: bytes[(start + 1)..<lineEnd]) {
                    var digitsEnd = mark + 3
                    while digitsEnd < lineEnd, isDigit(bytes[digitsEnd]) { digitsEnd += 1 }
                    if let count = Int(String(decoding: bytes[(mark + 3)..<digitsEnd], as: UTF8.self)),
                        !lines.cpus.recorded.contains(where: { $0.count == count })
                    {
                        lines.cpus.record("the header's #P:", count)
                    }
                }
                continue
            }
            guard
                let (markerStart, marker) = markers.lazy.compactMap({ marker in
                    firstIndex(of: marker, in: bytes[start..<lineEnd]).map { ($0, marker) }
                }).first
            else { continue }
            guard let header = parseHeader(bytes[start..<markerStart]) else {
                log.warning(
                    file, "cannot read the task, tid and time of this tracing_mark_write line; skipped",
                    line: lineNumber)
                continue
            }
            let payload = String(decoding: bytes[(markerStart + marker.count)..<lineEnd], as: UTF8.self)
            lines.add(header, payload: payload, line: lineNumber, offset: start)
        }
        return lines
    }

    /// The trace's thread of each tid, made on first use with its process and name.
    private struct Threads {
        let lines: Lines
        var indexOf: [Int: Int32] = [:]

        init(_ lines: Lines) { self.lines = lines }

        mutating func index(_ tid: Int, in trace: inout Trace) -> Int32 {
            if let thread = indexOf[tid] { return thread }
            let thread = trace.thread(pid: lines.pidOf[tid] ?? tid, tid: tid)
            trace.threads[Int(thread)].name = lines.taskOf[tid]
            indexOf[tid] = thread
            return thread
        }
    }

    /// Sections: each `E` closes the innermost open `B` of its thread, in
    /// file (time) order; an `E` with nothing open, and a `B` never closed,
    /// are sections the capture cut (warnings: not imported).
    private static func matchSections(_ lines: Lines, threads: inout Threads, into trace: inout Trace) {
        let file = trace.file
        var open: [Int: [Record]] = [:]
        for record in lines.records {
            if record.begin {
                open[record.tid, default: []].append(record)
                continue
            }
            let threadIndex = threads.index(record.tid, in: &trace)
            guard let begin = open[record.tid]?.popLast() else {
                trace.record(
                    pid: lines.pidOf[record.tid] ?? record.tid,
                    ImportDiagnostic(
                        .warning, file: file, line: record.line, location: location(record, trace, threadIndex),
                        message:
                            "an 'E' with no open 'B' on this thread: a section the capture cut (begun before it started); not imported"
                    ))
                continue
            }
            trace.slices.append(
                TraceSlice(
                    thread: threadIndex, name: trace.names.intern(begin.name), category: 0,
                    event: Int32(truncatingIfNeeded: begin.line), start: begin.time, end: record.time,
                    offset: begin.offset))
        }
        for (tid, list) in open.sorted(by: { $0.key < $1.key }) {
            for begin in list {
                let threadIndex = threads.index(tid, in: &trace)
                trace.cutSlices.record(
                    thread: threadIndex, neverEnds: begin.name, isEnd: false,
                    ImportDiagnostic(
                        .warning, file: file, line: begin.line, location: location(begin, trace, threadIndex),
                        message:
                            "'B|…|\(begin.name)' never ends on this thread: a section the capture cut (still running when it stopped); not imported"
                    ))
            }
        }
    }

    private static func location(_ record: Record, _ trace: Trace, _ thread: Int32) -> String {
        "\(trace.describe(thread: thread)) at \(formatSeconds(record.time)) s"
    }

    /// `2841.300512` for 2_841_300_512_000 ns.
    static func formatSeconds(_ time: Nanos) -> String {
        let micros = time / 1000
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    // MARK: Line parsing

    private struct Header {
        var task: String?
        var tid: Int
        var tgid: Int?
        var time: Nanos
        var cpu: Int?
    }

    /// Parses `  TASK-PID (TGID) [CPU] FLAGS  TIMESTAMP` (the part before `: tracing_mark_write`).
    private static func parseHeader(_ head: ArraySlice<UInt8>) -> Header? {
        var end = head.endIndex
        // TIMESTAMP: the last token.
        var tokenStart = end
        while tokenStart > head.startIndex, head[tokenStart - 1] != 0x20 { tokenStart -= 1 }
        guard let time = parseSeconds(head[tokenStart..<end]) else { return nil }
        end = tokenStart
        // [CPU]: the last "[digits]" before it.
        var bracket: Int? = nil
        var k = end - 1
        while k > head.startIndex {
            if head[k] == UInt8(ascii: "]") {
                var j = k - 1
                while j > head.startIndex, isDigit(head[j]) { j -= 1 }
                if head[j] == UInt8(ascii: "["), j < k - 1 {
                    bracket = j
                    break
                }
            }
            k -= 1
        }
        guard let cpu = bracket else { return nil }
        let cpuNumber = Int(String(decoding: head[(cpu + 1)..<k], as: UTF8.self))
        end = cpu
        while end > head.startIndex, head[end - 1] == 0x20 { end -= 1 }
        // (TGID)
        var tgid: Int? = nil
        if end > head.startIndex, head[end - 1] == UInt8(ascii: ")") {
            var open = end - 1
            while open > head.startIndex, head[open] != UInt8(ascii: "(") { open -= 1 }
            guard head[open] == UInt8(ascii: "(") else { return nil }
            let inside = String(decoding: head[(open + 1)..<(end - 1)], as: UTF8.self).trimmingSpaces
            tgid = Int(inside)  // nil for "-----"
            end = open
            while end > head.startIndex, head[end - 1] == 0x20 { end -= 1 }
        }
        // TASK-PID
        var begin = head.startIndex
        while begin < end, head[begin] == 0x20 { begin += 1 }
        guard let dash = head[begin..<end].lastIndex(of: UInt8(ascii: "-")),
            let tid = Int(String(decoding: head[(dash + 1)..<end], as: UTF8.self))
        else { return nil }
        let task = String(decoding: head[begin..<dash], as: UTF8.self)
        return Header(
            task: task == "<...>" || task.isEmpty ? nil : task, tid: tid, tgid: tgid, time: time, cpu: cpuNumber)
    }

    /// `2841.300512` (seconds, up to 9 decimals) → nanoseconds, exactly.
    private static func parseSeconds(_ text: ArraySlice<UInt8>) -> Nanos? {
        var seconds: Int64 = 0
        var fraction: Int64 = 0
        var digits = 0
        var inFraction = false
        var any = false
        for byte in text {
            if byte == UInt8(ascii: ".") {
                if inFraction { return nil }
                inFraction = true
                continue
            }
            guard isDigit(byte) else { return nil }
            any = true
            let digit = Int64(byte - 48)
            if inFraction {
                if digits < 9 {
                    fraction = fraction * 10 + digit
                    digits += 1
                }
            } else {
                // At most 3,999,999,999 s: ``maximumInputNanos``.
                guard seconds < 400_000_000 else { return nil }
                seconds = seconds * 10 + digit
            }
        }
        guard any else { return nil }
        while digits < 9 {
            fraction *= 10
            digits += 1
        }
        return seconds * 1_000_000_000 + fraction
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        firstIndex(of: Array(text.utf8), in: bytes) != nil
    }

    /// The start of the first occurrence of `pattern` in `bytes`.
    static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var i = bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count, bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i }
            }
            i += 1
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
