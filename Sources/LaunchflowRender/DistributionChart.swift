import LaunchflowCore

/// The distributions of one metric (by default the time to first frame) over
/// a sweep's runs, one panel per strategy on **one shared axis**, laid out at
/// exact coordinates on a ``Canvas`` and rendered through Graphviz's `nop` engine.
///
/// Each panel (y downward, points):
/// - a histogram: one bar per bin, its height the bin's share of the runs,
///   on a scale shared by every panel (the tallest bar of all is
///   ``histogramHeight``). Times to first frame are whole frames, so bins are
///   whole frames wide (`m` frames, the smallest `m` giving at most
///   ``maxBins`` bins), and a bin's bar is centred on the frames it holds;
///   other metrics use bins of whole µs;
/// - a box plot below it: a line from min to max, a box from p25 to p75, a
///   white median tick, a dark p90 tick and a p99 tick;
/// - on the left, the strategy and its mean, p50, p90 and p99.
///
/// Element ids: `lf-<strategy>-bin-<k>` (k: the bin's index counted from
/// the axis start), `lf-<strategy>-range`, `-box`, `-p50`, `-p90`, `-p99`,
/// `lf-tick-<k>`, `lf-title`…; bars carry a tooltip with their runs.
///
/// ```swift
/// let svg = try DistributionChart(sweepResult).svg()
/// ```
public struct DistributionChart: Sendable {
    public enum Measure: Sendable {
        case timeToFirstFrame, launchComplete
    }

    public var result: SweepResult
    public var measure: Measure

    /// The tallest histogram bar, the box-plot strip and the panel, in points.
    static let histogramHeight = 64.0
    static let boxHeight = 10.0
    static let panelHeight = 110.0
    /// At most this many bins across the values.
    static let maxBins = 60
    static let originX = 170.0
    static let plotWidth = 820.0

    public init(_ result: SweepResult, measure: Measure = .timeToFirstFrame) {
        self.result = result
        self.measure = measure
    }

    /// The runs' values of strategy `s`, µs.
    private func values(_ s: Int) -> [Micros] {
        measure == .timeToFirstFrame ? result.firstFrame[s] : result.launchComplete[s]
    }

    /// The smallest step values come in: a frame for the time to first frame, else 1 µs.
    private var quantum: Micros {
        measure == .timeToFirstFrame ? max(result.scenario.device.frameInterval, 1) : 1
    }

    /// Each strategy's runs, sorted, and the bins shared by every panel.
    private struct Binned {
        var sorted: [[Micros]]
        var low: Micros
        var binWidth: Micros
        /// Per strategy: (bin index from `low`, runs in it), ascending.
        var bins: [[(bin: Micros, count: Int)]]
        /// The most runs in one bin, over every strategy (the tallest bar).
        var tallest: Int
    }

    private func binned() -> Binned {
        let sorted = result.configuration.strategies.indices.map { values($0).sorted() }
        let low = sorted.compactMap(\.first).min() ?? 0
        let high = sorted.compactMap(\.last).max() ?? 0
        let binWidth = quantum * max(1, ((high - low) / quantum + 1 + Self.maxBins - 1) / Self.maxBins)
        var bins: [[(bin: Micros, count: Int)]] = []
        var tallest = 1
        for values in sorted {
            var counts: [(bin: Micros, count: Int)] = []
            for value in values {
                let bin = (value - low) / binWidth
                if let last = counts.last, last.bin == bin {
                    counts[counts.count - 1].count += 1
                } else {
                    counts.append((bin, 1))
                }
            }
            tallest = max(tallest, counts.map(\.count).max() ?? 0)
            bins.append(counts)
        }
        return Binned(sorted: sorted, low: low, binWidth: binWidth, bins: bins, tallest: tallest)
    }

    /// What varied in the sweep: "12 of 68 tasks' costs vary · 6 latencies vary",
    /// "costs fixed · 6 of 68 tasks' latencies vary" — never "0 of 68 tasks vary"
    /// above distributions that latencies widen.
    var variation: String {
        let total = result.scenario.tasks.count
        let costs = result.uncertainTasks
        let latencies = result.latencyTasks
        let costText = costs > 0 ? "\(costs) of \(total) tasks' costs vary" : "costs fixed"
        guard latencies > 0 else { return costs > 0 ? "\(costs) of \(total) tasks vary" : "nothing varies" }
        return costText + " · \(latencies)" + (costs > 0 ? "" : " of \(total) tasks'")
            + " latenc\(latencies == 1 ? "y varies" : "ies vary")"
    }

