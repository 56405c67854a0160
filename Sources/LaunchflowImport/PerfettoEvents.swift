import LaunchflowCore

/// ``PerfettoReader``'s events: TrackEvent slices and flows, ftrace `print`
/// (atrace) sections and scheduler events; then each track's events matched
/// into slices.
extension PerfettoState {
    // MARK: TrackEvent

    /// One TrackEvent: its fields read, then its kind, time, name and track
    /// resolved against the packet and its sequence; a slice event is kept
    /// (and its flow ids), anything else counted for the notes. (The steps
    /// are inlined: this runs once per event of the trace.)
    mutating func readTrackEvent(
        _ message: ProtoReader, time packetTime: Int64?, clock: UInt8, sequence: inout Sequence, offset: Int
    ) throws(ProtoError) {
        let fields = try readTrackEventFields(message)
        guard let kind = Self.sliceKind(type: fields.type, legacyPhase: fields.legacyPhase) else {
            counters += 1  // counters, async and other non-slice types, legacy metadata
            return
        }
        guard let time = eventTime(fields, packetTime: packetTime, sequence: &sequence) else {
            eventsWithoutTrack += 1
            return
        }
        let name = eventName(fields, sequence: sequence)
        let category = fields.category ?? fields.categoryID.flatMap { sequence.categories[$0] }
        guard let key = trackKey(fields, sequence: sequence, category: category ?? 0) else {
            eventsWithoutTrack += 1
            return
        }
        let eventIndex = Int32(truncatingIfNeeded: events.count)
        var flowRef: Int32 = -1
        if !fields.flows.isEmpty || !fields.terminating.isEmpty {
            flowRef = Int32(truncatingIfNeeded: flowRefs.count)
            for id in fields.flows { addFlow(id, terminating: false, event: eventIndex) }
            for id in fields.terminating { addFlow(id, terminating: true, event: eventIndex) }
        }
        events.append(
            Event(
                time: time,
                duration: kind == .complete ? min(max(fields.legacyDuration ?? 0, 0), 1 << 40) * 1000 : 0,
                slot: slot(key), name: name ?? 0, category: category ?? 0, kind: kind, clock: clock,
                isTask: fields.postedFrom != nil,
                flowRef: flowRef,
                flowCount: flowRef < 0 ? 0 : Int32(truncatingIfNeeded: flowRefs.count) - flowRef, offset: offset))
    }

    /// What a TrackEvent says, as read (names given as text are interned at once).
    struct TrackEventFields {
        var type: UInt64 = 0
        var track: UInt64?
        var name: Int32?
        var nameID: UInt64?
        var category: Int32?
        var categoryID: UInt64?
        var flows: [UInt64] = []
        var terminating: [UInt64] = []
        var deltaMicros: Int64?
        var absoluteMicros: Int64?
        var legacyPhase: UInt8?
        var legacyDuration: Int64?
        var legacyNameID: UInt64?
        /// Whether the event sets `type` (an event with a type does not fall back to the sequence's thread).
        var hasType = false
        var pidOverride: Int?
        var tidOverride: Int?
        /// A legacy async event's id (`unscoped_id`, `global_id`, or `local_id`: then scoped to its process).
        var asyncID: UInt64?
        var asyncIDIsLocal = false
        var idScope: String?
        /// `task_execution.posted_from_iid`: where Chrome posted the task this slice runs.
        var postedFrom: UInt64?
    }

