import LaunchflowCore

/// A slice of an async track (Perfetto: a track not on a thread, or a legacy
/// async id; atrace's `S`/`F` sections): an interval a producer measured,
/// not work on a thread's run loop. Import lists the app's (a note); those
/// named `launching: PACKAGE` are Android's launch window (``AsyncMarker``).
struct AsyncSpan {
    var name: String
    /// The async track's name (its descriptor's, else nil: named after its first slice).
    var track: String?
    var pid: Int?
    var start: Nanos
    /// nil: never ends in the recording.
    var end: Nanos?
}

extension PerfettoState {
    /// One async track's events, in time order: a begin opens a span, an end
    /// closes the innermost open one (nestable async events nest), a complete
    /// event is one; an end with nothing open is counted (begun before the
    /// recording), a begin never ended is a span without an end.
    mutating func matchAsync(_ list: [Int32], track: String?, pid: Int?) {
        var open: [Int32] = []
        for k in list {
            let event = events[Int(k)]
            switch event.kind {
            case .begin: open.append(k)
            case .instant: instants += 1
            case .complete:
                addSpan(event, end: event.time &+ event.duration, track: track, pid: pid)
            case .end:
                guard let begin = open.popLast() else {
                    asyncEndsWithoutBegin += 1
                    continue
                }
                addSpan(events[Int(begin)], end: event.time, track: track, pid: pid)
            }
        }
        for begin in open { addSpan(events[Int(begin)], end: nil, track: track, pid: pid) }
    }

    private mutating func addSpan(_ event: Event, end: Nanos?, track: String?, pid: Int?) {
        let name = trace.names[event.name]
        trace.asyncSpans.append(AsyncSpan(name: name, track: track, pid: pid, start: event.time, end: end))
        if name.hasPrefix("launching") {
            trace.asyncMarkers.append(AsyncMarker(name: name, start: event.time, end: end))
        }
    }

    /// A thread track with no thread name: named after its Chrome thread type
    /// (`ChromeThreadDescriptor.thread_type`), as Chrome names that thread; a
    /// main thread after its process's type (`chrome_process`), else its name.
    mutating func nameChromeThread(_ index: Int32, type: Int?) {
        guard trace.threads[Int(index)].name == nil, let type, type != 0 else { return }
        let pid = trace.threads[Int(index)].pid
        trace.threads[Int(index)].name =
            type == 1
            ? Self.chromeMainThreadName(processType: chromeProcessTypes[pid], processName: processNames[pid])
            : Self.chromeThreadNames[type] ?? "Chrome thread type \(type)"
    }

    /// Chrome's names of its threads by `ChromeThreadDescriptor.ThreadType`
    /// (chromium's `chrome_enums.proto`; 1–10 as a real Chrome recording
    /// names them, `Tests/LaunchflowTests/Fixtures/import/corpus`).
    static let chromeThreadNames: [Int: String] = [
        2: "Chrome_IOThread", 3: "ThreadPoolBackgroundWorker", 4: "ThreadPoolForegroundWorker",
        5: "ThreadPoolSingleThreadForegroundBlocking", 6: "ThreadPoolSingleThreadBackgroundBlocking",
        7: "ThreadPoolServiceThread", 8: "Compositor", 9: "VizCompositorThread", 10: "CompositorTileWorker",
        11: "ServiceWorkerThread", 12: "NetworkService", 13: "Chrome_ChildIOThread", 14: "Chrome_IOThread",
        15: "CrBrowserMain", 16: "CrRendererMain", 17: "CrUtilityMain", 18: "CrGpuMain",
        19: "CacheThread_BlockFile", 20: "Media", 21: "AudioOutputDevice",
    ]

