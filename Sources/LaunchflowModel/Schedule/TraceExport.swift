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
///   (and, from the runtime, `cpuMs`: the body's thread CPU time, and
///   `qosApplied`: what the body ran at when its `qos` changed anything)
///   (and the v2 and v2.1 keys it has: latency, delay, queue, idle, anchor, group,
///   `after` with the time it was held for the first frame, `fullyDrawn`;
///   and §3.13's `qos` when it is not `default`);
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
    /// - Parameter taskQoSApplied: what each task's body ran at, as the
    ///   runtime applied its `qos` (`nice 10`, `background`, `not applied: …`;
    ///   nil: nothing changed): its slice's `qosApplied`. Every trace gives a
    ///   task's `qos` other than `default` as its slice's `qos`.
    public static func json(
        _ schedule: Schedule, metrics: Metrics?, cpus: Int? = nil, taskCPUTimes: [Micros]? = nil,
        taskQoSApplied: [String?]? = nil
    ) -> [UInt8] {
        let trace = TraceWriter(
            schedule, metrics: metrics, cpus: cpus ?? schedule.scenario.device.cpus, taskCPUTimes: taskCPUTimes,
            taskQoSApplied: taskQoSApplied)
        // {"traceEvents": [ one event a line ],\n"displayTimeUnit": "ms",\n"otherData": {…}\n}
        var w = JSONWriter(
            capacity: 256 * schedule.scenario.tasks.count + 128
                * schedule.scenario.tasks.reduce(0) { $0 + $1.dependsOn.count } + 4096)
        w.object(.lines(indent: 0, firstMemberInline: true)) { w in
            w.field("traceEvents", array: .unindented) { w in
                trace.metadataEvents(&w)
                trace.mainThread(&w)
                trace.workers(&w)
                trace.latencies(&w)
                trace.instants(&w)
                trace.flows(&w)
            }
            w.field("displayTimeUnit", "ms")
            trace.otherData(&w)
        }
        w.newline()
        return w.bytes
    }

    /// The trace's events, one section after the other, each event an element of `traceEvents`.
    private struct TraceWriter {
        let metrics: Metrics?
        let cpus: Int?
        let taskCPUTimes: [Micros]?
        let taskQoSApplied: [String?]?
        let schedule: Schedule
        let scenario: Scenario
        let mainTid = TraceExport.tid(ofThread: 0)
        let displayTid: Int

        init(_ schedule: Schedule, metrics: Metrics?, cpus: Int?, taskCPUTimes: [Micros]?, taskQoSApplied: [String?]?) {
            self.metrics = metrics
            self.cpus = cpus
            self.taskCPUTimes = taskCPUTimes
            self.taskQoSApplied = taskQoSApplied
            self.schedule = schedule
            scenario = schedule.scenario
            displayTid = scenario.device.cores + 1
        }

        /// A task's place among others on its thread: by start, end, index.
        func byTime(_ a: Int, _ b: Int) -> Bool {
            let x = schedule.tasks[a]
            let y = schedule.tasks[b]
            return (x.start, x.end, a) < (y.start, y.end, b)
        }

        /// The process and thread names and the threads' order.
        func metadataEvents(_ w: inout JSONWriter) {
            let cores = scenario.device.cores
            let name = "launchflow: \(scenario.name) (\(schedule.strategy.rawValue))"
            metadata(&w, "process_name", tid: mainTid) { w in w.string(name) }
            var threads: [(tid: Int, name: String, sort: Int)] = (0..<Int32(cores)).map {
                (tid(ofThread: $0), Schedule.threadName($0), Int($0))
            }
            threads.append((displayTid, "display", cores))
            for thread in threads {
                metadata(&w, "thread_name", tid: thread.tid) { w in w.string(thread.name) }
                metadata(&w, "thread_sort_index", tid: thread.tid, key: "sort_index") { w in w.integer(thread.sort) }
            }
        }

        /// The main thread, parents before children: pre-main, then each iteration.
        func mainThread(_ w: inout JSONWriter) {
            if !scenario.preMain.isEmpty {
                slice(&w, "pre-main", cat: "preMain", tid: mainTid, TimeSpan(start: 0, end: schedule.t0))
                for (k, phase) in scenario.preMain.enumerated() {
                    slice(&w, phase.name, cat: "preMain", tid: mainTid, schedule.preMain[k]) { w in
                        w.field("phase", k)
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
                iteration(&w, k, commit, tasks: mainTasks[k].sorted(by: byTime), inputs: inputsOf[k])
            }
        }

        /// Run-loop iteration `k`: didFinishLaunching with its tasks and blocked
        /// spans (iteration 0), or its inputs and tasks; then its commit.
        func iteration(_ w: inout JSONWriter, _ k: Int, _ commit: Commit, tasks ordered: [Int], inputs: [Int]) {
            slice(
                &w, "run-loop iteration \(k)", cat: "runloop", tid: mainTid,
                TimeSpan(start: commit.iterationStart, end: commit.end)
            ) { w in
                w.field("iteration", k)
            }
            if k == 0 {
                // (§3.12) The launch phases, parents of dFL and its tasks.
                let startPhase = scenario.startPhase
                for (p, phase) in scenario.launchPhases.enumerated() {
                    slice(&w, phase.name, cat: "launchPhase", tid: mainTid, schedule.launchPhases[p].span) { w in
                        w.field("phase", p)
                        w.field("costMs", millis: phase.cost)
                        if p == startPhase { w.field("startsIn", true) }
                    }
                }
                let strategy = schedule.strategy
                slice(&w, "didFinishLaunching", cat: "runloop", tid: mainTid, schedule.didFinishLaunching) { w in
                    w.field("strategy", strategy.rawValue)
                }
                var blocked = schedule.blocked[...]
                for i in ordered {
                    while let span = blocked.first, span.start < schedule.tasks[i].start {
                        blockedSlice(&w, span, tid: mainTid, strategy)
                        blocked = blocked.dropFirst()
                    }
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i], qosApplied: taskQoSApplied?[i])
                }
                for span in blocked {
                    blockedSlice(&w, span, tid: mainTid, strategy)
                }
            } else {
                for k in inputs.sorted(by: { schedule.inputs[$0].start < schedule.inputs[$1].start }) {
                    let input = schedule.inputs[k]
                    slice(
                        &w, "input: \(scenario.inputs[k].name)", cat: "input", tid: mainTid,
                        TimeSpan(start: input.start, end: input.end)
                    ) { w in
                        w.field("atMs", millis: input.at)
                        w.field("waitMs", millis: input.wait)
                    }
                }
                for i in ordered {
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i], qosApplied: taskQoSApplied?[i])
                }
            }
            slice(&w, "commit", cat: "commit", tid: mainTid, TimeSpan(start: commit.start, end: commit.end)) { w in
                w.field("iteration", k)
                w.field("presentedMs", millis: commit.presented)
            }
        }

        /// Worker threads, each in time order.
        func workers(_ w: inout JSONWriter) {
            var byWorker = [[Int]](repeating: [], count: scenario.device.cores)
            for (i, run) in schedule.tasks.enumerated() where !run.isOnMain { byWorker[Int(run.thread)].append(i) }
            for list in byWorker {
                for i in list.sorted(by: byTime) {
                    taskSlice(&w, i, schedule, cpu: taskCPUTimes?[i], qosApplied: taskQoSApplied?[i])
                }
            }
        }

        /// Latencies: async slices from end to done.
        func latencies(_ w: inout JSONWriter) {
            for (i, run) in schedule.tasks.enumerated() where run.done > run.end {
                for phase in ["b", "e"] {
                    w.object { w in
                        w.field("name", "\(scenario.tasks[i].id) (latency)")
                        w.field("cat", "latency")
                        w.field("ph", phase)
                        w.field("id", i + 1)
                        w.field("ts", phase == "b" ? run.end : run.done)
                        w.field("pid", pid)
                        w.field("tid", tid(ofThread: run.thread))
                        if phase == "b" {
                            w.field("args", object: .compact) { w in w.field("latencyMs", millis: run.latency) }
                        }
                    }
                }
            }
        }

        /// Instants: presentations, the first frame, (v2.1) full display, launch completion.
        func instants(_ w: inout JSONWriter) {
            for (k, commit) in schedule.commits.enumerated() {
                let name = k == metrics?.firstFrameIteration ? "first frame presented" : "frame presented"
                instant(&w, name, tid: displayTid, scope: "t", at: commit.presented) { w in
                    w.field("iteration", k)
                    w.field("commitEndMs", millis: commit.end)
                }
            }
            guard let metrics else { return }
            instant(&w, "first frame", tid: mainTid, scope: "g", at: metrics.timeToFirstFrame) { w in
                w.field("timeToFirstFrameMs", millis: metrics.timeToFirstFrame)
            }
            if scenario.tasks.contains(where: \.fullyDrawn) {
                instant(&w, "full display", tid: mainTid, scope: "g", at: metrics.timeToFullDisplay) { w in
                    w.field("timeToFullDisplayMs", millis: metrics.timeToFullDisplay)
                }
            }
            instant(&w, "launch complete", tid: mainTid, scope: "g", at: metrics.launchComplete) { w in
                w.field("launchCompleteMs", millis: metrics.launchComplete)
            }
        }

        /// Flow arrows: dependency → dependent.
        func flows(_ w: inout JSONWriter) {
            var flowID = 0
            for (i, task) in scenario.tasks.enumerated() {
                let run = schedule.tasks[i]
                for d in task.dependsOn {
                    flowID += 1
                    let source = schedule.tasks[d]
                    flow(
                        &w, phase: "s", id: flowID, tid: tid(ofThread: source.thread),
                        at: max(source.start, source.end - 1))
                    flow(&w, phase: "f", id: flowID, tid: tid(ofThread: run.thread), at: run.start)
                }
            }
        }

        /// What launchflow states about the run (`otherData`), and the CPUs (`metadata`).
        func otherData(_ w: inout JSONWriter) {
            w.field("otherData", object: .compact) { w in
                w.field("generator", "launchflow")
                w.field("scenario", scenario.name)
                w.field("strategy", schedule.strategy.rawValue)
                let device = scenario.device
                w.field("device", object: .compact) { w in
                    w.field("cores", device.cores)
                    w.field("refreshRate", device.refreshRate)
                    w.field("commitCostMs", millis: device.commitCost)
                    w.field("renderTimeMs", millis: device.renderTime)
                }
                if let metrics {
                    for metric in Metric.allCases {
                        w.key(metric.rawValue)
                        w.metricValue(metric, of: metrics)
                    }
                }
            }
            if let cpus { w.field("metadata", object: .compact) { w in w.field("num-cpus", cpus) } }
        }
    }

    // MARK: Events

    /// The keys every event has, escaped once (a trace has an event per task and two per dependency).
    private enum Keys {
        static let name = JSONKey("name")
        static let cat = JSONKey("cat")
        static let ph = JSONKey("ph")
        static let ts = JSONKey("ts")
        static let dur = JSONKey("dur")
        static let pid = JSONKey("pid")
        static let tid = JSONKey("tid")
        static let id = JSONKey("id")
        static let args = JSONKey("args")
        static let priority = JSONKey("priority")
        static let mainThreadOnly = JSONKey("mainThreadOnly")
        static let firstFrame = JSONKey("firstFrame")
        static let readyMs = JSONKey("readyMs")
        static let waitMs = JSONKey("waitMs")
        static let dependsOn = JSONKey("dependsOn")
    }

    private static func metadata(
        _ w: inout JSONWriter, _ name: String, tid: Int, key: String = "name", _ value: (inout JSONWriter) -> Void
    ) {
        w.object { w in
            w.field(Keys.name, name)
            w.field(Keys.ph, "M")
            w.field(Keys.pid, pid)
            w.field(Keys.tid, tid)
            w.field("args", object: .compact) { w in
                w.key(key)
                value(&w)
            }
        }
    }

    private static func slice(
        _ w: inout JSONWriter, _ name: String, cat: String, tid: Int, _ span: TimeSpan,
        args: ((inout JSONWriter) -> Void)? = nil
    ) {
        w.object { w in
            w.field(Keys.name, name)
            w.field(Keys.cat, cat)
            w.field(Keys.ph, "X")
            w.field(Keys.ts, span.start)
            w.field(Keys.dur, span.duration)
            w.field(Keys.pid, pid)
            w.field(Keys.tid, tid)
            if let args {
                w.key(Keys.args)
                w.object(.compact, args)
            }
        }
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

    private static func taskSlice(
        _ w: inout JSONWriter, _ i: Int, _ schedule: Schedule, cpu: Micros?, qosApplied: String?
    ) {
        let task = schedule.scenario.tasks[i]
        let run = schedule.tasks[i]
        slice(&w, task.id, cat: "task", tid: tid(ofThread: run.thread), TimeSpan(start: run.start, end: run.end)) { w in
            w.field(Keys.id, task.id)
            w.field(Keys.priority, task.priority)
            w.field(Keys.mainThreadOnly, task.mainThreadOnly)
            w.field(Keys.firstFrame, task.firstFrame)
            w.field(Keys.readyMs, millis: run.ready)
            w.field(Keys.waitMs, millis: run.wait)
            if let cpu { w.field("cpuMs", millis: cpu) }
            if run.isOnMain { w.field("iteration", Int(run.iteration)) }
            if run.done > run.end {
                w.field("latencyMs", millis: run.latency)
                w.field("doneMs", millis: run.done)
            }
            if task.after != nil && run.delayed > 0 {
                // (v2.1) Held until the first frame, then its own delay.
                let delay = min(task.delay, run.delayed)
                if delay > 0 { w.field("delayMs", millis: delay) }
                w.field("heldForFirstFrameMs", millis: run.delayed - delay)
            } else if run.delayed > 0 {
                w.field("delayMs", millis: run.delayed)
            }
            if let after = task.after { w.field("after", after.rawValue) }
            if task.fullyDrawn { w.field("fullyDrawn", true) }
            if let queue = task.queue {
                w.field("queue", queue)
                w.field("queueWaitMs", millis: run.queueWait)
            }
            if task.idle { w.field("idle", true) }
            if task.anchor { w.field("anchor", true) }
            if let group = task.group { w.field("group", group) }
            if task.qos != .default { w.field("qos", task.qos.rawValue) }
            if let qosApplied { w.field("qosApplied", qosApplied) }
            let ids = schedule.scenario.tasks
            w.key(Keys.dependsOn)
            w.strings(task.dependsOn.map { ids[$0].id })
            let early = task.dependsOn.filter { run.start < schedule.tasks[$0].done }
            if !early.isEmpty { w.field("startedBeforeDependencies", strings: early.map { ids[$0].id }) }
        }
    }

    private static func instant(
        _ w: inout JSONWriter, _ name: String, tid: Int, scope: String, at time: Micros,
        args: (inout JSONWriter) -> Void
    ) {
        w.object { w in
            w.field(Keys.name, name)
            w.field(Keys.cat, "frame")
            w.field(Keys.ph, "i")
            w.field("s", scope)
            w.field(Keys.ts, time)
            w.field(Keys.pid, pid)
            w.field(Keys.tid, tid)
            w.key(Keys.args)
            w.object(.compact, args)
        }
    }

    private static func flow(_ w: inout JSONWriter, phase: String, id: Int, tid: Int, at time: Micros) {
        w.object { w in
            w.field(Keys.name, "dependency")
            w.field(Keys.cat, "dependency")
            w.field(Keys.ph, phase)
            w.field(Keys.id, id)
            w.field(Keys.ts, time)
            w.field(Keys.pid, pid)
            w.field(Keys.tid, tid)
            if phase == "f" { w.field("bp", "e") }
        }
    }
}