    @inline(__always)
    private mutating func readTrackEventFields(_ message: ProtoReader) throws(ProtoError) -> TrackEventFields {
        let what = "TrackEvent"
        var reader = message
        var fields = TrackEventFields()
        while let (number, wire) = try reader.nextField() {
            switch number {
            case 9:
                fields.type = try reader.unsigned(wire, field: 9, of: what)
                fields.hasType = true
            case 11: fields.track = try reader.unsigned(wire, field: 11, of: what)
            case 23: fields.name = trace.names.intern(try reader.string(wire, field: 23, of: what))
            case 10: fields.nameID = try reader.unsigned(wire, field: 10, of: what)
            case 22:
                let text = try reader.string(wire, field: 22, of: what)
                if fields.category == nil { fields.category = trace.names.intern(text) }
            case 3:
                var ids: [UInt64] = []
                try reader.repeatedVarints(wire, field: 3, of: what, into: &ids)
                if fields.categoryID == nil { fields.categoryID = ids.first }
            case 47: try reader.repeatedFixed64(wire, field: 47, of: what, into: &fields.flows)
            case 36: try reader.repeatedVarints(wire, field: 36, of: what, into: &fields.flows)
            case 48: try reader.repeatedFixed64(wire, field: 48, of: what, into: &fields.terminating)
            case 42: try reader.repeatedVarints(wire, field: 42, of: what, into: &fields.terminating)
            case 1: fields.deltaMicros = try reader.signed(wire, field: 1, of: what)
            case 16: fields.absoluteMicros = try reader.signed(wire, field: 16, of: what)
            case 6: try readLegacyEvent(try reader.message(wire, field: 6, of: what), into: &fields)
            case 5:
                var task = try reader.message(wire, field: 5, of: what)
                while let (field, type) = try task.nextField() {
                    if field == 1 {
                        fields.postedFrom = try task.unsigned(type, field: 1, of: "TaskExecution")
                    } else {
                        try task.skip(type, number: field)
                    }
                }
            default: try reader.skip(wire, number: number)
            }
        }
        return fields
    }

    /// A `LegacyEvent`: its name, phase and duration (a v1 flow's `bind_id` is counted, not read).
    @inline(__always)
    private mutating func readLegacyEvent(_ message: ProtoReader, into fields: inout TrackEventFields)
        throws(ProtoError)
    {
        var legacy = message
        while let (field, wire) = try legacy.nextField() {
            switch field {
            case 1: fields.legacyNameID = try legacy.unsigned(wire, field: 1, of: "LegacyEvent")
            case 2:
                fields.legacyPhase = UInt8(truncatingIfNeeded: try legacy.unsigned(wire, field: 2, of: "LegacyEvent"))
            case 3: fields.legacyDuration = try legacy.signed(wire, field: 3, of: "LegacyEvent")
            case 6, 10, 11:
                fields.asyncID = try legacy.unsigned(wire, field: field, of: "LegacyEvent")
                fields.asyncIDIsLocal = field == 10
            case 7: fields.idScope = try legacy.string(wire, field: 7, of: "LegacyEvent")
            case 18:
                fields.pidOverride = Int(
                    Int32(truncatingIfNeeded: try legacy.signed(wire, field: 18, of: "LegacyEvent")))
            case 19:
                fields.tidOverride = Int(
                    Int32(truncatingIfNeeded: try legacy.signed(wire, field: 19, of: "LegacyEvent")))
            case 8:  // bind_id: a legacy (v1) flow, not read
                _ = try legacy.unsigned(wire, field: 8, of: "LegacyEvent")
                legacyFlows += 1
            default: try legacy.skip(wire, number: field)
            }
        }
    }

    /// A slice event's kind from its legacy phase when it has one (as the
    /// trace processor reads it: the phase first), else its type; nil for
    /// anything else. Legacy async phases (`b`/`e`/`n`, `S`/`F`) begin, end
    /// or mark a slice of their own async track (``trackKey(_:sequence:category:)``).
    @inline(__always)
    private static func sliceKind(type: UInt64, legacyPhase: UInt8?) -> Kind? {
        if let legacyPhase, legacyPhase != 0 {
            switch legacyPhase {
            case UInt8(ascii: "B"), UInt8(ascii: "b"), UInt8(ascii: "S"): return .begin
            case UInt8(ascii: "E"), UInt8(ascii: "e"), UInt8(ascii: "F"): return .end
            case UInt8(ascii: "X"): return .complete
            case UInt8(ascii: "I"), UInt8(ascii: "i"), UInt8(ascii: "R"), UInt8(ascii: "n"): return .instant
            default: return nil
            }
        }
        switch type {
        case 1: return .begin
        case 2: return .end
        case 3: return .instant
        default: return nil
        }
    }

