import Foundation

/// Draws the task costs of sampled launches (`launchflow sweep`).
///
/// Each task's cost is **lognormal** with median `cost`:
/// `sample = cost × exp(σ·z)`, z standard normal, rounded to the nearest
/// integer µs (halves away from zero, as MODEL.md §2 rounds).
/// - A task with `costP90` has `σ = ln(costP90 / cost) / z₀.₉`, with
///   `z₀.₉ = 1.2815515655446004` (the standard normal's 90th percentile), so
///   its sampled p90 is `costP90`. `costP90 == cost` means a fixed cost.
/// - A task without `costP90` has `σ = jitter` (the scenario's, or an
///   override); with no jitter, its cost is fixed.
/// - A task whose median is 0 always costs 0: a lognormal scales its median,
///   so none has median 0 and a positive p90. Such a `costP90` (valid in a
///   scenario file) is ignored and listed in ``ignoredP90Tasks``, for the
///   command to warn about.
/// - A sample is capped at ``maximumCost`` (one hour), the largest cost a
///   scenario may state, so that huge σ cannot overflow the clock.
///
/// Randomness: run `r` of a sweep with base seed `s` draws from its own
/// ``SplitMix64`` seeded with ``runSeed(base:run:)``; every task, uncertain
/// or not, consumes exactly one 64-bit draw, in task order. A run's costs
/// therefore depend on `(s, r)` only — not on the thread that computes it,
/// nor on how runs are split among threads — and making one task uncertain
/// does not change the draws of the others.
///
/// ```swift
/// let sampler = try CostSampler(scenario)
/// var costs = sampler.medians
/// sampler.sample(run: 7, seed: 42, into: &costs)   // µs per task
/// ```
public struct CostSampler: Sendable {
    /// The standard normal's 90th percentile: Φ⁻¹(0.9).
    public static let z90 = 1.2815515655446004
    /// The largest sampled cost, in µs: one hour, the model's largest cost.
    public static let maximumCost: Micros = 3_600_000_000

    /// Each task's median cost (the scenario's `cost`), in µs.
    public let medians: [Micros]
    /// Each task's lognormal σ (0: fixed cost).
    public let sigmas: [Double]
    /// The σ given to tasks without `costP90` (0: none).
    public let jitter: Double
    /// Tasks that vary through their `costP90`, and through the jitter.
    public let p90Tasks: Int
    public let jitterTasks: Int
    /// Tasks whose `costP90` is above 0 while their `cost` is 0: fixed at 0, `costP90` ignored.
    public let ignoredP90Tasks: [Int]
    /// (v2) Each task's median latency (the scenario's `latency`), in µs.
    public let latencyMedians: [Micros]
    /// (v2) Each task's latency σ, from `latencyP90` (0: fixed latency; the
    /// jitter applies to costs only).
    public let latencySigmas: [Double]
    /// (v2) Tasks whose latency varies.
    public let latencyTasks: Int

