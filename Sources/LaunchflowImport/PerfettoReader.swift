import LaunchflowCore

/// Reads a Perfetto protobuf trace (`.perfetto-trace`, `.pftrace`: Android
/// Studio, Macrobenchmark, `perfetto` on the device) into the slice model,
/// with ``ProtoReader``, our own wire reader. Field numbers are those of
/// Perfetto's `protos/perfetto/trace/` (`trace.proto`, `trace_packet.proto`,
/// `track_event/track_event.proto`, `track_event/track_descriptor.proto`,
/// `interned_data/interned_data.proto`, `ftrace/ftrace_event_bundle.proto`,
/// `ftrace/ftrace_event.proto`, `ftrace/ftrace.proto` (`print`),
/// `ftrace/sched.proto`, `ps/process_tree.proto`, `clock_snapshot.proto`).
///
/// App sections reach a trace in two forms, and both are read:
/// - **TrackEvent** (Perfetto SDK, `androidx.tracing.perfetto`): track
///   descriptors (process and thread tracks, `parent_uuid`),
///   `TYPE_SLICE_BEGIN`/`TYPE_SLICE_END` (and legacy `X` complete events),
///   names and categories inline or interned (`interned_data`, per
///   `trusted_packet_sequence_id`, cleared by `SEQ_INCREMENTAL_STATE_CLEARED`),
///   `trace_packet_defaults`, and flows: `flow_ids` and
///   `terminating_flow_ids` bind to the slice whose event carries them;
/// - **atrace in ftrace** (`Trace.beginSection`): `print` events whose
///   buffer is `B|pid|name`, `E|pid` or `E`, on the writing thread.
///
/// Thread and process names come from track descriptors and `process_tree`;
/// `sched_switch` and `sched_waking` (also the compact form) give each
/// thread's states (``SchedTimeline``). Times are nanoseconds on the boot
/// clock: the default trace clock; other clocks are converted through the
/// trace's clock snapshots.
///
/// - Complexity: O(n) in the file size, plus a sort of each track's events.
enum PerfettoReader {
    /// Whether `bytes` start like a Perfetto trace: a run of `packet` fields
    /// (field 1, length-delimited) whose lengths fit — the first at least, so
    /// that a truncated trace is still recognised (and its reader says where
    /// it breaks).
    static func looksLikePerfetto(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x0A else { return false }
        return bytes.withUnsafeBufferPointer { buffer -> Bool in
            var reader = ProtoReader(base: buffer.baseAddress!, range: 0..<buffer.count)
            var packets = 0
            while packets < 16, !reader.isAtEnd {
                guard let field = try? reader.nextField(), field.number == 1, field.type == .lengthDelimited else {
                    return false
                }
                guard (try? reader.lengthDelimited()) != nil else { return packets > 0 }  // cut off here
                packets += 1
            }
            return true
        }
    }

    /// The trace in `bytes` (already decompressed), or nil after recording
    /// errors in `log`. `what` names the bytes in messages ("", or " of the decompressed trace").
    static func read(
        _ bytes: [UInt8], file: String, decompressed: Bool = false, log: inout ImportLog,
        progress: ((Int) -> Void)? = nil
    ) -> Trace? {
        var state = PerfettoState(file: file, progress: progress)
        do {
            try bytes.withUnsafeBufferPointer { buffer throws(ProtoError) in
                guard let base = buffer.baseAddress else { return }
                try state.readTrace(ProtoReader(base: base, range: 0..<buffer.count), nested: false)
            }
        } catch {
            let place = decompressed ? "byte \(error.offset) of the decompressed trace" : "byte \(error.offset)"
            log.error(
                file,
                "not a valid Perfetto trace: at \(place): \(error.message) (a truncated or corrupt file?); nothing was imported"
            )
            return nil
        }
        return state.finish(log: &log)
    }
}

/// The reader's state while it walks the packets.
struct PerfettoState {
    var trace: Trace
    let progress: ((Int) -> Void)?

    init(file: String, progress: ((Int) -> Void)?) {
        trace = Trace(file: file, format: .perfetto, bytes: [])
        self.progress = progress
    }

    // MARK: Sequences