    /// The picture as a Graphviz description (plain Swift, no C).
    public var graph: GraphDescription {
        let ids = ElementIDs(taskIDs: [])
        let binned = binned()
        // Bars reach half a quantum either side of their values.
        let scale = RangeScale(
            low: binned.low - quantum / 2,
            high: (binned.sorted.compactMap(\.last).max() ?? 0) + binned.binWidth
                - quantum / 2, originX: Self.originX, width: Self.plotWidth)
        var canvas = Canvas(width: Self.originX + Self.plotWidth + 40, backgroundID: ids("background"))
        title(&canvas, ids: ids, binWidth: binned.binWidth)
        var y = 56.0
        for (s, strategy) in result.configuration.strategies.enumerated() {
            panel(&canvas, ids: ids, s, strategy, binned: binned, scale: scale, top: y)
            y += Self.panelHeight
        }
        axis(&canvas, ids: ids, scale: scale, y: y)
        canvas.height = y + 56
        return canvas.graph(name: result.scenario.name + " sweep", graphID: ids("graph"))
    }

    private var what: String { measure == .timeToFirstFrame ? "time to first frame" : "launch completion" }

    private func title(_ canvas: inout Canvas, ids: ElementIDs, binWidth: Micros) {
        canvas.text(
            ids("title"), "\(result.scenario.name) — \(what) over \(result.configuration.runs) sampled launches",
            x: 12, y: 18, size: 16, bold: true)
        let binText =
            measure == .timeToFirstFrame
            ? "bins of \(binWidth / quantum) frame\(binWidth == quantum ? "" : "s") (\(formatMillis(binWidth)) ms)"
            : "bins of \(formatMillis(binWidth)) ms"
        canvas.text(
            ids("subtitle"),
            "seed \(result.configuration.seed) · \(variation) · \(binText)"
                + " · bar height: share of the runs (same scale in every panel)",
            x: 12, y: 38, size: 10.5, color: ChartStyle.mutedText)
    }

    /// Strategy `s`'s panel with its top at `top`: heading and statistics,
    /// histogram, box plot.
    private func panel(
        _ canvas: inout Canvas, ids: ElementIDs, _ s: Int, _ strategy: Strategy, binned: Binned, scale: RangeScale,
        top: Double
    ) {
        let name = strategy.rawValue
        let colors = Self.colors(strategy)
        let baseline = top + 8 + Self.histogramHeight
        canvas.horizontalLine(
            ids("\(name)-separator"), x0: 8, x1: canvas.width - 8, y: top, thickness: 0.8, color: ChartStyle.laneStroke)
        canvas.horizontalLine(
            ids("\(name)-baseline"), x0: Self.originX, x1: Self.originX + Self.plotWidth, y: baseline, thickness: 0.6,
            color: ChartStyle.grid)
        let d = Distribution(values(s))
        canvas.text(ids("\(name)-heading"), name, x: 12, y: top + 18, size: 13, bold: true)
        let lines = [
            "mean \(formatMillis(d.mean)) ms", "p50 \(formatMillis(d.p50)) · p90 \(formatMillis(d.p90))",
            "p99 \(formatMillis(d.p99)) · max \(formatMillis(d.max))",
        ]
        for (k, line) in lines.enumerated() {
            canvas.text(
                ids("\(name)-stat-\(k)"), line, x: 12, y: top + 36 + Double(k) * 14, size: 9.5,
                color: ChartStyle.mutedText)
        }
        histogram(&canvas, ids: ids, name: name, colors: colors, s, binned: binned, scale: scale, baseline: baseline)
        boxPlot(
            &canvas, ids: ids, name: name, colors: colors, sorted: binned.sorted[s], d, scale: scale,
            mid: baseline + 8 + Self.boxHeight / 2)
    }

    private func histogram(
        _ canvas: inout Canvas, ids: ElementIDs, name: String, colors: (fill: String, stroke: String), _ s: Int,
        binned: Binned, scale: RangeScale, baseline: Double
    ) {
        let runs = result.configuration.runs
        let binWidth = binned.binWidth
        for (bin, count) in binned.bins[s] {
            let first = binned.low + bin * binWidth
            let height = max(Self.histogramHeight * Double(count) / Double(binned.tallest), 0.8)
            let share = Number.fixed(Double(count) * 100 / Double(max(runs, 1)), 1)
            let range =
                binWidth == quantum
                ? "\(formatMillis(first)) ms"
                : "\(formatMillis(first))–\(formatMillis(first + binWidth - quantum)) ms"
            canvas.box(
                ids("\(name)-bin-\(bin)"), x0: scale.x(first - quantum / 2) + 0.5,
                x1: scale.x(first + binWidth - quantum / 2) - 0.5, top: baseline - height, height: height,
                [
                    "fillcolor": .init(colors.fill), "color": .init(colors.stroke), "penwidth": "0.8",
                    "tooltip": .init(GraphvizText.tooltip("\(name): \(count) runs (\(share)%) at \(range)")),
                ])
        }
    }

