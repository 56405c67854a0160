/// `launchflow simulate --format trace`: one strategy's schedule as Chrome
/// Trace Event JSON, which Perfetto UI, chrome://tracing and speedscope open.
///
/// The object form `{"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}`
/// (and `"metadata": {"num-cpus": N}` when the CPUs are known),
/// one event per line. Timestamps (`ts`) and durations (`dur`) are integer
/// microseconds from process start, exactly the simulator's clock.
///
/// Process 1 is the app. Threads: `main` (tid 1), `worker-k` (tid k + 1), and
/// a `display` track (tid cores + 1) for frame presentations. Events:
/// - `M` metadata: `process_name`, `thread_name` and `thread_sort_index` per thread;
/// - `X` slices on `main`, properly nested: `pre-main` with one child per
///   phase; one `run-loop iteration k` per iteration, holding (iteration 0)
///   `didFinishLaunching` with the tasks it ran and its `blocked` spans, or the
///   main-thread tasks of that iteration, then the iteration's `commit`;
/// - one `X` slice per task on its thread, named by its id, `dur` = its cost
///   (its wall time: longer when threads share CPUs, MODEL.md §3.10),
///   with `args` id, priority, mainThreadOnly, firstFrame, readyMs, waitMs, dependsOn
///   (and, from the runtime, `cpuMs`: the body's thread CPU time)
///   (and the v2 and v2.1 keys it has: latency, delay, queue, idle, anchor, group,
///   `after` with the time it was held for the first frame, `fullyDrawn`);
/// - (v2) one `X` slice per handled input on `main` (`input: <name>`, cat
///   `input`, first in its iteration), with its `atMs` and `waitMs`; idle
///   tasks are task slices with `"idle": true`;
/// - (v2) each task's latency as an async slice (`b`/`e`, cat `latency`,
///   named `<id> (latency)`) from its end to its done time;
/// - `i` instants: each commit's presentation (`display` track), and the
///   `first frame`, (v2.1) `full display` (when a task is `fullyDrawn`) and
///   `launch complete` (global);
/// - flow events for each dependency: `s` inside the dependency's slice (its
///   last microsecond), `f` with `"bp": "e"` at the dependent's start, so an
///   arrow joins the two slices.
///
/// - Complexity: O(n log n + e) for n tasks and e dependencies.
public enum TraceExport {
    /// The process id used for every event.
    public static let pid = 1

    /// The trace event id (`tid`) of a schedule thread (0 = main, k = worker-k).
    public static func tid(ofThread thread: Int32) -> Int { Int(thread) + 1 }

    /// The trace of `schedule`, as JSON bytes ending in a newline. `metrics`
    /// (the simulator's, of this schedule) add the milestones' instants and
    /// the metric values in `otherData`; a real run recorded by the runtime
    /// has none, and its trace imports back all the same.
    ///
    /// `cpus` is written as `metadata.num-cpus` (as Chrome's own traces state the machine's CPUs, which
    /// `launchflow import` reads back to `device.cpus`): by default the scenario's `device.cpus`; a real
    /// run recorded by the runtime gives the CPUs of the device it ran on.
    ///
    /// - Parameter taskCPUTimes: each task's thread CPU time (µs), as the
    ///   runtime measures it around the body: its slice's `cpuMs`, which
    ///   `launchflow import --cost running` reads. nil: a simulation's (none).
    public static func json(
        _ schedule: Schedule, metrics: Metrics?, cpus: Int? = nil, taskCPUTimes: [Micros]? = nil
    ) -> [UInt8] {
        var trace = TraceWriter(
            schedule, metrics: metrics, cpus: cpus ?? schedule.scenario.device.cpus, taskCPUTimes: taskCPUTimes)
        trace.metadataEvents()
        trace.mainThread()
        trace.workers()
        trace.latencies()
        trace.instants()
        trace.flows()
        trace.otherData()
        return trace.w.bytes
    }