    /// The incremental state of one `trusted_packet_sequence_id`.
    struct Sequence {
        var names: [UInt64: Int32] = [:]
        var categories: [UInt64: Int32] = [:]
        /// Interned source locations (`function, file`), for Chrome's tasks' `posted_from`.
        var sourceLocations: [UInt64: Int32] = [:]
        var defaultTrack: UInt64?
        var defaultClock: UInt32?
        /// Set up by a packet with `SEQ_INCREMENTAL_STATE_CLEARED`; lost with `previous_packet_dropped`.
        var isValid = false
        /// Legacy: the thread of a `thread_descriptor` packet (events without a track).
        var thread: (pid: Int, tid: Int)?
        /// Legacy `timestamp_delta_us`: the running time in µs.
        var legacyMicros: Int64 = 0
        /// Sequence-scoped clocks (ids 64…127) from this sequence's clock snapshots.
        var clocks: [UInt32: SequenceClock] = [:]
    }

    /// A sequence-scoped clock (ids 64…127), as its latest snapshot relates it
    /// to a global clock: `reference` read `referenceTime` ns when it read `base`.
    struct SequenceClock {
        var base: Int64
        /// The global clock it is related to (6, the boot clock, when the snapshot has it).
        var reference: UInt32
        var referenceTime: Int64
        var multiplier: Int64
        var isIncremental: Bool
        var last: Int64
    }

    var sequences: [UInt32: Sequence] = [:]

    // MARK: What is collected

    /// Where a track's events go.
    enum TrackKey: Hashable {
        case uuid(UInt64)
        /// ftrace `print` events of a thread (tid).
        case ftraceThread(Int)
        /// Legacy events without a track, on the sequence's thread.
        case legacyThread(pid: Int, tid: Int)
        /// Legacy async events (`b`/`e`/`n`, `S`/`F`): their id, category
        /// (with `id_scope`), process (a `local_id`'s; -1 for the others).
        case legacyAsync(id: UInt64, scope: Int32, pid: Int, nestable: Bool)
    }

    struct TrackInfo {
        var parent: UInt64?
        var name: String?
        var pid: Int?
        var tid: Int?
        var isThread = false
        var isProcess = false
        var isCounter = false
        /// `chrome_thread.thread_type` (or the thread descriptor's `chrome_thread_type`): names a thread without a name.
        var chromeThreadType: Int?
    }

    enum Kind: UInt8 {
        case begin, end, complete, instant
    }

    /// A slice event, kept until each track's events are matched.
    struct Event {
        var time: Nanos
        var duration: Nanos
        var slot: Int32
        var name: Int32
        var category: Int32
        var kind: Kind
        /// A global clock (1…63) still to convert to the boot clock, or 0.
        var clock: UInt8
        /// A Chrome task's slice (`task_execution`): the slices around it are the run loop's.
        var isTask = false
        /// The first of this event's ``flowRefs`` (they are contiguous), or -1.
        var flowRef: Int32
        var flowCount: Int32
        var offset: Int
    }

    struct FlowRef {
        var id: UInt64
        var terminating: Bool
        var event: Int32
    }

    var tracks: [UInt64: TrackInfo] = [:]
    var slots: [TrackKey] = []
    var slotIndex: [TrackKey: Int32] = [:]
    var events: [Event] = []
    var flowRefs: [FlowRef] = []
    /// Thread names and pids from `process_tree` and descriptors.
    var threadNames: [Int: String] = [:]
    var threadPIDs: [Int: Int] = [:]
    var processNames: [Int: String] = [:]
    /// `chrome_process.process_type` by pid (browser, renderer, GPU…: names a main thread without a name).
    var chromeProcessTypes: [Int: Int] = [:]
    /// The process of each legacy async track (its first event's), when its key has none.
    var asyncPIDs: [TrackKey: Int] = [:]
    /// Global clocks: offset to the boot clock, from the first snapshot holding both.
    var clockOffsets: [UInt32: Int64] = [:]
    var schedule = SchedTimeline()
    /// Per CPU, the thread that a compact `sched_switch` switched to last (the next one's `prev_pid`).
    var compactRunning: [UInt64: Int32] = [:]