    /// A Chrome process's main thread (thread type 1): `CrBrowserMain`,
    /// `CrRendererMain`, `CrGpuMain`, `CrUtilityMain` by its process's type
    /// (`ChromeProcessDescriptor.ProcessType`: 1 browser, 2 renderer, 3
    /// utility, 6 GPU), else by its process's name; `CrProcessMain` otherwise.
    static func chromeMainThreadName(processType: Int?, processName: String?) -> String {
        switch processType {
        case 1: return "CrBrowserMain"
        case 2: return "CrRendererMain"
        case 3: return "CrUtilityMain"
        case 6: return "CrGpuMain"
        default: break
        }
        let name = processName?.lowercased() ?? ""
        if name.contains("renderer") { return "CrRendererMain" }
        if name.contains("gpu") { return "CrGpuMain" }
        if name.contains("browser") || name.hasPrefix("com.android.chrome") || name.hasPrefix("com.chrome") {
            return "CrBrowserMain"
        }
        return "CrProcessMain"
    }
}

extension Trace {
    /// The note on the async spans: the app's (`pid`), the longest five with
    /// their times, and how many are elsewhere; nil when the trace has none.
    func asyncSpansNote(appPID pid: Int) -> String? {
        guard !asyncSpans.isEmpty else { return nil }
        let app = asyncSpans.filter { $0.pid == pid }
        let elsewhere = asyncSpans.count - app.count
        let rest = elsewhere == 0 ? "" : "; \(elsewhere) more in other processes (or in none)"
        guard !app.isEmpty else {
            return
                "\(plural(asyncSpans.count, "async span")) (slices of async tracks: not on a thread) are all outside the app's process; not imported"
        }
        let longest = app.indices.sorted {
            let a = (app[$0].end ?? .max) - app[$0].start
            let b = (app[$1].end ?? .max) - app[$1].start
            return (b, app[$0].start, $0) < (a, app[$1].start, $1)
        }
        let shown = longest.prefix(5).map { k -> String in
            let span = app[k]
            let length = span.end.map { "\(formatMillis(nanos: $0 - span.start)) ms" } ?? "never ends"
            return "'\(span.name)' (\(length), from \(AtraceReader.formatSeconds(span.start)) s)"
        }
        return
            "\(plural(app.count, "async span")) of the app (slices of async tracks: measured intervals, not work on a thread's run loop, so not tasks; not imported), the longest: \(shown.joined(separator: ", "))\(app.count > 5 ? ", …" : "")\(rest)"
    }
}

extension PerfettoState {
    /// On a thread where Chrome marks its tasks (slices with `task_execution`),
    /// the slices that hold a task and are not one — `ThreadController
    /// active`, `RunNormalPriorityTask`, a task queue's slice, `SequenceManager
    /// RunTask` — are the run loop running it, not work of their own: they are
    /// left out (counted), so that the tasks are the thread's slices at depth 0.
    /// `first`: this thread's first slice (its slices are the last ones).
    mutating func dropRunLoopWrappers(from first: Int, sliceOfRef: inout [Int32]) {
        let range = first..<trace.slices.count
        let tasks = range.filter { events[Int(trace.slices[$0].event)].isTask }
            .map { (trace.slices[$0].start, trace.slices[$0].end) }.sorted { $0 < $1 }
        guard !tasks.isEmpty else { return }
        // A slice holds a task when a task starts within it (tasks nest, never cross).
        func holdsTask(_ slice: TraceSlice) -> Bool {
            var low = 0
            var high = tasks.count
            while low < high {
                let mid = (low + high) / 2
                if tasks[mid].0 < slice.start { low = mid + 1 } else { high = mid }
            }
            return low < tasks.count && tasks[low].0 < slice.end && tasks[low].1 <= slice.end
                && (tasks[low].0, tasks[low].1) != (slice.start, slice.end)
        }
        var remap = [Int32](repeating: -1, count: range.count)
        var kept = first
        for k in range {
            let slice = trace.slices[k]
            if !events[Int(slice.event)].isTask, holdsTask(slice) {
                runLoopWrappers += 1
                continue
            }
            trace.slices[kept] = slice
            remap[k - first] = Int32(kept)
            kept += 1
        }
        guard kept < trace.slices.count else { return }
        trace.slices.removeSubrange(kept...)
        for k in sliceOfRef.indices where sliceOfRef[k] >= Int32(first) {
            sliceOfRef[k] = remap[Int(sliceOfRef[k]) - first]
        }
    }
}
