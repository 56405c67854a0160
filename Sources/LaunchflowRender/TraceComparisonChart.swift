import LaunchflowCore
import LaunchflowImport

/// `calibrate --trace … --gantt FILE.svg` and the report's "Measured against
/// simulated" section: one row per task found in the trace (pre-main phases
/// first, then tasks in simulated start order), the measured span as a dashed
/// outline behind the simulated bar, on one time axis (ms from the aligned zero).
///
/// Element ids: `<prefix>trace-measured-<k>`, `<prefix>trace-simulated-<k>`,
/// `<prefix>trace-label-<k>` for row k, `<prefix>trace-tick-<k>`,
/// `<prefix>trace-title` (the prefix as in the report's other pictures).
public struct TraceComparisonChart: Sendable {
    public let comparison: TraceComparison
    /// Rows drawn (the largest errors when there are more).
    public var rowLimit = 200

    static let originX = 230.0
    static let plotWidth = 820.0
    static let rowHeight = 16.0

    public init(_ comparison: TraceComparison) { self.comparison = comparison }

    struct Line {
        var label: String
        var row: TraceComparison.Row
        var isPhase: Bool
    }

    var lines: [Line] {
        let tasks = comparison.rows.prefix(rowLimit).sorted {
            ($0.simulated.start, $0.measured.start, $0.id) < ($1.simulated.start, $1.measured.start, $1.id)
        }
        return comparison.phases.map { Line(label: "pre-main: " + $0.id, row: $0, isPhase: true) }
            + tasks.map { Line(label: $0.id, row: $0, isPhase: false) }
    }

    /// The picture as a Graphviz description (plain Swift, no C).
    public var graph: GraphDescription {
        let ids = ElementIDs(taskIDs: comparison.scenario.tasks.map(\.id))
        let lines = lines
        let times = lines.flatMap {
            [$0.row.measured.start, $0.row.measured.end, $0.row.simulated.start, $0.row.simulated.end]
        }
        let scale = RangeScale(
            low: times.min() ?? 0, high: times.max() ?? 1, originX: Self.originX, width: Self.plotWidth)
        var canvas = Canvas(width: Self.originX + Self.plotWidth + 40, backgroundID: ids("trace-background"))
        let scenario = comparison.scenario
        canvas.text(
            ids("trace-title"),
            "\(scenario.name) — measured against simulated (\(comparison.strategy.rawValue)), task by task",
            x: 12, y: 18, size: 15, bold: true)
        canvas.text(
            ids("trace-subtitle"),
            "dashed outline: measured (\(comparison.trace)) · bar: simulated · aligned at the start of '\(comparison.anchor)'",
            x: 12, y: 38, size: 10.5, color: ChartStyle.mutedText)
        var y = 56.0
        for (k, line) in lines.enumerated() {
            let row = line.row
            if k % 2 == 0 {
                canvas.box(
                    ids("trace-lane-\(k)"), x0: 8, x1: canvas.width - 8, top: y, height: Self.rowHeight,
                    ["fillcolor": .init(ChartStyle.laneFills[0])])
            }
            let error = "start \(signed(row.startError)), end \(signed(row.endError)) ms"
            canvas.text(
                ids("trace-label-\(k)"), line.label, x: 12, y: y + Self.rowHeight / 2, size: 9.5,
                color: line.isPhase ? ChartStyle.mutedText : ChartStyle.text,
                tooltip: "\(line.label): measured \(span(row.measured)), simulated \(span(row.simulated)) ms; \(error)")
            let colors =
                line.isPhase ? (ChartStyle.preMain[0], ChartStyle.axis) : ChartStyle.tierColors(row.onMain ? 0 : 1)
            // Measured: an outline behind (a hairline when it has no length).
            canvas.box(
                ids("trace-measured-\(k)"), x0: scale.x(row.measured.start),
                x1: max(scale.x(row.measured.end), scale.x(row.measured.start) + 1), top: y + 1,
                height: Self.rowHeight - 2,
                [
                    "style": "dashed", "color": .init(ChartStyle.text), "penwidth": "1.2",
                    "tooltip": .init(GraphvizText.tooltip("\(line.label): measured \(span(row.measured)) ms")),
                ])
            // Simulated: a bar in front, inset.
            canvas.box(
                ids("trace-simulated-\(k)"), x0: scale.x(row.simulated.start),
                x1: max(scale.x(row.simulated.end), scale.x(row.simulated.start) + 1), top: y + 4,
                height: Self.rowHeight - 8,
                [
                    "fillcolor": .init(colors.0), "color": .init(colors.1), "penwidth": "0.8",
                    "tooltip": .init(
                        GraphvizText.tooltip("\(line.label): simulated \(span(row.simulated)) ms; \(error)")),
                ])
            y += Self.rowHeight
        }
        if lines.count < comparison.rows.count + comparison.phases.count {
            canvas.text(
                ids("trace-more"), "… \(comparison.rows.count - rowLimit) more tasks with smaller errors", x: 12,
                y: y + 8, size: 9.5, color: ChartStyle.mutedText)
            y += 16
        }
        if let frame = comparison.firstFrame {
            for (name, time, color) in [
                ("measured", frame.measured, ChartStyle.text), ("simulated", frame.simulated, ChartStyle.firstFrame),
            ] {
                canvas.verticalLine(
                    ids("trace-first-frame-\(name)"), x: scale.x(time), top: 50, bottom: y, thickness: 1.5,
                    color: color,
                    ["tooltip": .init(GraphvizText.tooltip("first frame, \(name): \(formatMillis(time)) ms"))])
            }
        }
        canvas.horizontalLine(
            ids("trace-axis"), x0: Self.originX, x1: Self.originX + Self.plotWidth, y: y + 2, thickness: 1,
            color: ChartStyle.axis)
        for (k, tick) in scale.ticks.enumerated() {
            canvas.verticalLine(
                ids("trace-tick-\(k)"), x: scale.x(tick), top: y + 2, bottom: y + 7, thickness: 1,
                color: ChartStyle.axis)
            canvas.text(
                ids("trace-tick-label-\(k)"), formatMillis(tick), x: scale.x(tick), y: y + 15, size: 9.5,
                align: .center,
                color: ChartStyle.mutedText)
        }
        canvas.text(
            ids("trace-axis-title"), "ms", x: Self.originX + Self.plotWidth, y: y + 29, size: 9.5, align: .right,
            color: ChartStyle.mutedText)
        do {
            canvas.text(
                ids("trace-legend"),
                "bars: main thread (blue), workers (green), pre-main (grey) · vertical lines: first frame, measured (dark) and simulated (green)",
                x: 12, y: y + 29,
                size: 9.5, color: ChartStyle.mutedText)
        }
        canvas.height = y + 40
        return canvas.graph(name: "trace-comparison", graphID: ids("trace-graph"))
    }

    /// The picture as SVG bytes.
    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }

    private func span(_ span: TimeSpan) -> String { "\(formatMillis(span.start))–\(formatMillis(span.end))" }

    private func signed(_ value: Micros) -> String {
        value > 0 ? "+" + formatMillis(value) : value < 0 ? "−" + formatMillis(-value) : "0"
    }
}