    /// The trace's events, one section after the other; `separate()` before each event.
    private struct TraceWriter {
        let metrics: Metrics?
        let cpus: Int?
        let taskCPUTimes: [Micros]?
        let schedule: Schedule
        let scenario: Scenario
        let mainTid = TraceExport.tid(ofThread: 0)
        let displayTid: Int
        var w: JSONWriter
        private var first = true

        init(_ schedule: Schedule, metrics: Metrics?, cpus: Int?, taskCPUTimes: [Micros]?) {
            self.metrics = metrics
            self.cpus = cpus
            self.taskCPUTimes = taskCPUTimes
            self.schedule = schedule
            scenario = schedule.scenario
            displayTid = scenario.device.cores + 1
            w = JSONWriter(
                capacity: 256 * scenario.tasks.count + 128 * scenario.tasks.reduce(0) { $0 + $1.dependsOn.count }
                    + 4096)
            w.raw("{\"traceEvents\": [")
        }

        mutating func separate() {
            w.raw(first ? "\n" : ",\n")
            first = false
        }

        /// A task's place among others on its thread: by start, end, index.
        func byTime(_ a: Int, _ b: Int) -> Bool {
            let x = schedule.tasks[a]
            let y = schedule.tasks[b]
            return (x.start, x.end, a) < (y.start, y.end, b)
        }

        /// The process and thread names and the threads' order.
        mutating func metadataEvents() {
            let cores = scenario.device.cores
            separate()
            let name = "launchflow: \(scenario.name) (\(schedule.strategy.rawValue))"
            metadata(&w, "process_name", tid: mainTid) { w in w.string(name) }
            var threads: [(tid: Int, name: String, sort: Int)] = (0..<Int32(cores)).map {
                (tid(ofThread: $0), Schedule.threadName($0), Int($0))
            }
            threads.append((displayTid, "display", cores))
            for thread in threads {
                separate()
                metadata(&w, "thread_name", tid: thread.tid) { w in w.string(thread.name) }
                separate()
                metadata(&w, "thread_sort_index", tid: thread.tid, key: "sort_index") { w in w.integer(thread.sort) }
            }
        }

        /// The main thread, parents before children: pre-main, then each iteration.
        mutating func mainThread() {
            if !scenario.preMain.isEmpty {
                separate()
                slice(&w, "pre-main", cat: "preMain", tid: mainTid, TimeSpan(start: 0, end: schedule.t0))
                for (k, phase) in scenario.preMain.enumerated() {
                    separate()
                    slice(&w, phase.name, cat: "preMain", tid: mainTid, schedule.preMain[k]) { w in
                        w.key("phase"); w.integer(k)
                    }
                }
            }
            var mainTasks = [[Int]](repeating: [], count: schedule.commits.count)
            for (i, run) in schedule.tasks.enumerated() where run.isOnMain {
                let k = Int(run.iteration)
                if mainTasks.indices.contains(k) { mainTasks[k].append(i) }
            }
            // Inputs by iteration: the last iteration that started at or before the handler.
            var inputsOf = [[Int]](repeating: [], count: schedule.commits.count)
            for (k, input) in schedule.inputs.enumerated() {
                if let iteration = schedule.commits.lastIndex(where: { $0.iterationStart <= input.start }) {
                    inputsOf[iteration].append(k)
                }
            }
            for (k, commit) in schedule.commits.enumerated() {
                iteration(k, commit, tasks: mainTasks[k].sorted(by: byTime), inputs: inputsOf[k])
            }
        }

