import LaunchflowCore

/// From a trace's slices to launch tasks: which process is the app, which
/// thread is its main thread, which slices are tasks (and which pre-main
/// phases), what each costs, and which flows become dependencies.
///
/// Rules (docs/import.md):
/// - the app is the process of the main thread: `--main-thread NAME|TID`, else
///   the thread named `main`, else the thread whose tid equals its pid;
///   slices of other processes are ignored;
/// - on each thread of the app, the *selected* slices are the outermost
///   interesting ones: by default every slice at depth 0; with `--match`, the
///   slices whose name the regex finds; with `--into` (and no `--match`), the
///   slices named after a task of the scenario. A slice nested in a selected
///   slice is part of it, never a task of its own;
/// - a selected main-thread slice that `--premain` finds (or, with `--into`,
///   named after a pre-main phase) is a pre-main phase;
/// - a task's cost is the sum of its selected slices (a note when there are
///   several); it is `mainThreadOnly` when all of them ran on the main thread;
/// - the steps of a flow (`s`, `t`…, `f`) bind to slices (`s`, `t` and `f`
///   with `"bp": "e"` to the enclosing slice, other `f` to the next slice that
///   begins on that thread) and through them to the selected slice around
///   them; each step depends on the one before it. Nothing is guessed from timing.
///
/// - Complexity: O(n log n) for n slices (one sort per thread), plus
///   O(m log m) for m flow steps.
enum SliceSelection {
    /// The import of one trace, or nil after recording errors in `log`.
    static func run(
        of trace: inout Trace, rules: SelectionRules, mainThread option: String?, process: String? = nil,
        log: inout ImportLog
    ) -> ImportedRun? {
        let errorsBefore = log.errorCount
        guard let app = chooseApp(trace, mainThread: option, process: process, rules: rules, log: &log) else {
            trace.report(appPID: nil, into: &log)
            return nil
        }
        trace.report(appPID: app.pid, into: &log)
        guard log.errorCount == errorsBefore else { return nil }
        for note in trace.readerNotes { log.note(trace.file, note) }
        if let note = trace.asyncSpansNote(appPID: app.pid) { log.note(trace.file, note) }
        let cpus = trace.cpus.resolved(file: trace.file, log: &log)
        // launchflow's runtime traces give each task's thread CPU time (`cpuMs`): its running time.
        let declaresCPU =
            trace.format == .launchflow && !trace.declaredTasks.isEmpty
            && trace.declaredTasks.values.allSatisfy { $0.cpu != nil }
        if rules.cost == .running, trace.schedule == nil, !declaresCPU {
            log.error(
                trace.file,
                trace.format == .launchflow
                    ? "--cost running needs each task's thread CPU time (cpuMs on its slice): this launchflow trace has none — a simulated trace, or a LaunchflowRuntime record made without LaunchConfiguration(recordsCPUTime: true) (launchflow replay records it); import it with --cost wall"
                    : trace.format == .xctrace
                        ? "--cost running needs thread states: export the thread-state table too (a recording with the System Trace template or the Thread State Trace instrument); these exports have none"
                        : "--cost running needs the kernel's scheduler events (sched_switch, in a Perfetto trace with the ftrace 'sched/sched_switch' event): this trace has none"
            )
            return nil
        }
        var run = ImportedRun(file: trace.file, format: trace.format.rawValue)
        run.runningCost = rules.cost == .running
        run.cpus = cpus
        let main = trace.threads[Int(app.mainThread)]
        run.appName = trace.processNames[app.pid]
        run.app =
            (run.appName.map { "'\($0)' (pid \(app.pid))" } ?? "pid \(app.pid)")
            + ", main thread \(main.name.map { "'\($0)' " } ?? "")(tid \(main.tid))"
        if trace.format == .launchflow {
            run.appName = trace.scenarioName ?? run.appName
            run.device = trace.declaredDevice
            run.strategy = trace.declaredStrategy
            declaredRun(trace, app: app, rules: rules, into: &run, log: &log)
        } else {
            // Android's launch markers: phases and frames are not tasks (AndroidLaunch).
            // (Not with --into, --match or --premain: those name the slices they want, whatever they are.)
            let android =
                trace.format == .xctrace || rules.isInto || rules.match != nil || rules.premain != nil
                ? nil : AndroidLaunch.prepare(&trace, app: app)
            var walk = Walk(trace: trace, app: app, rules: rules)
            walk.select(log: &log)
            if !rules.isInto { walk.bindFlows(log: &log) }  // --into changes costs only
            walk.finish(into: &run, log: &log)
            if let android {
                let clock = AndroidLaunch.PhaseClock(
                    trace.schedule, tid: main.tid, running: rules.cost == .running, file: trace.file, log: &log)
                android.apply(to: &run, clock: clock, file: trace.file, log: &log)
            }
        }
        if trace.format == .xctrace { lifecycleRun(trace, app: app, into: &run, log: &log) }
        guard log.errorCount == errorsBefore else { return nil }
        return run
    }

