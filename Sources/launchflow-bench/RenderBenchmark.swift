import LaunchflowCore
import LaunchflowRender

/// Inputs and timed bodies for the rendering benchmarks (issue 3 targets:
/// a 500-task DAG in ≤ 2 s, a 10,000-bar Gantt chart in ≤ 1 s).
///
/// Build the input once (untimed), then time the render:
/// ```swift
/// let dag = RenderBenchmark.dagInput(tasks: 500)
/// let bytes = try RenderBenchmark.renderDAG(dag)          // time this
/// let gantt = RenderBenchmark.ganttInput(bars: 10_000)
/// let more = try RenderBenchmark.renderGantt(gantt)       // and this
/// ```
/// The scenarios are generated from a fixed seed, so every run draws the same picture.
public enum RenderBenchmark {
    /// A simulated `priority` run of a random layered DAG of `tasks` tasks
    /// (up to three dependencies each, 6 tiers, every 7th task main-thread
    /// only), so the picture has clusters, a critical path and violations.
    public static func dagInput(tasks: Int = 500, seed: UInt64 = 0x1A0C_F10E) -> SimulationResult {
        // 4 cores and costs of 0.2–12 ms: valid for any task count of at least 1.
        SimulationResult(try! scenario(tasks: max(tasks, 1), cores: 4, seed: seed), strategy: .priority)
    }

    /// A simulated `priority` run of a DAG as real apps have them: `tasks`
    /// tasks and `dependencies` dependencies spread over the whole graph, a
    /// third of them on one of a few hub tasks (logging, configuration, the
    /// network stack…) that many others need; 6 tiers, every 7th task on main.
    public static func hubDAGInput(tasks count: Int = 500, dependencies: Int = 1000, seed: UInt64 = 0x40B_DA6)
        -> SimulationResult
    {
        var random = SplitMix64(seed: seed)
        let hubs = max(1, count / 25)
        var dependsOn = [[Int]](repeating: [], count: count)
        var placed = 0
        var attempts = 0
        while placed < dependencies && attempts < dependencies * 20 {
            attempts += 1
            let task = 1 + Int(random.next() % UInt64(max(count - 1, 1)))
            let dependency =
                random.next() % 3 == 0
                ? Int(random.next() % UInt64(min(hubs, task))) : Int(random.next() % UInt64(task))
            guard dependency < task, !dependsOn[task].contains(dependency) else { continue }
            dependsOn[task].append(dependency)
            placed += 1
        }
        let tasks = (0..<count).map { i in
            let mainOnly = i % 7 == 3
            return LaunchTask(
                id: i < hubs ? "hub-\(i)" : "task-\(i)", cost: 200 + Int(random.next() % 11_800),
                mainThreadOnly: mainOnly,
                priority: min(5, i * 6 / max(count, 1)), dependsOn: dependsOn[i].sorted(),
                firstFrame: mainOnly && i >= count / 3 && i < count / 3 + 7)
        }
        // Valid by construction: every dependency is on an earlier task.
        let scenario = try! Scenario(
            name: "Benchmark \(count) tasks with hubs", device: Device(cores: 4, commitCost: 1000, renderTime: 2000),
            preMain: [PreMainPhase(name: "dyld", cost: 40_000)], tasks: tasks)
        return SimulationResult(scenario, strategy: .priority)
    }

    /// A simulated `dag` run of `bars` tasks on 8 cores: one Gantt bar each.
    public static func ganttInput(bars: Int = 10_000, seed: UInt64 = 0x6A77_7000) -> SimulationResult {
        // 8 cores and costs of 0.2–12 ms: valid for any task count of at least 1.
        SimulationResult(try! scenario(tasks: max(bars, 1), cores: 8, seed: seed), strategy: .dag)
    }

    /// Builds and renders the DAG (clusters); returns the SVG's size in bytes.
    public static func renderDAG(_ input: SimulationResult) throws(RenderError) -> Int {
        try DAGChart(input, tiers: .clusters).svg().count
    }

    /// Builds and renders the Gantt chart; returns the SVG's size in bytes.
    public static func renderGantt(_ input: SimulationResult) throws(RenderError) -> Int {
        try GanttChart(input).svg().count
    }