    /// - Parameter jitter: σ for tasks without `costP90`; nil uses the scenario's `jitter`.
    /// - Throws: ``ScenarioError`` (at `jitter`, without a file name) when the
    ///   jitter is negative or not finite: the decoder and the CLI reject such
    ///   values, a caller of this initialiser may not have checked its own.
    public init(_ scenario: Scenario, jitter: Double? = nil) throws(ScenarioError) {
        let fallback = jitter ?? scenario.jitter ?? 0
        guard fallback.isFinite && fallback >= 0 else {
            throw ScenarioError([
                Diagnostic(file: "", path: "jitter", message: "must be a finite number ≥ 0, found \(fallback)")
            ])
        }
        var sigmas: [Double] = []
        sigmas.reserveCapacity(scenario.tasks.count)
        var ignored: [Int] = []
        for (i, task) in scenario.tasks.enumerated() {
            guard let p90 = task.costP90 else {
                sigmas.append(task.cost == 0 ? 0 : fallback)
                continue
            }
            if task.cost == 0 {
                if p90 > 0 { ignored.append(i) }
                sigmas.append(0)
                continue
            }
            sigmas.append(Self.sigma(median: task.cost, p90: p90))
        }
        self.ignoredP90Tasks = ignored
        self.medians = scenario.tasks.map(\.cost)
        self.sigmas = sigmas
        self.jitter = fallback
        var p90Tasks = 0
        for (task, sigma) in zip(scenario.tasks, sigmas) where sigma > 0 && task.costP90 != nil { p90Tasks += 1 }
        self.p90Tasks = p90Tasks
        self.jitterTasks = sigmas.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } - p90Tasks
        latencyMedians = scenario.tasks.map(\.latency)
        latencySigmas = scenario.tasks.map { task in
            guard let p90 = task.latencyP90, task.latency > 0, p90 > task.latency else { return 0 }
            return Self.sigma(median: task.latency, p90: p90)
        }
        latencyTasks = latencySigmas.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
    }

    /// σ of the lognormal with this median and 90th percentile (µs, `p90 ≥ median > 0`).
    public static func sigma(median: Micros, p90: Micros) -> Double {
        log(Double(p90) / Double(median)) / z90
    }

    /// The number of tasks whose cost varies (σ > 0).
    public var uncertainTaskCount: Int { sigmas.reduce(0) { $0 + ($1 > 0 ? 1 : 0) } }

    /// Whether every sample equals the scenario's costs and latencies.
    public var isDeterministic: Bool { uncertainTaskCount == 0 && latencyTasks == 0 }

    /// Writes run `run`'s sampled latencies (µs, one per task) into
    /// `latencies`. They come from a generator of their own (seeded from the
    /// run's seed with its bits flipped), so adding a `latencyP90` never
    /// changes the sampled costs.
    ///
    /// - Complexity: O(n); no allocation.
    public func sampleLatencies(run: Int, seed: UInt64, into latencies: inout [Micros]) {
        precondition(latencies.count == latencyMedians.count, "one latency per task")
        var generator = SplitMix64(seed: ~Self.runSeed(base: seed, run: run))
        for i in 0..<latencyMedians.count {
            let bits = generator.next()
            let sigma = latencySigmas[i]
            guard sigma > 0 else {
                latencies[i] = latencyMedians[i]
                continue
            }
            latencies[i] = Self.lognormal(
                median: latencyMedians[i], sigma: sigma, z: NormalDistribution.quantile(openUnit: bits))
        }
    }

    /// The seed of run `run` of a sweep with base seed `base`: the run-th
    /// output of SplitMix64 seeded with `base`, computed directly — the
    /// SplitMix64 finaliser applied to `base + (run + 1) × γ`. Distinct runs get
    /// distinct seeds (the finaliser is a bijection).
    public static func runSeed(base: UInt64, run: Int) -> UInt64 {
        var generator = SplitMix64(seed: base &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(truncatingIfNeeded: run))
        return generator.next()
    }

    /// Writes run `run`'s sampled costs (µs, one per task) into `costs`, which
    /// must hold one entry per task.
    ///
    /// - Complexity: O(n); no allocation.
    public func sample(run: Int, seed: UInt64, into costs: inout [Micros]) {
        precondition(costs.count == medians.count, "one cost per task")
        var generator = SplitMix64(seed: Self.runSeed(base: seed, run: run))
        medians.withUnsafeBufferPointer { medians in
            sigmas.withUnsafeBufferPointer { sigmas in
                costs.withUnsafeMutableBufferPointer { costs in
                    for i in 0..<medians.count {
                        let bits = generator.next()
                        let sigma = sigmas[i]
                        guard sigma > 0 else {
                            costs[i] = medians[i]
                            continue
                        }
                        let z = NormalDistribution.quantile(openUnit: bits)
                        costs[i] = Self.lognormal(median: medians[i], sigma: sigma, z: z)
                    }
                }
            }
        }
    }

    /// `median × exp(σ·z)` rounded half away from zero to integer µs, capped at ``maximumCost``.
    @inline(__always)
    static func lognormal(median: Micros, sigma: Double, z: Double) -> Micros {
        let value = (Double(median) * exp(sigma * z)).rounded()
        return value < Double(maximumCost) ? Micros(value) : maximumCost
    }
}

/// The standard normal distribution's quantile function Φ⁻¹.
public enum NormalDistribution {
    /// Φ⁻¹(u) for a uniform draw taken from 64 random bits: the top 52 bits
    /// give `u = (k + ½) / 2⁵²`, exactly representable, as is `1 − u`, and
    /// strictly inside (0, 1) — so the result is finite (|z| < 8.2) and the
    /// draws are symmetric about 0.
    @inline(__always)
    public static func quantile(openUnit bits: UInt64) -> Double {
        quantile((Double(bits >> 12) + 0.5) * 0x1.0p-52)
    }

    /// Φ⁻¹(p) for 0 < p < 1 by Acklam's rational approximation (relative error
    /// below 1.2 × 10⁻⁹ — far below the 1 µs rounding of the costs).
    ///
    /// - Complexity: O(1): one `log`, and one `sqrt` in the tails.
    @inline(__always)
    public static func quantile(_ p: Double) -> Double {
        let low = 0.02425
        if p < low {
            let q = (-2 * log(p)).squareRoot()
            return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5)
                / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
        }
        if p > 1 - low {
            let q = (-2 * log(1 - p)).squareRoot()
            return -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5)
                / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
        }
        let q = p - 0.5
        let r = q * q
        return (((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q
            / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
    }

    private static let a0 = -3.969683028665376e+01, a1 = 2.209460984245205e+02, a2 = -2.759285104469687e+02
    private static let a3 = 1.383577518672690e+02, a4 = -3.066479806614716e+01, a5 = 2.506628277459239e+00
    private static let b0 = -5.447609879822406e+01, b1 = 1.615858368580409e+02, b2 = -1.556989798598866e+02
    private static let b3 = 6.680131188771972e+01, b4 = -1.328068155288572e+01
    private static let c0 = -7.784894002430293e-03, c1 = -3.223964580411365e-01, c2 = -2.400758277161838e+00
    private static let c3 = -2.549732539343734e+00, c4 = 4.374664141464968e+00, c5 = 2.938163982698783e+00
    private static let d0 = 7.784695709041462e-03, d1 = 3.224671290700398e-01, d2 = 2.445134137142996e+00
    private static let d3 = 3.754408661907416e+00
}