    // What was left out, for the notes.
    var skippedNeedingState = 0
    var skippedUnknownClock = 0
    var eventsWithoutTrack = 0
    var unknownNameIDs = 0
    var counters = 0
    var instants = 0
    var legacyFlows = 0
    var asyncEndsWithoutBegin = 0
    /// A task's name with where it was posted from, by (name, place) (both interned).
    var postedNames: [Int64: Int32] = [:]
    /// Slices holding Chrome tasks (the run loop's own), left out: the tasks are the slices.
    var runLoopWrappers = 0
    var otherPrints: [String: Int] = [:]
    var packetsRead = 0

    mutating func slot(_ key: TrackKey) -> Int32 {
        if let slot = slotIndex[key] { return slot }
        let slot = Int32(slots.count)
        slots.append(key)
        slotIndex[key] = slot
        return slot
    }

    // MARK: Packets

    mutating func readTrace(_ reader: ProtoReader, nested: Bool) throws(ProtoError) {
        var reader = reader
        while let field = try reader.nextField() {
            guard field.number == 1 else {
                try reader.skip(field.type, number: field.number)
                continue
            }
            let packet = try reader.message(field.type, field: 1, of: "Trace")
            try readPacket(packet, nested: nested)
            packetsRead += 1
            if packetsRead & 0xFFFF == 0, !nested, let progress { progress(reader.position) }
        }
    }

    /// One `TracePacket`. Its fields may come in any order: they are located
    /// first, then used in the order their meaning needs (the sequence's
    /// state, then interned data, then the event).
    mutating func readPacket(_ packet: ProtoReader, nested: Bool) throws(ProtoError) {
        let fields = try PacketFields(packet)
        if let compressed = fields.compressed {
            try readCompressed(packet, compressed, nested: nested)
        }
        var sequence = sequences[fields.sequenceID] ?? Sequence()
        defer { sequences[fields.sequenceID] = sequence }
        guard updateState(of: &sequence, fields) else {
            skippedNeedingState += 1
            return
        }
        if let defaults = fields.defaults { try readDefaults(defaults, into: &sequence) }
        if let interned = fields.interned { try readInterned(interned, into: &sequence) }
        if let clockSnapshot = fields.clockSnapshot { try readClockSnapshot(clockSnapshot, into: &sequence) }
        if let threadDescriptor = fields.threadDescriptor {
            try readThreadDescriptor(threadDescriptor, into: &sequence)
        }
        if let descriptor = fields.descriptor { try readTrackDescriptor(descriptor, sequence: &sequence) }
        if let processTree = fields.processTree { try readProcessTree(processTree) }
        if let ftrace = fields.ftrace { try readFtrace(ftrace) }
        if let cpuInfo = fields.cpuInfo { try readCPUInfo(cpuInfo) }
        if let systemInfo = fields.systemInfo { try readSystemInfo(systemInfo) }
        // Every timestamped packet advances an incremental sequence clock, whatever it carries.
        var time: Int64? = nil
        var globalClock: UInt8 = 0
        var timeKnown = true
        if let timestamp = fields.timestamp, fields.clockSnapshot == nil || fields.trackEvent != nil {
            if let converted = packetTime(timestamp, clockID: fields.clockID, sequence: &sequence) {
                (time, globalClock) = converted
            } else {
                timeKnown = false
            }
        }
        if let trackEvent = fields.trackEvent {
            guard timeKnown else {
                skippedUnknownClock += 1
                return
            }
            try readTrackEvent(
                trackEvent, time: time, clock: globalClock, sequence: &sequence, offset: packet.position)
        }
    }

    /// Where a `TracePacket`'s fields are (the nested messages as readers, not yet read).
    struct PacketFields {
        var timestamp: UInt64?
        var clockID: UInt32?
        var sequenceID: UInt32 = 0
        var flags: UInt64 = 0
        var cleared = false
        var dropped = false
        var trackEvent: ProtoReader?
        var interned: ProtoReader?
        var defaults: ProtoReader?
        var descriptor: ProtoReader?
        var processTree: ProtoReader?
        var ftrace: ProtoReader?
        var clockSnapshot: ProtoReader?
        var threadDescriptor: ProtoReader?
        var compressed: Range<Int>?
        var cpuInfo: ProtoReader?
        var systemInfo: ProtoReader?

