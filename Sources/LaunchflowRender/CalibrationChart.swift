import LaunchflowCore
import LaunchflowImport

/// `launchflow calibrate --plot`: the measured and the simulated time to
/// first frame (and, after `--fit`, the fitted model's) as histograms on one
/// shared axis, each with its median and p90 marked — laid out at exact
/// coordinates on a ``Canvas`` and rendered through Graphviz's `nop` engine.
///
/// Bar heights are shares of each panel's own launches (10 measured runs and
/// 1000 sampled launches compare), on one scale for every panel. Bins have a
/// round width (1, 2, 2.5 or 5 × 10ⁿ ms) giving at most ``maxBins`` bins.
///
/// Element ids: `lf-<panel>-bin-<k>`, `lf-<panel>-p50`, `lf-<panel>-p90`,
/// `lf-tick-<k>`, `lf-title` (panels: `measured`, `simulated`, `fitted`).
///
/// ```swift
/// let svg = try CalibrationChart(calibration).svg()
/// ```
public struct CalibrationChart: Sendable {
    /// One distribution: launches as (µs, how many), and its summary.
    public struct Panel: Sendable {
        public var id: String
        public var title: String
        public var samples: [(value: Micros, count: Int)]
        public var median: Micros
        public var p90: Micros
        public var colors: (fill: String, stroke: String)

        var count: Int { samples.reduce(0) { $0 + $1.count } }
    }

    public var title: String
    public var subtitle: String
    public var panels: [Panel]

    static let maxBins = 50
    static let originX = 190.0
    static let plotWidth = 800.0
    static let histogramHeight = 64.0
    static let panelHeight = 104.0

    public init(title: String, subtitle: String, panels: [Panel]) {
        self.title = title
        self.subtitle = subtitle
        self.panels = panels
    }

    /// The chart of a calibration: measured, simulated, and fitted when there is a fit.
    public init(_ calibration: Calibration) {
        func micros(_ ms: Double) -> Micros { Micros((ms * 1000).rounded()) }
        func simulatedPanel(_ id: String, _ title: String, _ launches: SimulatedLaunches, _ colors: (String, String))
            -> Panel
        {
            var counts: [Micros: Int] = [:]
            for value in launches.firstFrames { counts[value, default: 0] += 1 }
            return Panel(
                id: id, title: title, samples: counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                median: micros(launches.median), p90: micros(launches.p90), colors: colors)
        }
        let measured = calibration.measured
        var panels = [
            Panel(
                id: "measured", title: "measured (\(measured.count))",
                samples: measured.samples.map { (micros($0.ms), $0.count) }, median: micros(measured.median),
                p90: micros(measured.p90), colors: ("#c7c7c7", "#4d4d4d")),
            simulatedPanel(
                "simulated", "simulated (\(calibration.simulated.firstFrames.count))", calibration.simulated,
                ("#a6cee3", "#1f78b4")),
        ]
        if let fit = calibration.fit {
            let label =
                fit.kind == .scale
                ? "costScale \(Number.fixed(fit.value, 4))" : "overhead \(Number.fixed(fit.value, 3)) ms"
            panels.append(simulatedPanel("fitted", "fitted: \(label)", fit.simulated, ("#fdbf6f", "#e07b00")))
        }
        let scenario = calibration.scenario
        self.init(
            title:
                "\(scenario.name) — time to first frame, measured and simulated (\(calibration.request.strategy.rawValue))",
            subtitle: "measured: \(measured.description) · bar height: share of each panel's launches",
            panels: panels)
    }

