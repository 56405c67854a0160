import Foundation
import LaunchflowModel

/// What one launch did: for every task its thread, run-loop iteration,
/// ready, start, end and done times (µs from the launch clock's origin), its
/// outcome; the commits; the time `didFinishLaunching` blocked the main
/// thread; the launch phases the app marked (``Launch/phaseBegan(_:)``:
/// `schedule.launchPhases`, and `measuredScenario.launchPhases` and
/// `startsIn`); and what went wrong.
///
/// ``schedule`` is the same type the simulator produces, written as
/// launchflow's trace (``traceJSON()``: `launchflow import` reads it back to
/// the same tasks, threads, keys and dependencies, and `launchflow calibrate
/// --trace` puts it beside the simulation) and as a scenario with the
/// measured costs (``scenarioJSON()``).
public struct LaunchRecord: Sendable {
    /// The launch as run: the tasks with their measured costs and latencies.
    public let measuredScenario: Scenario
    /// Where and when everything ran, as a simulated schedule is (thread 0 is
    /// `main`, k is `worker-k`).
    public let schedule: Schedule
    /// Each task's outcome, in the scenario's order (`schedule.scenario.tasks`);
    /// ``outcome(of:)`` by id.
    public private(set) var outcomes: [TaskOutcome]
    /// What went wrong, in the order it happened, each naming its task by id.
    public private(set) var problems: [LaunchProblem]
    /// Each task's thread CPU time around its body, µs (`CLOCK_THREAD_CPUTIME_ID`;
    /// 0 for a task that did not run); nil unless ``LaunchConfiguration/recordsCPUTime``.
    /// The trace carries it (`cpuMs`).
    public let cpuTimes: [Micros]?
    /// Each task's quality of service: its `qos` and what its body ran at
    /// (docs/runtime.md, "Quality of service"); nil for a task whose body did
    /// not run. The trace carries them (`qos`, `qosApplied`).
    public let qos: [TaskQoS?]
    /// Differences between code and file (kept dependencies).
    public let warnings: [Diagnostic]
    /// Why the launch failed (`didFinishLaunching()` threw it): the record
    /// then says how far it got — tasks not run are ``TaskOutcome/notRun``,
    /// those waiting in the main queue ``TaskOutcome/cancelled``. nil: it is complete.
    public let failure: LaunchError?

    init(
        resolved: ResolvedLaunch, strategy: Strategy, workers: Int, idleMode: IdleMode, state: SchedulerState,
        phases marks: PhaseMarks = PhaseMarks(), recordsCPUTime: Bool = false, failure: LaunchError? = nil
    ) {
        let scenario = resolved.scenario
        var runs = state.runs
        // (§3.12) The phases the app marked: the run loop's first turn starts with the first of them.
        let phases = marks.recorded(didFinishLaunching: state.launch)
        let t0 = Swift.min(state.launch.start, phases.runs.first?.start ?? state.launch.start)
        var commits = state.commits
        if !commits.isEmpty { commits[0].iterationStart = Swift.min(commits[0].iterationStart, t0) }
        // Tasks that never ran (skipped before they were handed over: not possible; kept for safety) start at t0.
        for i in runs.indices where runs[i].thread < 0 {
            runs[i] = TaskRun(
                thread: 0, iteration: 0, ready: t0, start: t0, end: t0, done: t0, madeReady: t0, released: t0)
        }
        let costs = runs.map { $0.end - $0.start }
        let latencies = runs.map { $0.done - $0.end }
        let commitCost = Self.median(state.commits.map { $0.end - $0.start })
        let tasks = zip(scenario.tasks, zip(costs, latencies)).map { task, measured in
            var task = task
            task.cost = measured.0
            task.latency = measured.1
            task.costP90 = nil
            task.latencyP90 = nil
            return task
        }
        let preMain = Self.preMain(scenario.preMain, total: t0)
        var device = scenario.device
        device.cores = workers + 1
        device.commitCost = commitCost
        // The resolved scenario (validated) with what the run measured, not validated again: its
        // tasks, dependencies and ids are the same, and validating 10,000 tasks took a third of
        // the runtime's own time in launchflow-bench --runtime (the record is built before the
        // launch is complete). Jitter and inputs are the simulator's, not measured: left out.
        var measured = scenario
        measured.device = device
        measured.preMain = preMain
        measured.launchPhases = phases.phases
        measured.startsIn = phases.startsIn == Scenario.defaultStartsIn ? nil : phases.startsIn
        measured.tasks = tasks
        measured.jitter = nil
        measured.inputs = []
        measured.idleMode = idleMode
        measured.strategy = strategy
        assert(measured.problems().isEmpty, "launchflow: the measured scenario is not valid: \(measured.problems())")
        measuredScenario = measured
        let spans = measuredScenario.preMain.spans
        schedule = Schedule(
            scenario: measuredScenario, strategy: strategy, maxConcurrent: nil, costs: costs, latencies: latencies,
            t0: t0, preMain: spans, tasks: runs, commits: commits, blocked: state.blocked,
            didFinishLaunching: state.launch, inputs: [], idleMode: idleMode,
            launchPhases: measuredScenario.launchPhases.isEmpty ? [] : phases.runs)
        outcomes = state.outcomes
        problems = state.problems
        cpuTimes = recordsCPUTime ? state.cpuTimes : nil
        qos = state.qos
        warnings = resolved.warnings
        self.failure = failure
    }

