import LaunchflowCore

/// Reads Chrome Trace Event JSON (the format of chrome://tracing, Perfetto's
/// JSON importer, speedscope, and `launchflow simulate --format trace`) into
/// the slice model, in one streaming pass with ``JSONReader``: no tree of the
/// document is built, so a 200 MB trace costs its bytes plus its slices.
///
/// Understood (Trace Event Format, Google, "JSON Object Format"):
/// - the object form `{"traceEvents": [...], "displayTimeUnit": …, "otherData": {…}}`
///   and the bare array form `[...]`;
/// - `X` complete events (`ts`, `dur`), `B`/`E` pairs per thread (matched in
///   time order, as the trace viewers do; an `E` needs no name);
/// - `M` metadata `process_name` and `thread_name`;
/// - flow events `s`, `t`, `f` (matched by `cat`, `name` and `id` or `id2`;
///   `"bp": "e"` on `f` binds it to the enclosing slice).
///
/// `ts` and `dur` are microseconds, fractional allowed, whatever
/// `displayTimeUnit` says (that key only sets how a viewer displays times).
/// Everything else (instants, counters, async and sample events, `args`,
/// `tts`/`tdur`) is read for syntax only.
///
/// - Complexity: O(n) in the file size, plus O(k log k) for the k `B`/`E`
///   events of a thread when they are not in time order.
enum ChromeTraceReader {
    /// The root looked like a MetricKit payload, not a trace.
    struct LooksLikeMetricKit: Error {}

    /// The trace in `bytes`, or nil after recording errors in `log`.
    ///
    /// - Parameter progress: called now and then with the number of bytes read.
    static func read(
        _ bytes: [UInt8], file: String, log: inout ImportLog, progress: ((Int) -> Void)? = nil
    ) throws(LooksLikeMetricKit) -> Trace? {
        var state = State(trace: Trace(file: file, format: .chrome, bytes: bytes), progress: progress)
        var reader = JSONReader(bytes: bytes)
        do {
            try state.readRoot(&reader)
            try reader.expectEnd()
        } catch let error as JSONSyntaxError {
            let (line, column) = error.location(in: bytes)
            log.add(
                ImportDiagnostic(
                    .error, file: file, line: line, column: column,
                    message: "not valid JSON: \(error.message); nothing was imported"))
            return nil
        } catch is LooksLikeMetricKit {
            throw LooksLikeMetricKit()
        } catch let error as StructureError {
            log.error(file, error.message)
            return nil
        } catch {
            log.error(file, "not valid JSON: \(error)")
            return nil
        }
        state.matchBeginEnd()
        var trace = state.trace
        if trace.generator == "launchflow" { trace.format = .launchflow }
        return trace
    }

    struct StructureError: Error {
        var message: String
    }

    /// An event's members, as read.
    private struct Event {
        var phase: String?
        var name: String?
        var category: String?
        var ts: Double?
        var dur: Double?
        var pid: Int?
        var tid: Int?
        var flowID: String?
        var bindingPoint: String?
        var args = Arguments()
        /// A member with the wrong type: (key, what was found).
        var badMember: (key: String, found: String)?
        var sawMetricKitKey = false
    }

    /// The `args` members import uses: metadata names, launchflow task declarations.
    private struct Arguments {
        var name: String?
        var id: String?
        var dependsOn: [String]?
        var mainThreadOnly: Bool?
        var firstFrame: Bool?
        var priority: Int?
        var phase: Int?
        /// (§3.12) A launch phase's own cost, and whether it runs didFinishLaunching.
        var costMs: Nanos?
        var startsIn: Bool?
        // v2 task keys, and an input's arrival.
        var latencyMs: Nanos?
        var delayMs: Nanos?
        var queue: String?
        var idle: Bool?
        var anchor: Bool?
        var group: String?
        // v2.1 task keys.
        var after: String?
        var fullyDrawn: Bool?
        var atMs: Nanos?
        /// The runtime's traces: the task body's thread CPU time.
        var cpuMs: Nanos?
        /// (§3.13) The task's `qos` (absent: `default`).
        var qos: String?
    }

