import Foundation
import LaunchflowCore

/// The slice model every trace format is read into: processes, threads, the
/// slices on each thread and the flow steps between them. Times are
/// nanoseconds on the trace's own clock.
///
/// Slices are compact values (40 bytes) and names are interned, so that a
/// trace of two million events stays far below the size of its file.
struct Trace {
    enum Format: String, Sendable {
        case chrome = "Chrome trace"
        case atrace = "atrace text"
        case systrace = "systrace HTML"
        case launchflow = "launchflow trace"
        case perfetto = "Perfetto trace"
        case xctrace = "Instruments export"
    }

    var file: String
    var format: Format
    var names = NameTable()
    /// Process names by pid (`process_name` metadata, or the main thread's command in atrace).
    var processNames: [Int: String] = [:]
    var threads: [TraceThread] = []
    var slices: [TraceSlice] = []
    var flows: [FlowStep] = []
    /// Flow identities (`cat`, `name`, `id`) as text, indexed by ``FlowStep/flow``.
    var flowKeys = NameTable()
    /// Problems found while reading; those of one process (pid) count only if
    /// that process turns out to be the app, those without a pid always.
    private(set) var problems: [(pid: Int?, diagnostic: ImportDiagnostic)] = []
    /// Slices the recording cut, summed per thread when reported (``CutSlices``).
    var cutSlices = CutSlices()
    /// Problems beyond ``ImportLog/limit``, by pid.
    private(set) var uncountedProblems: [Int?: [ImportDiagnostic.Severity: Int]] = [:]
    /// launchflow's own traces: the task each `task` slice declares in its
    /// `args`, and the pre-main phase index of each `preMain` slice.
    var declaredTasks: [Int: DeclaredTask] = [:]
    var declaredPhases: [Int: Int] = [:]
    /// (§3.12) launchflow's own traces: each `launchPhase` slice's phase.
    var declaredLaunchPhases: [Int: DeclaredLaunchPhase] = [:]
    /// launchflow's own traces (v2): the arrival time (`atMs`) of each `input` slice.
    var declaredInputs: [Int: Nanos] = [:]
    /// atrace async sections (`S`/`F`), among them Android's `launching: PACKAGE`.
    var asyncMarkers: [AsyncMarker] = []
    /// Slices of async tracks (Perfetto): not on a thread, so not tasks; the app's are listed in a note.
    var asyncSpans: [AsyncSpan] = []
    /// Chrome JSON's `systemTraceEvents`: the atrace text recorded beside the events.
    var systemTraceEvents: String?
    /// `otherData.generator`, and `otherData.scenario` (launchflow's traces).
    var generator: String?
    var scenarioName: String?
    /// `otherData.strategy` (launchflow's traces): the strategy the launch ran
    /// (simulated, or by the runtime; its didFinishLaunching slice's `args.strategy`).
    var declaredStrategy: Strategy?
    /// `otherData.device` (launchflow's traces): the device the launch was simulated on.
    var declaredDevice: Device?
    /// Where each event sits, for messages: computed only when one is needed.
    var lines: LineIndex
    /// Thread states from the kernel's scheduler events (Perfetto `sched_switch`), when the trace has them.
    var schedule: SchedTimeline?
    /// Where ``schedule`` comes from, for notes (nil: the kernel's `sched_switch` events).
    var scheduleSource: String?
    /// Instruments' App Launch phases (`life-cycle-period`), by process then time.
    var lifecycle: [XctracePhase] = []
    /// The process the recording launched (Instruments exports), when the trace says.
    var launchedPID: Int?
    /// What the reader left out, in one line each (notes: nothing is dropped silently).
    var readerNotes: [String] = []
    /// The CPUs the trace records, and those its events ran on.
    var cpus = TraceCPUs()

    init(file: String, format: Format, bytes: [UInt8]) {
        self.file = file
        self.format = format
        self.lines = LineIndex(bytes: bytes)
    }

    private var threadIndex: [ThreadKey: Int32] = [:]

    /// The thread `(pid, tid)`, registered on first use.
    mutating func thread(pid: Int, tid: Int) -> Int32 {
        let key = ThreadKey(pid: pid, tid: tid)
        if let index = threadIndex[key] { return index }
        let index = Int32(threads.count)
        threads.append(TraceThread(pid: pid, tid: tid))
        threadIndex[key] = index
        return index
    }

    mutating func record(pid: Int?, _ diagnostic: ImportDiagnostic) {
        if problems.count < 4 * ImportLog.limit {
            problems.append((pid, diagnostic))
        } else {
            uncountedProblems[pid, default: [:]][diagnostic.severity, default: 0] += 1
        }
    }