        @inline(__always)
        init(_ packet: ProtoReader) throws(ProtoError) {
            let what = "TracePacket"
            var reader = packet
            while let (number, type) = try reader.nextField() {
                switch number {
                case 8: timestamp = try reader.unsigned(type, field: 8, of: what)
                case 58: clockID = UInt32(truncatingIfNeeded: try reader.unsigned(type, field: 58, of: what))
                case 10: sequenceID = UInt32(truncatingIfNeeded: try reader.unsigned(type, field: 10, of: what))
                case 13: flags = try reader.unsigned(type, field: 13, of: what)
                case 41: cleared = try reader.unsigned(type, field: 41, of: what) != 0
                case 42: dropped = try reader.unsigned(type, field: 42, of: what) != 0
                case 11: trackEvent = try reader.message(type, field: 11, of: what)
                case 12: interned = try reader.message(type, field: 12, of: what)
                case 59: defaults = try reader.message(type, field: 59, of: what)
                case 60: descriptor = try reader.message(type, field: 60, of: what)
                case 2: processTree = try reader.message(type, field: 2, of: what)
                case 1: ftrace = try reader.message(type, field: 1, of: what)
                case 6: clockSnapshot = try reader.message(type, field: 6, of: what)
                case 44: threadDescriptor = try reader.message(type, field: 44, of: what)
                case 50: compressed = try reader.delimited(type, field: 50, of: what)
                case 67: cpuInfo = try reader.message(type, field: 67, of: what)
                case 45: systemInfo = try reader.message(type, field: 45, of: what)
                default: try reader.skip(type, number: number)
                }
            }
        }
    }

    /// `cpu_info` (`CpuInfo`, protos/perfetto/trace/system_info/cpu_info.proto):
    /// one `cpus` entry (field 1) per CPU of the device.
    mutating func readCPUInfo(_ message: ProtoReader) throws(ProtoError) {
        var reader = message
        var count = 0
        while let (number, type) = try reader.nextField() {
            if number == 1 { count += 1 }
            try reader.skip(type, number: number)
        }
        trace.cpus.record("the CpuInfo packet", count)
    }

    /// `system_info` (`SystemInfo`): `num_cpus` (field 8), when present.
    mutating func readSystemInfo(_ message: ProtoReader) throws(ProtoError) {
        var reader = message
        while let (number, type) = try reader.nextField() {
            if number == 8 {
                let count = try reader.unsigned(type, field: 8, of: "SystemInfo")
                trace.cpus.record("SystemInfo.num_cpus", Int(clamping: count))
            } else {
                try reader.skip(type, number: number)
            }
        }
    }

    /// `compressed_packets`: zlib-inflated, then read as a trace of their own (once: not nested).
    private mutating func readCompressed(_ packet: ProtoReader, _ compressed: Range<Int>, nested: Bool)
        throws(ProtoError)
    {
        guard !nested else {
            throw ProtoError(offset: compressed.lowerBound, "compressed packets inside compressed packets")
        }
        let input = Array(packet.bytes(compressed))
        let inflated: [UInt8]
        do {
            inflated = try Gzip.decompress(input)
        } catch {
            throw ProtoError(
                offset: compressed.lowerBound + error.offset, "compressed_packets cannot be inflated: \(error.message)")
        }
        do {
            try inflated.withUnsafeBufferPointer { buffer throws(ProtoError) in
                guard let base = buffer.baseAddress else { return }
                try readTrace(ProtoReader(base: base, range: 0..<buffer.count), nested: true)
            }
        } catch {
            throw ProtoError(
                offset: compressed.lowerBound,
                "in the compressed packets here, at byte \(error.offset) once inflated: \(error.message)")
        }
    }

    /// The sequence's incremental state after this packet's flags: data lost
    /// invalidates it, a clear resets it. False when the packet needs a state
    /// the sequence does not have (the packet is then skipped).
    @inline(__always)
    private func updateState(of sequence: inout Sequence, _ fields: PacketFields) -> Bool {
        if fields.dropped { sequence.isValid = false }
        if fields.cleared || fields.flags & 1 != 0 {
            sequence.names = [:]
            sequence.categories = [:]
            sequence.sourceLocations = [:]
            sequence.defaultTrack = nil
            sequence.defaultClock = nil
            sequence.isValid = true
        }
        return fields.flags & 2 == 0 || sequence.isValid
    }

