import LaunchflowCore

/// The panel's instants (first frame, full display, launch complete, the
/// first-frame bound) and its inputs.
extension GanttPanel {
    /// The labelled vertical lines. They run from their marker row down to
    /// the last lane that ran something, never across the idle workers' row.
    func drawMarkers(_ canvas: inout Canvas, top: Double, layout: Layout) {
        let metrics = result.metrics
        firstFrameBound(&canvas, top: layout.lanesTop, bottom: layout.busyBottom)
        let firstFrameX = axis.contains(metrics.timeToFirstFrame) ? axis.x(metrics.timeToFirstFrame) : nil
        let fullyDrawn = result.schedule.scenario.tasks.contains(where: \.fullyDrawn)
        let firstFrameText =
            fullyDrawn && !showsFullDisplay
            ? "first frame = full display \(formatMillis(metrics.timeToFirstFrame)) ms"
            : "first frame \(formatMillis(metrics.timeToFirstFrame)) ms"
        let bottom = layout.busyBottom
        marker(
            &canvas, "first-frame", at: metrics.timeToFirstFrame, row: 0, top: top, bottom: bottom,
            text: firstFrameText, color: ChartStyle.firstFrame, avoiding: nil)
        if showsFullDisplay {
            marker(
                &canvas, "full-display", at: metrics.timeToFullDisplay, row: 1, top: top, bottom: bottom,
                text: "full display \(formatMillis(metrics.timeToFullDisplay)) ms", color: ChartStyle.fullDisplay,
                avoiding: firstFrameX)
        }
        marker(
            &canvas, "launch-complete", at: metrics.launchComplete, row: showsFullDisplay ? 2 : 1, top: top,
            bottom: bottom, text: "launch complete \(formatMillis(metrics.launchComplete)) ms",
            color: ChartStyle.launchComplete, avoiding: firstFrameX)
    }

    /// (v2.1) The first-frame bound as a faint dashed line across the lanes,
    /// when the first frame comes later: the gap no schedule can close is
    /// left of it, the gap a better plan could close right of it.
    private func firstFrameBound(_ canvas: inout Canvas, top: Double, bottom: Double) {
        let metrics = result.metrics
        let bound = metrics.firstFrameBound
        guard bound < metrics.timeToFirstFrame, axis.contains(bound) else { return }
        let tip =
            "first-frame bound \(formatMillis(bound)) ms: no schedule that keeps every dependency presents its first "
            + "frame earlier; this one is \(formatMillis(metrics.timeToFirstFrame - bound)) ms later"
        let x = axis.x(bound)
        var y = top
        var k = 0
        while y < bottom {
            canvas.verticalLine(
                id("first-frame-bound-\(k)"), x: x, top: y, bottom: min(y + 4, bottom), thickness: 1,
                color: ChartStyle.firstFrame + "80",
                ["class": "first-frame-bound", "tooltip": .init(GraphvizText.tooltip(tip))])
            y += 7
            k += 1
        }
    }

    /// A labelled vertical line at time `t` from the marker row down to `bottom`.
    /// The label goes right of the line unless that runs off the plot or
    /// across the line at x = `avoiding` (points). An instant after the
    /// axis's end has no line: its label stands in the folded strip, in its
    /// row ("launch complete 8601 ms ›"); one before the axis's start, at the
    /// plot's left edge ("‹ …").
    private func marker(
        _ canvas: inout Canvas, _ name: String, at t: Micros, row: Int, top: Double, bottom: Double, text: String,
        color: String, avoiding other: Double?
    ) {
        let rowY = top + 7 + Double(row) * 13
        guard axis.contains(t) else {
            let after = t > axis.end
            canvas.text(
                id(name + "-label"), after ? text + " ›" : "‹ " + text,
                x: after ? (axis.isFolded ? axis.foldX : axis.x(axis.end) - 4) : axis.originX, y: rowY, size: 9.5,
                align: after && !axis.isFolded ? .right : .left, color: color, bold: true)
            return
        }
        let x = axis.x(t)
        canvas.verticalLine(
            id(name), x: x, top: rowY - 5, bottom: bottom, thickness: 1.6, color: color,
            ["class": .init(name + " marker")])
        let width = ChartStyle.estimatedWidth(text, size: 9.5) * 1.15
        let right = axis.rightEdge
        let fitsRight = x + 4 + width < right
        let fitsLeft = x - 4 - width > axis.originX - 60
        let crossesRight = other.map { $0 > x && $0 < x + 6 + width } ?? false
        let crossesLeft = other.map { $0 < x && $0 > x - 6 - width } ?? false
        let leftAligned = fitsRight && (!crossesRight || !fitsLeft || crossesLeft)
        canvas.text(
            id(name + "-label"), text, x: leftAligned ? x + 4 : x - 4, y: rowY, size: 9.5,
            align: leftAligned ? .left : .right, color: color, bold: true)
    }

