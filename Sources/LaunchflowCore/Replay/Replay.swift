/// `launchflow replay`: real runs of a scenario on LaunchflowRuntime (in a
/// child process, `launchflow-replay-host`) beside its simulation — the
/// metrics, and per task the start and end error, thread and run-loop
/// iteration, with the tasks that diverge most and why.
public enum Replay {}

extension Replay {
    /// One real run, as the host recorded it (µs from the process's start).
    public struct Run: Sendable {
        public var schedule: Schedule
        public var outcomes: [String]
        public var problems: [String]
        /// The runtime's set-up (`Launch.init`: the graph and plan resolved, the workers started), µs: the
        /// host does it before the pre-main spin, which is shortened by it (0 in an older host's record).
        public var setUp: Micros
        /// The host's nice value during the run (nil in an older host's record): replay asks for −15.
        public var nice: Int?
        /// `replay --emulate`: per task, the cgroup its thread was in when its body started (`core0`,
        /// `shared0`, `waiting`: ``CorePlacement/group``; "" where it did not run or without emulation),
        /// how many times the host moved a thread, and the moves that failed.
        public var coreGroups: [String] = []
        public var coreMoves = 0
        public var coreFailures: [String] = []

        /// Reads the host's record of a run of `scenario` under `strategy`.
        ///
        /// - Throws: a message naming what is missing (the host wrote it, so
        ///   this is a version mismatch, not user input).
        public init(record bytes: [UInt8], scenario: Scenario, strategy: Strategy) throws(ReplayError) {
            let root: JSONValue
            do {
                root = try JSONValue.parse(bytes)
            } catch {
                throw ReplayError(message: "the host's record is not JSON: \(error)")
            }
            func int(_ value: JSONValue?, _ what: String) throws(ReplayError) -> Micros {
                guard case .number(let n)? = value, n.rounded() == n, abs(n) < 9e15 else {
                    throw ReplayError(message: "the host's record has no integer \(what)")
                }
                return Micros(n)
            }
            guard case .array(let tasks)? = root["tasks"], tasks.count == scenario.tasks.count else {
                throw ReplayError(
                    message: "the host's record does not list the scenario's \(scenario.tasks.count) tasks")
            }
            var runs: [TaskRun] = []
            var outcomes: [String] = []
            for task in tasks {
                runs.append(
                    TaskRun(
                        thread: Int32(try int(task["thread"], "thread")),
                        iteration: Int32(try int(task["iteration"], "iteration")),
                        ready: try int(task["ready"], "ready"), start: try int(task["start"], "start"),
                        end: try int(task["end"], "end"), done: try int(task["done"], "done"),
                        madeReady: try int(task["madeReady"], "madeReady"),
                        released: try int(task["released"], "released")))
                outcomes.append(task["outcome"]?.string ?? "")
            }
            var commits: [Commit] = []
            if case .array(let items)? = root["commits"] {
                for item in items {
                    commits.append(
                        Commit(
                            iterationStart: try int(item["iterationStart"], "iterationStart"),
                            start: try int(item["start"], "commit start"), end: try int(item["end"], "commit end"),
                            presented: try int(item["presented"], "presented")))
                }
            }
            var blocked: [TimeSpan] = []
            if case .array(let spans)? = root["blocked"] {
                for span in spans {
                    guard case .array(let pair) = span, pair.count == 2 else { continue }
                    blocked.append(TimeSpan(start: try int(pair[0], "blocked"), end: try int(pair[1], "blocked")))
                }
            }
            guard case .array(let window)? = root["didFinishLaunching"], window.count == 2 else {
                throw ReplayError(message: "the host's record has no didFinishLaunching")
            }
            let launch = TimeSpan(
                start: try int(window[0], "didFinishLaunching"), end: try int(window[1], "didFinishLaunching"))
            // Every main-thread task's iteration has its commit (metrics read them): a record without is the
            // host's defect, said, not a trap.
            for (i, run) in runs.enumerated() where run.thread == 0 && Int(run.iteration) >= commits.count {
                throw ReplayError(
                    message:
                        "the host's record has no commit for run-loop iteration \(run.iteration) (task '\(scenario.tasks[i].id)' ran in it; \(commits.count) commits recorded)"
                )
            }
            var problems: [String] = []
            if case .array(let items)? = root["problems"] {
                problems = items.compactMap { $0["message"]?.string }
            }
            // Pre-main: the scenario's phases scaled to the time before didFinishLaunching.
            let t0 = launch.start
            let preMain = scenario.preMain.scaled(to: t0).spans
            schedule = Schedule(
                scenario: scenario, strategy: strategy, maxConcurrent: nil, costs: runs.map { $0.end - $0.start },
                latencies: runs.map { $0.done - $0.end }, t0: t0, preMain: preMain, tasks: runs, commits: commits,
                blocked: blocked, didFinishLaunching: launch, inputs: [], idleMode: scenario.idleMode)
            self.outcomes = outcomes
            self.problems = problems
            setUp = root["setUp"] == nil ? 0 : try int(root["setUp"], "setUp")
            nice = root["nice"] == nil ? nil : Int(try int(root["nice"], "nice"))
            if let emulation = root["emulation"] {
                guard case .array(let groups)? = emulation["started"], groups.count == scenario.tasks.count else {
                    throw ReplayError(message: "the host's record has no group per task in emulation.started")
                }
                coreGroups = groups.map { $0.string ?? "" }
                coreMoves = Int(try int(emulation["moves"], "emulation.moves"))
                if case .array(let items)? = emulation["failures"] { coreFailures = items.compactMap(\.string) }
            }
        }
    }