    /// The packet's time on the boot clock (or, with the global clock still
    /// to convert at the end, on that clock); nil on a sequence clock that no
    /// snapshot defines.
    @inline(__always)
    private func packetTime(_ timestamp: UInt64, clockID: UInt32?, sequence: inout Sequence) -> (Int64, UInt8)? {
        let clock = clockID ?? sequence.defaultClock ?? 6
        let value = Int64(truncatingIfNeeded: timestamp)
        switch clock {
        case 0, 6: return (value, 0)
        case 64...127:
            guard var sequenceClock = sequence.clocks[clock] else { return nil }
            var reading = value
            if sequenceClock.isIncremental {
                reading = sequenceClock.last &+ value
                sequenceClock.last = reading
                sequence.clocks[clock] = sequenceClock
            }
            let value = sequenceClock.referenceTime &+ (reading &- sequenceClock.base) &* sequenceClock.multiplier
            let reference = sequenceClock.reference
            return (value, reference == 6 || reference == 0 ? 0 : UInt8(truncatingIfNeeded: min(reference, 63)))
        default:
            return (value, UInt8(truncatingIfNeeded: min(clock, 63)))
        }
    }

    mutating func readDefaults(_ message: ProtoReader, into sequence: inout Sequence) throws(ProtoError) {
        var reader = message
        while let (number, type) = try reader.nextField() {
            switch number {
            case 58:
                sequence.defaultClock = UInt32(
                    truncatingIfNeeded: try reader.unsigned(type, field: 58, of: "TracePacketDefaults"))
            case 11:
                var inner = try reader.message(type, field: 11, of: "TracePacketDefaults")
                while let (number, type) = try inner.nextField() {
                    if number == 11 {
                        sequence.defaultTrack = try inner.unsigned(type, field: 11, of: "TrackEventDefaults")
                    } else {
                        try inner.skip(type, number: number)
                    }
                }
            default: try reader.skip(type, number: number)
            }
        }
    }

    mutating func readInterned(_ message: ProtoReader, into sequence: inout Sequence) throws(ProtoError) {
        var reader = message
        while let (number, type) = try reader.nextField() {
            if number == 4 {
                try readSourceLocation(try reader.message(type, field: 4, of: "InternedData"), into: &sequence)
                continue
            }
            guard number == 1 || number == 2 else {
                try reader.skip(type, number: number)
                continue
            }
            let what = number == 1 ? "EventCategory" : "EventName"
            var entry = try reader.message(type, field: number, of: "InternedData")
            var iid: UInt64 = 0
            var name = ""
            while let (field, type) = try entry.nextField() {
                switch field {
                case 1: iid = try entry.unsigned(type, field: 1, of: what)
                case 2: name = try entry.string(type, field: 2, of: what)
                default: try entry.skip(type, number: field)
                }
            }
            let interned = trace.names.intern(name)
            if number == 1 { sequence.categories[iid] = interned } else { sequence.names[iid] = interned }
        }
    }

    /// An interned `SourceLocation`: its function and the last part of its file's path.
    private mutating func readSourceLocation(_ message: ProtoReader, into sequence: inout Sequence) throws(ProtoError) {
        var reader = message
        var iid: UInt64 = 0
        var file = ""
        var function = ""
        while let (field, type) = try reader.nextField() {
            switch field {
            case 1: iid = try reader.unsigned(type, field: 1, of: "SourceLocation")
            case 2: file = try reader.string(type, field: 2, of: "SourceLocation")
            case 3: function = try reader.string(type, field: 3, of: "SourceLocation")
            default: try reader.skip(type, number: field)
            }
        }
        let base = file.split(separator: "/").last.map(String.init) ?? ""
        sequence.sourceLocations[iid] = trace.names.intern(
            [function, base].filter { !$0.isEmpty }.joined(separator: ", "))
    }

