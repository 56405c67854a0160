import LaunchflowCore

/// The end of ``PerfettoReader``: tracks resolved to threads, each track's
/// events matched into slices, flow ids bound to those slices, and a note for
/// everything left out.
extension PerfettoState {
    /// Where a track's slices go: a thread of the trace, or nowhere (and why).
    enum Resolved {
        case thread(Int32)
        /// An async track (not on a thread): its slices are async spans (``AsyncSpan``), not tasks.
        case async(name: String?, pid: Int?)
        case unknownTrack
        case counter
    }

    mutating func finish(log: inout ImportLog) -> Trace? {
        let unconverted = convertGlobalClocks()
        for (pid, name) in processNames { trace.processNames[pid] = name }
        let resolved = resolveTracks()
        let matched = matchTracks(resolved)
        bindFlows(resolved, sliceOfRef: matched.sliceOfRef)
        events = []
        if !schedule.changes.isEmpty {
            schedule.prepare()
            trace.schedule = schedule
        }
        notes(
            droppedEvents: matched.dropped, counterEvents: matched.counters, unconverted: unconverted,
            outOfRange: matched.outOfRange)
        return trace
    }

    /// Global clocks other than the boot clock, through the clock snapshots;
    /// returns how many events no snapshot relates to the boot clock.
    private mutating func convertGlobalClocks() -> Int {
        var unconverted = 0
        for k in events.indices where events[k].clock != 0 {
            if let offset = clockOffsets[UInt32(events[k].clock)] {
                events[k].time &+= offset
            } else {
                unconverted += 1
            }
        }
        return unconverted
    }

    /// Tracks → threads, slot by slot; the tracks not on a thread (async
    /// tracks: described without a thread, children of a process or thread
    /// track, legacy async ids) → async tracks, in the process they (or
    /// their nearest ancestor) belong to.
    private mutating func resolveTracks() -> [Resolved] {
        var resolved: [Resolved] = []
        resolved.reserveCapacity(slots.count)
        for key in slots {
            switch key {
            case .ftraceThread(let tid): resolved.append(.thread(thread(pid: threadPIDs[tid] ?? tid, tid: tid)))
            case .legacyThread(let pid, let tid): resolved.append(.thread(thread(pid: pid, tid: tid)))
            case .legacyAsync(_, _, let pid, _):
                resolved.append(.async(name: nil, pid: pid >= 0 ? pid : asyncPIDs[key]))
            case .uuid(let uuid):
                guard let info = tracks[uuid] else {
                    resolved.append(.unknownTrack)
                    continue
                }
                if info.isCounter {
                    resolved.append(.counter)
                } else if info.isThread, let tid = info.tid {
                    let index = thread(pid: info.pid ?? threadPIDs[tid] ?? tid, tid: tid)
                    nameChromeThread(index, type: info.chromeThreadType)
                    resolved.append(.thread(index))
                } else {
                    resolved.append(.async(name: info.name, pid: processOf(info)))
                }
            }
        }
        return resolved
    }

    /// The process a track belongs to: its own, or its nearest ancestor's.
    private func processOf(_ info: TrackInfo) -> Int? {
        var pid = info.pid
        var parent = info.parent
        var steps = 0
        while pid == nil, let up = parent, let above = tracks[up], steps < 64 {
            pid = above.pid ?? above.tid.flatMap { threadPIDs[$0] }
            parent = above.parent
            steps += 1
        }
        return pid
    }

    /// Each track's events in time order (file order at equal times), matched
    /// into slices; the slice of every flow reference, and what was left out.
    /// Times beyond ±2^62 ns (146 years) are corrupt: left out, so that no difference of two overflows.
    private mutating func matchTracks(
        _ resolved: [Resolved]
    ) -> (sliceOfRef: [Int32], dropped: Int, counters: Int, outOfRange: Int) {
        var bySlot = [[Int32]](repeating: [], count: slots.count)
        var outOfRange = 0
        for (k, event) in events.enumerated() {
            guard event.time > -(1 << 62), event.time < 1 << 62 else {
                outOfRange += 1
                continue
            }
            bySlot[Int(event.slot)].append(Int32(k))
        }
        var sliceOfRef = [Int32](repeating: -1, count: flowRefs.count)
        var droppedEvents = 0
        var counterEvents = 0
        let all = events
        for slot in bySlot.indices where !bySlot[slot].isEmpty {
            var list = bySlot[slot]
            bySlot[slot] = []
            if !zip(list, list.dropFirst()).allSatisfy({ all[Int($0)].time <= all[Int($1)].time }) {
                list.sort { (all[Int($0)].time, $0) < (all[Int($1)].time, $1) }
            }
            guard case .thread(let thread) = resolved[slot] else {
                switch resolved[slot] {
                case .counter: counterEvents += list.count
                case .async(let name, let pid): matchAsync(list, track: name, pid: pid)
                default: droppedEvents += list.count
                }
                continue
            }
            match(
                list, thread: thread, isFtrace: { if case .ftraceThread = slots[slot] { true } else { false } }(),
                sliceOfRef: &sliceOfRef)
        }
        return (sliceOfRef, droppedEvents, counterEvents, outOfRange)
    }