    /// A `B` or `E` event, kept until the thread's events are matched.
    private struct BeginEnd {
        var thread: Int32
        var name: Int32
        var category: Int32
        var time: Nanos
        var isBegin: Bool
        var event: Int32
        var offset: Int
    }

    private struct State {
        var trace: Trace
        var progress: ((Int) -> Void)?
        var beginEnds: [BeginEnd] = []
        var sawEvents = false

        static let metricKitKeys: Set<String> = [
            "signpostMetrics", "applicationLaunchMetrics", "metaData", "appVersion", "timeStampBegin",
            "timeStampEnd", "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics",
            "diskWriteExceptionDiagnostics", "appLaunchDiagnostics", "callStackTree", "diagnosticMetaData",
        ]
        /// The root object's keys (the first few), for the message when it holds no events.
        var rootKeys: [String] = []

        mutating func readRoot(_ r: inout JSONReader) throws {
            switch try r.peekKind() {
            case .array:
                try readEvents(&r)
            case .object:
                var metricKit = false
                try r.readObject { r, key, _ in
                    switch key {
                    case "traceEvents":
                        guard try r.peekKind() == .array else {
                            throw StructureError(
                                message: "'traceEvents' must be an array of events, found \(try r.peekKind().noun)")
                        }
                        try self.readEvents(&r)
                    case "otherData":
                        guard try r.peekKind() == .object else { return try r.skipValue() }
                        try r.readObject { r, key, _ in
                            if key == "generator", try r.peekKind() == .string {
                                self.trace.generator = try r.readString()
                            } else if key == "scenario", try r.peekKind() == .string {
                                self.trace.scenarioName = try r.readString()
                            } else if key == "strategy", try r.peekKind() == .string {
                                self.trace.declaredStrategy = Strategy(rawValue: try r.readString())
                            } else if key == "device", try r.peekKind() == .object {
                                self.trace.declaredDevice = try Self.readDevice(&r)
                            } else {
                                try r.skipValue()
                            }
                        }
                    case "metadata":
                        // Chrome's own traces: `num-cpus`, the machine's CPU count.
                        guard try r.peekKind() == .object else { return try r.skipValue() }
                        try r.readObject { r, key, _ in
                            guard key == "num-cpus", try r.peekKind() == .number else { return try r.skipValue() }
                            let value = try r.readNumber().value
                            if value == value.rounded(), abs(value) < 1e9 {
                                self.trace.cpus.record("metadata.num-cpus", Int(value))
                            } else {
                                self.trace.cpus.invalid.append(
                                    "metadata.num-cpus is \(formatNumber(value)), not a whole number")
                            }
                        }
                    case "systemTraceEvents":
                        // Chrome's and systrace's JSON: the atrace text of the same recording, as one string.
                        guard try r.peekKind() == .string else { return try r.skipValue() }
                        self.trace.systemTraceEvents = try r.readString()
                    default:
                        if Self.metricKitKeys.contains(key) { metricKit = true }
                        if self.rootKeys.count < 8 { self.rootKeys.append(key) }
                        try r.skipValue()
                    }
                }
                if !sawEvents {
                    if metricKit { throw LooksLikeMetricKit() }
                    if self.trace.systemTraceEvents != nil { return }
                    throw StructureError(message: Self.notATrace(rootKeys))
                }
            case let kind:
                throw StructureError(message: "a Chrome trace is an object or an array, found \(kind.noun)")
            }
        }

        /// The error for a JSON object without events, naming the JSON formats it may be.
        static func notATrace(_ keys: [String]) -> String {
            let set = Set(keys)
            let shown = keys.isEmpty ? "none" : keys.map { "'\($0)'" }.joined(separator: ", ")
            let what: String
            if set.contains("nodes"), set.contains("samples") {
                what = "a V8/Chrome CPU profile (.cpuprofile: sampled stacks, no slices)"
            } else if set.contains("$schema") || set.contains("shared"), set.contains("profiles") {
                what = "a speedscope profile (sampled or evented stacks, not trace events)"
            } else if set.contains("meta"), set.contains("threads") {
                what = "a Firefox profiler profile (samples, not trace events)"
            } else {
                what = "a JSON object with no 'traceEvents' array (its keys: \(shown))"
            }
            return
                "\(what): not a Chrome trace, which is {\"traceEvents\": [...]} or an array of events; nothing to import"
        }

