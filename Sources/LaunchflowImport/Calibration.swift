import LaunchflowCore

/// `launchflow calibrate`: the model's time to first frame against measured
/// launches, and the cost scale (or main-thread overhead) that makes them agree.
///
/// The simulated side is one launch when the scenario's costs are fixed, or
/// the distribution of a sweep (``Sweep``) when it has `costP90` or `jitter`.
/// Both sides are summarised the same way (``Percentile/interpolated(_:ofSorted:)``;
/// MetricKit histograms by their buckets).
///
/// **Fit.** `scale` finds the factor `k` such that the scenario with every
/// task's `cost` and `costP90` multiplied by `k` (pre-main phases, latencies
/// and the device unchanged) has the median closest to the measured median.
/// `overhead` instead finds the main-thread time `o` ≥ 0 before
/// `didFinishLaunching` — a last pre-main phase named `calibrated overhead` —
/// with the same aim. The simulated time to first frame moves in whole frames,
/// so a range of values gives the same median: the fit reports that range and
/// its middle. The search assumes the median grows with `k` (or `o`), which
/// holds for the scenarios' strategies except for rare scheduling anomalies.
///
/// ```swift
/// let measured = try MeasuredLaunches.load(path: "benchmarkData.json")
/// let calibration = try Calibration.run(scenario, measured: measured, request: CalibrationRequest(fit: .scale))
/// calibration.fit?.value   // costScale
/// ```
public struct Calibration: Sendable {
    public let scenario: Scenario
    public let measured: MeasuredLaunches
    public let request: CalibrationRequest
    public let simulated: SimulatedLaunches
    public let fit: CalibrationFit?
    /// Tasks whose cost varies in the simulated launches (0: one fixed launch).
    public let uncertainTasks: Int

    /// The name of the pre-main phase `--fit overhead` adds (or updates).
    public static let overheadPhase = "calibrated overhead"

    public static func run(_ scenario: Scenario, measured: MeasuredLaunches, request: CalibrationRequest)
        throws(ImportError) -> Calibration
    {
        let sampler: CostSampler
        do {
            sampler = try CostSampler(scenario)
        } catch {
            throw ImportError(file: scenario.name, error.description)
        }
        let simulated = simulate(scenario, request)
        var fit: CalibrationFit? = nil
        switch request.fit {
        case .scale?: fit = try fitScale(scenario, measured: measured, request: request)
        case .overhead?: fit = try fitOverhead(scenario, measured: measured, request: request)
        case nil: break
        }
        return Calibration(
            scenario: scenario, measured: measured, request: request, simulated: simulated, fit: fit,
            uncertainTasks: sampler.uncertainTaskCount)
    }

    /// The times to first frame of the scenario's launches: one, or a sweep's runs.
    static func simulate(_ scenario: Scenario, _ request: CalibrationRequest) -> SimulatedLaunches {
        let engine = LaunchEngine(scenario)
        guard let sampler = try? CostSampler(scenario), !sampler.isDeterministic else {
            let first = engine.metrics(request.strategy, options: request.options).timeToFirstFrame
            return SimulatedLaunches([first], sampled: false)
        }
        let configuration = SweepConfiguration(
            runs: request.runs, seed: request.seed, strategies: [request.strategy], options: request.options,
            jobs: request.jobs)
        let result = Sweep(engine: engine, sampler: sampler).run(configuration)
        return SimulatedLaunches(result.firstFrame[0], sampled: true)
    }

    /// The scenario with every task's cost and costP90 multiplied by `factor` (rounded to the µs).
    public static func scaled(_ scenario: Scenario, by factor: Double) -> Scenario {
        var scenario = scenario
        let cap = Double(CostSampler.maximumCost)
        for k in scenario.tasks.indices {
            let cost = min((Double(scenario.tasks[k].cost) * factor).rounded(), cap)
            scenario.tasks[k].cost = Micros(cost)
            if let p90 = scenario.tasks[k].costP90 {
                scenario.tasks[k].costP90 = max(Micros(min((Double(p90) * factor).rounded(), cap)), Micros(cost))
            }
        }
        return scenario
    }

