/// What a sweep runs: how many sampled launches, from which seed, under which strategies.
public struct SweepConfiguration: Sendable, Equatable {
    /// The number of sampled launches (≥ 1).
    public var runs: Int
    /// The base seed; run `r` uses ``CostSampler/runSeed(base:run:)``.
    public var seed: UInt64
    /// The strategies, in report order; each run simulates every one with the same costs.
    public var strategies: [Strategy]
    public var options: SimulationOptions
    /// Threads to use (≥ 1). Changes the speed only, never the result.
    public var jobs: Int

    public init(
        runs: Int, seed: UInt64 = 1, strategies: [Strategy] = Strategy.allCases, options: SimulationOptions = .init(),
        jobs: Int = Parallel.availableCores
    ) {
        self.runs = runs
        self.seed = seed
        self.strategies = strategies
        self.options = options
        self.jobs = jobs
    }
}

/// A Monte-Carlo sweep: many launches with sampled task costs, every strategy
/// run on the same costs within a run (a paired comparison).
///
/// ```swift
/// let engine = LaunchEngine(scenario)
/// let sweep = Sweep(engine: engine, sampler: try CostSampler(scenario))
/// let result = sweep.run(SweepConfiguration(runs: 1000, seed: 7))
/// result.summaries[0].firstFrame.p90   // µs
/// ```
public struct Sweep: Sendable {
    public let engine: LaunchEngine
    public let sampler: CostSampler

    /// Runs per chunk of work handed to a thread (also the progress granularity).
    public static let chunkSize = 64

    public init(engine: LaunchEngine, sampler: CostSampler) {
        self.engine = engine
        self.sampler = sampler
    }

    /// Runs the sweep. `progress`, when given, is called from worker threads
    /// with the number of runs finished so far (increasing, ending at `runs`).
    ///
    /// The result depends on the scenario, `runs`, `seed`, `strategies` and
    /// `options` only: byte-identical for every `jobs`.
    ///
    /// - Complexity: `runs × strategies` simulations, spread over `jobs` threads.
    public func run(_ configuration: SweepConfiguration, progress: (@Sendable (Int) -> Void)? = nil) -> SweepResult {
        let strategies = configuration.strategies
        let finished = LockedValue(0)
        let chunks = Parallel.mapChunks(count: configuration.runs, chunkSize: Self.chunkSize, jobs: configuration.jobs)
        {
            range -> ChunkResult in
            let result = self.runChunk(range, configuration)
            if let progress { progress(finished.add(range.count)) }
            return result
        }
        var firstFrame = [[Micros]](repeating: [], count: strategies.count)
        var launchComplete = firstFrame
        var fullDisplay = firstFrame
        var broke = [[Bool]](repeating: [], count: strategies.count)
        for s in strategies.indices {
            firstFrame[s].reserveCapacity(configuration.runs)
            launchComplete[s].reserveCapacity(configuration.runs)
            fullDisplay[s].reserveCapacity(configuration.runs)
            broke[s].reserveCapacity(configuration.runs)
        }
        for chunk in chunks {
            for (k, values) in chunk.firstFrame.enumerated() { firstFrame[k % strategies.count].append(values) }
            for (k, values) in chunk.launchComplete.enumerated() { launchComplete[k % strategies.count].append(values) }
            for (k, values) in chunk.fullDisplay.enumerated() { fullDisplay[k % strategies.count].append(values) }
            for (k, value) in chunk.broke.enumerated() { broke[k % strategies.count].append(value) }
        }
        return SweepResult(
            scenario: engine.scenario, configuration: configuration, jitter: sampler.jitter, p90Tasks: sampler.p90Tasks,
            jitterTasks: sampler.jitterTasks, latencyTasks: sampler.latencyTasks, firstFrame: firstFrame,
            launchComplete: launchComplete, fullDisplay: fullDisplay, broke: broke)
    }

    /// Run-major values of one chunk: entry `run × strategies + s`.
    struct ChunkResult: Sendable {
        var firstFrame: [Micros]
        var launchComplete: [Micros]
        var fullDisplay: [Micros]
        /// Whether the run broke a dependency.
        var broke: [Bool]
    }

