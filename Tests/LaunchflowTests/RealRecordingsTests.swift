import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// Issue 37: traces as real producers write them. Inputs are written by
/// independent writers (`Tools/perfetto-fixtures/write_chrome_trace.py` and
/// `write_atrace_containers.py`, `Tools/instruments-fixtures/write_exports.py`)
/// or are real recordings (`Fixtures/import/corpus/`, with their sources in
/// its README).
struct RealRecordingsTests {
    typealias Task = (id: String, cost: Double, main: Bool)

    static func fixture(_ name: String) -> String { ImportTests.fixture(name) }

    /// The scenario's tasks, pre-main and launch phases as JSON objects, and the log and summary.
    static func run(_ paths: [String], _ options: ImportOptions = ImportOptions()) throws -> (
        scenario: [String: Any], log: String, summary: String
    ) {
        let outcome = try TraceImport.run(ImportRequest(traces: paths, options: options))
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        return (object, outcome.log.text, outcome.summary)
    }

    static func tasks(_ scenario: [String: Any]) -> [Task] {
        (scenario["tasks"] as? [[String: Any]] ?? []).map {
            ($0["id"] as! String, ($0["cost"] as! NSNumber).doubleValue, $0["mainThreadOnly"] as? Bool ?? false)
        }
    }

    static func phases(_ scenario: [String: Any], _ key: String) -> [(String, Double)] {
        (scenario[key] as? [[String: Any]] ?? []).map { ($0["name"] as! String, ($0["cost"] as! NSNumber).doubleValue) }
    }

    static func error(_ paths: [String], _ options: ImportOptions = ImportOptions()) -> String {
        do {
            _ = try TraceImport.run(ImportRequest(traces: paths, options: options))
            return ""
        } catch {
            return error.log.text
        }
    }