    /// The report benchmark's scenario: `tasks` tasks on 6 cores (as
    /// ``scenario(tasks:cores:seed:)``), with a lognormal `jitter` when given
    /// (the report then includes a sweep).
    public static func reportInput(tasks: Int = 300, jitter: Double? = nil, seed: UInt64 = 0x5E9_0127) -> Scenario {
        // 6 cores and costs of 0.2–12 ms: valid for any task count of at least 1.
        try! scenario(tasks: max(tasks, 1), cores: 6, seed: seed, jitter: jitter)
    }

    /// Builds the report of `scenario` under every strategy (what-if and, with
    /// uncertainty, a 1000-run sweep included) and its HTML; returns its size in bytes.
    public static func renderReport(_ scenario: Scenario, jobs: Int = Parallel.availableCores) throws(RenderError)
        -> Int
    {
        try Report.make(scenario, file: "benchmark.json", jobs: jobs).html().count
    }

    /// `report --baseline`: the report of `scenario` against `baseline` (the
    /// diff's changes measured, both versions' panels); returns its size in bytes.
    public static func renderReport(_ scenario: Scenario, baseline: Scenario, jobs: Int = Parallel.availableCores)
        throws(RenderError) -> Int
    {
        var report = Report.make(scenario, file: "benchmark.json", jobs: jobs)
        report.baseline = ReportBaseline(
            old: baseline, oldFile: "baseline.json", new: scenario, newFile: "benchmark.json",
            strategies: Strategy.allCases)
        return try report.html().count
    }

    /// `report --advise`: the report of `scenario` with advise's plan under dag; returns its size in bytes.
    public static func renderReportWithAdvice(_ scenario: Scenario, jobs: Int = Parallel.availableCores)
        throws -> Int
    {
        var configuration = AdviseConfiguration()
        configuration.jobs = jobs
        var report = Report.make(scenario, file: "benchmark.json", jobs: jobs)
        report.advice = ReportAdvice(try Advise.plan(scenario, configuration))
        return try report.html().count
    }

    /// ``reportInput(tasks:jitter:seed:)`` a version earlier: every tenth task 20% cheaper.
    public static func reportBaseline(of scenario: Scenario) -> Scenario {
        var tasks = scenario.tasks
        for i in stride(from: 0, to: tasks.count, by: 10) { tasks[i].cost = tasks[i].cost * 4 / 5 }
        return try! Scenario(name: scenario.name, device: scenario.device, preMain: scenario.preMain, tasks: tasks)
    }

    /// A deterministic scenario: task i depends on up to three of the 40
    /// tasks before it; costs 0.2–12 ms; priorities 0–5 growing with i.
    ///
    /// - Throws: ``ScenarioError`` for no tasks or `cores` outside 2 … 1024.
    public static func scenario(tasks count: Int, cores: Int, seed: UInt64, jitter: Double? = nil) throws(ScenarioError)
        -> Scenario
    {
        var random = SplitMix64(seed: seed)
        var tasks: [LaunchTask] = []
        tasks.reserveCapacity(count)
        for i in 0..<count {
            var dependsOn: [Int] = []
            if i > 0 {
                for _ in 0..<Int(random.next() % 4) {
                    let d = max(0, i - 1 - Int(random.next() % UInt64(min(i, 40))))
                    if !dependsOn.contains(d) { dependsOn.append(d) }
                }
            }
            let mainOnly = i % 7 == 3
            tasks.append(
                LaunchTask(
                    id: "task-\(i)", cost: 200 + Int(random.next() % 11_800), mainThreadOnly: mainOnly,
                    priority: min(5, i * 6 / max(count, 1) + Int(random.next() % 2)), dependsOn: dependsOn.sorted(),
                    firstFrame: mainOnly && i >= count / 3 && i < count / 3 + 7))
        }
        return try Scenario(
            name: "Benchmark \(count) tasks", device: Device(cores: cores, commitCost: 1000, renderTime: 2000),
            preMain: [PreMainPhase(name: "dyld", cost: 40_000), PreMainPhase(name: "+load", cost: 8_000)], tasks: tasks,
            jitter: jitter)
    }
}