    /// A `ClockSnapshot`: the readings of several clocks at one instant. A
    /// sequence-scoped clock (64…127) is related to the boot clock when the
    /// snapshot has it, else to its primary trace clock, else to its first
    /// global clock (Chrome relates its incremental clock to the monotonic
    /// one); a global clock gets its offset to the boot clock.
    mutating func readClockSnapshot(_ message: ProtoReader, into sequence: inout Sequence) throws(ProtoError) {
        var reader = message
        var clocks: [(id: UInt32, time: Int64, incremental: Bool, multiplier: Int64)] = []
        var primary: UInt32?
        while let (number, type) = try reader.nextField() {
            guard number == 1 else {
                if number == 2 {
                    primary = UInt32(truncatingIfNeeded: try reader.unsigned(type, field: 2, of: "ClockSnapshot"))
                } else {
                    try reader.skip(type, number: number)
                }
                continue
            }
            var clock = try reader.message(type, field: 1, of: "ClockSnapshot")
            var entry: (id: UInt32, time: Int64, incremental: Bool, multiplier: Int64) = (0, 0, false, 1)
            while let (field, type) = try clock.nextField() {
                switch field {
                case 1: entry.id = UInt32(truncatingIfNeeded: try clock.unsigned(type, field: 1, of: "Clock"))
                case 2: entry.time = try clock.signed(type, field: 2, of: "Clock")
                case 3: entry.incremental = try clock.unsigned(type, field: 3, of: "Clock") != 0
                case 4: entry.multiplier = max(try clock.signed(type, field: 4, of: "Clock"), 1)
                default: try clock.skip(type, number: field)
                }
            }
            clocks.append(entry)
        }
        let global = clocks.filter { $0.id < 64 || $0.id > 127 }
        guard
            let reference = global.first(where: { $0.id == 6 })
                ?? global.first(where: { primary != nil && $0.id == primary })
                ?? global.first
        else { return }
        let referenceTime = reference.time &* reference.multiplier
        let boot = clocks.first { $0.id == 6 }.map { $0.time &* $0.multiplier }
        for clock in clocks where clock.id != 6 {
            if clock.id >= 64 && clock.id <= 127 {
                sequence.clocks[clock.id] = SequenceClock(
                    base: clock.time, reference: reference.id, referenceTime: referenceTime,
                    multiplier: clock.multiplier, isIncremental: clock.incremental, last: clock.time)
            } else if let boot, clockOffsets[clock.id] == nil {
                clockOffsets[clock.id] = boot &- clock.time &* clock.multiplier
            }
        }
    }

    mutating func readThreadDescriptor(_ message: ProtoReader, into sequence: inout Sequence) throws(ProtoError) {
        let thread = try readThread(message)
        if let pid = thread.pid, let tid = thread.tid {
            sequence.thread = (pid, tid)
            if let micros = thread.referenceMicros { sequence.legacyMicros = micros }
        }
    }

