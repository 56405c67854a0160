import LaunchflowCore

/// An async section of the recording (atrace `S|pid|name|cookie` … `F|…`):
/// Android's `launching: PACKAGE` in system_server marks an app's launch.
struct AsyncMarker {
    var name: String
    var start: Nanos
    var end: Nanos?
}

/// Android's launch markers (the ones Perfetto's `android_startup` tables
/// read): the launch window — system_server's `launching: PACKAGE` async
/// slice, from the intent to the app's first frame drawn — and on the app's
/// main thread `bindApplication`, `activityStart`, `activityResume`, the
/// first `Choreographer#doFrame` with RenderThread's `DrawFrame`, and
/// `reportFullyDrawn`. They become, as Instruments' App Launch does for iOS:
///
/// - a pre-main phase: the process's start, from the start of the launch
///   window to `bindApplication` (fork, zygote, runtime initialisation);
/// - the launch phases `bindApplication` (startsIn: `Application.onCreate`
///   runs in it), `activityStart`, `activityResume`, each costing its time
///   less the app's sections imported inside it (those nested in it become
///   tasks of their own);
/// - the measured first frame (the end of the launch window, else the end of
///   the first `DrawFrame` after the first `Choreographer#doFrame`) and full
///   display (`reportFullyDrawn`), from the start of the window;
/// - frame slices (`Choreographer#doFrame`, `DrawFrame`, with what they hold)
///   are not tasks, and neither are the app's slices after the launch (after
///   the first frame, or after `reportFullyDrawn` when it comes later).
struct AndroidLaunch {
    var window: (start: Nanos, end: Nanos?)?
    var phases: [(name: String, start: Nanos, end: Nanos)] = []
    var firstFrame: (time: Nanos, source: String)?
    var fullyDrawn: Nanos?
    var frameSlices = 0
    var afterLaunch = 0

    static let phaseNames = ["bindApplication", "activityStart", "activityResume"]

    /// The launch markers of the app, with the slices that are not tasks
    /// moved out of the app (to a thread of no process); nil when the app's
    /// main thread has no `bindApplication`, or neither a launch window nor an
    /// `activityStart` after it (not an Android start-up).
    static func prepare(_ trace: inout Trace, app: SliceSelection.App) -> AndroidLaunch? {
        let main = app.mainThread
        let onMain = trace.slices.indices.filter { trace.slices[$0].thread == main }
        guard
            let bind = onMain.filter({ trace.names[trace.slices[$0].name] == "bindApplication" })
                .min(by: { trace.slices[$0].start < trace.slices[$1].start })
        else { return nil }
        var launch = AndroidLaunch()
        let package = trace.processNames[app.pid] ?? trace.threads[Int(main)].name ?? ""
        launch.window = window(in: trace, package: package, around: trace.slices[bind].start)
        // An app's start-up: its launch window, or at least bindApplication and activityStart.
        guard
            launch.window != nil
                || onMain.contains(where: {
                    trace.names[trace.slices[$0].name] == "activityStart"
                        && trace.slices[$0].start > trace.slices[bind].start
                })
        else { return nil }
        let windowStart = launch.window?.start ?? trace.slices[bind].start
        var away: [Int] = []
        for name in phaseNames {
            guard
                let k = onMain.filter({
                    trace.names[trace.slices[$0].name] == name && trace.slices[$0].start >= windowStart
                }).min(by: { trace.slices[$0].start < trace.slices[$1].start })
            else { continue }
            launch.phases.append((name, trace.slices[k].start, trace.slices[k].end))
            away.append(k)
        }
        let appThreads = Set(trace.threads.indices.filter { trace.threads[$0].pid == app.pid }.map { Int32($0) })
        launch.frames(in: trace, app: app, appThreads: appThreads, after: windowStart, away: &away)
        let fullyDrawn = trace.slices.indices.filter {
            appThreads.contains(trace.slices[$0].thread)
                && trace.names[trace.slices[$0].name].hasPrefix("reportFullyDrawn")
                && trace.slices[$0].start >= windowStart
        }
        launch.fullyDrawn = fullyDrawn.map { trace.slices[$0].start }.min()
        away += fullyDrawn  // a marker, not work
        // The launch ends with the first frame, or with full display when it comes later.
        if let end = [launch.window?.end, launch.firstFrame?.time, launch.fullyDrawn].compactMap({ $0 }).max() {
            for k in trace.slices.indices
            where appThreads.contains(trace.slices[k].thread) && trace.slices[k].start > end {
                away.append(k)
                launch.afterLaunch += 1
            }
        }
        let nowhere = trace.thread(pid: Int.min, tid: Int.min)
        for k in Set(away) { trace.slices[k].thread = nowhere }
        return launch
    }

    /// system_server's `launching: PACKAGE` (or a slice of that name in any
    /// process), the one around `time` or else the last before it.
    private static func window(in trace: Trace, package: String, around time: Nanos) -> (Nanos, Nanos?)? {
        let names = ["launching: \(package)"]
        var candidates = trace.asyncMarkers.filter { names.contains($0.name) }.map { ($0.start, $0.end) }
        candidates += trace.slices.filter { names.contains(trace.names[$0.name]) }.map { ($0.start, Optional($0.end)) }
        let before = candidates.filter { $0.0 <= time }
        return before.max { $0.0 < $1.0 }
    }