    /// `task` was handed to a worker after the launch had ended: it did not run (`problem` says so).
    mutating func cancelled(_ task: Int, _ problem: LaunchProblem) {
        outcomes[task] = .cancelled
        problems.append(problem)
    }

    /// The outcome of the task `id`; nil for an id the launch does not have.
    public func outcome(of id: String) -> TaskOutcome? {
        schedule.scenario.tasks.firstIndex { $0.id == id }.map { outcomes[$0] }
    }

    /// Every (task, dependency) pair, by id, where the task started before
    /// its dependency was done — what `priority` may do (it keeps its tiers,
    /// not the dependencies), as the simulator's `dependencyViolations`.
    public var brokenDependencies: [(task: String, dependency: String)] {
        let tasks = schedule.scenario.tasks
        var found: [(task: String, dependency: String)] = []
        for (i, task) in tasks.enumerated() where outcomes[i] == .succeeded {
            for d in task.dependsOn where schedule.tasks[i].start < schedule.tasks[d].done {
                found.append((task.id, tasks[d].id))
            }
        }
        return found
    }

    /// The first frame: when the commit of the iteration that ran the last
    /// `firstFrame` task was on screen (µs of the launch clock); nil when a
    /// `firstFrame` task did not run (it failed or was skipped). Without
    /// `firstFrame` tasks, iteration 0's commit (MODEL.md §3.8).
    public var firstFramePresented: Micros? {
        let tasks = schedule.scenario.tasks
        let first = tasks.indices.filter { tasks[$0].firstFrame }
        guard first.allSatisfy({ outcomes[$0] == .succeeded }) else { return nil }
        let k = Int(first.map { schedule.tasks[$0].iteration }.max() ?? 0)
        return schedule.commits.indices.contains(k) ? schedule.commits[k].presented : nil
    }

    /// The launch's metrics as the simulator names them — Apple's first draw,
    /// the first frame, full display, launch complete, the main thread
    /// blocked, and each task's wait, run and CPU time — for the app's
    /// telemetry (`JSONEncoder().encode(record.metrics)`). nil for a launch
    /// that failed before its first commit.
    public var metrics: LaunchMetrics? {
        guard !schedule.commits.isEmpty else { return nil }
        let tasks = schedule.scenario.tasks
        let iterations = tasks.indices.filter { tasks[$0].firstFrame || tasks[$0].fullyDrawn }.map {
            Int(schedule.tasks[$0].iteration)
        }
        guard iterations.allSatisfy({ schedule.commits.indices.contains($0) }) else { return nil }
        return LaunchMetrics(schedule, cpuTimes: cpuTimes, outcomes: outcomes)
    }

    /// launchflow's own trace format (Chrome trace JSON with launchflow's
    /// metadata): `launchflow import` reads it back to the same tasks,
    /// threads and dependencies, and `device.cpus` from the CPUs of the
    /// device it ran on (`metadata.num-cpus`); each task slice's `cpuMs` is
    /// its thread CPU time, which `launchflow import --cost running` reads
    /// (with ``LaunchConfiguration/recordsCPUTime``; without, no `cpuMs`).
    public func traceJSON() -> [UInt8] {
        TraceExport.json(
            schedule, metrics: nil, cpus: ProcessInfo.processInfo.activeProcessorCount, taskCPUTimes: cpuTimes,
            taskQoSApplied: qos.map { $0?.traceText })
    }

    /// The declared graph, dependencies included, with the measured costs and
    /// latencies: a scenario nobody had to write (`launchflow simulate` reads it).
    public func scenarioJSON() -> [UInt8] { measuredScenario.jsonBytes() }

    /// The scenario's pre-main phases scaled to the time before
    /// `didFinishLaunching` (one phase when it has none).
    private static func preMain(_ phases: [PreMainPhase], total: Micros) -> [PreMainPhase] {
        let declared = phases.reduce(0) { $0 + $1.cost }
        guard total > 0 else { return [] }
        guard declared > 0 else { return [PreMainPhase(name: "before didFinishLaunching", cost: total)] }
        return phases.scaled(to: total)
    }

    private static func median(_ values: [Micros]) -> Micros {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }
}
