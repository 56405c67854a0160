import LaunchflowCore

/// The horizontal scale of the Gantt charts: time (µs since process start)
/// to x (points, which are the SVG's user units).
///
/// `x(t) = originX + (t − start) × width / (end − start)`. The axis runs from
/// ``start`` (0, or a whole step at or before `t0` when pre-main is folded) to
/// ``end``, a whole number of ``tickStep``s, with ticks at every multiple of the step.
/// Steps are 1, 2, 2.5 or 5 × 10ⁿ µs, chosen for at most ``maxTicks`` intervals.
///
/// Example: `TimeAxis(upTo: 133_336)` has a 20 ms step and ends at 140 ms;
/// with the default 1000-point plot, 1 ms is 1000 / 140 ≈ 7.14 points.
public struct TimeAxis: Sendable, Equatable {
    /// The right end of the axis, in µs (> ``start``).
    public var end: Micros
    /// The left end of the axis, in µs: 0, or later when the axis folds pre-main.
    public var start: Micros = 0
    /// The distance between ticks, in µs (> 0).
    public var tickStep: Micros
    /// x of t = 0, in points.
    public var originX: Double
    /// Width of the plot from t = 0 to ``end``, in points.
    public var width: Double

    /// At most this many intervals between ticks.
    public static let maxTicks = 10

    /// An axis that reaches at least `latest` µs, from 0 or — when `from` is
    /// given — from the last whole step at or before `from`.
    public init(upTo latest: Micros, from: Micros = 0, originX: Double = 120, width: Double = 1000) {
        let first = min(max(from, 0), max(latest - 1, 0))
        let latest = max(latest - first, 1)
        var step: Micros = 1
        var magnitude: Micros = 1
        search: while true {
            for multiple in [10, 20, 25, 50] {
                let candidate = magnitude * multiple / 10
                if candidate >= 1 && (latest + candidate - 1) / candidate <= Self.maxTicks {
                    step = candidate
                    break search
                }
            }
            magnitude *= 10
        }
        self.tickStep = step
        self.start = first / step * step
        self.end = (first + latest + step - 1) / step * step
        self.originX = originX
        self.width = width
    }

    /// The x of time `t` (µs), in points.
    public func x(_ t: Micros) -> Double { originX + Double(t - start) * width / Double(end - start) }

    /// Points per millisecond.
    public var pointsPerMillisecond: Double { width * 1000 / Double(end - start) }

    /// The tick times, ``start`` … ``end``, in µs.
    public var ticks: [Micros] { Array(stride(from: start, through: end, by: tickStep)) }

    /// The axis that fits every result: up to the latest launch completion or
    /// first-frame presentation among them, or the end of the last input's handler.
    /// With `foldingPreMain`, the axis starts at the run loop (`t0`, rounded down to a step).
    public static func shared(
        by results: [SimulationResult], foldingPreMain: Bool = false, originX: Double = 120, width: Double = 1000
    ) -> TimeAxis {
        let latest =
            results.map {
                max($0.metrics.launchComplete, $0.metrics.timeToFirstFrame, $0.schedule.inputs.map(\.end).max() ?? 0)
            }.max() ?? 0
        let t0 = foldingPreMain ? (results.first?.schedule.t0 ?? 0) : 0
        return TimeAxis(upTo: latest, from: t0, originX: originX, width: width)
    }
}