    struct App {
        var pid: Int
        var mainThread: Int32
    }

    // MARK: launchflow traces

    /// launchflow's own trace: the tasks, threads and dependencies its slices
    /// declare, exactly; costs are the slices' durations.
    private static func declaredRun(
        _ trace: Trace, app: App, rules: SelectionRules, into run: inout ImportedRun, log: inout ImportLog
    ) {
        var tasks: [String: Int] = [:]
        var declaredDependencies: [[String]] = []
        let ordered = trace.declaredTasks.keys.sorted {
            (trace.slices[$0].start, trace.slices[$0].event) < (trace.slices[$1].start, trace.slices[$1].event)
        }
        for k in ordered {
            let declared = trace.declaredTasks[k]!
            let slice = trace.slices[k]
            guard trace.threads[Int(slice.thread)].pid == app.pid, let id = declared.id else { continue }
            let decision = rules.decide(id)
            guard decision.matches else { continue }
            // --cost running: the body's thread CPU time, as the runtime measured it.
            let cost = rules.cost == .running ? (declared.cpu ?? slice.duration) : slice.duration
            guard decision.known else {
                run.addUnmatched(id, cost)
                continue
            }
            if let slot = tasks[decision.task] {
                run.tasks[slot].cost = run.tasks[slot].cost.addingSaturated(cost)
                run.tasks[slot].slices += 1
                run.tasks[slot].qos = run.tasks[slot].qos.with(QoSReading(declared: declared.qos))
                if let span = run.tasks[slot].span {
                    run.tasks[slot].span = min(span.lowerBound, slice.start)...max(span.upperBound, slice.end)
                }
                continue
            }
            tasks[decision.task] = run.tasks.count
            run.tasks.append(
                ImportedTask(
                    id: decision.task, cost: cost, onMain: declared.mainThreadOnly, slices: 1,
                    priority: declared.priority, firstFrame: declared.firstFrame,
                    v2: ImportedTask.V2(
                        latency: declared.latency ?? 0, delay: declared.delay ?? 0, queue: declared.queue,
                        idle: declared.idle, anchor: declared.anchor, group: declared.group, after: declared.after,
                        fullyDrawn: declared.fullyDrawn),
                    qos: QoSReading(declared: declared.qos), span: slice.start...slice.end))
            declaredDependencies.append(declared.dependsOn.map { rules.decide($0).task })
        }
        for (slot, dependencies) in declaredDependencies.enumerated() {
            var seen = Set<String>()
            run.tasks[slot].dependsOn = dependencies.filter {
                tasks[$0] != nil && $0 != run.tasks[slot].id && seen.insert($0).inserted
            }
        }
        for (k, _) in trace.declaredPhases.sorted(by: { $0.value < $1.value })
        where trace.threads[Int(trace.slices[k].thread)].pid == app.pid {
            let slice = trace.slices[k]
            run.preMain.append(
                ImportedPhase(name: trace.names[slice.name], cost: slice.duration, span: slice.start...slice.end))
        }
        // (§3.12) The launch phases, with the one that ran didFinishLaunching.
        for (k, phase) in trace.declaredLaunchPhases.sorted(by: { $0.value.index < $1.value.index })
        where trace.threads[Int(trace.slices[k].thread)].pid == app.pid {
            let slice = trace.slices[k]
            let name = trace.names[slice.name]
            run.launchPhases.append(
                ImportedPhase(name: name, cost: phase.cost ?? slice.duration, span: slice.start...slice.end))
            if phase.startsIn { run.startsIn = name }
        }
        // (v2) The inputs the app handled: in `at` order, then trace order (the
        // order the run loop takes pending inputs in).
        let inputs = trace.declaredInputs.keys.filter {
            trace.threads[Int(trace.slices[$0].thread)].pid == app.pid
        }.sorted {
            (trace.declaredInputs[$0]!, trace.slices[$0].event) < (trace.declaredInputs[$1]!, trace.slices[$1].event)
        }
        run.inputs = inputs.map { k in
            var name = Substring(trace.names[trace.slices[k].name])
            if name.hasPrefix("input: ") { name = name.dropFirst("input: ".count) }
            return ImportedInput(
                name: name.isEmpty ? nil : String(name), at: trace.declaredInputs[k]!, cost: trace.slices[k].duration)
        }
        let threads = trace.threads.filter {
            $0.pid == app.pid && ($0.name == "main" || $0.name?.hasPrefix("worker-") == true)
        }
        run.cores = max(threads.count, 2)
    }
}

