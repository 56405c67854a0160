import LaunchflowCore

extension XctraceExport {
    /// Several exports of one recording (one per table, or one of several
    /// tables) as one trace:
    /// - the intervals of `os-signpost-interval`, or when no export has that
    ///   table, `os-signpost` Begin/End rows paired by process, name and
    ///   identifier — one or the other, never both; an unpaired Begin or End
    ///   is a warning of its process;
    /// - a task's name is its signpost's name, or `name: message` when the
    ///   name comes with several different messages in one process; an
    ///   interval named ``LaunchSignposts/taskInterval`` (LaunchflowRuntime's
    ///   `SignpostTraceSink`) is named by its message alone, the task's id;
    /// - `life-cycle-period` rows become ``Trace/lifecycle``; their process is
    ///   the launched app (``Trace/launchedPID``), else the process with the
    ///   most intervals;
    /// - `thread-state` rows become the thread states (``Trace/schedule``).
    ///
    /// - Complexity: O(n log n) for n rows.
    static func trace(of exports: [XctraceExport]) -> Trace {
        // The file of the signposts names the trace (its lines are the slices'); the others are noted.
        let main =
            exports.first { !$0.intervals.isEmpty } ?? exports.first { !$0.events.isEmpty } ?? exports[0]
        var trace = Trace(file: main.file, format: .xctrace, bytes: [])
        let others = exports.filter { $0.file != main.file }
        if !others.isEmpty {
            trace.readerNotes.append(
                "one recording with "
                    + others.map { "\($0.file) (\($0.tables.joined(separator: ", ")))" }.joined(separator: ", ")
                    + ": exports of the same tables would start another recording")
        }
        var threads: [ThreadKey: XctraceThread] = [:]
        for export in exports {
            threads.merge(export.threads) { first, _ in first }
            trace.processNames.merge(export.processNames) { first, _ in first }
            trace.readerNotes += export.notes.map { export.file != main.file ? "\(export.file): \($0)" : $0 }
        }
        for key in threads.keys.sorted(by: { ($0.pid, $0.tid) < ($1.pid, $1.tid) }) {
            let index = trace.thread(pid: key.pid, tid: key.tid)
            trace.threads[Int(index)].name = threads[key]!.name
            trace.threads[Int(index)].isMain = threads[key]!.isMain
        }

        var intervals = exports.flatMap(\.intervals)
        let events = exports.flatMap(\.events)
        if !intervals.isEmpty {
            if !events.isEmpty {
                trace.readerNotes.append(
                    "the os-signpost table's \(plural(events.count, "Begin/End row")) are not counted: os-signpost-interval holds the same intervals, already paired"
                )
            }
        } else {
            intervals = paired(events, into: &trace)
        }
        let points = exports.reduce(0) { $0 + $1.pointEvents }
        if points > 0 {
            trace.readerNotes.append(
                "\(plural(points, "os-signpost Event row")) (points in time, no duration) \(points == 1 ? "is not a task" : "are not tasks")"
            )
        }

        // `name: message` where one process's name comes with several messages.
        var messages: [String: Set<String>] = [:]
        for interval in intervals where !interval.message.isEmpty {
            messages["\(interval.thread.pid)\u{0}\(interval.name)", default: []].insert(interval.message)
        }
        var slicesPerProcess: [Int: Int] = [:]
        let runtimeInterval = "\(LaunchSignposts.taskInterval)"
        for interval in intervals {
            var name = interval.name
            if name == runtimeInterval && !interval.message.isEmpty {
                // LaunchflowRuntime's SignpostTraceSink: the message is the task's id.
                name = interval.message
            } else if !interval.message.isEmpty, messages["\(interval.thread.pid)\u{0}\(name)"]!.count > 1 {
                name += ": " + interval.message
            }
            let thread = trace.thread(pid: interval.thread.pid, tid: interval.thread.tid)
            trace.slices.append(
                TraceSlice(
                    thread: thread, name: trace.names.intern(name), category: 0, event: interval.row,
                    start: interval.start, end: interval.end, offset: interval.line))
            slicesPerProcess[interval.thread.pid, default: 0] += 1
        }

        trace.lifecycle = exports.flatMap(\.phases).sorted { ($0.pid, $0.start, $0.end) < ($1.pid, $1.start, $1.end) }
        let launched = Set(trace.lifecycle.map(\.pid))
        if launched.count == 1 {
            trace.launchedPID = launched.first
        } else if launched.isEmpty, let most = slicesPerProcess.values.max(),
            slicesPerProcess.values.filter({ $0 == most }).count == 1
        {
            trace.launchedPID = slicesPerProcess.first { $0.value == most }?.key
        }

        let states = exports.flatMap(\.states)
        if !states.isEmpty {
            var schedule = SchedTimeline()
            var wide = 0
            for state in states {
                guard let tid = Int32(exactly: state.tid) else {
                    wide += 1
                    continue
                }
                schedule.changes.append(SchedTimeline.Change(time: state.start, tid: tid, state: state.state))
                schedule.changes.append(SchedTimeline.Change(time: state.end, tid: tid, state: .unknown))
            }
            if wide > 0 {
                trace.readerNotes.append(
                    "\(plural(wide, "thread-state row")) of threads whose tid is beyond 2³¹ are not read")
            }
            schedule.prepare()
            trace.schedule = schedule
            trace.scheduleSource = "thread states (Instruments' thread-state table)"
        }
        return trace
    }