    static func errorLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error: ") }
    }

    // MARK: Perfetto TrackEvent as Chrome writes it

    /// The spec's expectation, computed from the spec alone: the top-level
    /// slices of the browser process's threads, in order of their first
    /// start, their costs summed by name; cut slices and async tracks left out.
    static func chromeExpectation() throws -> [Task] {
        let spec = try #require(
            JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: fixture("perfetto-chrome-android.spec.json"))))
                as? [String: Any])
        let browser = (spec["processes"] as! [[String: Any]])[0]
        let tids = Set((browser["threads"] as! [[String: Any]]).map { $0["tid"] as! Int })
        var entries: [(start: Int, id: String, cost: Int, main: Bool)] = []
        for slice in spec["slices"] as! [[String: Any]] where tids.contains(slice["tid"] as! Int) {
            let start = slice["start"] as! Int
            entries.append(
                (start, slice["name"] as! String, (slice["end"] as! Int) - start, slice["tid"] as! Int == 7000))
        }
        var order: [String] = []
        var sums: [String: (Int, Bool)] = [:]
        for entry in entries.sorted(by: { ($0.start, $0.id) < ($1.start, $1.id) }) {
            if sums[entry.id] == nil { order.append(entry.id) }
            sums[entry.id] = ((sums[entry.id]?.0 ?? 0) + entry.cost, entry.main)
        }
        return order.map { ($0, Double(sums[$0]!.0) / 1000, sums[$0]!.1) }
    }

    @Test func chromeOnAndroidTrackEventImportsOnItsBrowserMainThread() throws {
        let expected = try Self.chromeExpectation()
        #expect(expected.filter(\.main).count >= 8)
        for options in [ImportOptions(), ImportOptions(mainThread: "7000")] {
            let (scenario, log, summary) = try Self.run([Self.fixture("perfetto-chrome-android.pftrace")], options)
            let tasks = Self.tasks(scenario)
            #expect(tasks.count >= 10)
            #expect(tasks.map(\.id) == expected.map(\.id))
            #expect(tasks.map(\.cost) == expected.map(\.cost))
            #expect(tasks.map(\.main) == expected.map(\.main))
            #expect(summary.contains("main thread 'CrBrowserMain' (tid 7000)"))
            // The slice begun before the recording and the one never ended: warnings, not tasks.
            // Summed for the thread: one warning, its counts, names and first.
            #expect(
                log.contains(
                    "thread 'CrBrowserMain' (pid 7000, tid 7000): 2 slices the recording cut, not imported: 1 never ends (still running when it stopped: 'Looper.dispatch'); 1 ends with nothing open (begun before it started); the first at thread 'CrBrowserMain' (pid 7000, tid 7000), the packet at byte "
                ))
            #expect(log.contains("a TYPE_SLICE_END with no open slice on its track: a slice the recording cut"))
            #expect(log.components(separatedBy: "slices the recording cut").count == 2)
            #expect(!tasks.contains { $0.id == "Looper.dispatch" || $0.id == "RenderThreadImpl::Init" })
            // The async track under the process track: an async span, not a thread's task.
            #expect(!tasks.contains { $0.id == "Startup.LoadTime" })
            #expect(log.contains("1 async span of the app"))
            #expect(log.contains("'Startup.LoadTime' (2.66 ms"))
        }
    }

    /// The legacy shapes of a real Chrome recording, written with the official
    /// protos: tasks marked with `task_execution` inside the run loop's slices,
    /// threads named only by their Chrome thread type, legacy async events
    /// (`b`/`e` with a local id, `S`/`F`), an async track under a thread's,
    /// and legacy events with `pid_override` / `tid_override`.
    @Test func chromeLegacyShapesImportAsChromeMeantThem() throws {
        let (scenario, log, summary) = try Self.run([Self.fixture("perfetto-chrome-legacy.pftrace")])
        // From the spec: the tasks, named after where they were posted from; summed by name.
        let tasks = Self.tasks(scenario)
        #expect(
            tasks.map(\.id) == [
                "ThreadControllerImpl::RunTask (posted from StartupTask, startup.cc)",
                "ThreadPool_RunTask (posted from Load, prefs.cc)",
                "ThreadControllerImpl::RunTask (posted from OnNavigate, navigation.cc)", "Looper.idle",
            ])
        #expect(tasks.map(\.cost) == [0.2, 0.1, 0.05, 0.05])
        #expect(tasks.map(\.main) == [true, false, true, true])
        // The browser's main thread has no name but its type: found without flags.
        #expect(summary.contains("app 'com.android.chrome' (pid 7000), main thread 'CrBrowserMain' (tid 7000)"))
        #expect(log.contains("5 slices holding Chrome tasks"))
        // Async spans (legacy b/e and S/F by id, the track under the thread's, the process's): not tasks.
        #expect(log.contains("4 async spans of the app"))
        for name in [
            "'Startup.LoadTime' (0.75 ms", "'PageLoad' (0.605 ms", "'Navigation' (0.43 ms", "'Scheduler.Async' (0.3 ms",
        ] {
            #expect(log.contains(name), "\(name)")
        }
        // The overridden legacy events are the other process's: its thread 7101, and tid -1 (pid_override alone).
        let renderer = try Self.run(
            [Self.fixture("perfetto-chrome-legacy.pftrace")],
            ImportOptions(process: "com.android.chrome:sandboxed_process0"))
        #expect(Self.tasks(renderer.scenario).map(\.id) == ["RenderThreadImpl::Init", "RendererHang", "ProcessWide"])
        #expect(Self.tasks(renderer.scenario).map(\.cost) == [0.06, 0.05, 0.01])
        #expect(renderer.summary.contains("main thread 'CrRendererMain' (tid 7100)"))
    }

    /// Threads named by their Chrome type, and the overridden events' threads, as read.
    @Test func chromeThreadTypesNameThreadsWithoutNames() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture("perfetto-chrome-legacy.pftrace"))))
        var log = ImportLog()
        let trace = try #require(PerfettoReader.read(bytes, file: "t.pftrace", log: &log))
        let threads = trace.threads.map { "\($0.pid)/\($0.tid) \($0.name ?? "-")" }.sorted()
        #expect(
            threads == [
                "7000/7000 CrBrowserMain", "7000/7021 ThreadPoolForegroundWorker", "7100/-1 -",
                "7100/7100 CrRendererMain",
                "7100/7101 -",
            ])
        #expect(
            trace.asyncSpans.map(\.name).sorted() == ["Navigation", "PageLoad", "Scheduler.Async", "Startup.LoadTime"])
        #expect(trace.asyncSpans.allSatisfy { $0.pid == 7000 && $0.end != nil })
    }

    // MARK: Android's launch markers

    @Test func androidStartupBecomesLaunchPhasesAndMeasuredFrames() throws {
        let (scenario, log, summary) = try Self.run([Self.fixture("perfetto-android-startup.pftrace")])
        // From the spec: launching 1000–1480 ms; bindApplication 1120–1250 holding 15 + 60 ms of
        // the app's sections; activityStart 1270–1360 holding 60; activityResume 1365–1380.
        #expect(Self.phases(scenario, "preMain").map(\.0) == ["process start (to bindApplication)"])
        #expect(Self.phases(scenario, "preMain").map(\.1) == [120])
        #expect(
            Self.phases(scenario, "launchPhases").map(\.0) == ["bindApplication", "activityStart", "activityResume"])
        #expect(Self.phases(scenario, "launchPhases").map(\.1) == [55, 30, 15])
        #expect(scenario["startsIn"] as? String == "bindApplication")
        #expect(
            Self.tasks(scenario).map(\.id) == [
                "Application.onCreate: crash-reporter", "Application.onCreate: di-graph", "network-config",
                "MainActivity.onCreate: inflate", "feed-prefetch",
            ])
        #expect(summary.contains("First frame: measured 480 ms"))
        #expect(summary.contains("Full display: measured 600 ms"))
        #expect(log.contains("frame slices (Choreographer#doFrame, DrawFrame and what they hold) are not tasks"))
        #expect(log.contains("1 slice after the launch is not a task"))
    }

    /// `--cost running`: the launch phases are costed as the tasks are, from
    /// the main thread's running time (the spec's sched_switch events: the
    /// main thread sleeps 1105–1115, 1220–1240, 1262–1275 and 1300–1320 ms).
    @Test func androidPhasesUnderCostRunningUseTheMainThreadsRunningTime() throws {
        let file = Self.fixture("perfetto-android-startup-sched.pftrace")
        let wall = try Self.run([file])
        #expect(Self.phases(wall.scenario, "launchPhases").map(\.1) == [55, 30, 15])
        let (scenario, log, _) = try Self.run([file], ImportOptions(cost: .running))
        // Before the first event (1100 ms) the state is unknown: counted as running, as for tasks.
        #expect(Self.phases(scenario, "preMain").map(\.1) == [110])
        // bindApplication: 110 running less 75 in its tasks; activityStart: 65 less 40 (inflate); activityResume 15.
        #expect(Self.phases(scenario, "launchPhases").map(\.1) == [35, 25, 15])
        #expect(Self.tasks(scenario).first { $0.id == "MainActivity.onCreate: inflate" }?.cost == 40)
        #expect(log.contains("each costing the main thread's running time in it less the app's sections inside it"))
        #expect(!log.contains("no scheduler events for the main thread"))
    }

    /// Scheduler events, but none of the main thread: wall time, said once.
    @Test func androidPhasesUnderCostRunningWithoutMainThreadEventsSayWallTime() throws {
        let (scenario, log, _) = try Self.run(
            [Self.fixture("perfetto-android-startup-sched-other.pftrace")], ImportOptions(cost: .running))
        #expect(Self.phases(scenario, "launchPhases").map(\.1) == [55, 30, 15])
        #expect(log.components(separatedBy: "no scheduler events for the main thread (tid 9100)").count == 2)
    }

    // MARK: atrace and systrace

    @Test func atraceZAndSystraceHTMLImportAsTheirPlainTwin() throws {
        let plain = try Self.run([Self.fixture("atrace-launch.txt")])
        let compressed = try Self.run([Self.fixture("atrace-launch.ctrace")])
        let html = try Self.run([Self.fixture("systrace-launch.html")])
        for other in [compressed, html] {
            #expect(Self.tasks(other.scenario).map(\.id) == Self.tasks(plain.scenario).map(\.id))
            #expect(Self.tasks(other.scenario).map(\.cost) == Self.tasks(plain.scenario).map(\.cost))
            #expect(
                Self.phases(other.scenario, "launchPhases").map(\.1)
                    == Self.phases(plain.scenario, "launchPhases").map(\.1))
        }
        #expect(compressed.log.contains("an atrace -z capture"))
        #expect(html.summary.contains("(systrace HTML)"))
        #expect(html.log.contains("1 trace-data block of Chrome JSON beside the atrace text is not read"))
    }

    @Test func atraceZWithAdbLineBreaksIsUndone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture("atrace-launch.ctrace"))))
        // Old adb wrote every \n of the stream as \r\n.
        var mangled: [UInt8] = []
        for byte in bytes {
            if byte == 0x0A { mangled.append(0x0D) }
            mangled.append(byte)
        }
        bytes = mangled
        let path = folder.path("mangled.ctrace")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Self.run([path])
        #expect(
            Self.tasks(result.scenario).count
                == Self.tasks(try Self.run([Self.fixture("atrace-launch.txt")]).scenario).count)
        #expect(result.log.contains("adb had turned into \\r\\n"))
        // A cut capture is one error in atrace's words.
        let cut = folder.path("cut.ctrace")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        let lines = Self.errorLines(Self.error([cut]))
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains("an atrace -z capture (zlib-compressed after 'TRACE:') that does not inflate") == true
        )
    }

    // MARK: Chrome JSON

    @Test func aCutChromeEventIsAWarningNotARefusal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "cut.json",
            """
            {"traceEvents": [
            {"ph": "M", "name": "thread_name", "pid": 5, "tid": 5, "args": {"name": "CrBrowserMain"}},
            {"ph": "X", "name": "startup", "pid": 5, "tid": 5, "ts": 10, "dur": 40},
            {"ph": "X", "name": "still-running", "pid": 5, "tid": 5, "ts": 60},
            {"ph": "B", "name": "open", "pid": 5, "tid": 5, "ts": 70}
            ]}
            """)
        let (scenario, log, _) = try Self.run([path])
        #expect(Self.tasks(scenario).map(\.id) == ["startup"])
        #expect(
            log.contains(
                "thread 'CrBrowserMain' (pid 5, tid 5): 2 slices the recording cut, not imported: 2 never end (still running when it stopped: 'still-running', 'open'); the first at line 4: traceEvents[2] (ph 'X', name 'still-running', pid 5, tid 5, ts 60): an 'X' event without 'dur': a slice the recording cut"
            ))
        #expect(!log.contains("this 'B' event never ends"))
        #expect(Self.errorLines(log).isEmpty)
    }

    @Test func anAmbiguousTraceIsAnsweredWithTheFlagsThatPickEachThread() throws {
        let text = Self.error([Self.fixture("corpus/speedscope-multiprocess.json")])
        let lines = Self.errorLines(text)
        #expect(lines.count == 1)
        #expect(text.contains("--main-thread 0 or --main-thread 1"))
    }

    // MARK: Every format names itself

    @Test func metricKitDiagnosticPayloadsAreNamedAsSuch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Keys as MXDiagnosticPayload.jsonRepresentation() writes them (Apple's MetricKit documentation).
        let path = try folder.write(
            "diagnostics.json",
            """
            {"timeStampBegin": "2026-09-20 00:00:00", "timeStampEnd": "2026-09-20 23:59:00",
             "crashDiagnostics": [{"version": "1.0.0", "callStackTree": {"callStackPerThread": true, "callStacks": []},
               "diagnosticMetaData": {"appVersion": "1.0", "signal": 11, "exceptionType": 1}}],
             "hangDiagnostics": [{"callStackTree": {"callStacks": []}, "diagnosticMetaData": {"hangDuration": "3 sec"}}]}
            """)
        let lines = Self.errorLines(Self.error([path]))
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains(
                "a MetricKit diagnostic payload (1 crashDiagnostics, 1 hangDiagnostics): crashes and hangs, no launch metrics — import reads metric payloads (MXMetricPayload) with applicationLaunchMetrics or signpostMetrics"
            ) == true)
    }

    @Test func anXctraceTableOfContentsIsOneError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "toc.xml",
            """
            <?xml version="1.0"?>
            <trace-toc><run number="1"><info><target><device platform="iOS"/></target></info>
            <data><table schema="os-signpost-interval"/><table schema="life-cycle-period" target-pid="SINGLE"/></data></run></trace-toc>
            """)
        let lines = Self.errorLines(Self.error([path]))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("this is a table of contents (xctrace export --toc)") == true)
    }

    @Test func xcode27SignpostIntervalsImportTheirIntervals() throws {
        let intervals = try Self.run([Self.fixture("xctrace/launch-intervals.xml")], ImportOptions(cost: .wall))
        let xcode27 = try Self.run([Self.fixture("xctrace/xcode27-intervals.xml")])
        #expect(Self.tasks(xcode27.scenario).count == 8)
        #expect(Self.tasks(xcode27.scenario).map(\.id) == Self.tasks(intervals.scenario).map(\.id))
        #expect(Self.tasks(xcode27.scenario).map(\.cost) == Self.tasks(intervals.scenario).map(\.cost))
        #expect(xcode27.log.contains("table 'OSSignpostIntervals' is read as os-signpost-interval"))
    }

    // MARK: The corpus of real recordings

    /// Each file of `Fixtures/import/corpus/` imports to what it holds or ends
    /// in one error in its own format's words (the README says which).
    @Test(arguments: [
        ("catapult-flow_simple.json", "cannot tell which thread is the app's main thread"),
        ("catapult-trivial_systrace.html", "systrace HTML without tracing_mark_write B/E sections (only C ×4"),
        ("inferno-xctrace-time-profile-cut.xml", "the exports have no signpost intervals"),
        ("speedscope-multiprocess.json", "in several processes"),
    ])
    func corpusFileEndsInOneError(_ file: String, _ message: String) throws {
        let text = Self.error([Self.fixture("corpus/" + file)])
        let lines = Self.errorLines(text)
        #expect(lines.count == 1, "\(text)")
        #expect(lines.first?.contains(message) == true, "\(text)")
    }

    /// A real Chrome recording (Windows desktop, Perfetto protobuf; cut, see
    /// the README): at least 10 tasks on its browser main thread, found
    /// without flags and with `--main-thread TID`, each named after where it was posted from.
    @Test func corpusChromeRecordingImportsTasksOnItsBrowserMainThread() throws {
        let file = Self.fixture("corpus/microsoft-perf-tools-chrome-cut.pftrace.gz")
        for options in [ImportOptions(), ImportOptions(mainThread: "14448")] {
            let (scenario, log, summary) = try Self.run([file], options)
            let main = Self.tasks(scenario).filter(\.main)
            #expect(main.count >= 10, "\(summary)")
            #expect(main.filter { $0.id.contains(" (posted from ") }.count >= 10)
            #expect(summary.contains("app 'Browser' (pid 9252), main thread 'CrBrowserMain' (tid 14448)"))
            #expect(
                !Self.tasks(scenario).contains {
                    $0.id == "RunNormalPriorityTask" || $0.id == "SequenceManager RunTask"
                })
            #expect(log.contains("slices holding Chrome tasks"))
            // Cut slices: one warning per thread at most (they were one per slice, 21 here).
            let cut = log.split(separator: "\n").filter {
                $0.hasPrefix("warning: ") && $0.contains("the recording cut")
            }
            let threads = cut.map { $0.components(separatedBy: "pftrace.gz: ")[1].components(separatedBy: ": ")[0] }
            #expect(!cut.isEmpty)
            #expect(Set(threads).count == cut.count, "\(cut)")
            #expect(cut.contains { $0.contains(" slices the recording cut, not imported: ") })
        }
    }

    @Test func corpusAsyncBeginEndImportsItsSlice() throws {
        let (scenario, _, _) = try Self.run([Self.fixture("corpus/catapult-async_begin_end.json")])
        // BE1 120–170 and 220–350 (BE2 230–270 nested in the second); S/T/F async events are not slices.
        #expect(Self.tasks(scenario).map(\.id) == ["BE1"])
        #expect(Self.tasks(scenario).map(\.cost) == [0.18])
    }

    /// The committed fixtures of the producers' shapes are what their writers make today.
    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func theProducerShapedFixturesAreRegeneratedByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = repositoryRoot.appendingPathComponent("Tools/perfetto-fixtures/write_chrome_trace.py").path
        for (kind, stem) in [
            ("chrome", "perfetto-chrome-android"), ("chrome", "perfetto-chrome-legacy"),
            ("android-startup", "perfetto-android-startup"), ("android-startup", "perfetto-android-startup-sched"),
            ("android-startup", "perfetto-android-startup-sched-other"),
        ] {
            let out = folder.path(stem + ".pftrace")
            let result = try runProcess(
                PerfettoWriter.venvPython, [script, kind, Self.fixture(stem + ".spec.json"), out])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: out))
                    == Data(contentsOf: URL(fileURLWithPath: Self.fixture(stem + ".pftrace"))))
        }
        let containers = repositoryRoot.appendingPathComponent("Tools/perfetto-fixtures/write_atrace_containers.py")
        let result = try runProcess(
            PerfettoWriter.venvPython, [containers.path, Self.fixture("atrace-launch.txt"), folder.path("")])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["atrace-launch.ctrace", "systrace-launch.html"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: folder.path(name)))
                    == Data(contentsOf: URL(fileURLWithPath: Self.fixture(name))))
        }
    }
}