/// One trace's contribution: its tasks with their costs, threads and
/// dependencies, its pre-main phases.
struct ImportedRun {
    var file: String
    var format: String
    /// `'com.example.shop' (pid 4100), main thread 'main' (tid 4100)`.
    var app: String?
    var appName: String?
    /// In order of their first slice.
    var tasks: [ImportedTask] = []
    var preMain: [ImportedPhase] = []
    /// (§3.12) The app's callbacks of the first run-loop turn (Instruments'
    /// App Launch, launchflow's traces), and the one that ran didFinishLaunching.
    var launchPhases: [ImportedPhase] = []
    var startsIn: String?
    /// (v2) launchflow traces: the inputs handled, in `at` order.
    var inputs: [ImportedInput] = []
    /// App threads (main included) that ran a task.
    var threadsWithTasks: Int?
    /// Cores as the trace states them (launchflow traces).
    var cores: Int?
    /// The whole device, as a launchflow trace states it.
    var device: Device?
    /// The strategy a launchflow trace ran (`otherData.strategy`).
    var strategy: Strategy?
    /// The CPU count the trace records (``TraceCPUs/resolved(file:log:)``), and where.
    var cpus: (count: Int, source: String)?
    /// With `--into`: selected slices whose task is not in the scenario, by name.
    var unmatched: [UnmatchedSlice] = []
    /// MetricKit: the costs are already distributions (cost = median, `p90`).
    var isDistribution = false
    /// `--cost running`: the costs are the time the slices' threads ran.
    var runningCost = false
    /// Instruments' App Launch: the end of Initial Frame Rendering, from the start of Process Creation
    /// (Android: the end of the launch window, from its start).
    var measuredFirstFrame: Nanos?
    /// What ``measuredFirstFrame`` measures, for the summary (nil: Instruments' App Launch).
    var measuredFirstFrameSource: String?
    /// Android: `reportFullyDrawn`, from the start of the launch window.
    var measuredFullDisplay: Nanos?
    var dependencyCount: Int { tasks.reduce(0) { $0 + $1.dependsOn.count } }

    mutating func addUnmatched(_ name: String, _ duration: Nanos) {
        if let k = unmatched.firstIndex(where: { $0.name == name }) {
            unmatched[k].count += 1
            unmatched[k].total = unmatched[k].total.addingSaturated(duration)
        } else {
            unmatched.append(UnmatchedSlice(name: name, count: 1, total: duration))
        }
    }
}

struct ImportedTask {
    var id: String
    var cost: Nanos
    var p90: Nanos? = nil
    /// Every slice ran on the main thread; nil when the source does not say (MetricKit).
    var onMain: Bool?
    /// Ids, in task order.
    var dependsOn: [String] = []
    var slices: Int = 1
    /// launchflow traces only.
    var priority: Int? = nil
    var firstFrame: Bool? = nil
    var v2: V2? = nil
    /// (§3.13) The QoS the trace says the task ran at: set only where the
    /// trace says it for the task's slices, all alike (``QoSReading``).
    var qos: QoSReading = .unsaid
    /// From the start of its first slice to the end of its last (trace clock), when the trace says.
    var span: ClosedRange<Nanos>? = nil

    /// The v2 keys a launchflow trace declares (MODEL.md §1).
    struct V2 {
        var latency: Nanos = 0
        /// The delay the traced strategy applied (`serial` applies none).
        var delay: Nanos = 0
        var queue: String?
        var idle = false
        var anchor = false
        var group: String?
        /// (v2.1) `after` and `fullyDrawn`.
        var after: String?
        var fullyDrawn = false
    }
}

/// (v2) A user input of a launchflow trace: its handler's slice.
struct ImportedInput {
    /// Nil when the slice's name says none.
    var name: String?
    var at: Nanos
    var cost: Nanos
}

struct ImportedPhase {
    var name: String
    var cost: Nanos
    var span: ClosedRange<Nanos>? = nil
}

struct UnmatchedSlice {
    var name: String
    var count: Int
    var total: Nanos
}

/// (§3.13) What a trace says of a task's QoS: a suggestion, never a guess.
/// A task gets `qos` only when every slice of it that the trace reads says
/// one and the same; slices that disagree, or a trace that does not say,
/// leave it out.
enum QoSReading: Equatable {
    /// The trace does not say (a foreign trace's slice; a thread without a priority).
    case unsaid
    case said(QualityOfService)
    /// Slices of the task say different things (or one says a value that is not a QoS).
    case ambiguous

    /// A launchflow trace's slice: its `qos` arg, `default` when absent (as launchflow writes it).
    init(declared: String?) {
        guard let declared else {
            self = .said(.default)
            return
        }
        self = QualityOfService(rawValue: declared).map(QoSReading.said) ?? .ambiguous
    }

    /// This reading and another slice's of the same task.
    func with(_ other: QoSReading) -> QoSReading {
        switch (self, other) {
        case (.unsaid, .unsaid): .unsaid
        case (.said(let a), .said(let b)): a == b ? self : .ambiguous
        default: .ambiguous  // one slice says, another does not: not unambiguous
        }
    }

    var value: QualityOfService? {
        if case .said(let qos) = self { return qos }
        return nil
    }
}
