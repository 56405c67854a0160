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
///
/// **Folded tail.** When something happens after ``end`` (``latest`` > ``end``),
/// the axis has a break right of ``end`` (``breakGap`` points) and a strip
/// ``foldWidth`` points wide (from ``foldX``) where the charts list what
/// happens later, each item with its time, not to scale.
public struct TimeAxis: Sendable, Equatable {
    /// The right end of the axis, in µs (> ``start``).
    public var end: Micros
    /// The left end of the axis, in µs: 0, or later when the axis folds pre-main.
    public var start: Micros = 0
    /// The distance between ticks, in µs (> 0).
    public var tickStep: Micros
    /// x of t = 0, in points.
    public var originX: Double
    /// Width of the plot from ``start`` to ``end``, in points.
    public var width: Double
    /// The latest instant the chart has something to show, µs; past ``end``, it is folded.
    public var latest: Micros

    /// The white gap of the axis break, and the folded strip right of it, in points.
    public static let breakGap = 18.0
    public static let foldWidth = 200.0

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
        self.latest = self.end
    }

    /// Whether something happens after ``end``: the chart draws an axis break and a folded strip.
    public var isFolded: Bool { latest > end }

    /// The left edge of the folded strip, in points.
    public var foldX: Double { x(end) + Self.breakGap }

    /// The right edge of what the axis covers: the folded strip's, or x(``end``).
    public var rightEdge: Double { isFolded ? foldX + Self.foldWidth : x(end) }

    /// Whether time `t` is drawn to scale (``start`` ≤ t ≤ ``end``).
    public func contains(_ t: Micros) -> Bool { t >= start && t <= end }

    /// The x of `t` held inside the plot: x(start) before it, x(end) after it.
    public func clampedX(_ t: Micros) -> Double { x(min(max(t, start), end)) }

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
        framed(by: results, from: foldingPreMain ? .t0 : .micros(0), to: .end, originX: originX, width: width)
    }

    /// The axis from `from` to `to` (by default the launch, ``LaunchFrame``),
    /// the latest of them over `results`; what happens later is folded.
    /// With a folded tail the plot is narrower by the strip and the break, so
    /// the picture keeps its width.
    public static func framed(
        by results: [SimulationResult], from: TimePoint = .t0, to: TimePoint = .launch, originX: Double = 120,
        width: Double = 1000
    ) -> TimeAxis {
        let latest = results.map(LaunchFrame.latest).max() ?? 0
        let first = results.map(from.resolve).min() ?? 0
        let last = min(max(results.map(to.resolve).max() ?? 0, first + 1), latest)
        var axis = TimeAxis(upTo: last, from: first, originX: originX, width: width)
        if latest > axis.end {
            axis = TimeAxis(upTo: last, from: first, originX: originX, width: width - breakGap - foldWidth)
            axis.latest = latest
        }
        return axis
    }
}