    private func boxPlot(
        _ canvas: inout Canvas, ids: ElementIDs, name: String, colors: (fill: String, stroke: String),
        sorted: [Micros], _ d: Distribution, scale: RangeScale, mid: Double
    ) {
        let p25 = Distribution.percentile(25, ofSorted: sorted)
        let p75 = Distribution.percentile(75, ofSorted: sorted)
        canvas.horizontalLine(
            ids("\(name)-range"), x0: scale.x(d.min), x1: max(scale.x(d.max), scale.x(d.min) + 1), y: mid,
            thickness: 1.2, color: colors.stroke)
        canvas.box(
            ids("\(name)-box"), x0: scale.x(p25), x1: max(scale.x(p75), scale.x(p25) + 2),
            top: mid - Self.boxHeight / 2, height: Self.boxHeight,
            [
                "fillcolor": .init(colors.fill), "color": .init(colors.stroke), "penwidth": "1",
                "tooltip": .init(
                    GraphvizText.tooltip("\(name): p25 \(formatMillis(p25)) ms, p75 \(formatMillis(p75)) ms")),
            ])
        for (label, value, color, thickness) in [
            ("p50", d.p50, "white", 2.0), ("p90", d.p90, ChartStyle.text, 2.0),
            ("p99", d.p99, ChartStyle.mutedText, 1.2),
        ] {
            canvas.verticalLine(
                ids("\(name)-\(label)"), x: scale.x(value), top: mid - Self.boxHeight / 2 - 2,
                bottom: mid + Self.boxHeight / 2 + 2, thickness: thickness, color: color,
                ["tooltip": .init(GraphvizText.tooltip("\(name): \(label) \(formatMillis(value)) ms"))])
        }
    }

    /// The shared axis at `y`, its title and the box plot's legend.
    private func axis(_ canvas: inout Canvas, ids: ElementIDs, scale: RangeScale, y: Double) {
        canvas.horizontalLine(
            ids("axis"), x0: Self.originX, x1: Self.originX + Self.plotWidth, y: y, thickness: 1,
            color: ChartStyle.axis)
        for (k, tick) in scale.ticks.enumerated() {
            canvas.verticalLine(
                ids("tick-\(k)"), x: scale.x(tick), top: y, bottom: y + 5, thickness: 1, color: ChartStyle.axis,
                ["class": "tick"])
            canvas.text(
                ids("tick-label-\(k)"), formatMillis(tick), x: scale.x(tick), y: y + 13, size: 9.5, align: .center,
                color: ChartStyle.mutedText)
        }
        canvas.text(
            ids("axis-title"), "\(what) (ms since process start)", x: Self.originX + Self.plotWidth, y: y + 27,
            size: 9.5, align: .right, color: ChartStyle.mutedText)
        canvas.text(
            ids("legend"),
            "box plot: line min–max · box p25–p75 · white tick p50 · dark tick p90 · grey tick p99 (nearest rank)",
            x: 12, y: y + 44, size: 9.5, color: ChartStyle.mutedText)
    }

    /// The picture as SVG bytes.
    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }

    /// The file name `launchflow sweep --out` writes: `<stem>-sweep.svg`.
    public static func fileName(_ stem: String) -> String { "\(stem)-sweep.svg" }

    /// Fill and outline of a strategy's marks.
    static func colors(_ strategy: Strategy) -> (fill: String, stroke: String) {
        ChartStyle.strategyColors(strategy)
    }
}

/// A linear scale from `low`…`high` µs (widened to whole ticks) onto
/// `originX`…`originX + width` points, with ticks every 1, 2, 2.5 or 5 × 10ⁿ µs
/// (at most 10 intervals).
struct RangeScale {
    let start: Micros
    let end: Micros
    let step: Micros
    let originX: Double
    let width: Double

    init(low: Micros, high: Micros, originX: Double, width: Double) {
        // Held within 0…10¹⁷ µs (about 3,000 years), where the tick search cannot overflow.
        let limit: Micros = 100_000_000_000_000_000
        let low = min(max(low, 0), limit - 1)
        let high = min(max(high, low + 1), limit)
        var step: Micros = 1
        var magnitude: Micros = 1
        search: while true {
            for multiple in [10, 20, 25, 50] {
                let candidate = magnitude * multiple / 10
                if candidate >= 1 {
                    let first = low / candidate * candidate
                    let last = (high + candidate - 1) / candidate * candidate
                    if (last - first) / candidate <= 10 {
                        step = candidate
                        break search
                    }
                }
            }
            magnitude *= 10
        }
        self.step = step
        start = low / step * step
        end = max((high + step - 1) / step * step, start + step)
        self.originX = originX
        self.width = width
    }

    /// The x of `t` µs, in points.
    func x(_ t: Micros) -> Double { originX + Double(t - start) * width / Double(end - start) }

    var ticks: [Micros] { Array(stride(from: start, through: end, by: step)) }
}