    /// A record the host wrote that cannot be read.
    public struct ReplayError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The metrics `replay` puts side by side.
    public static let metrics: [Metric] = [
        .timeToFirstFrameMs, .firstFrameReadyMs, .timeToFullDisplayMs, .launchCompleteMs, .mainThreadBlockedMs,
        .frames,
    ]

    /// One strategy's simulation against its real runs.
    public struct Comparison: Sendable {
        public var strategy: Strategy
        public var simulated: SimulationResult
        public var runs: [Run]
        /// Each metric: simulated, measured (median of the runs).
        public var rows: [(metric: Metric, simulated: Double, measured: Double)]
        /// Per task: the median start and end error (µs, measured − simulated),
        /// how many runs put it on the model's thread and in its iteration.
        public var tasks: [TaskError]
        /// The tasks whose end is furthest from the model's, worst first (at most 5).
        public var divergent: [TaskError]
        /// Each metric of `rows` simulated again per run with the time each body really took as its cost
        /// (and the run's own t0), median over the runs: the model's rules given the real durations.
        /// `measured − resimulated` is the schedule's error (hand-off, wake-ups, an order flipped);
        /// `resimulated − simulated` is the bodies' stretch (CPU time taken from them by other threads,
        /// other processes or a hypervisor, which the model does not know of).
        public var resimulated: [Double]
        /// How much longer the bodies ran than simulated, summed over the tasks (µs, median over the runs),
        /// and the simulated bodies' total it is a share of.
        public var bodyStretch: Micros
        public var bodyTime: Micros

        public init(simulated: SimulationResult, runs: [Run], options: SimulationOptions = .init()) {
            strategy = simulated.schedule.strategy
            self.simulated = simulated
            self.runs = runs
            let model = simulated.schedule
            let measuredMetrics = runs.map { $0.schedule.metrics() }
            rows = Replay.metrics.map { metric in
                (metric, simulated.metrics.value(metric), median(measuredMetrics.map { $0.value(metric) }))
            }
            var tasks: [TaskError] = []
            for (i, task) in model.scenario.tasks.enumerated() {
                let sim = model.tasks[i]
                let real = runs.map { $0.schedule.tasks[i] }
                let startError = medianMicros(real.map { $0.start - sim.start })
                let endError = medianMicros(real.map { $0.end - sim.end })
                let stretch = medianMicros(real.map { ($0.end - $0.start) - (sim.end - sim.start) })
                tasks.append(
                    TaskError(
                        index: i, id: task.id, startError: startError, endError: endError, stretch: stretch,
                        sameThread: real.filter { $0.thread == sim.thread }.count,
                        sameIteration: real.filter { !sim.isOnMain || $0.iteration == sim.iteration }.count,
                        onMain: sim.isOnMain,
                        laterIteration: real.contains { sim.isOnMain && $0.iteration > sim.iteration },
                        runs: runs.count))
            }
            // What each task's start waited for in the model: its dependencies' done, and the task before it
            // on its thread when that one ended at its start. The one that ended latest in the runs, if it
            // explains most of the task's own lateness, is named as the cause.
            let byThread = Dictionary(grouping: model.tasks.indices.filter { model.tasks[$0].thread >= 0 }) {
                model.tasks[$0].thread
            }
            var before = [Int?](repeating: nil, count: tasks.count)
            for (_, list) in byThread {
                let ordered = list.sorted { (model.tasks[$0].start, $0) < (model.tasks[$1].start, $1) }
                for (a, b) in zip(ordered, ordered.dropFirst()) where model.tasks[a].end == model.tasks[b].start {
                    before[b] = a
                }
            }
            for i in tasks.indices where tasks[i].startError > 0 {
                let waited =
                    model.scenario.tasks[i].dependsOn.map { ($0, false) } + (before[i].map { [($0, true)] } ?? [])
                guard
                    let (d, onThread) = waited.max(by: { (tasks[$0.0].endError, $1.0) < (tasks[$1.0].endError, $0.0) }),
                    tasks[d].endError * 2 >= tasks[i].startError
                else { continue }
                tasks[i].cause = (tasks[d].id, tasks[d].endError, onThread)
            }
            self.tasks = tasks
            let again = runs.map {
                Replay.resimulate(model.scenario, run: $0, strategy: model.strategy, options: options)
            }
            resimulated = Replay.metrics.map { metric in median(again.map { $0.value(metric) }) }
            let ran = model.tasks.indices.filter { model.tasks[$0].thread >= 0 }
            bodyTime = ran.reduce(0) { $0 + model.tasks[$1].end - model.tasks[$1].start }
            bodyStretch = medianMicros(
                runs.map { run in
                    ran.reduce(0) { total, i in
                        total + (run.schedule.tasks[i].end - run.schedule.tasks[i].start)
                            - (model.tasks[i].end - model.tasks[i].start)
                    }
                })
            divergent = Array(
                tasks.filter { abs($0.endError) > 0 }.sorted {
                    (abs($0.endError), $1.index) > (abs($1.endError), $0.index)
                }
                .prefix(5))
        }
    }