        mutating func readEvents(_ r: inout JSONReader) throws {
            sawEvents = true
            try r.readArray { r, index in
                let offset = r.valueOffset()
                if index & 8191 == 0, let progress = self.progress { progress(offset) }
                guard try r.peekKind() == .object else {
                    let kind = try r.peekKind()
                    self.trace.record(
                        pid: nil,
                        self.diagnostic(
                            .warning, index: index, offset: offset,
                            "an event must be an object, found \(kind.noun); skipped"))
                    return try r.skipValue()
                }
                var event = Event()
                try r.readObject { r, key, _ in try Self.readMember(key, of: &event, &r) }
                if index == 0, event.phase == nil, event.sawMetricKitKey { throw LooksLikeMetricKit() }
                self.handle(event, index: index, offset: offset)
            }
        }

        private static func readMember(_ key: String, of event: inout Event, _ r: inout JSONReader) throws {
            switch key {
            case "ph": event.phase = try string(key, &r, &event)
            case "name": event.name = try string(key, &r, &event)
            case "cat": event.category = try string(key, &r, &event)
            case "ts": event.ts = try number(key, &r, &event)
            case "dur": event.dur = try number(key, &r, &event)
            case "pid": event.pid = try integer(key, &r, &event)
            case "tid": event.tid = try integer(key, &r, &event)
            case "bp": event.bindingPoint = try string(key, &r, &event)
            case "id": event.flowID = try identifier(&r)
            case "id2":
                guard try r.peekKind() == .object else { return try r.skipValue() }
                try r.readObject { r, scope, _ in
                    if let id = try identifier(&r) { event.flowID = "\(scope):\(id)" }
                }
            case "args":
                guard try r.peekKind() == .object else { return try r.skipValue() }
                try r.readObject { r, key, _ in try readArgument(key, of: &event.args, &r) }
            default:
                if metricKitKeys.contains(key) { event.sawMetricKitKey = true }
                try r.skipValue()
            }
        }

        /// `otherData.device` of launchflow's traces: `cores`, `refreshRate`,
        /// `commitCostMs`, `renderTimeMs`; nil unless every one is there and in
        /// the scenario file's ranges (a hand-edited trace keeps the default device).
        private static func readDevice(_ r: inout JSONReader) throws -> Device? {
            var values: [String: Double] = [:]
            try r.readObject { r, key, _ in
                if try r.peekKind() == .number { values[key] = try r.readNumber().value } else { try r.skipValue() }
            }
            guard let cores = values["cores"], cores == cores.rounded(), cores >= 2, cores <= 1024,
                let rate = values["refreshRate"], rate > 0, rate <= 1000,
                let commit = values["commitCostMs"], commit >= 0, commit <= 3_600_000,
                let render = values["renderTimeMs"], render >= 0, render <= 3_600_000
            else { return nil }
            return Device(
                cores: Int(cores), refreshRate: rate, commitCost: microseconds(fromMilliseconds: commit),
                renderTime: microseconds(fromMilliseconds: render))
        }