    /// Flow steps, bound to slices. In time order (at one instant, an id's
    /// flow_ids before its terminating_flow_ids, then file order), the
    /// first event of an id starts a flow, a terminating one ends it (a
    /// later use of the id is a new flow).
    private mutating func bindFlows(_ resolved: [Resolved], sliceOfRef: [Int32]) {
        let all = events
        let refOrder = flowRefs.indices.sorted {
            let a = flowRefs[$0]
            let b = flowRefs[$1]
            let x = (all[Int(a.event)].time, a.terminating ? 1 : 0, a.event, $0)
            let y = (all[Int(b.event)].time, b.terminating ? 1 : 0, b.event, $1)
            return x < y
        }
        var current: [UInt64: Int32] = [:]
        var generation: [UInt64: Int] = [:]
        for k in refOrder {
            let ref = flowRefs[k]
            var phase = FlowStep.Phase.step
            if current[ref.id] == nil {
                let n = generation[ref.id, default: 0]
                current[ref.id] = trace.flowKeys.intern("\u{0}\u{0}\(ref.id)\(n == 0 ? "" : "#\(n)")")
                phase = .start
            }
            let key = current[ref.id]!
            if ref.terminating {
                phase = .finish
                generation[ref.id, default: 0] += 1
                current[ref.id] = nil
            }
            let event = all[Int(ref.event)]
            guard case .thread(let thread) = resolved[Int(event.slot)] else { continue }
            trace.flows.append(
                FlowStep(
                    flow: key, phase: phase, bindsToEnclosingSlice: true, thread: thread, time: event.time,
                    event: ref.event, offset: event.offset, slice: sliceOfRef[k]))
        }
    }

    private mutating func thread(pid: Int, tid: Int) -> Int32 {
        let index = trace.thread(pid: pid, tid: tid)
        if trace.threads[Int(index)].name == nil { trace.threads[Int(index)].name = threadNames[tid] }
        return index
    }

    /// One track's events, in time order: a begin opens a slice, an end closes
    /// the innermost open one, a complete event is a slice, an instant's flows
    /// go to the slice open around it.
    private mutating func match(_ list: [Int32], thread: Int32, isFtrace: Bool, sliceOfRef: inout [Int32]) {
        struct Open {
            var event: Int32
            var refs: [Int32]
        }
        var open: [Open] = []
        let firstSlice = trace.slices.count
        defer { dropRunLoopWrappers(from: firstSlice, sliceOfRef: &sliceOfRef) }
        func refs(of event: Event) -> Range<Int32> {
            event.flowRef < 0 ? 0..<0 : event.flowRef..<(event.flowRef + event.flowCount)
        }
        for k in list {
            let event = events[Int(k)]
            switch event.kind {
            case .begin:
                open.append(Open(event: k, refs: Array(refs(of: event))))
            case .instant:
                instants += 1
                if !open.isEmpty { open[open.count - 1].refs += Array(refs(of: event)) }
            case .complete:
                let slice = Int32(trace.slices.count)
                trace.slices.append(
                    TraceSlice(
                        thread: thread, name: event.name, category: event.category, event: k, start: event.time,
                        end: event.time &+ event.duration, offset: event.offset))
                for ref in refs(of: event) { sliceOfRef[Int(ref)] = slice }
            case .end:
                guard let begin = open.popLast() else {
                    trace.cutSlices.record(
                        thread: thread, neverEnds: nil, isEnd: true,
                        ImportDiagnostic(
                            .warning, file: trace.file,
                            location:
                                "\(trace.position(event: k, offset: event.offset, thread: thread)) at \(AtraceReader.formatSeconds(event.time)) s",
                            message: isFtrace
                                ? "an atrace 'E' with no open 'B' on this thread: a section the recording cut (begun before it started); not imported"
                                : "a TYPE_SLICE_END with no open slice on its track: a slice the recording cut (begun before it started, or its beginning lost with the sequence's data); not imported"
                        ))
                    continue
                }
                let first = events[Int(begin.event)]
                let slice = Int32(trace.slices.count)
                trace.slices.append(
                    TraceSlice(
                        thread: thread, name: first.name, category: first.category, event: begin.event,
                        start: first.time, end: event.time, offset: first.offset))
                for ref in begin.refs { sliceOfRef[Int(ref)] = slice }
                for ref in refs(of: event) { sliceOfRef[Int(ref)] = slice }
            }
        }
        for begin in open {
            let event = events[Int(begin.event)]
            let name = trace.names[event.name]
            trace.cutSlices.record(
                thread: thread, neverEnds: name, isEnd: false,
                ImportDiagnostic(
                    .warning, file: trace.file,
                    location:
                        "\(trace.position(event: begin.event, offset: event.offset, thread: thread)) at \(AtraceReader.formatSeconds(event.time)) s",
                    message: isFtrace
                        ? "'B|…|\(name)' never ends on this thread: a section the recording cut (still running when it stopped); not imported"
                        : "slice '\(name)' never ends (no TYPE_SLICE_END on its track): a slice the recording cut (still running when it stopped); not imported"
                ))
        }
    }

    /// What was read but not imported, one note each.
    private mutating func notes(droppedEvents: Int, counterEvents: Int, unconverted: Int, outOfRange: Int) {
        var notes: [String] = []
        if outOfRange > 0 {
            notes.append(
                "\(plural(outOfRange, "event")) have a timestamp beyond ±146 years (a corrupt trace?); not imported")
        }
        if droppedEvents + eventsWithoutTrack > 0 {
            notes.append(
                "\(plural(droppedEvents + eventsWithoutTrack, "TrackEvent")) are on no known track (no track descriptor, no thread) or have no time; not imported"
            )
        }
        if instants > 0 {
            notes.append(
                "\(plural(instants, "instant event")) (TYPE_INSTANT: no duration) are not imported as slices; their flows count for the slice around them"
            )
        }
        if counters + counterEvents > 0 {
            notes.append("\(plural(counters + counterEvents, "counter or other non-slice event")) are not imported")
        }
        if asyncEndsWithoutBegin > 0 {
            notes.append(
                "\(plural(asyncEndsWithoutBegin, "async slice end")) with nothing open on its async track (begun before the recording) are not read"
            )
        }
        if runLoopWrappers > 0 {
            notes.append(
                "\(plural(runLoopWrappers, "slice")) holding Chrome tasks (the run loop's own: 'ThreadController active', 'RunNormalPriorityTask', 'SequenceManager RunTask'…) are not imported: the tasks they hold are (each a slice with task_execution, named after where it was posted from)"
            )
        }
        if legacyFlows > 0 {
            notes.append(
                "\(plural(legacyFlows, "legacy flow event")) (LegacyEvent bind_id, the old flow form) are not read: use flow_ids / terminating_flow_ids"
            )
        }
        if skippedNeedingState > 0 {
            notes.append(
                "\(plural(skippedNeedingState, "packet")) needed interned data their sequence had lost or never set up (data lost while tracing); skipped"
            )
        }
        if unknownNameIDs > 0 {
            notes.append(
                "\(plural(unknownNameIDs, "event")) name an interned name (iid) their sequence does not define; named '(name iid N)'"
            )
        }
        if skippedUnknownClock > 0 {
            notes.append(
                "\(plural(skippedUnknownClock, "packet")) are timed on a sequence clock that no clock snapshot defines; skipped"
            )
        }
        if unconverted > 0 {
            notes.append(
                "\(plural(unconverted, "event")) are timed on a clock that no snapshot relates to the boot clock; their times are taken as they are"
            )
        }
        let prints = otherPrints.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
        if !prints.isEmpty {
            notes.append(
                "atrace print events other than B/E sections (counters, async sections, other text) are not imported: \(prints.joined(separator: ", "))"
            )
        }
        trace.readerNotes = notes
    }
}