    /// A `ThreadDescriptor`: pid, tid, name, its (legacy) `chrome_thread_type`, and the legacy reference time.
    mutating func readThread(_ message: ProtoReader) throws(ProtoError) -> (
        pid: Int?, tid: Int?, name: String?, referenceMicros: Int64?, chromeType: Int?
    ) {
        var reader = message
        var result: (pid: Int?, tid: Int?, name: String?, referenceMicros: Int64?, chromeType: Int?) = (
            nil, nil, nil, nil, nil
        )
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1:
                result.pid = Int(Int32(truncatingIfNeeded: try reader.signed(type, field: 1, of: "ThreadDescriptor")))
            case 2:
                result.tid = Int(Int32(truncatingIfNeeded: try reader.signed(type, field: 2, of: "ThreadDescriptor")))
            case 5: result.name = try reader.string(type, field: 5, of: "ThreadDescriptor")
            case 6: result.referenceMicros = try reader.signed(type, field: 6, of: "ThreadDescriptor")
            case 4:
                let value = Int(Int32(truncatingIfNeeded: try reader.signed(type, field: 4, of: "ThreadDescriptor")))
                if value != 0 { result.chromeType = value }
            default: try reader.skip(type, number: number)
            }
        }
        if let tid = result.tid {
            if let pid = result.pid { threadPIDs[tid] = pid }
            if let name = result.name, !name.isEmpty { threadNames[tid] = name }
        }
        return result
    }

    /// A `TrackDescriptor`. A thread track described on a sequence (whose
    /// state is valid) also makes that thread the sequence's, for its events
    /// without a track (as `thread_descriptor` does).
    mutating func readTrackDescriptor(_ message: ProtoReader, sequence: inout Sequence) throws(ProtoError) {
        var reader = message
        var uuid: UInt64?
        var info = TrackInfo()
        var chromeProcessType: Int?
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1: uuid = try reader.unsigned(type, field: 1, of: "TrackDescriptor")
            case 5: info.parent = try reader.unsigned(type, field: 5, of: "TrackDescriptor")
            case 2, 10, 13: info.name = try reader.string(type, field: number, of: "TrackDescriptor")
            case 3:
                info.isProcess = true
                var process = try reader.message(type, field: 3, of: "TrackDescriptor")
                var name: String?
                var command: String?
                while let (field, type) = try process.nextField() {
                    switch field {
                    case 1:
                        info.pid = Int(
                            Int32(truncatingIfNeeded: try process.signed(type, field: 1, of: "ProcessDescriptor")))
                    case 2:
                        if command == nil {
                            command = try process.string(type, field: 2, of: "ProcessDescriptor")
                        } else {
                            try process.skip(type, number: field)
                        }
                    case 6: name = try process.string(type, field: 6, of: "ProcessDescriptor")
                    default: try process.skip(type, number: field)
                    }
                }
                if let pid = info.pid, let name = name ?? command, !name.isEmpty { processNames[pid] = name }
            case 4:
                info.isThread = true
                let thread = try readThread(try reader.message(type, field: 4, of: "TrackDescriptor"))
                info.pid = thread.pid
                info.tid = thread.tid
                if info.chromeThreadType == nil { info.chromeThreadType = thread.chromeType }
                if let pid = thread.pid, let tid = thread.tid, sequence.isValid { sequence.thread = (pid, tid) }
            case 6, 7:
                let what = number == 6 ? "ChromeProcessDescriptor" : "ChromeThreadDescriptor"
                var chrome = try reader.message(type, field: number, of: "TrackDescriptor")
                while let (field, type) = try chrome.nextField() {
                    guard field == 1 else {
                        try chrome.skip(type, number: field)
                        continue
                    }
                    let value = Int(Int32(truncatingIfNeeded: try chrome.signed(type, field: 1, of: what)))
                    if number == 6 { chromeProcessType = value } else { info.chromeThreadType = value }
                }
            case 8:
                info.isCounter = true
                try reader.skip(type, number: number)
            default: try reader.skip(type, number: number)
            }
        }
        if let chromeProcessType, let pid = info.pid, info.isProcess { chromeProcessTypes[pid] = chromeProcessType }
        guard let uuid else { return }
        if info.isThread, let tid = info.tid, threadNames[tid] == nil, let name = info.name, !name.isEmpty {
            threadNames[tid] = name
        }
        tracks[uuid] = info
    }

    mutating func readProcessTree(_ message: ProtoReader) throws(ProtoError) {
        var reader = message
        while let (number, type) = try reader.nextField() {
            switch number {
            case 1:
                var process = try reader.message(type, field: 1, of: "ProcessTree")
                var pid: Int?
                var command: String?
                while let (field, type) = try process.nextField() {
                    switch field {
                    case 1: pid = Int(Int32(truncatingIfNeeded: try process.signed(type, field: 1, of: "Process")))
                    case 3:
                        let part = try process.string(type, field: 3, of: "Process")
                        if command == nil { command = part }
                    default: try process.skip(type, number: field)
                    }
                }
                if let pid, let command, !command.isEmpty, processNames[pid] == nil { processNames[pid] = command }
                if let pid { threadPIDs[pid] = pid }
            case 2:
                var thread = try reader.message(type, field: 2, of: "ProcessTree")
                var tid: Int?
                var tgid: Int?
                var name: String?
                while let (field, type) = try thread.nextField() {
                    switch field {
                    case 1: tid = Int(Int32(truncatingIfNeeded: try thread.signed(type, field: 1, of: "Thread")))
                    case 3: tgid = Int(Int32(truncatingIfNeeded: try thread.signed(type, field: 3, of: "Thread")))
                    case 2: name = try thread.string(type, field: 2, of: "Thread")
                    default: try thread.skip(type, number: field)
                    }
                }
                if let tid {
                    if let tgid { threadPIDs[tid] = tgid }
                    if let name, !name.isEmpty { threadNames[tid] = name }
                }
            default: try reader.skip(type, number: number)
            }
        }
    }
}