    /// Begin/End rows paired: per (process, name, identifier) in time order,
    /// an End closes the latest open Begin; at one instant, Ends first close
    /// what was open before it, then the Begins open, then the remaining Ends
    /// close them (zero-length intervals) — whatever the order of the rows.
    private static func paired(_ events: [XctraceSignpostEvent], into trace: inout Trace) -> [XctraceInterval] {
        let order = events.indices.sorted {
            let a = events[$0]
            let b = events[$1]
            return (a.thread.pid, a.name, a.identifier, a.time, a.isBegin ? 1 : 0, a.row)
                < (b.thread.pid, b.name, b.identifier, b.time, b.isBegin ? 1 : 0, b.row)
        }
        var intervals: [XctraceInterval] = []
        var start = 0
        func describe(_ event: XctraceSignpostEvent) -> String {
            "signpost '\(event.name)' (identifier \(event.identifier), pid \(event.thread.pid), tid \(event.thread.tid), at \(formatMillis(nanos: event.time)) ms)"
        }
        while start < order.count {
            let first = events[order[start]]
            var end = start
            while end < order.count, events[order[end]].thread.pid == first.thread.pid,
                events[order[end]].name == first.name, events[order[end]].identifier == first.identifier
            {
                end += 1
            }
            var open: [XctraceSignpostEvent] = []
            var k = start
            while k < end {
                // One instant: its Ends, then its Begins (sorted so).
                var instant = k
                while instant < end, events[order[instant]].time == events[order[k]].time { instant += 1 }
                let group = order[k..<instant].map { events[$0] }
                let ends = group.filter { !$0.isBegin }
                let begins = group.filter(\.isBegin)
                let before = min(open.count, ends.count)
                for end in ends.prefix(before) { intervals.append(close(open.removeLast(), end)) }
                open += begins
                for end in ends.dropFirst(before) {
                    if let begin = open.popLast() {
                        intervals.append(close(begin, end))
                    } else {
                        trace.record(
                            pid: end.thread.pid,
                            ImportDiagnostic(
                                .warning, file: trace.file, line: end.line,
                                location: "table 'os-signpost', row \(end.row)",
                                message:
                                    "an End of \(describe(end)) with no Begin before it (begun before the recording started?): not imported"
                            ))
                    }
                }
                k = instant
            }
            for begin in open {
                trace.record(
                    pid: begin.thread.pid,
                    ImportDiagnostic(
                        .warning, file: trace.file, line: begin.line, location: "table 'os-signpost', row \(begin.row)",
                        message:
                            "a Begin of \(describe(begin)) that never ends (still running when the recording stopped?): not imported"
                    ))
            }
            start = end
        }
        return intervals
    }

    private static func close(_ begin: XctraceSignpostEvent, _ end: XctraceSignpostEvent) -> XctraceInterval {
        XctraceInterval(
            thread: begin.thread, name: begin.name, message: begin.message, start: begin.time, end: end.time,
            row: begin.row, line: begin.line)
    }
}