    /// The first `Choreographer#doFrame` on the main thread after the
    /// launch phases began, and the first `DrawFrame` after it on the app's
    /// RenderThread; every frame slice (and what it holds) is moved away.
    private mutating func frames(
        in trace: Trace, app: SliceSelection.App, appThreads: Set<Int32>, after start: Nanos, away: inout [Int]
    ) {
        var frameSpans: [(thread: Int32, start: Nanos, end: Nanos)] = []
        var firstDoFrame: Nanos?
        var firstDraw: (start: Nanos, end: Nanos)?
        for slice in trace.slices where appThreads.contains(slice.thread) {
            let name = trace.names[slice.name]
            if slice.thread == app.mainThread, name.hasPrefix("Choreographer#doFrame") {
                frameSpans.append((slice.thread, slice.start, slice.end))
                if slice.start >= start { firstDoFrame = min(firstDoFrame ?? slice.start, slice.start) }
            } else if name.hasPrefix("DrawFrame") {
                frameSpans.append((slice.thread, slice.start, slice.end))
            }
        }
        if let doFrame = firstDoFrame {
            for span in frameSpans where span.thread != app.mainThread && span.start >= doFrame {
                if firstDraw == nil || span.start < firstDraw!.start { firstDraw = (span.start, span.end) }
            }
        }
        if let end = window?.end {
            firstFrame = (end, "the end of system_server's 'launching:' slice (the first frame drawn)")
        } else if let draw = firstDraw {
            firstFrame = (draw.end, "the end of the first DrawFrame after the first Choreographer#doFrame")
        }
        for k in trace.slices.indices where appThreads.contains(trace.slices[k].thread) {
            let slice = trace.slices[k]
            if frameSpans.contains(where: {
                $0.thread == slice.thread && $0.start <= slice.start && slice.end <= $0.end
            }) {
                away.append(k)
                frameSlices += 1
            }
        }
    }

    /// How a phase's time is costed: as the tasks are. Its wall time, or
    /// with `--cost running` the main thread's running time in it (time
    /// before the thread's first scheduler event counted as running, as for
    /// the tasks); wall time, with one warning, when the trace has no
    /// scheduler events for the main thread.
    struct PhaseClock {
        private let schedule: SchedTimeline?
        private let tid: Int

        init(_ schedule: SchedTimeline?, tid: Int, running: Bool, file: String, log: inout ImportLog) {
            self.tid = tid
            self.schedule = running && schedule?.has(tid: tid) == true ? schedule : nil
            if running, self.schedule == nil {
                log.warning(
                    file,
                    "--cost running: the trace has no scheduler events for the main thread (tid \(tid)): the Android launch phases are costed at their wall time (as the main thread's tasks are: time before a thread's first scheduler event counts as running)"
                )
            }
        }

        var isRunning: Bool { schedule != nil }

        func cost(_ start: Nanos, _ end: Nanos) -> Nanos {
            guard end > start else { return 0 }
            guard let schedule else { return end - start }
            let breakdown = schedule.breakdown(tid: tid, from: start, to: end)
            return breakdown.running + breakdown.unknown
        }
    }

    /// The launch phases, pre-main phase and measured times, into the run.
    func apply(to run: inout ImportedRun, clock: PhaseClock, file: String, log: inout ImportLog) {
        let origin = window?.start ?? phases.first?.start ?? 0
        if let window, let bind = phases.first(where: { $0.name == "bindApplication" }), bind.start > window.start {
            run.preMain.insert(
                ImportedPhase(
                    name: "process start (to bindApplication)", cost: clock.cost(window.start, bind.start),
                    span: window.start...bind.start), at: 0)
        }
        let mainTasks = run.tasks.filter { $0.onMain == true }.compactMap(\.span)
        for phase in phases {
            let inside = mainTasks.reduce(Nanos(0)) { sum, span in
                sum.addingSaturated(clock.cost(max(span.lowerBound, phase.start), min(span.upperBound, phase.end)))
            }
            run.launchPhases.append(
                ImportedPhase(
                    name: phase.name, cost: max(0, clock.cost(phase.start, phase.end) - inside),
                    span: phase.start...phase.end))
        }
        if !phases.isEmpty { run.startsIn = phases[0].name }
        var parts: [String] = []
        if let window {
            parts.append(
                "the launch window is system_server's 'launching:' slice\(window.end.map { " (\(formatMillis(nanos: $0 - window.start)) ms)" } ?? " (it never ends in the trace)")"
            )
        } else {
            parts.append("no 'launching:' slice of the app: times are from bindApplication, and no pre-main phase")
        }
        parts.append(
            "the launch phases are \(phases.map { "\($0.name) \(formatMillis(nanos: $0.end - $0.start)) ms" }.joined(separator: ", ")) (each costing \(clock.isRunning ? "the main thread's running time in it" : "its time") less the app's sections inside it; startsIn \(run.startsIn ?? "bindApplication"))"
        )
        if let frame = firstFrame {
            run.measuredFirstFrame = frame.time - origin
            run.measuredFirstFrameSource = "from the start of the launch to \(frame.source)"
            parts.append(
                "the measured first frame is at \(formatMillis(nanos: frame.time - origin)) ms (\(frame.source))")
        } else {
            parts.append("no first frame (no 'launching:' end, no DrawFrame after a Choreographer#doFrame)")
        }
        if let fullyDrawn {
            run.measuredFullDisplay = fullyDrawn - origin
            parts.append("full display (reportFullyDrawn) at \(formatMillis(nanos: fullyDrawn - origin)) ms")
        }
        if frameSlices > 0 {
            parts.append(
                "\(plural(frameSlices, "frame slice")) (Choreographer#doFrame, DrawFrame and what they hold) are not tasks"
            )
        }
        if afterLaunch > 0 {
            parts.append(
                "\(plural(afterLaunch, "slice")) after the launch \(afterLaunch == 1 ? "is not a task" : "are not tasks")"
            )
        }
        log.note(file, "Android launch markers (times from the start of the launch): " + parts.joined(separator: "; "))
    }
}
