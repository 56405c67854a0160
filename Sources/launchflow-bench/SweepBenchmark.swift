import Dispatch
import Foundation
import LaunchflowCore

/// The sweep benchmark of issue 5: 10,000 sampled launches of a 300-task
/// scenario under all three strategies, timed with 1, 2, … threads.
/// `launchflow-bench --sweep` prints it; it asserts nothing.
///
/// ```swift
/// let scenario = SweepBenchmark.scenario()
/// let figure = SweepBenchmark.measure(scenario, runs: 10_000, jobs: 2)
/// print(figure.runsPerSecond)
/// ```
public enum SweepBenchmark {
    /// One timing.
    public struct Figure: Sendable {
        /// Threads used.
        public var jobs: Int
        public var runs: Int
        /// Simulations per run (the strategies).
        public var strategies: Int
        /// Wall time of the whole sweep (sampling, simulating, summarising), best of the repetitions, in seconds.
        public var seconds: Double
        /// CPU time of the process (all threads) during that repetition, in seconds: what the
        /// sweep costs independently of other load on the machine.
        public var cpuSeconds: Double

        /// Sampled launches per second (each simulated under every strategy).
        public var runsPerSecond: Double { Double(runs) / seconds }
        /// Single-strategy simulations per second.
        public var simulationsPerSecond: Double { Double(runs * strategies) / seconds }
        /// Mean wall time per simulation, µs.
        public var microsecondsPerSimulation: Double { seconds * 1e6 / Double(runs * strategies) }
    }

    /// The benchmark scenario: ``RandomScenario`` with `taskCount` tasks
    /// (about three dependencies each, four tiers, a quarter main-thread
    /// only), 4 cores, drawn from `seed`, with σ = 0.3 jitter on every task and
    /// `costP90 = 2 × cost` on every fifth.
    /// With `v2`, every v2 key is in use too (``RandomScenario/usingEveryV2Key()``)
    /// and every fifth task with a latency has `latencyP90 = 3 × latency`.
    ///
    /// - Throws: ``ScenarioError`` for a `taskCount` below 1.
    public static func scenario(taskCount: Int = 300, seed: UInt64 = 42, v2: Bool = false) throws(ScenarioError)
        -> Scenario
    {
        var generator = RandomScenario(taskCount: taskCount)
        generator.cores = 4...4
        if v2 { generator = generator.usingEveryV2Key() }
        let base = try generator.make(seed: seed)
        var tasks = base.tasks
        for i in stride(from: 2, to: tasks.count, by: 5) where tasks[i].latency > 0 {
            tasks[i].latencyP90 = 3 * tasks[i].latency
        }
        for i in stride(from: 0, to: tasks.count, by: 5) where tasks[i].cost > 0 {
            tasks[i].costP90 = 2 * tasks[i].cost
        }
        return try Scenario(
            name: base.name, device: base.device, preMain: base.preMain, tasks: tasks, jitter: 0.3,
            idleMode: base.idleMode, inputs: base.inputs)
    }

    /// Times a full sweep of `scenario` (`runs` runs, every strategy) on
    /// `jobs` threads; the best wall time of `repetitions`.
    public static func measure(_ scenario: Scenario, runs: Int = 10_000, jobs: Int, repetitions: Int = 3) -> Figure {
        // The benchmark scenario always samples; a scenario that cannot is timed with fixed costs.
        let sampler = (try? CostSampler(scenario)) ?? (try? CostSampler(scenario, jitter: 0))
        guard let sampler else { return Figure(jobs: jobs, runs: runs, strategies: 3, seconds: .nan, cpuSeconds: .nan) }
        let sweep = Sweep(engine: LaunchEngine(scenario), sampler: sampler)
        let configuration = SweepConfiguration(runs: runs, seed: 1, strategies: Strategy.allCases, jobs: jobs)
        var best = (wall: Double.infinity, cpu: Double.infinity)
        for _ in 0..<max(repetitions, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = processCPUSeconds()
            let result = sweep.run(configuration)
            let cpu = processCPUSeconds() - cpuStart
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if result.summaries.count == configuration.strategies.count, elapsed < best.wall { best = (elapsed, cpu) }
        }
        return Figure(
            jobs: jobs, runs: runs, strategies: configuration.strategies.count, seconds: best.wall, cpuSeconds: best.cpu
        )
    }

    /// The CPU time of this process so far (user + system, every thread), in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