    /// The track an event goes on, by the trace processor's rules
    /// (`track_event_parser.cc`, ParseTrackAssociation): the event's
    /// `track_uuid`, else its sequence's default; with neither (or 0), the
    /// sequence's thread (from a `thread_descriptor`, or the thread track
    /// described on the sequence) when the event has no track of its own or
    /// no type, with `pid_override` (the thread then tid -1 of that process)
    /// and `tid_override` applied. A legacy async event (`b`/`e`/`n`, `S`/`F`)
    /// goes on the async track of its id, its category (and `id_scope`) and,
    /// for a `local_id`, its process; nil when the event has no track.
    @inline(__always)
    private mutating func trackKey(_ fields: TrackEventFields, sequence: Sequence, category: Int32) -> TrackKey? {
        var key: TrackKey?
        var pid: Int?
        if let uuid = fields.track ?? sequence.defaultTrack, uuid != 0 {
            key = .uuid(uuid)
        } else if (fields.track == nil || !fields.hasType) && sequence.thread != nil || fields.pidOverride != nil
            || fields.tidOverride != nil && sequence.thread != nil
        {
            var thread = sequence.thread ?? (pid: 0, tid: 0)
            if let override = fields.pidOverride { thread = (override, -1) }
            if let override = fields.tidOverride { thread.tid = override }
            key = .legacyThread(pid: thread.pid, tid: thread.tid)
            pid = thread.pid
        }
        guard let phase = fields.legacyPhase, Self.asyncPhases.contains(phase) else { return key }
        guard let id = fields.asyncID else { return nil }
        if case .uuid(let uuid) = key, let info = tracks[uuid] {
            pid = info.pid ?? info.tid.flatMap { threadPIDs[$0] }
        }
        var scope = category
        if let idScope = fields.idScope { scope = trace.names.intern("\(trace.names[category]):\(idScope)") }
        let nestable = phase == UInt8(ascii: "b") || phase == UInt8(ascii: "e") || phase == UInt8(ascii: "n")
        let async = TrackKey.legacyAsync(
            id: id, scope: scope, pid: fields.asyncIDIsLocal ? (pid ?? 0) : -1, nestable: nestable)
        if asyncPIDs[async] == nil, let pid { asyncPIDs[async] = pid }
        return async
    }

    private static let asyncPhases: Set<UInt8> = [
        UInt8(ascii: "b"), UInt8(ascii: "e"), UInt8(ascii: "n"), UInt8(ascii: "S"), UInt8(ascii: "F"),
    ]

    /// The packet's time, else the legacy µs fields (absolute, or a delta on the sequence's clock).
    @inline(__always)
    private func eventTime(_ fields: TrackEventFields, packetTime: Int64?, sequence: inout Sequence) -> Int64? {
        if let packetTime { return packetTime }
        if let absoluteMicros = fields.absoluteMicros {
            sequence.legacyMicros = absoluteMicros
            return absoluteMicros &* 1000
        }
        if let deltaMicros = fields.deltaMicros {
            sequence.legacyMicros &+= deltaMicros
            return sequence.legacyMicros &* 1000
        }
        return nil
    }

    /// The event's name: given as text, else interned on its sequence (an
    /// unknown iid is named `(name iid N)` and counted); a Chrome task's
    /// (`task_execution`) with where it was posted from: `RunTask (posted
    /// from Notify, simple_watcher.cc)`, so that each posting site is a task of its own.
    @inline(__always)
    private mutating func eventName(_ fields: TrackEventFields, sequence: Sequence) -> Int32? {
        var name = fields.name
        if name == nil, let id = fields.nameID ?? fields.legacyNameID {
            if let known = sequence.names[id] {
                name = known
            } else {
                unknownNameIDs += 1
                name = trace.names.intern("(name iid \(id))")
            }
        }
        guard let name, let posted = fields.postedFrom, let place = sequence.sourceLocations[posted] else {
            return name
        }
        let key = Int64(name) << 32 | Int64(UInt32(bitPattern: place))
        if let known = postedNames[key] { return known }
        let named = trace.names.intern("\(trace.names[name]) (posted from \(trace.names[place]))")
        postedNames[key] = named
        return named
    }

    /// A flow id on an event (its flow is told apart in ``PerfettoState/finish(log:)``, in time order).
    private mutating func addFlow(_ id: UInt64, terminating: Bool, event: Int32) {
        flowRefs.append(FlowRef(id: id, terminating: terminating, event: event))
    }

    // MARK: ftrace