    private func runChunk(_ range: Range<Int>, _ configuration: SweepConfiguration) -> ChunkResult {
        var runner = engine.makeRunner()
        var costs = sampler.medians
        var latencies = sampler.latencyMedians
        let sampleLatencies = sampler.latencyTasks > 0
        var result = ChunkResult(firstFrame: [], launchComplete: [], fullDisplay: [], broke: [])
        let capacity = range.count * configuration.strategies.count
        result.firstFrame.reserveCapacity(capacity)
        result.launchComplete.reserveCapacity(capacity)
        result.fullDisplay.reserveCapacity(capacity)
        result.broke.reserveCapacity(capacity)
        for run in range {
            sampler.sample(run: run, seed: configuration.seed, into: &costs)
            if sampleLatencies { sampler.sampleLatencies(run: run, seed: configuration.seed, into: &latencies) }
            for strategy in configuration.strategies {
                let times = runner.headlineTimes(
                    strategy, costs: costs, latencies: sampleLatencies ? latencies : nil,
                    options: configuration.options)
                result.firstFrame.append(times.timeToFirstFrame)
                result.launchComplete.append(times.launchComplete)
                result.fullDisplay.append(times.timeToFullDisplay)
                result.broke.append(runner.lastRunBrokeADependency)
            }
        }
        return result
    }
}

/// The outcome of a sweep: every run's times and their summaries.
public struct SweepResult: Sendable {
    public let scenario: Scenario
    public let configuration: SweepConfiguration
    /// The σ of tasks without `costP90` (0: none).
    public let jitter: Double
    /// Tasks whose cost varied through their `costP90`, and through the jitter.
    public let p90Tasks: Int
    public let jitterTasks: Int
    /// (v2) Tasks whose latency varied through their `latencyP90`.
    public let latencyTasks: Int
    /// `firstFrame[s][r]`: the time to first frame of strategy `s` in run `r`, µs.
    public let firstFrame: [[Micros]]
    /// `launchComplete[s][r]`: the launch completion of strategy `s` in run `r`, µs.
    public let launchComplete: [[Micros]]
    /// (v2.1) `fullDisplay[s][r]`: the time to full display of strategy `s` in run `r`, µs.
    public let fullDisplay: [[Micros]]
    /// `broke[s][r]`: strategy `s` broke a dependency in run `r`.
    public let broke: [[Bool]]
    /// One per strategy, in configuration order.
    public let summaries: [SweepSummary]

    /// Tasks whose cost varied (σ > 0).
    public var uncertainTasks: Int { p90Tasks + jitterTasks }

    init(
        scenario: Scenario, configuration: SweepConfiguration, jitter: Double, p90Tasks: Int, jitterTasks: Int,
        latencyTasks: Int = 0, firstFrame: [[Micros]], launchComplete: [[Micros]], fullDisplay: [[Micros]]? = nil,
        broke: [[Bool]]
    ) {
        self.latencyTasks = latencyTasks
        self.scenario = scenario
        self.configuration = configuration
        self.jitter = jitter
        self.p90Tasks = p90Tasks
        self.jitterTasks = jitterTasks
        self.firstFrame = firstFrame
        self.launchComplete = launchComplete
        let fullDisplay = fullDisplay ?? firstFrame
        self.fullDisplay = fullDisplay
        self.broke = broke
        let firstFrameBest = BestCounts(firstFrame, broke: broke)
        // (v2.1) Launch completion compares like with like: a strategy that
        // runs deferred work inline is not a candidate when the scenario defers work.
        let inline = configuration.strategies.map { scenario.defersWork && $0.definition.runsDeferredWorkInline }
        let launchBest = BestCounts(launchComplete, broke: broke, leftOut: inline)
        let fullDisplayBest = BestCounts(fullDisplay, broke: broke)
        summaries = configuration.strategies.indices.map { s in
            SweepSummary(
                strategy: configuration.strategies[s], firstFrame: Distribution(firstFrame[s]),
                launchComplete: Distribution(launchComplete[s]), fullDisplay: Distribution(fullDisplay[s]),
                bestFullDisplay: fullDisplayBest.best[s], soleBestFullDisplay: fullDisplayBest.sole[s],
                bestFirstFrame: firstFrameBest.best[s], soleBestFirstFrame: firstFrameBest.sole[s],
                bestLaunchComplete: launchBest.best[s], soleBestLaunchComplete: launchBest.sole[s],
                brokenRuns: broke[s].reduce(0) { $0 + ($1 ? 1 : 0) })
        }
    }
}