    /// Moves the problems of the app (and those of no process) into `log`;
    /// those of other processes are dropped.
    mutating func report(appPID: Int?, into log: inout ImportLog) {
        for (pid, diagnostic) in problems where pid == nil || pid == appPID { log.add(diagnostic) }
        if let appPID { for diagnostic in cutSlices.diagnostics(of: appPID, in: self) { log.add(diagnostic) } }
        cutSlices = CutSlices()
        for (pid, counts) in uncountedProblems where pid == nil || pid == appPID {
            for (severity, count) in counts { log.countDropped(severity, count) }
        }
        problems = []
        uncountedProblems = [:]
    }

    /// `thread 'main' (pid 4100, tid 4100)`.
    func describe(thread index: Int32) -> String {
        let thread = threads[Int(index)]
        let name = thread.name.map { "'\($0)' " } ?? ""
        return "thread \(name)(pid \(thread.pid), tid \(thread.tid))"
    }
}

struct ThreadKey: Hashable {
    var pid: Int
    var tid: Int
}

struct TraceThread {
    var pid: Int
    var tid: Int
    var name: String?
    /// The trace says this is its process's main thread (Instruments' "Main Thread").
    var isMain = false
}

extension Trace {
    /// Where an event is, for messages: `traceEvents[12]` (JSON), the thread (atrace),
    /// the thread and byte offset (Perfetto).
    func position(event: Int32, offset: Int, thread: Int32) -> String {
        switch format {
        case .atrace, .systrace: describe(thread: thread)
        case .perfetto: "\(describe(thread: thread)), the packet at byte \(offset)"
        case .xctrace: "\(describe(thread: thread)), signpost row \(event)"
        case .chrome, .launchflow: "traceEvents[\(event)]"
        }
    }
}

/// One slice: a span of time on one thread.
struct TraceSlice {
    var thread: Int32
    /// Index into ``Trace/names``.
    var name: Int32
    /// Index into ``Trace/names`` (the Chrome `cat`; 0, the empty string, when none).
    var category: Int32
    /// The 0-based index of the event that began it (Chrome), or its 1-based line (atrace).
    var event: Int32
    var start: Nanos
    var end: Nanos
    /// Byte offset of that event in the file (for line numbers in messages).
    var offset: Int

    var duration: Nanos { end - start }
}

/// One step of a flow (Chrome `s`, `t`, `f` events): an arrow between slices.
struct FlowStep {
    enum Phase: UInt8 { case start, step, finish }

    /// Index into ``Trace/flowKeys``.
    var flow: Int32
    var phase: Phase
    /// `f` with `"bp": "e"` binds to the enclosing slice; without it, to the
    /// next slice that begins at or after it. `s` and `t` always enclose.
    var bindsToEnclosingSlice: Bool
    var thread: Int32
    var time: Nanos
    var event: Int32
    var offset: Int
    /// The slice the step belongs to, when the format says (Perfetto's
    /// `flow_ids` are on a slice's event): index into ``Trace/slices``; -1 to bind by time.
    var slice: Int32 = -1
}

/// What a launchflow trace's task slice says about its task (its `args`).
struct DeclaredTask {
    var id: String?
    var dependsOn: [String] = []
    var mainThreadOnly = false
    var firstFrame = false
    var priority = 0
    /// (v2) `latencyMs`, `delayMs` (the delay the strategy applied), `queue`,
    /// `idle`, `anchor`, `group`: absent when the task has none.
    var latency: Nanos? = nil
    var delay: Nanos? = nil
    var queue: String? = nil
    var idle = false
    var anchor = false
    var group: String? = nil
    /// (v2.1) `after` (`"firstFrame"`) and `fullyDrawn`.
    var after: String? = nil
    var fullyDrawn = false
    /// The runtime's traces: the body's thread CPU time (`cpuMs`), its cost under `--cost running`.
    var cpu: Nanos? = nil
    /// (§3.13) The slice's `qos` (absent: `default`, as launchflow writes it).
    var qos: String? = nil
}

/// Interned strings: each distinct string once, numbered in order of first use.
struct NameTable {
    private(set) var strings: [String] = [""]
    private var numbers: [String: Int32] = ["": 0]

    mutating func intern(_ text: String) -> Int32 {
        if let number = numbers[text] { return number }
        let number = Int32(strings.count)
        strings.append(text)
        numbers[text] = number
        return number
    }

    func number(of text: String) -> Int32? { numbers[text] }

    subscript(number: Int32) -> String { strings[Int(number)] }

    var count: Int { strings.count }
}