        private static func readArgument(_ key: String, of args: inout Arguments, _ r: inout JSONReader) throws {
            let kind = try r.peekKind()
            switch (key, kind) {
            case ("name", .string): args.name = try r.readString()
            case ("id", .string): args.id = try r.readString()
            case ("mainThreadOnly", .bool): args.mainThreadOnly = try r.readBool()
            case ("firstFrame", .bool): args.firstFrame = try r.readBool()
            case ("priority", .number):
                let n = try r.readNumber()
                if n.isIntegral, abs(n.value) <= 1e9 { args.priority = Int(n.value) }
            case ("phase", .number):
                let n = try r.readNumber()
                if n.isIntegral, n.value >= 0, n.value <= 1e9 { args.phase = Int(n.value) }
            case ("costMs", .number): args.costMs = try milliseconds(&r)
            case ("startsIn", .bool): args.startsIn = try r.readBool()
            case ("latencyMs", .number): args.latencyMs = try milliseconds(&r)
            case ("delayMs", .number): args.delayMs = try milliseconds(&r)
            case ("atMs", .number): args.atMs = try milliseconds(&r)
            case ("cpuMs", .number): args.cpuMs = try milliseconds(&r)
            case ("queue", .string): args.queue = try r.readString()
            case ("group", .string): args.group = try r.readString()
            case ("qos", .string): args.qos = try r.readString()
            case ("idle", .bool): args.idle = try r.readBool()
            case ("anchor", .bool): args.anchor = try r.readBool()
            case ("after", .string): args.after = try r.readString()
            case ("fullyDrawn", .bool): args.fullyDrawn = try r.readBool()
            case ("dependsOn", .array):
                var ids: [String] = []
                try r.readArray { r, _ in
                    if try r.peekKind() == .string { ids.append(try r.readString()) } else { try r.skipValue() }
                }
                args.dependsOn = ids
            default: try r.skipValue()
            }
        }

        /// A duration or instant in ms (launchflow's args), nil when negative or out of range.
        private static func milliseconds(_ r: inout JSONReader) throws -> Nanos? {
            let value = try r.readNumber().value
            guard value >= 0, let nanos = nanos(fromMilliseconds: value) else { return nil }
            return nanos
        }

        private static func string(_ key: String, _ r: inout JSONReader, _ event: inout Event) throws -> String? {
            let kind = try r.peekKind()
            if kind == .string { return try r.readString() }
            if kind != .null { event.badMember = (key, kind.noun) }
            try r.skipValue()
            return nil
        }

        private static func number(_ key: String, _ r: inout JSONReader, _ event: inout Event) throws -> Double? {
            let kind = try r.peekKind()
            if kind == .number { return try r.readNumber().value }
            if kind == .string, let value = Double(try r.readString()) { return value }
            if kind != .null { event.badMember = (key, kind.noun) }
            if kind != .string { try r.skipValue() }
            return nil
        }

        /// pid and tid: integers, or strings holding one.
        private static func integer(_ key: String, _ r: inout JSONReader, _ event: inout Event) throws -> Int? {
            let kind = try r.peekKind()
            if kind == .number {
                let n = try r.readNumber()
                if n.isIntegral, abs(n.value) < 9e15 { return Int(n.value) }
                event.badMember = (key, "the number \(formatNumber(n.value))")
                return nil
            }
            if kind == .string {
                let text = try r.readString()
                if let value = Int(text) { return value }
                event.badMember = (key, "the string \"\(text)\"")
                return nil
            }
            if kind != .null { event.badMember = (key, kind.noun) }
            try r.skipValue()
            return nil
        }

        /// A flow id as the JSON value it is: `7` and `"7"` are different ids.
        private static func identifier(_ r: inout JSONReader) throws -> String? {
            switch try r.peekKind() {
            case .string: return "\"" + (try r.readString()) + "\""
            case .number: return formatNumber(try r.readNumber().value)
            default:
                try r.skipValue()
                return nil
            }
        }

        // MARK: Events

