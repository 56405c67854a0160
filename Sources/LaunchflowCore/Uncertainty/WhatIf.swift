/// Sensitivity ranking (`launchflow whatif`): which task's cost matters most.
///
/// For each task, one re-simulation with only that task's cost reduced by a
/// share gives its **gains** (base minus new time to first frame, first frame
/// before vsync, time to full display and launch completion; negative when
/// the launch gets slower — schedules are not always monotonic in costs).
/// Tasks are ranked by first-frame gain, then first-frame-ready gain (a
/// saving smaller than a frame shows there), then launch gain, then task
/// index; with the full-display objective, by full-display gain first.
///
/// Each task's **slack** is how much its cost could grow (µs) before the
/// objective's frame moves — the first frame, or with the full-display
/// objective the frame that shows full display: the largest growth g found
/// such that growing by g leaves that time unchanged while growing by
/// g + 1 µs changes it. It
/// is found by re-simulation: growths 1, 2, 4, … µs until the first frame
/// moves (or the cap is reached), then bisection between the last unchanged
/// and the first changed growth — about 2·log₂(cap) simulations per task.
/// Where the first frame is monotonic in the task's cost (usual), this is
/// exact. A schedule can be non-monotonic (a longer task can let a better
/// task start first, and the frame can move and move back); then a smaller
/// growth that moves the frame may lie between two probes, and the slack is
/// an upper estimate. Growth is capped at ``WhatIfAnalysis/slackCap`` (the
/// base launch completion, at least 1 ms): a task whose growth up to the cap
/// never moves the first frame has slack "at least the cap".
///
/// A task that ends after the first-frame commit has ended cannot move the
/// first frame by growing: the simulation is causal, and everything up to its
/// end — that commit included — happens as before. Its slack is "at least the
/// cap" without a search, which spares most of the searches in a large launch.
///
/// Runs on the scenario's `cost`s (the medians), not on sampled costs.
public enum WhatIf {
    /// Analyses every task of `engine`'s scenario under `strategy`.
    ///
    /// - Parameters:
    ///   - reduction: the share of each task's cost removed, 0 < share ≤ 1;
    ///     the reduction is `cost × share` rounded half away from zero to µs.
    ///   - jobs: threads (≥ 1); the result is the same for any number.
    ///   - progress: called from worker threads with the number of tasks analysed so far.
    /// - Complexity: n × (1 + 2·log₂(cap)) simulations for n tasks at most;
    ///   1 for each task that ends after the first-frame commit.
    public static func analyse(
        _ engine: LaunchEngine, strategy: Strategy, reduction: Double, target: WhatIfTarget = .cost,
        objective: WhatIfObjective = .firstFrame, options: SimulationOptions = .init(),
        jobs: Int = Parallel.availableCores, progress: (@Sendable (Int) -> Void)? = nil
    ) -> WhatIfAnalysis {
        analyse(
            engine, strategy: strategy, reduction: reduction, target: target, objective: objective, options: options,
            jobs: jobs, progress: progress, skippingTasksAfterTheFirstFrame: true)
    }

    /// `skippingTasksAfterTheFirstFrame: false` searches every task's slack (tests compare the two).
    static func analyse(
        _ engine: LaunchEngine, strategy: Strategy, reduction: Double, target: WhatIfTarget = .cost,
        objective: WhatIfObjective = .firstFrame, options: SimulationOptions, jobs: Int,
        progress: (@Sendable (Int) -> Void)?, skippingTasksAfterTheFirstFrame skipping: Bool
    ) -> WhatIfAnalysis {
        let baseRun = engine.result(strategy, options: options)
        let base = baseRun.metrics
        // A task that ends after this cannot move the objective's frame (see ``WhatIf``): the first
        // frame's commit end, or the presentation of full display (no earlier than its commit's end).
        let unmovableAfter =
            objective == .fullDisplay
            ? base.timeToFullDisplay : baseRun.schedule.commits[base.firstFrameIteration].end
        // Growing a cost moves the task's end; growing a latency moves its done time.
        let ends = baseRun.schedule.tasks.map { target == .cost ? $0.end : $0.done }
        let finished = LockedValue(0)
        let baseTimes = HeadlineTimes(
            timeToFirstFrame: base.timeToFirstFrame, launchComplete: base.launchComplete,
            firstFrameReady: base.firstFrameReady, timeToFullDisplay: base.timeToFullDisplay)
        let cap = max(base.launchComplete, 1000)
        let costs = engine.costs
        let values = target == .cost ? costs : engine.latencies
        // Under `latency`, only the tasks that have one.
        let tasks = values.indices.filter { target == .cost || values[$0] > 0 }
        let chunks = Parallel.mapChunks(count: tasks.count, chunkSize: 4, jobs: jobs) { range -> [WhatIfRow] in
            var runner = engine.makeRunner()
            var trial = values
            func times(_ trial: [Micros]) -> HeadlineTimes {
                target == .cost
                    ? runner.headlineTimes(strategy, costs: trial, options: options)
                    : runner.headlineTimes(strategy, costs: costs, latencies: trial, options: options)
            }
            let rows = range.map { k in
                let task = tasks[k]
                let reduced = values[task] - Micros((Double(values[task]) * reduction).rounded())
                trial[task] = reduced
                let faster = times(trial)
                trial[task] = values[task]
                let slack =
                    skipping && ends[task] > unmovableAfter
                    ? (growth: cap, capped: true)
                    : Self.slack(
                        of: task, &trial, base: baseTimes, objective: objective, cap: cap,
                        end: skipping ? ends[task] : nil, times: times)
                return WhatIfRow(
                    task: task, cost: values[task], reducedCost: reduced,
                    firstFrameGain: baseTimes.timeToFirstFrame - faster.timeToFirstFrame,
                    firstFrameReadyGain: baseTimes.firstFrameReady - faster.firstFrameReady,
                    fullDisplayGain: baseTimes.timeToFullDisplay - faster.timeToFullDisplay,
                    launchGain: baseTimes.launchComplete - faster.launchComplete,
                    slack: slack.growth, slackIsCapped: slack.capped)
            }
            if let progress { progress(finished.add(range.count)) }
            return rows
        }
        let rows = chunks.flatMap { $0 }.sorted { objective.ranks($0, before: $1) }
        return WhatIfAnalysis(
            scenario: engine.scenario, strategy: strategy, reduction: reduction, target: target, objective: objective,
            options: options, base: base, slackCap: cap, rows: rows)
    }

