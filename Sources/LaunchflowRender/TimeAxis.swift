import LaunchflowCore

/// The horizontal scale of the Gantt charts: time (µs since process start)
/// to x (points, which are the SVG's user units).
///
/// `x(t) = originX + t × width / end`. The axis runs from 0 to ``end``, a
/// whole number of ``tickStep``s, with ticks at every multiple of the step.
/// Steps are 1, 2, 2.5 or 5 × 10ⁿ µs, chosen for at most ``maxTicks`` intervals.
///
/// Example: `TimeAxis(upTo: 133_336)` has a 20 ms step and ends at 140 ms;
/// with the default 1000-point plot, 1 ms is 1000 / 140 ≈ 7.14 points.
public struct TimeAxis: Sendable, Equatable {
    /// The right end of the axis, in µs (> 0).
    public var end: Micros
    /// The distance between ticks, in µs (> 0).
    public var tickStep: Micros
    /// x of t = 0, in points.
    public var originX: Double
    /// Width of the plot from t = 0 to ``end``, in points.
    public var width: Double

    /// At most this many intervals between ticks.
    public static let maxTicks = 10

    /// An axis that reaches at least `latest` µs.
    public init(upTo latest: Micros, originX: Double = 120, width: Double = 1000) {
        let latest = max(latest, 1)
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
        self.end = (latest + step - 1) / step * step
        self.originX = originX
        self.width = width
    }

    /// The x of time `t` (µs), in points.
    public func x(_ t: Micros) -> Double { originX + Double(t) * width / Double(end) }

    /// Points per millisecond.
    public var pointsPerMillisecond: Double { width * 1000 / Double(end) }

    /// The tick times, 0 … ``end``, in µs.
    public var ticks: [Micros] { Array(stride(from: 0, through: end, by: tickStep)) }

    /// The axis that fits every result: up to the latest launch completion or
    /// first-frame presentation among them.
    public static func shared(by results: [SimulationResult], originX: Double = 120, width: Double = 1000) -> TimeAxis {
        let latest = results.map { max($0.metrics.launchComplete, $0.metrics.timeToFirstFrame) }.max() ?? 0
        return TimeAxis(upTo: latest, originX: originX, width: width)
    }
}