        private mutating func handle(_ event: Event, index: Int, offset: Int) {
            guard let phase = event.phase, let letter = phase.utf8.first, phase.utf8.count == 1 else {
                if event.phase == nil {
                    report(event, index: index, offset: offset, .warning, "an event without 'ph' is ignored")
                }
                return
            }
            switch letter {
            case UInt8(ascii: "X"), UInt8(ascii: "B"), UInt8(ascii: "E"), UInt8(ascii: "s"), UInt8(ascii: "t"),
                UInt8(ascii: "f"), UInt8(ascii: "M"):
                break
            default: return  // instants, counters, async, samples, objects…
            }
            if let bad = event.badMember {
                report(
                    event, index: index, offset: offset, .error,
                    "'\(bad.key)' must be \(bad.key == "pid" || bad.key == "tid" ? "an integer" : bad.key == "ts" || bad.key == "dur" ? "a number (µs)" : "a string"), found \(bad.found)"
                )
                return
            }
            if letter == UInt8(ascii: "M") {
                guard let pid = event.pid else { return }
                if event.name == "process_name", let name = event.args.name { trace.processNames[pid] = name }
                if event.name == "thread_name", let tid = event.tid, let name = event.args.name {
                    let thread = trace.thread(pid: pid, tid: tid)
                    trace.threads[Int(thread)].name = name
                }
                return
            }
            guard let pid = event.pid, let tid = event.tid else {
                report(
                    event, index: index, offset: offset, .error,
                    "'\(event.pid == nil ? "pid" : "tid")' is missing: every slice and flow event needs a pid and a tid"
                )
                return
            }
            guard let ts = event.ts else {
                report(event, index: index, offset: offset, .error, "'ts' is missing")
                return
            }
            guard let time = nanos(fromMicroseconds: ts) else {
                report(
                    event, index: index, offset: offset, .error,
                    "'ts' is out of range: \(formatNumber(ts)) (expected at most ±\(maximumInputMicrosText) µs)")
                return
            }
            let thread = trace.thread(pid: pid, tid: tid)
            switch letter {
            case UInt8(ascii: "X"):
                guard let dur = event.dur else {
                    cutComplete(event, index: index, offset: offset, thread: thread, ts: ts)
                    return
                }
                guard dur >= 0 else {
                    report(
                        event, index: index, offset: offset, .error,
                        "'dur' is negative (\(formatNumber(dur)) µs): a slice cannot end before it starts")
                    return
                }
                guard let duration = nanos(fromMicroseconds: dur) else {
                    report(
                        event, index: index, offset: offset, .error,
                        "'dur' is out of range: \(formatNumber(dur)) (expected at most \(maximumInputMicrosText) µs)")
                    return
                }
                let name = trace.names.intern(event.name ?? "")
                let category = trace.names.intern(event.category ?? "")
                let sliceIndex = trace.slices.count
                trace.slices.append(
                    TraceSlice(
                        thread: thread, name: name, category: category, event: Int32(truncatingIfNeeded: index),
                        start: time, end: time + duration, offset: offset))
                declare(event, slice: sliceIndex)
            case UInt8(ascii: "B"), UInt8(ascii: "E"):
                beginEnds.append(
                    BeginEnd(
                        thread: thread, name: trace.names.intern(event.name ?? ""),
                        category: trace.names.intern(event.category ?? ""), time: time,
                        isBegin: letter == UInt8(ascii: "B"), event: Int32(truncatingIfNeeded: index), offset: offset))
            default:  // s, t, f
                guard let id = event.flowID else {
                    report(event, index: index, offset: offset, .warning, "a flow event without 'id' is ignored")
                    return
                }
                let key = trace.flowKeys.intern("\(event.category ?? "")\u{0}\(event.name ?? "")\u{0}\(id)")
                let flowPhase: FlowStep.Phase =
                    letter == UInt8(ascii: "s") ? .start : letter == UInt8(ascii: "t") ? .step : .finish
                trace.flows.append(
                    FlowStep(
                        flow: key, phase: flowPhase,
                        bindsToEnclosingSlice: flowPhase != .finish || event.bindingPoint == "e",
                        thread: thread, time: time, event: Int32(truncatingIfNeeded: index), offset: offset))
            }
        }

        /// launchflow's own traces declare each task in its slice's `args`.
        private mutating func declare(_ event: Event, slice: Int) {
            let args = event.args
            if event.category == "task", let id = args.id {
                trace.declaredTasks[slice] = DeclaredTask(
                    id: id, dependsOn: args.dependsOn ?? [], mainThreadOnly: args.mainThreadOnly ?? false,
                    firstFrame: args.firstFrame ?? false, priority: args.priority ?? 0, latency: args.latencyMs,
                    delay: args.delayMs, queue: args.queue, idle: args.idle ?? false, anchor: args.anchor ?? false,
                    group: args.group, after: args.after, fullyDrawn: args.fullyDrawn ?? false, cpu: args.cpuMs,
                    qos: args.qos)
            } else if event.category == "preMain", let phase = args.phase {
                trace.declaredPhases[slice] = phase
            } else if event.category == "launchPhase", let phase = args.phase {
                trace.declaredLaunchPhases[slice] = DeclaredLaunchPhase(
                    index: phase, cost: args.costMs, startsIn: args.startsIn ?? false)
            } else if event.category == "input", let at = args.atMs {
                trace.declaredInputs[slice] = at
            }
        }