    /// `scenario` simulated with the durations `run`'s bodies took as the costs (a task that did not run
    /// keeps its cost), its pre-main scaled to the run's t0, and no `device.cpus` or `device.clusters`:
    /// the durations already hold any sharing of the CPUs and the cores' speeds.
    static func resimulate(_ scenario: Scenario, run: Run, strategy: Strategy, options: SimulationOptions)
        -> Metrics
    {
        var again = scenario
        for (i, task) in run.schedule.tasks.enumerated() where task.thread >= 0 {
            again.tasks[i].cost = max(0, task.end - task.start)
        }
        again.device.cpus = nil
        again.device.clusters = []
        let t0 = run.schedule.t0
        again.preMain =
            scenario.preMain.isEmpty
            ? (t0 > 0 ? [PreMainPhase(name: "set-up", cost: t0)] : []) : scenario.preMain.scaled(to: t0)
        return SimulationResult(again, strategy: strategy, options: options).metrics
    }

    /// One task's error across the runs.
    public struct TaskError: Sendable {
        public var index: Int
        public var id: String
        public var startError: Micros
        public var endError: Micros
        /// How much longer it ran than its cost (contention, if positive).
        public var stretch: Micros
        public var sameThread: Int
        public var sameIteration: Int
        public var onMain: Bool
        public var laterIteration: Bool
        public var runs: Int
        /// What it waited for in the model that ended late enough to explain most of its late start: the
        /// task, its end error, and whether it ran before it on its thread (else it is a dependency).
        public var cause: (id: String, endError: Micros, onThread: Bool)?

        /// Why it diverges, in one phrase, from what the runs show.
        public var reason: String {
            if sameThread < runs {
                return
                    "ran on another thread in \(runs - sameThread) of \(runs) runs (a near-tie in which thread was free)"
            }
            if sameIteration < runs {
                return
                    "ran in \(laterIteration ? "a later" : "an earlier") run-loop iteration in \(runs - sameIteration) of \(runs) runs (an order flipped by a near-tie)"
            }
            if stretch > 0 && stretch * 20 > max(endError, 1) * 10 {
                return "ran \(formatMillis(stretch)) ms longer than its cost (stretched: other threads took the CPU)"
            }
            if let cause {
                return "started \(formatMillis(startError)) ms late: '\(cause.id)', "
                    + (cause.onThread ? "which ran before it on its thread" : "which it waits for")
                    + ", ended \(formatMillis(cause.endError)) ms late"
            }
            return startError >= 0
                ? "started \(formatMillis(startError)) ms late (hand-off and wake-up latency before it)"
                : "started \(formatMillis(-startError)) ms early"
        }
    }
}

private func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The runtime's median set-up over every run of `comparisons`, µs.
extension Replay {
    public static func medianSetUp(_ comparisons: [Comparison]) -> Micros {
        medianMicros(comparisons.flatMap { $0.runs.map(\.setUp) })
    }
}

private func medianMicros(_ values: [Micros]) -> Micros {
    guard !values.isEmpty else { return 0 }
    return values.sorted()[(values.count - 1) / 2]
}