    /// The scenario with a main-thread overhead of `overhead` µs before
    /// `didFinishLaunching`: the ``overheadPhase`` pre-main phase, set or added last.
    public static func withOverhead(_ scenario: Scenario, _ overhead: Micros) -> Scenario {
        var scenario = scenario
        if let k = scenario.preMain.firstIndex(where: { $0.name == overheadPhase }) {
            scenario.preMain[k].cost = overhead
        } else {
            scenario.preMain.append(PreMainPhase(name: overheadPhase, cost: overhead))
        }
        return scenario
    }

    // MARK: Fitting

    /// The median as a function of the fitted value, remembered per argument.
    ///
    /// A class: the bisection's predicates and the search share one cache.
    private final class StepSearch {
        let evaluate: (Double) -> Double
        private var cache: [Double: Double] = [:]

        init(_ evaluate: @escaping (Double) -> Double) { self.evaluate = evaluate }

        func value(_ x: Double) -> Double {
            if let known = cache[x] { return known }
            let value = evaluate(x)
            cache[x] = value
            return value
        }

        /// Narrows `(low, high)` — `isAbove(low)` false, `isAbove(high)` true — to `tolerance`.
        func bisect(
            _ low: Double, _ high: Double, tolerance: Double, integral: Bool, _ isAbove: (Double) -> Bool
        ) -> (low: Double, high: Double) {
            var low = low
            var high = high
            while high - low > tolerance {
                var mid = (low + high) / 2
                if integral {
                    mid = mid.rounded(.down)
                    if mid <= low { break }
                }
                if isAbove(mid) { high = mid } else { low = mid }
            }
            return (low, high)
        }
    }

    private static func fitScale(_ scenario: Scenario, measured: MeasuredLaunches, request: CalibrationRequest)
        throws(ImportError) -> CalibrationFit
    {
        let target = measured.median * 1000  // µs
        let search = StepSearch { factor in simulate(scaled(scenario, by: factor), request).medianMicros }
        var low = 1.0
        var high = 1.0
        if search.value(1) >= target {
            low = 0.5
            while search.value(low) >= target {
                high = low
                low /= 2
                if low < 1e-4 {
                    throw ImportError(
                        file: measured.file,
                        "no cost scale fits: even with (almost) no task costs the model's median is \(formatMillis(Micros(search.value(0).rounded()))) ms, above the measured \(fixed(measured.median, 3)) ms (pre-main and frames alone take that long); try a smaller pre-main or check the strategy"
                    )
                }
            }
        } else {
            high = 2
            while search.value(high) < target {
                low = high
                high *= 2
                if high > 4096 {
                    throw ImportError(
                        file: measured.file,
                        "no cost scale fits: even costs × 4096 leave the model's median below the measured \(fixed(measured.median, 3)) ms; are the scenario's tasks the launch's?"
                    )
                }
            }
        }
        let bracket = search.bisect(low, high, tolerance: high * 1e-5, integral: false) { search.value($0) >= target }
        let (lowerEdge, upperEdge) = plateau(search, bracket, target: target, integral: false, step: { $0 * 0.05 })
        let factor = ((lowerEdge + upperEdge) / 2 * 10_000).rounded() / 10_000
        return CalibrationFit(
            kind: .scale, value: factor, range: lowerEdge...upperEdge,
            simulated: simulate(scaled(scenario, by: factor), request), note: nil)
    }

    private static func fitOverhead(_ scenario: Scenario, measured: MeasuredLaunches, request: CalibrationRequest)
        throws(ImportError) -> CalibrationFit
    {
        let target = measured.median * 1000
        let search = StepSearch { overhead in
            simulate(withOverhead(scenario, Micros(overhead)), request).medianMicros
        }
        let atZero = search.value(0)
        if atZero >= target {
            return CalibrationFit(
                kind: .overhead, value: 0, range: 0...0, simulated: simulate(withOverhead(scenario, 0), request),
                note:
                    "the model without overhead is already \(formatMillis(Micros((atZero - target).rounded()))) ms slower than measured (median): an overhead cannot help; try --fit scale"
            )
        }
        var low = 0.0
        var high = 1000.0
        while search.value(high) < target {
            low = high
            high *= 2
            if high > Double(CostSampler.maximumCost) {
                throw ImportError(file: measured.file, "no overhead up to an hour reaches the measured median")
            }
        }
        let bracket = search.bisect(low, high, tolerance: 1, integral: true) { search.value($0) >= target }
        let frame = Double(max(scenario.device.frameInterval, 1))
        let (lowerEdge, upperEdge) = plateau(search, bracket, target: target, integral: true, step: { _ in frame })
        let overhead = ((lowerEdge + upperEdge) / 2).rounded()
        return CalibrationFit(
            kind: .overhead, value: overhead / 1000, range: (lowerEdge / 1000)...(upperEdge / 1000),
            simulated: simulate(withOverhead(scenario, Micros(overhead)), request), note: nil)
    }