        private mutating func report(
            _ event: Event, index: Int, offset: Int, _ severity: ImportDiagnostic.Severity, _ message: String
        ) {
            var location = "traceEvents[\(index)]"
            var details: [String] = []
            if let phase = event.phase { details.append("ph '\(phase)'") }
            if let name = event.name, !name.isEmpty { details.append("name '\(name)'") }
            if let pid = event.pid { details.append("pid \(pid)") }
            if let tid = event.tid { details.append("tid \(tid)") }
            if let ts = event.ts { details.append("ts \(formatNumber(ts))") }
            if !details.isEmpty { location += " (" + details.joined(separator: ", ") + ")" }
            let diagnostic = ImportDiagnostic(
                severity, file: trace.file, line: trace.lines.line(of: offset), location: location, message: message)
            trace.record(pid: event.pid, diagnostic)
        }

        /// An `X` without `dur`: a slice the recording cut (``CutSlices``).
        private mutating func cutComplete(_ event: Event, index: Int, offset: Int, thread: Int32, ts: Double) {
            let owner = trace.threads[Int(thread)]
            var cut = diagnostic(
                .warning, index: index, offset: offset,
                "an 'X' event without 'dur': a slice the recording cut (still running when it stopped?); not imported")
            let name = event.name.flatMap { $0.isEmpty ? nil : ", name '\($0)'" } ?? ""
            cut.location =
                "traceEvents[\(index)] (ph 'X'\(name), pid \(owner.pid), tid \(owner.tid), ts \(formatNumber(ts)))"
            trace.cutSlices.record(thread: thread, neverEnds: event.name, isEnd: false, cut)
        }

        private mutating func diagnostic(
            _ severity: ImportDiagnostic.Severity, index: Int, offset: Int, _ message: String
        ) -> ImportDiagnostic {
            ImportDiagnostic(
                severity, file: trace.file, line: trace.lines.line(of: offset), location: "traceEvents[\(index)]",
                message: message)
        }

        // MARK: B/E matching