    mutating func readFtrace(_ message: ProtoReader) throws(ProtoError) {
        let what = "FtraceEventBundle"
        var reader = message
        var cpu: UInt64 = 0
        var compact: ProtoReader?
        var bundleEvents: [ProtoReader] = []
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1: cpu = try reader.unsigned(type, field: 1, of: what)
            case 2: bundleEvents.append(try reader.message(type, field: 2, of: what))
            case 4: compact = try reader.message(type, field: 4, of: what)
            default: try reader.skip(type, number: number)
            }
        }
        if !bundleEvents.isEmpty || compact != nil {
            trace.cpus.saw(cpu: Int(clamping: cpu), in: "the ftrace bundles' cpu")
        }
        for event in bundleEvents { try readFtraceEvent(event, cpu: cpu) }
        if let compact { try readCompactSched(compact, cpu: cpu) }
    }

    private mutating func readFtraceEvent(_ message: ProtoReader, cpu: UInt64) throws(ProtoError) {
        let what = "FtraceEvent"
        var reader = message
        var timestamp: Int64 = 0
        var tid = 0
        var print: ProtoReader?
        var sched: ProtoReader?
        var waking: ProtoReader?
        let offset = message.position
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1: timestamp = Int64(truncatingIfNeeded: try reader.unsigned(type, field: 1, of: what))
            case 2: tid = Int(UInt32(truncatingIfNeeded: try reader.unsigned(type, field: 2, of: what)))
            case 3: print = try reader.message(type, field: 3, of: what)
            case 4: sched = try reader.message(type, field: 4, of: what)
            case 17, 20, 114:
                waking = try reader.message(type, field: number, of: what)
            default: try reader.skip(type, number: number)
            }
        }
        if let print {
            var inner = print
            while let (number, type) = try inner.nextField() {
                if number == 2 {
                    let range = try inner.delimited(type, field: 2, of: "PrintFtraceEvent")
                    atrace(inner.bytes(range), tid: tid, time: timestamp, offset: offset)
                } else {
                    try inner.skip(type, number: number)
                }
            }
        }
        if let sched {
            var inner = sched
            var previous: Int32?
            var previousState: Int64 = 0
            var next: Int32?
            while let (number, type) = try inner.nextField() {
                switch number {
                case 2:
                    previous = Int32(truncatingIfNeeded: try inner.signed(type, field: 2, of: "SchedSwitchFtraceEvent"))
                case 4: previousState = try inner.signed(type, field: 4, of: "SchedSwitchFtraceEvent")
                case 6: next = Int32(truncatingIfNeeded: try inner.signed(type, field: 6, of: "SchedSwitchFtraceEvent"))
                default: try inner.skip(type, number: number)
                }
            }
            switchThreads(from: previous, state: previousState, to: next, at: timestamp)
        }
        if let waking {
            var inner = waking
            while let (number, type) = try inner.nextField() {
                if number == 2 {
                    let pid = Int32(truncatingIfNeeded: try inner.signed(type, field: 2, of: "SchedWakingFtraceEvent"))
                    if pid != 0 { schedule.changes.append(.init(time: timestamp, tid: pid, state: .runnable)) }
                } else {
                    try inner.skip(type, number: number)
                }
            }
        }
    }

    /// A `sched_switch`: the previous thread stops (runnable when preempted:
    /// state `R`, or `R+`), the next one runs. The idle task (0) is not a thread.
    private mutating func switchThreads(from previous: Int32?, state: Int64, to next: Int32?, at time: Int64) {
        if let previous, previous != 0 {
            schedule.changes.append(
                .init(time: time, tid: previous, state: state & 0xFF == 0 ? .runnable : .sleeping))
        }
        if let next, next != 0 { schedule.changes.append(.init(time: time, tid: next, state: .running)) }
    }

    /// `FtraceEventBundle.CompactSched`: columns, timestamps as deltas; the
    /// previous thread of a switch is the one the CPU switched to before.
    private mutating func readCompactSched(_ message: ProtoReader, cpu: UInt64) throws(ProtoError) {
        let what = "CompactSched"
        var reader = message
        var switchTimes: [UInt64] = []
        var switchStates: [UInt64] = []
        var switchNext: [UInt64] = []
        var wakingTimes: [UInt64] = []
        var wakingPIDs: [UInt64] = []
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1: try reader.repeatedVarints(type, field: 1, of: what, into: &switchTimes)
            case 2: try reader.repeatedVarints(type, field: 2, of: what, into: &switchStates)
            case 3: try reader.repeatedVarints(type, field: 3, of: what, into: &switchNext)
            case 7: try reader.repeatedVarints(type, field: 7, of: what, into: &wakingTimes)
            case 8: try reader.repeatedVarints(type, field: 8, of: what, into: &wakingPIDs)
            default: try reader.skip(type, number: number)
            }
        }
        var time: UInt64 = 0
        for k in 0..<min(switchTimes.count, switchNext.count) {
            time &+= switchTimes[k]
            let next = Int32(truncatingIfNeeded: switchNext[k])
            let state = k < switchStates.count ? Int64(bitPattern: switchStates[k]) : 0
            switchThreads(
                from: compactRunning[cpu], state: state, to: next, at: Int64(truncatingIfNeeded: time))
            compactRunning[cpu] = next
        }
        time = 0
        for k in 0..<min(wakingTimes.count, wakingPIDs.count) {
            time &+= wakingTimes[k]
            let pid = Int32(truncatingIfNeeded: wakingPIDs[k])
            if pid != 0 {
                schedule.changes.append(.init(time: Int64(truncatingIfNeeded: time), tid: pid, state: .runnable))
            }
        }
    }

    /// An atrace payload written through `trace_marker` (a `print` event):
    /// `B|pid|name` begins a section on thread `tid`, `E|pid` (or `E`) ends
    /// its innermost one; the other kinds (`C` counters, `S`/`F` and `G`/`H`
    /// async sections, `N`/`I` instants, `T`/`U` tracks) are counted and left out.
    private mutating func atrace(_ buffer: UnsafeBufferPointer<UInt8>, tid: Int, time: Int64, offset: Int) {
        var end = buffer.count
        while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0 { end -= 1 }
        guard end >= 1, end == 1 || buffer[1] == UInt8(ascii: "|") else {
            otherPrints["text", default: 0] += 1
            return
        }
        let kind = buffer[0]
        // The pid field, and the name after it.
        var k = 2
        var pid: Int? = nil
        var digits = 0
        var value = 0
        while k < end, buffer[k] >= 48, buffer[k] <= 57, digits < 10 {
            value = value * 10 + Int(buffer[k] - 48)
            digits += 1
            k += 1
        }
        if digits > 0 { pid = value }
        switch kind {
        case UInt8(ascii: "B"):
            guard pid != nil, k < end, buffer[k] == UInt8(ascii: "|") else {
                otherPrints["B without pid", default: 0] += 1
                return
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: buffer[(k + 1)..<end]), as: UTF8.self)
            if let pid, threadPIDs[tid] == nil { threadPIDs[tid] = pid }
            events.append(
                Event(
                    time: time, duration: 0, slot: slot(.ftraceThread(tid)), name: trace.names.intern(name),
                    category: 0, kind: .begin, clock: 0, flowRef: -1, flowCount: 0, offset: offset))
        case UInt8(ascii: "E"):
            events.append(
                Event(
                    time: time, duration: 0, slot: slot(.ftraceThread(tid)), name: 0, category: 0, kind: .end,
                    clock: 0, flowRef: -1, flowCount: 0, offset: offset))
        case UInt8(ascii: "S"), UInt8(ascii: "F"):
            otherPrints[String(UnicodeScalar(kind)), default: 0] += 1
            guard k < end, buffer[k] == UInt8(ascii: "|") else { return }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[(k + 1)..<end]), as: UTF8.self)
            trace.asyncMarkers.note(text, begins: kind == UInt8(ascii: "S"), at: time)
        default:
            otherPrints[String(UnicodeScalar(kind)), default: 0] += 1
        }
    }
}

extension [AsyncMarker] {
    /// An atrace async section's `S` (`name|cookie`) or `F`: Android's launch
    /// markers (`launching: PACKAGE`) are kept, the others are not needed.
    mutating func note(_ text: String, begins: Bool, at time: Nanos) {
        var name = Substring(text)
        if let bar = name.lastIndex(of: "|") { name = name[..<bar] }
        guard name.hasPrefix("launching") else { return }
        if begins {
            append(AsyncMarker(name: String(name), start: time, end: nil))
        } else if let k = lastIndex(where: { $0.name == name && $0.end == nil }) {
            self[k].end = time
        }
    }
}