    /// Of the bracket's ends (just below and at or above the target), the one whose
    /// value is closer to `target`, and the range of arguments with that same value.
    private static func plateau(
        _ search: StepSearch, _ bracket: (low: Double, high: Double), target: Double, integral: Bool,
        step: (Double) -> Double
    ) -> (Double, Double) {
        let below = search.value(bracket.low)
        let above = search.value(bracket.high)
        let tolerance = integral ? 1 : bracket.high * 1e-5
        if above - target <= target - below {
            // The value `above` holds from bracket.high up to where the function next rises.
            var probe = bracket.high
            var count = 0
            while search.value(probe) <= above, count < 60 {
                probe += max(step(probe), tolerance)
                count += 1
            }
            let edge = search.bisect(bracket.high, probe, tolerance: tolerance, integral: integral) {
                search.value($0) > above
            }
            return (bracket.high, edge.low)
        }
        var probe = bracket.low
        var count = 0
        while probe > 0, search.value(probe) >= below, count < 60 {
            probe = max(probe - max(step(probe), tolerance), 0)
            count += 1
        }
        if search.value(probe) >= below { return (probe, bracket.low) }
        let edge = search.bisect(probe, bracket.low, tolerance: tolerance, integral: integral) {
            search.value($0) >= below
        }
        return (edge.high, bracket.low)
    }
}

/// How to simulate and what to fit.
public struct CalibrationRequest: Sendable {
    public var strategy: Strategy
    public var options: SimulationOptions
    /// Sampled launches when the scenario's costs vary.
    public var runs: Int
    public var seed: UInt64
    public var jobs: Int
    public var fit: CalibrationFit.Kind?

    public init(
        strategy: Strategy = .dag, options: SimulationOptions = .init(), runs: Int = 1000, seed: UInt64 = 1,
        jobs: Int = Parallel.availableCores, fit: CalibrationFit.Kind? = nil
    ) {
        self.strategy = strategy
        self.options = options
        self.runs = runs
        self.seed = seed
        self.jobs = jobs
        self.fit = fit
    }
}

/// The simulated times to first frame, µs, and their summary in ms.
public struct SimulatedLaunches: Sendable {
    public var firstFrames: [Micros]
    /// From a sweep of sampled costs (else one launch with the scenario's costs).
    public var sampled: Bool
    public var median: Double
    public var p90: Double
    public var min: Double
    public var max: Double

    var medianMicros: Double { median * 1000 }

    init(_ firstFrames: [Micros], sampled: Bool) {
        self.firstFrames = firstFrames
        self.sampled = sampled
        let sorted = firstFrames.map { Int64($0) }.sorted()
        median = Double(Percentile.interpolated(50, ofSorted: sorted)) / 1000
        p90 = Double(Percentile.interpolated(90, ofSorted: sorted)) / 1000
        min = Double(sorted.first ?? 0) / 1000
        max = Double(sorted.last ?? 0) / 1000
    }
}

/// The result of `--fit`.
public struct CalibrationFit: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case scale, overhead
    }

    public var kind: Kind
    /// `costScale` (scale), or `overheadMs` (overhead).
    public var value: Double
    /// Every value in this range gives the same simulated median.
    public var range: ClosedRange<Double>
    /// The launches with the fitted value.
    public var simulated: SimulatedLaunches
    /// Why the fit is at its limit, when it is.
    public var note: String?
}