    /// The inputs' rows: inputs sorted by arrival, each in the first row where
    /// its marks and its name (right of its handler) come after the previous
    /// input's in that row, so overlapping inputs are stacked, never drawn
    /// over each other. Inputs after the axis's end are listed in the fold.
    static func stackInputs(_ result: SimulationResult, axis: TimeAxis) -> (row: [Int: Int], count: Int) {
        let scenario = result.schedule.scenario
        var rowEnds: [Double] = []
        var rows: [Int: Int] = [:]
        let shown = result.schedule.inputs.filter { $0.end > axis.start && $0.at < axis.end }
        for run in shown.sorted(by: { ($0.at, $0.input) < ($1.at, $1.input) }) {
            let x0 = axis.clampedX(run.at) - 1
            let x1 = axis.clampedX(run.end) + 3 + LabelPlanner.width(scenario.inputs[run.input].name, size: 7.5) + 4
            let row = rowEnds.firstIndex { $0 <= x0 } ?? rowEnds.count
            if row == rowEnds.count { rowEnds.append(x1) } else { rowEnds[row] = x1 }
            rows[run.input] = row
        }
        return (rows, rowEnds.count)
    }

    /// The inputs, in rows under the `main` lane's bars: each one's wait
    /// from its arrival (a tick and a thin line, class `input input-wait`)
    /// and its handler (a small bar from start to end, class `input`), its
    /// name right of the handler.
    func inputs(_ canvas: inout Canvas, row area: (top: Double, bottom: Double)) {
        let scenario = result.schedule.scenario
        canvas.text(
            id("inputs-label"), "inputs", x: Self.laneLabelX + 8, y: area.top + Self.inputRowHeight / 2, size: 8,
            color: ChartStyle.mutedText)
        for run in result.schedule.inputs {
            guard let rowIndex = inputRows.row[run.input] else { continue }
            let k = run.input
            let input = scenario.inputs[k]
            let top = area.top + Double(rowIndex) * Self.inputRowHeight
            let row = (top: top, bottom: top + Self.inputRowHeight)
            let middle = (row.top + row.bottom) / 2
            let tip =
                "\(input.name): arrived at \(formatMillis(run.at)) ms, waited \(formatMillis(run.wait)) ms,"
                + " handled \(formatMillis(run.start)) → \(formatMillis(run.end)) ms"
            if run.start > run.at {
                canvas.box(
                    id("input-\(k)-wait"), x0: axis.clampedX(run.at), x1: axis.clampedX(run.start),
                    top: middle - 0.6, height: 1.2,
                    [
                        "fillcolor": .init(ChartStyle.inputStroke), "class": "input input-wait",
                        "tooltip": .init(GraphvizText.tooltip(tip)),
                    ])
            }
            if axis.contains(run.at) {
                canvas.verticalLine(
                    id("input-\(k)-arrival"), x: axis.x(run.at), top: row.top + 1, bottom: row.bottom - 1,
                    thickness: 1.2, color: ChartStyle.inputStroke,
                    ["class": "input input-arrival", "tooltip": .init(GraphvizText.tooltip(tip))])
            }
            bar(
                &canvas, id("input-\(k)"), TimeSpan(start: max(run.start, axis.start), end: run.end),
                band: (row.top + 1.5, row.bottom - 1.5), label: "", fill: ChartStyle.inputFill,
                stroke: ChartStyle.inputStroke, classes: "input", tooltip: tip)
            canvas.text(
                id("input-\(k)-label"), input.name, x: axis.clampedX(run.end) + 3, y: middle, size: 7.5,
                color: ChartStyle.inputStroke, tooltip: tip)
        }
    }
}