    /// The picture as a Graphviz description (plain Swift, no C).
    public var graph: GraphDescription {
        let ids = ElementIDs(taskIDs: [])
        let values = panels.flatMap { $0.samples.map(\.value) } + panels.flatMap { [$0.median, $0.p90] }
        let low = values.min() ?? 0
        let high = max(values.max() ?? 1, low + 1)
        var bin: Micros = 1
        search: for magnitude in [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000] {
            for multiple in [10, 20, 25, 50] {
                let width = magnitude * multiple / 10
                if (high - low) / width + 1 <= Self.maxBins {
                    bin = width
                    break search
                }
            }
        }
        let first = low / bin * bin
        let scale = RangeScale(
            low: first, high: (high / bin + 1) * bin, originX: Self.originX, width: Self.plotWidth)
        var canvas = Canvas(width: Self.originX + Self.plotWidth + 40, backgroundID: ids("background"))
        canvas.text(ids("title"), title, x: 12, y: 18, size: 15, bold: true)
        canvas.text(
            ids("subtitle"), subtitle + " · bins of \(formatMillis(bin)) ms", x: 12, y: 38, size: 10.5,
            color: ChartStyle.mutedText)

        var shares: [[(bin: Micros, share: Double, count: Int)]] = []
        var tallest = 0.0
        for panel in panels {
            var counts: [Micros: Int] = [:]
            for (value, count) in panel.samples { counts[(value - first) / bin, default: 0] += count }
            let total = Double(max(panel.count, 1))
            let list = counts.sorted { $0.key < $1.key }.map { ($0.key, Double($0.value) / total, $0.value) }
            tallest = max(tallest, list.map(\.1).max() ?? 0)
            shares.append(list)
        }
        tallest = max(tallest, 1e-9)

        var y = 54.0
        for (p, panel) in panels.enumerated() {
            let top = y
            let baseline = top + 8 + Self.histogramHeight
            canvas.horizontalLine(
                ids("\(panel.id)-separator"), x0: 8, x1: canvas.width - 8, y: top, thickness: 0.8,
                color: ChartStyle.laneStroke)
            canvas.horizontalLine(
                ids("\(panel.id)-baseline"), x0: Self.originX, x1: Self.originX + Self.plotWidth, y: baseline,
                thickness: 0.6, color: ChartStyle.grid)
            canvas.text(ids("\(panel.id)-heading"), panel.title, x: 12, y: top + 18, size: 12, bold: true)
            canvas.text(
                ids("\(panel.id)-stat-0"), "median \(formatMillis(panel.median)) ms", x: 12, y: top + 36, size: 9.5,
                color: ChartStyle.mutedText)
            canvas.text(
                ids("\(panel.id)-stat-1"), "p90 \(formatMillis(panel.p90)) ms", x: 12, y: top + 50, size: 9.5,
                color: ChartStyle.mutedText)
            for (k, share, count) in shares[p] {
                let start = first + k * bin
                let height = max(Self.histogramHeight * share / tallest, 0.8)
                let percent = Number.fixed(share * 100, 1)
                canvas.box(
                    ids("\(panel.id)-bin-\(k)"), x0: scale.x(start) + 0.5, x1: scale.x(start + bin) - 0.5,
                    top: baseline - height, height: height,
                    [
                        "fillcolor": .init(panel.colors.fill), "color": .init(panel.colors.stroke), "penwidth": "0.8",
                        "tooltip": .init(
                            GraphvizText.tooltip(
                                "\(panel.title): \(count) (\(percent)%) from \(formatMillis(start)) to \(formatMillis(start + bin)) ms"
                            )),
                    ])
            }
            for (label, value, color, thickness) in [
                ("p50", panel.median, ChartStyle.text, 2.0), ("p90", panel.p90, ChartStyle.mutedText, 1.2),
            ] {
                canvas.verticalLine(
                    ids("\(panel.id)-\(label)"), x: scale.x(value), top: top + 6, bottom: baseline + 6,
                    thickness: thickness, color: color,
                    ["tooltip": .init(GraphvizText.tooltip("\(panel.title): \(label) \(formatMillis(value)) ms"))])
            }
            y = top + Self.panelHeight
        }

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
            ids("axis-title"), "time to first frame (ms since process start)", x: Self.originX + Self.plotWidth,
            y: y + 27, size: 9.5, align: .right, color: ChartStyle.mutedText)
        canvas.text(
            ids("legend"), "dark line: median · grey line: p90", x: 12, y: y + 44, size: 9.5,
            color: ChartStyle.mutedText)
        canvas.height = y + 56
        return canvas.graph(name: "calibration", graphID: ids("graph"))
    }

    /// The picture as SVG bytes.
    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }
}