extension SliceSelection {
    /// Instruments' App Launch phases of the app (`life-cycle-period`): the
    /// app's callbacks of the first run-loop turn — `willFinishLaunching`,
    /// `didFinishLaunching`, the scene's `willConnectTo`,
    /// `sceneWillEnterForeground` and `sceneDidBecomeActive`, up to Initial
    /// Frame Rendering — are the launch phases (MODEL.md §7.3), each costing
    /// its time less the main-thread tasks imported inside it; the phases that
    /// end before the first of them are the pre-main phases (process creation,
    /// system interface and static runtime initialisation, UIKit's set-up), in
    /// time order; the end of Initial Frame Rendering, from the start of
    /// Process Creation, is the measured first frame.
    static func lifecycleRun(_ trace: Trace, app: App, into run: inout ImportedRun, log: inout ImportLog) {
        let phases = trace.lifecycle.filter { $0.pid == app.pid }
        guard !phases.isEmpty else {
            if !trace.lifecycle.isEmpty {
                let pids = Set(trace.lifecycle.map(\.pid)).sorted().map(String.init).joined(separator: ", ")
                log.warning(
                    trace.file,
                    "life-cycle-period holds the launch of pid \(pids), not of the app (pid \(app.pid)): no pre-main phases and no measured first frame are imported"
                )
            }
            return
        }
        let didFinish = phases.first { $0.name.hasSuffix("didFinishLaunchingWithOptions()") }
        let processStart = phases.first { $0.name.hasSuffix("Process Creation") }?.start ?? phases[0].start
        let frameRendering = phases.first { $0.name.hasSuffix("Initial Frame Rendering") }
        let callbacks = launchCallbacks(phases, before: frameRendering?.start)
        let firstCallback = callbacks.first?.phase.start ?? didFinish?.start
        let preMain = phases.filter { phase in
            firstCallback.map { phase.end <= $0 } ?? phase.name.hasPrefix("Initializing")
        }
        run.preMain.insert(
            contentsOf: preMain.map {
                ImportedPhase(name: $0.name, cost: $0.end - $0.start, span: $0.start...$0.end)
            }, at: 0)
        let mainTasks = run.tasks.filter { $0.onMain == true }.compactMap(\.span)
        for (name, phase) in callbacks {
            // The app's own work in the callback: its time less the tasks inside it.
            let inside = mainTasks.reduce(Nanos(0)) { sum, span in
                let overlap = min(span.upperBound, phase.end) - max(span.lowerBound, phase.start)
                return overlap > 0 ? sum.addingSaturated(overlap) : sum
            }
            run.launchPhases.append(
                ImportedPhase(name: name, cost: max(0, phase.end - phase.start - inside), span: phase.start...phase.end)
            )
        }
        if !callbacks.isEmpty {
            // The strategy starts where the app's launch code runs: didFinishLaunching, or
            // (a SwiftUI app without an app delegate) the callback of the first main-thread task.
            let firstTask = mainTasks.map(\.lowerBound).min()
            run.startsIn =
                callbacks.first { $0.name == Scenario.defaultStartsIn }?.name
                ?? callbacks.first { phase in firstTask.map { phase.phase.start <= $0 && $0 < phase.phase.end } ?? false
                }?
                .name ?? callbacks[0].name
        }
        var parts: [String] = []
        let total = preMain.reduce(Nanos(0)) { $0.addingSaturated($1.end - $1.start) }
        parts.append(
            "\(plural(preMain.count, "phase")) before \(firstCallback == nil ? "the app's code" : "the app's first callback") are the pre-main phases (\(formatMillis(nanos: total)) ms)"
        )
        if !callbacks.isEmpty {
            parts.append(
                "the launch phases are \(callbacks.map { "\($0.name) \(formatMillis(nanos: $0.phase.end - $0.phase.start)) ms" }.joined(separator: ", ")) (each costing its time less the main-thread tasks inside it; startsIn \(run.startsIn ?? Scenario.defaultStartsIn))"
            )
        }
        if let didFinish {
            parts.append(
                "didFinishLaunchingWithOptions() runs \(formatMillis(nanos: didFinish.start - processStart))–\(formatMillis(nanos: didFinish.end - processStart)) ms (\(formatMillis(nanos: didFinish.end - didFinish.start)) ms)"
            )
        }
        if let frame = phases.first(where: { $0.name.hasSuffix("Initial Frame Rendering") }) {
            run.measuredFirstFrame = frame.end - processStart
            parts.append(
                "the measured first frame (the end of Initial Frame Rendering) is at \(formatMillis(nanos: frame.end - processStart)) ms"
            )
        } else {
            parts.append("no Initial Frame Rendering phase: no measured first frame")
        }
        log.note(
            trace.file,
            "life-cycle-period (times from the start of Process Creation): " + parts.joined(separator: "; "))
    }
}

extension SliceSelection {
    /// The app's callbacks of the first run-loop turn among Instruments'
    /// `Launching - …()` phases that start before Initial Frame Rendering, in
    /// time order, with the names scenarios give them (`willFinishLaunching`,
    /// `didFinishLaunching`, `sceneWillConnect`, `sceneWillEnterForeground`,
    /// `sceneDidBecomeActive`; another callback keeps its name without `()`).
    static func launchCallbacks(_ phases: [XctracePhase], before frame: Nanos?) -> [(name: String, phase: XctracePhase)]
    {
        let names: [(suffix: String, name: String)] = [
            ("willFinishLaunchingWithOptions()", "willFinishLaunching"),
            ("didFinishLaunchingWithOptions()", "didFinishLaunching"),
            ("sceneWillConnectTo()", "sceneWillConnect"),
            ("sceneWillEnterForeground()", "sceneWillEnterForeground"),
            ("sceneDidBecomeActive()", "sceneDidBecomeActive"),
        ]
        var seen = Set<String>()
        return phases.filter { $0.name.hasPrefix("Launching - ") && $0.name.hasSuffix("()") }
            .filter { phase in frame.map { phase.start < $0 } ?? true }
            .sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            .compactMap { phase in
                let name =
                    names.first { phase.name.hasSuffix($0.suffix) }?.name
                    ?? String(phase.name.dropFirst("Launching - ".count).dropLast(2))
                return seen.insert(name).inserted ? (name, phase) : nil
            }
    }
}