    /// The slack of `task` (see ``WhatIf``): `trial` holds the base values
    /// (costs or latencies) and is restored; `times` runs one launch.
    ///
    /// The frame is the objective's: the time to first frame, or to full
    /// display. `end` is the task's end in the base run. Once a growth g that
    /// leaves the frame in place makes the task end after that frame was
    /// presented (end + g > its time), no larger growth can move it either
    /// (everything up to end + g happens as with g, that frame's commit
    /// included), so the doubling stops there with the answer it would have
    /// reached at the cap.
    static func slack(
        of task: Int, _ trial: inout [Micros], base: HeadlineTimes, objective: WhatIfObjective = .firstFrame,
        cap: Micros, end: Micros? = nil, times: ([Micros]) -> HeadlineTimes
    ) -> (growth: Micros, capped: Bool) {
        let value = trial[task]
        defer { trial[task] = value }
        let frame = objective.frame(base)
        func moves(_ growth: Micros) -> Bool {
            trial[task] = value + growth
            return objective.frame(times(trial)) != frame
        }
        // Doubling: the first probe that moves the frame, or the cap.
        var unchanged: Micros = 0
        var probe: Micros = 1
        while true {
            if moves(probe) { break }
            unchanged = probe
            if probe >= cap { return (cap, true) }
            if let end, end + probe > frame { return (cap, true) }
            probe = min(probe * 2, cap)
        }
        // Bisection: moves(probe), not moves(unchanged).
        var changed = probe
        while changed - unchanged > 1 {
            let middle = unchanged + (changed - unchanged) / 2
            if moves(middle) { changed = middle } else { unchanged = middle }
        }
        return (unchanged, false)
    }
}

/// What `whatif` reduces, task by task (v2).
public enum WhatIfTarget: String, CaseIterable, Sendable {
    /// The task's cost (the time it holds its thread).
    case cost
    /// The task's latency (the wait after its cost: a network reply, a dialog).
    case latency
}

/// What `whatif` ranks the tasks by (v2.1).
public enum WhatIfObjective: String, CaseIterable, Sendable {
    /// First-frame gain, then first-frame-ready gain, then launch gain.
    case firstFrame
    /// Full-display gain first, then as ``firstFrame``.
    case fullDisplay

    /// The time whose movement a task's slack measures: the first frame's, or full display's.
    func frame(_ times: HeadlineTimes) -> Micros {
        self == .fullDisplay ? times.timeToFullDisplay : times.timeToFirstFrame
    }

    /// Whether `a` ranks before `b` (gains descending; task index breaks ties).
    func ranks(_ a: WhatIfRow, before b: WhatIfRow) -> Bool {
        let first = self == .fullDisplay ? (a.fullDisplayGain, b.fullDisplayGain) : (0, 0)
        return (first.1, b.firstFrameGain, b.firstFrameReadyGain, b.launchGain, a.task)
            < (first.0, a.firstFrameGain, a.firstFrameReadyGain, a.launchGain, b.task)
    }
}

/// One task's what-if figures, times in µs.
public struct WhatIfRow: Sendable, Equatable {
    /// The task's index in the scenario.
    public var task: Int
    /// Its cost and its reduced cost (its latency and the reduced latency,
    /// when the analysis reduces latencies).
    public var cost: Micros
    public var reducedCost: Micros
    /// Base minus reduced time to first frame (positive: the frame comes earlier).
    public var firstFrameGain: Micros
    /// (v2.1) Base minus reduced first frame before vsync rounding.
    public var firstFrameReadyGain: Micros = 0
    /// (v2.1) Base minus reduced time to full display.
    public var fullDisplayGain: Micros = 0
    /// Base minus reduced launch completion.
    public var launchGain: Micros
    /// How much the cost can grow without moving the first frame (see ``WhatIf``).
    public var slack: Micros
    /// The first frame did not move for any growth up to the cap: the slack is at least ``slack``.
    public var slackIsCapped: Bool
}

/// The outcome of ``WhatIf/analyse(_:strategy:reduction:target:options:jobs:)``.
public struct WhatIfAnalysis: Sendable {
    public let scenario: Scenario
    public let strategy: Strategy
    /// The share of each cost (or latency) removed (0 < share ≤ 1).
    public let reduction: Double
    /// What was reduced: costs or latencies.
    public let target: WhatIfTarget
    /// (v2.1) What the rows are ranked by.
    public let objective: WhatIfObjective
    public let options: SimulationOptions
    /// The metrics with the scenario's own costs.
    public let base: Metrics
    /// The largest growth tried for the slack, µs.
    public let slackCap: Micros
    /// Every task, best first (see ``WhatIfObjective``).
    public let rows: [WhatIfRow]
}