/// One strategy's results over the runs of a sweep.
public struct SweepSummary: Sendable, Equatable {
    public var strategy: Strategy
    /// Time to first frame, µs.
    public var firstFrame: Distribution
    /// Launch completion, µs.
    public var launchComplete: Distribution
    /// (v2.1) Time to full display, µs.
    public var fullDisplay: Distribution
    /// (v2.1) As ``bestFirstFrame`` and ``soleBestFirstFrame``, for time to full display.
    public var bestFullDisplay: Int
    public var soleBestFullDisplay: Int
    /// Runs in which this strategy's time to first frame was the smallest of
    /// all strategies, ties included: each tied strategy counts the run, so
    /// these can add up to more than the runs.
    public var bestFirstFrame: Int
    /// Runs in which it was strictly smaller than every other strategy's.
    public var soleBestFirstFrame: Int
    /// As ``bestFirstFrame``, for launch completion.
    public var bestLaunchComplete: Int
    /// As ``soleBestFirstFrame``, for launch completion.
    public var soleBestLaunchComplete: Int
    /// Runs in which the strategy broke a dependency: they never count as best.
    public var brokenRuns: Int = 0
}

/// Per run, which strategies had the smallest value (`best`, ties counted for
/// each) and whether one had it alone (`sole`), among the strategies that
/// broke no dependency in that run.
struct BestCounts {
    var best: [Int]
    var sole: [Int]

    /// `values[s][r]`: strategy `s`, run `r`; `broke[s][r]`: it broke a dependency (not a candidate);
    /// `leftOut[s]`: strategy `s` is never a candidate (it does other work, v2.1).
    init(_ values: [[Micros]], broke: [[Bool]]? = nil, leftOut: [Bool]? = nil) {
        best = [Int](repeating: 0, count: values.count)
        sole = best
        guard let runs = values.first?.count else { return }
        for r in 0..<runs {
            func candidate(_ s: Int) -> Bool { !(broke?[s][r] ?? false) && !(leftOut?[s] ?? false) }
            var smallest = Micros.max
            for s in values.indices where candidate(s) { smallest = min(smallest, values[s][r]) }
            var winners = 0
            var winner = -1
            for s in values.indices where candidate(s) && values[s][r] == smallest {
                best[s] += 1
                winners += 1
                winner = s
            }
            if winners == 1 { sole[winner] += 1 }
        }
    }
}

/// A summary of many values in µs: mean and nearest-rank percentiles.
///
/// **Percentiles** use the nearest-rank definition: the p-th percentile of n
/// values is the value at rank ⌈p·n/100⌉ (1-based) in ascending order — always
/// one of the values, never interpolated. For the values 10, 20, 30, 40:
/// p50 = 20 (rank 2), p90 = p99 = 40 (rank 4). **Mean** is the sum over the
/// count, rounded half away from zero to an integer µs.
public struct Distribution: Sendable, Equatable {
    public var count: Int
    public var min: Micros
    public var mean: Micros
    public var p50: Micros
    public var p90: Micros
    public var p99: Micros
    public var max: Micros

    public init(count: Int, min: Micros, mean: Micros, p50: Micros, p90: Micros, p99: Micros, max: Micros) {
        self.count = count
        self.min = min
        self.mean = mean
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// The summary of `values` (all zero when there are none).
    ///
    /// - Complexity: O(n log n) (a sorted copy).
    public init(_ values: [Micros]) {
        let sorted = values.sorted()
        count = sorted.count
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        var sum = 0.0
        for value in values { sum += Double(value) }
        mean = sorted.isEmpty ? 0 : Micros((sum / Double(sorted.count)).rounded())
        p50 = Self.percentile(50, ofSorted: sorted)
        p90 = Self.percentile(90, ofSorted: sorted)
        p99 = Self.percentile(99, ofSorted: sorted)
    }

    /// The nearest-rank `p`-th percentile (0 < p ≤ 100) of ascending `sorted`; 0 when empty.
    public static func percentile(_ p: Int, ofSorted sorted: [Micros]) -> Micros {
        guard !sorted.isEmpty else { return 0 }
        let rank = (p * sorted.count + 99) / 100
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