/// Line numbers of byte offsets, built on first use (one pass over the bytes).
struct LineIndex {
    private let bytes: [UInt8]
    private var starts: [Int]? = nil

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The 1-based line holding byte `offset`.
    mutating func line(of offset: Int) -> Int {
        if starts == nil {
            var found = [0]
            bytes.withUnsafeBufferPointer { buffer in
                for i in 0..<buffer.count where buffer[i] == 0x0A { found.append(i + 1) }
            }
            starts = found
        }
        let starts = starts!
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// Frees the bytes (line numbers already computed stay available).
    mutating func release() {
        if starts != nil { self = LineIndex(bytes: [], starts: starts) }
    }

    private init(bytes: [UInt8], starts: [Int]?) {
        self.bytes = bytes
        self.starts = starts
    }
}

/// `bytes` parsed as JSON, or nil after recording "not valid JSON" with its
/// line and column in `log`.
func parseJSON(_ bytes: [UInt8], file: String, log: inout ImportLog) -> JSONValue? {
    do {
        return try JSONValue.parse(bytes)
    } catch {
        let (line, column) = error.location(in: bytes)
        log.add(
            ImportDiagnostic(
                .error, file: file, line: line, column: column, message: "not valid JSON: \(error.message)"))
        return nil
    }
}

/// Reads `path` (see ``readInputFile(_:what:)``) and parses it as JSON.
func readJSONFile(_ path: String, what: String) throws(ImportError) -> JSONValue {
    let bytes = try readInputFile(path, what: what)
    var log = ImportLog()
    guard let root = parseJSON(bytes, file: path, log: &log) else { throw ImportError(log) }
    return root
}

/// Reads a whole file into bytes, with one copy (no `Data` in between): a
/// 200 MB trace costs 200 MB.
func readInputFile(_ path: String, what: String) throws(ImportError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ImportError(file: path, "no such file" + didYouMean(closestExistingFile(to: path)))
    }
    if isDirectory.boolValue { throw ImportError(file: path, "is a directory, expected \(what)") }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
        throw ImportError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
        throw ImportError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(max(Int(info.st_size), 0))
    let chunkSize = 1 << 20
    let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
    defer { chunk.deallocate() }
    while true {
        let count = Foundation.read(descriptor, chunk, chunkSize)
        if count < 0 {
            if errno == EINTR { continue }
            throw ImportError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        bytes.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
    return bytes
}

/// The device's CPU count as a trace gives it: the records that state it
/// (a fact of the trace, what `device.cpus` is set from) and the CPUs its
/// events were seen on (a lower bound only: an idle CPU leaves no event).
struct TraceCPUs {
    /// Each record of the count, in the reader's order of preference: where it is, and the count.
    var recorded: [(source: String, count: Int)] = []
    /// The highest CPU number an event names, plus one.
    var seen: Int?
    /// Where ``seen`` comes from (for notes).
    var seenSource = ""
    /// Records that are not a count at all, described (each a warning).
    var invalid: [String] = []

    /// The most CPUs a count may name (as `device.cpus` allows).
    static let maximum = 1024

    mutating func record(_ source: String, _ count: Int) { recorded.append((source, count)) }

    mutating func saw(cpu: Int, in source: String) {
        guard cpu >= 0, cpu < Int(Int32.max) else { return }
        if seen == nil { seenSource = source }
        seen = max(seen ?? 0, cpu + 1)
    }

    /// The count `device.cpus` is set to, and where it comes from; nil (with
    /// a warning in `log`) when a record is out of range or the records
    /// disagree, and nil without one when the trace records no count. What
    /// was seen goes in a note.
    func resolved(file: String, log: inout ImportLog) -> (count: Int, source: String)? {
        var valid: [(source: String, count: Int)] = []
        for problem in invalid { log.warning(file, "\(problem): ignored (device.cpus not set from it)") }
        for (source, count) in recorded {
            if count < 1 || count > Self.maximum {
                log.warning(
                    file,
                    "\(source) gives \(count) CPUs, outside 1…\(Self.maximum): ignored (device.cpus not set from it)")
            } else {
                valid.append((source, count))
            }
        }
        let counts = Set(valid.map(\.count))
        if counts.count > 1 {
            let list = valid.map { "\($0.source): \($0.count)" }.joined(separator: ", ")
            log.warning(file, "the trace's CPU counts disagree (\(list)): device.cpus not set; set it in the scenario")
            return nil
        }
        guard let first = valid.first else {
            if let seen {
                log.note(
                    file,
                    "the trace records no CPU count; its events ran on \(plural(seen, "CPU")) (\(seenSource)), a lower bound only: device.cpus not set"
                )
            }
            return nil
        }
        if let seen, seen > first.count {
            log.warning(
                file,
                "\(first.source) gives \(plural(first.count, "CPU")) but events ran on CPU \(seen - 1) (\(seenSource)): device.cpus \(first.count) may be too low"
            )
        }
        return (first.count, first.source)
    }
}

/// (§3.12) A launch phase as launchflow's traces declare it: its position,
/// its own cost (the slice of the `startsIn` phase also spans
/// `didFinishLaunching`), and whether `didFinishLaunching` runs in it.
struct DeclaredLaunchPhase {
    var index: Int
    var cost: Nanos?
    var startsIn: Bool
}