        /// Turns the `B`/`E` events of each thread into slices, in time order
        /// whatever the file's (the format does not require events to be
        /// sorted): each `E` closes the innermost open `B`. At one instant, the
        /// `E` events close the slices open before it, then the `B` events
        /// open theirs (in file order: the format reads events of one instant
        /// in file order), except the `E` of a zero-length slice
        /// of that instant: an `E` that names a `B` of the instant (and not
        /// the innermost open slice), or an unnamed `E` right after its `B` in
        /// the file (or with nothing else open) closes that `B`. Of slices
        /// that began at one instant, a named `E` closes the one it names.
        mutating func matchBeginEnd() {
            guard !beginEnds.isEmpty else { return }
            var byThread = [[Int32]](repeating: [], count: trace.threads.count)
            for (k, event) in beginEnds.enumerated() { byThread[Int(event.thread)].append(Int32(k)) }
            let events = beginEnds
            for var list in byThread where !list.isEmpty {
                // Unnamed `E` events right after a `B` of the same instant on this thread, in the file.
                var afterItsBegin: [Int32: Int32] = [:]
                for (a, b) in zip(list, list.dropFirst()) {
                    let x = events[Int(a)]
                    let y = events[Int(b)]
                    if x.isBegin, !y.isBegin, y.name == 0, x.time == y.time { afterItsBegin[b] = a }
                }
                let sorted = zip(list, list.dropFirst()).allSatisfy { events[Int($0)].time <= events[Int($1)].time }
                if !sorted {
                    list.sort { (events[Int($0)].time, $0) < (events[Int($1)].time, $1) }
                }
                var open: [Int32] = []
                var i = 0
                while i < list.count {
                    let time = events[Int(list[i])].time
                    var j = i + 1
                    while j < list.count, events[Int(list[j])].time == time { j += 1 }
                    let instant = list[i..<j]
                    i = j
                    let begins = instant.filter { events[Int($0)].isBegin }
                    var zeroLength: [Int32] = []
                    for k in instant where !events[Int(k)].isBegin {
                        let event = events[Int(k)]
                        let top = open.last.map { events[Int($0)] }
                        let closesABeginHere =
                            event.name != 0
                            ? top?.name != event.name && begins.contains { events[Int($0)].name == event.name }
                            : afterItsBegin[k] != nil || (top == nil && !begins.isEmpty)
                        if closesABeginHere {
                            zeroLength.append(k)
                            continue
                        }
                        // Of slices that began at one instant (their order there is the file's),
                        // a named `E` closes the one it names.
                        var index = open.indices.last
                        if event.name != 0, let top = index, events[Int(open[top])].name != event.name {
                            let began = events[Int(open[top])].time
                            var m = top
                            while m > 0, events[Int(open[m - 1])].time == began {
                                m -= 1
                                if events[Int(open[m])].name == event.name {
                                    index = m
                                    break
                                }
                            }
                        }
                        close(k, with: index.map { open.remove(at: $0) }, events)
                    }
                    open += begins
                    for k in zeroLength {
                        let event = events[Int(k)]
                        let here = open.indices.filter { events[Int(open[$0])].time == time }
                        let match =
                            event.name != 0
                            ? here.last { events[Int(open[$0])].name == event.name }
                            : here.last { open[$0] == afterItsBegin[k] } ?? here.last
                        close(k, with: match.map { open.remove(at: $0) }, events)
                    }
                }
                for b in open {
                    unbalanced(
                        events[Int(b)], cut: .neverEnds,
                        "this 'B' event never ends on \(trace.describe(thread: events[Int(b)].thread)): a slice the recording cut (still running when it stopped?); not imported"
                    )
                }
            }
            beginEnds = []
        }

        /// The slice from `begin` to the `E` event `k` (an error when there is no `begin`).
        private mutating func close(_ k: Int32, with begin: Int32?, _ events: [BeginEnd]) {
            let event = events[Int(k)]
            guard let b = begin else {
                unbalanced(
                    event, cut: .endOnly,
                    "an 'E' event with no open 'B' on \(trace.describe(thread: event.thread)): a slice the recording cut (begun before it started?); not imported"
                )
                return
            }
            let begin = events[Int(b)]
            if event.name != 0, event.name != begin.name {
                unbalanced(
                    event,
                    "this 'E' names '\(trace.names[event.name])' but closes '\(trace.names[begin.name])' (traceEvents[\(begin.event)]) on \(trace.describe(thread: event.thread))",
                    severity: .warning)
            }
            trace.slices.append(
                TraceSlice(
                    thread: begin.thread, name: begin.name, category: begin.category, event: begin.event,
                    start: begin.time, end: event.time, offset: begin.offset))
        }

        /// A `B`/`E` event without its other half (a slice the recording cut: a warning), or
        /// an `E` that names another slice (a warning too).
        enum Cut { case neverEnds, endOnly }

        private mutating func unbalanced(
            _ event: BeginEnd, cut: Cut? = nil, _ message: String, severity: ImportDiagnostic.Severity = .warning
        ) {
            let thread = trace.threads[Int(event.thread)]
            var details = ["ph '\(event.isBegin ? "B" : "E")'"]
            if event.name != 0 { details.append("name '\(trace.names[event.name])'") }
            details += ["pid \(thread.pid)", "tid \(thread.tid)", "ts \(formatMicros(nanos: event.time))"]
            let diagnostic = ImportDiagnostic(
                severity, file: trace.file, line: trace.lines.line(of: event.offset),
                location: "traceEvents[\(event.event)] (\(details.joined(separator: ", ")))", message: message)
            if let cut {
                trace.cutSlices.record(
                    thread: event.thread, neverEnds: event.name != 0 ? trace.names[event.name] : nil,
                    isEnd: cut == .endOnly, diagnostic)
            } else {
                trace.record(pid: thread.pid, diagnostic)
            }
        }
    }
}