        /// Run-loop iteration `k`: didFinishLaunching with its tasks and blocked
        /// spans (iteration 0), or its inputs and tasks; then its commit.
        mutating func iteration(_ k: Int, _ commit: Commit, tasks ordered: [Int], inputs: [Int]) {
            separate()
            slice(
                &w, "run-loop iteration \(k)", cat: "runloop", tid: mainTid,
                TimeSpan(start: commit.iterationStart, end: commit.end)
            ) { w in
                w.key("iteration"); w.integer(k)
            }
            if k == 0 {
                // (§3.12) The launch phases, parents of dFL and its tasks.
                let startPhase = scenario.startPhase
                for (p, phase) in scenario.launchPhases.enumerated() {
                    separate()
                    slice(&w, phase.name, cat: "launchPhase", tid: mainTid, schedule.launchPhases[p].span) { w in
                        w.key("phase"); w.integer(p)
                        w.raw(", "); w.key("costMs"); w.millis(phase.cost)
                        if p == startPhase { w.raw(", "); w.key("startsIn"); w.raw("true") }
                    }
                }
                separate()
                let strategy = schedule.strategy
                slice(&w, "didFinishLaunching", cat: "runloop", tid: mainTid, schedule.didFinishLaunching) { w in
                    w.key("strategy"); w.string(strategy.rawValue)
                }
                var blocked = schedule.blocked[...]
                for i in ordered {
                    while let span = blocked.first, span.start < schedule.tasks[i].start {
                        separate()
                        blockedSlice(&w, span, tid: mainTid, strategy)
                        blocked = blocked.dropFirst()
                    }
                    separate()
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i])
                }
                for span in blocked {
                    separate()
                    blockedSlice(&w, span, tid: mainTid, strategy)
                }
            } else {
                for k in inputs.sorted(by: { schedule.inputs[$0].start < schedule.inputs[$1].start }) {
                    let input = schedule.inputs[k]
                    separate()
                    slice(
                        &w, "input: \(scenario.inputs[k].name)", cat: "input", tid: mainTid,
                        TimeSpan(start: input.start, end: input.end)
                    ) { w in
                        w.key("atMs"); w.millis(input.at)
                        w.raw(", "); w.key("waitMs"); w.millis(input.wait)
                    }
                }
                for i in ordered {
                    separate()
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i])
                }
            }
            separate()
            slice(&w, "commit", cat: "commit", tid: mainTid, TimeSpan(start: commit.start, end: commit.end)) { w in
                w.key("iteration"); w.integer(k)
                w.raw(", "); w.key("presentedMs"); w.millis(commit.presented)
            }
        }

        /// Worker threads, each in time order.
        mutating func workers() {
            var byWorker = [[Int]](repeating: [], count: scenario.device.cores)
            for (i, run) in schedule.tasks.enumerated() where !run.isOnMain { byWorker[Int(run.thread)].append(i) }
            for list in byWorker {
                for i in list.sorted(by: byTime) {
                    separate()
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i])
                }
            }
        }

        /// Latencies: async slices from end to done.
        mutating func latencies() {
            for (i, run) in schedule.tasks.enumerated() where run.done > run.end {
                for phase in ["b", "e"] {
                    separate()
                    w.raw("{\"name\": "); w.string("\(scenario.tasks[i].id) (latency)")
                    w.raw(", \"cat\": \"latency\", \"ph\": \"\(phase)\", \"id\": "); w.integer(i + 1)
                    w.raw(", \"ts\": "); w.integer(phase == "b" ? run.end : run.done)
                    w.raw(", \"pid\": "); w.integer(pid)
                    w.raw(", \"tid\": "); w.integer(tid(ofThread: run.thread))
                    if phase == "b" { w.raw(", \"args\": {"); w.key("latencyMs"); w.millis(run.latency); w.raw("}") }
                    w.raw("}")
                }
            }
        }

        /// Instants: presentations, the first frame, (v2.1) full display, launch completion.
        mutating func instants() {
            for (k, commit) in schedule.commits.enumerated() {
                separate()
                let name = k == metrics?.firstFrameIteration ? "first frame presented" : "frame presented"
                instant(&w, name, tid: displayTid, scope: "t", at: commit.presented) { w in
                    w.key("iteration"); w.integer(k)
                    w.raw(", "); w.key("commitEndMs"); w.millis(commit.end)
                }
            }
            guard let metrics else { return }
            separate()
            instant(&w, "first frame", tid: mainTid, scope: "g", at: metrics.timeToFirstFrame) { w in
                w.key("timeToFirstFrameMs"); w.millis(metrics.timeToFirstFrame)
            }
            if scenario.tasks.contains(where: \.fullyDrawn) {
                separate()
                instant(&w, "full display", tid: mainTid, scope: "g", at: metrics.timeToFullDisplay) { w in
                    w.key("timeToFullDisplayMs"); w.millis(metrics.timeToFullDisplay)
                }
            }
            separate()
            instant(&w, "launch complete", tid: mainTid, scope: "g", at: metrics.launchComplete) { w in
                w.key("launchCompleteMs"); w.millis(metrics.launchComplete)
            }
        }

        /// Flow arrows: dependency → dependent.
        mutating func flows() {
            var flowID = 0
            for (i, task) in scenario.tasks.enumerated() {
                let run = schedule.tasks[i]
                for d in task.dependsOn {
                    flowID += 1
                    let source = schedule.tasks[d]
                    separate()
                    flow(
                        &w, phase: "s", id: flowID, tid: tid(ofThread: source.thread),
                        at: max(source.start, source.end - 1))
                    separate()
                    flow(&w, phase: "f", id: flowID, tid: tid(ofThread: run.thread), at: run.start)
                }
            }
        }

        /// The end of the events, and what launchflow states about the run (`otherData`).
        mutating func otherData() {
            w.raw("\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {")
            w.key("generator"); w.string("launchflow")
            w.raw(", "); w.key("scenario"); w.string(scenario.name)
            w.raw(", "); w.key("strategy"); w.string(schedule.strategy.rawValue)
            let device = scenario.device
            w.raw(", "); w.key("device"); w.raw("{"); w.key("cores"); w.integer(device.cores)
            w.raw(", "); w.key("refreshRate"); w.double(device.refreshRate)
            w.raw(", "); w.key("commitCostMs"); w.millis(device.commitCost)
            w.raw(", "); w.key("renderTimeMs"); w.millis(device.renderTime); w.raw("}")
            for metric in Metric.allCases {
                guard let metrics else { break }
                w.raw(", "); w.key(metric.rawValue); w.metricValue(metric, of: metrics)
            }
            w.raw("}")
            if let cpus {
                w.raw(",\n"); w.key("metadata"); w.raw("{"); w.key("num-cpus"); w.integer(cpus); w.raw("}")
            }
            w.raw("\n}\n")
        }
    }

    // MARK: Events

    private static func metadata(
        _ w: inout JSONWriter, _ name: String, tid: Int, key: String = "name", _ value: (inout JSONWriter) -> Void
    ) {
        w.raw("{\"name\": "); w.string(name)
        w.raw(", \"ph\": \"M\", \"pid\": "); w.integer(pid)
        w.raw(", \"tid\": "); w.integer(tid)
        w.raw(", \"args\": {"); w.key(key); value(&w); w.raw("}}")
    }

    private static func slice(
        _ w: inout JSONWriter, _ name: String, cat: String, tid: Int, _ span: TimeSpan,
        args: ((inout JSONWriter) -> Void)? = nil
    ) {
        w.raw("{\"name\": "); w.string(name)
        w.raw(", \"cat\": "); w.string(cat)
        w.raw(", \"ph\": \"X\", \"ts\": "); w.integer(span.start)
        w.raw(", \"dur\": "); w.integer(span.duration)
        w.raw(", \"pid\": "); w.integer(pid)
        w.raw(", \"tid\": "); w.integer(tid)
        if let args {
            w.raw(", \"args\": {")
            args(&w)
            w.raw("}")
        }
        w.raw("}")
    }

    private static func blockedSlice(_ w: inout JSONWriter, _ span: TimeSpan, tid: Int, _ strategy: Strategy) {
        slice(&w, "blocked (\(blockedReason(strategy)))", cat: "blocked", tid: tid, span)
    }

    /// What `didFinishLaunching` waits for when it blocks the main thread under `strategy`.
    static func blockedReason(_ strategy: Strategy) -> String {
        switch strategy {
        case .serial: "waiting for a task to be done (latency or queue)"
        case .priority: "waiting for tier 0 workers"
        case .dag, .anchored: "waiting for the anchors"
        }
    }

    private static func taskSlice(_ w: inout JSONWriter, _ i: Int, _ schedule: Schedule, cpu: Micros?) {
        let task = schedule.scenario.tasks[i]
        let run = schedule.tasks[i]
        slice(&w, task.id, cat: "task", tid: tid(ofThread: run.thread), TimeSpan(start: run.start, end: run.end)) { w in
            w.key("id"); w.string(task.id)
            w.raw(", "); w.key("priority"); w.integer(task.priority)
            w.raw(", "); w.key("mainThreadOnly"); w.bool(task.mainThreadOnly)
            w.raw(", "); w.key("firstFrame"); w.bool(task.firstFrame)
            w.raw(", "); w.key("readyMs"); w.millis(run.ready)
            w.raw(", "); w.key("waitMs"); w.millis(run.wait)
            if let cpu { w.raw(", "); w.key("cpuMs"); w.millis(cpu) }
            if run.isOnMain {
                w.raw(", "); w.key("iteration"); w.integer(Int(run.iteration))
            }
            if run.done > run.end {
                w.raw(", "); w.key("latencyMs"); w.millis(run.latency)
                w.raw(", "); w.key("doneMs"); w.millis(run.done)
            }
            if task.after != nil && run.delayed > 0 {
                // (v2.1) Held until the first frame, then its own delay.
                let delay = min(task.delay, run.delayed)
                if delay > 0 { w.raw(", "); w.key("delayMs"); w.millis(delay) }
                w.raw(", "); w.key("heldForFirstFrameMs"); w.millis(run.delayed - delay)
            } else if run.delayed > 0 {
                w.raw(", "); w.key("delayMs"); w.millis(run.delayed)
            }
            if let after = task.after { w.raw(", "); w.key("after"); w.string(after.rawValue) }
            if task.fullyDrawn { w.raw(", "); w.key("fullyDrawn"); w.bool(true) }
            if let queue = task.queue {
                w.raw(", "); w.key("queue"); w.string(queue)
                w.raw(", "); w.key("queueWaitMs"); w.millis(run.queueWait)
            }
            if task.idle { w.raw(", "); w.key("idle"); w.bool(true) }
            if task.anchor { w.raw(", "); w.key("anchor"); w.bool(true) }
            if let group = task.group { w.raw(", "); w.key("group"); w.string(group) }
            w.raw(", "); w.key("dependsOn"); w.raw("[")
            for (k, d) in task.dependsOn.enumerated() {
                if k > 0 { w.raw(", ") }
                w.string(schedule.scenario.tasks[d].id)
            }
            w.raw("]")
            let early = task.dependsOn.filter { run.start < schedule.tasks[$0].done }
            if !early.isEmpty {
                w.raw(", "); w.key("startedBeforeDependencies"); w.raw("[")
                for (k, d) in early.enumerated() {
                    if k > 0 { w.raw(", ") }
                    w.string(schedule.scenario.tasks[d].id)
                }
                w.raw("]")
            }
        }
    }

    private static func instant(
        _ w: inout JSONWriter, _ name: String, tid: Int, scope: String, at time: Micros,
        args: (inout JSONWriter) -> Void
    ) {
        w.raw("{\"name\": "); w.string(name)
        w.raw(", \"cat\": \"frame\", \"ph\": \"i\", \"s\": "); w.string(scope)
        w.raw(", \"ts\": "); w.integer(time)
        w.raw(", \"pid\": "); w.integer(pid)
        w.raw(", \"tid\": "); w.integer(tid)
        w.raw(", \"args\": {"); args(&w); w.raw("}}")
    }

    private static func flow(_ w: inout JSONWriter, phase: String, id: Int, tid: Int, at time: Micros) {
        w.raw("{\"name\": \"dependency\", \"cat\": \"dependency\", \"ph\": "); w.string(phase)
        w.raw(", \"id\": "); w.integer(id)
        w.raw(", \"ts\": "); w.integer(time)
        w.raw(", \"pid\": "); w.integer(pid)
        w.raw(", \"tid\": "); w.integer(tid)
        if phase == "f" { w.raw(", \"bp\": \"e\"") }
        w.raw("}")
    }
}
