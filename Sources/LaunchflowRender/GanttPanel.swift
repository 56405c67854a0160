import LaunchflowCore

/// The lanes of one strategy's schedule, drawn on a ``Canvas``: shared by
/// ``GanttChart`` (one panel) and ``ComparisonChart`` (one panel per strategy).
///
/// Geometry, in points, y downward from the panel's top:
/// - two marker rows (``markerRows`` tall) for the first-frame and
///   launch-complete labels;
/// - the `main` lane (``mainLaneHeight``): a run-loop strip on top
///   (`didFinishLaunching` span, commit markers), then the bar band
///   (pre-main phases, main-thread tasks, commits, blocked time);
/// - one lane per worker (``workerLaneHeight``), ``laneGap`` apart.
///
/// Every bar spans exactly `axis.x(start)` … `axis.x(end)`.
struct GanttPanel {
    static let markerRows = 28.0
    static let mainLaneHeight = 48.0
    static let runLoopStrip = 14.0
    static let workerLaneHeight = 30.0
    static let laneGap = 4.0
    static let barInset = 4.0
    static let laneLabelX = 12.0

    let result: SimulationResult
    let axis: TimeAxis
    let ids: ElementIDs
    let tiers: Tiers
    /// Prefix of this panel's non-task ids after the chart prefix: "" or "serial-".
    let scope: String
    /// The element id of task i's bar.
    let barID: (Int) -> String

    /// The panel's height for a scenario with `cores` cores, in points.
    static func height(cores: Int) -> Double {
        markerRows + mainLaneHeight + Double(cores - 1) * (workerLaneHeight + laneGap)
    }

    /// The y range (points, downward) of each thread's lane: index 0 is `main`.
    static func lanes(cores: Int, top: Double) -> [(top: Double, bottom: Double)] {
        var lanes: [(top: Double, bottom: Double)] = []
        var y = top + markerRows
        for thread in 0..<cores {
            let height = thread == 0 ? mainLaneHeight : workerLaneHeight
            lanes.append((y, y + height))
            y += height + laneGap
        }
        return lanes
    }

    private func id(_ suffix: String) -> String { ids(scope + suffix) }

    /// Draws the panel with its top at `top`; returns the y below its last lane.
    func draw(on canvas: inout Canvas, top: Double) -> Double {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let cores = scenario.device.cores
        let lanes = Self.lanes(cores: cores, top: top)
        let lanesTop = lanes[0].top
        let lanesBottom = lanes[lanes.count - 1].bottom

        for (thread, lane) in lanes.enumerated() {
            let name = Schedule.threadName(Int32(thread))
            canvas.box(
                id("lane-" + name), x0: axis.originX - 4, x1: axis.x(axis.end) + 4, top: lane.top,
                height: lane.bottom - lane.top,
                [
                    "fillcolor": .init(ChartStyle.laneFills[thread % 2]), "color": .init(ChartStyle.laneStroke),
                    "penwidth": "0.6", "class": "lane",
                ])
            canvas.text(
                id("lane-label-" + name), name, x: Self.laneLabelX, y: (lane.top + lane.bottom) / 2, size: 11,
                bold: thread == 0)
        }
        for (k, tick) in axis.ticks.enumerated() where tick > 0 {
            canvas.verticalLine(
                id("grid-\(k)"), x: axis.x(tick), top: lanesTop, bottom: lanesBottom, thickness: 0.75,
                color: ChartStyle.grid)
        }

        let mainBand = (top: lanes[0].top + Self.runLoopStrip, bottom: lanes[0].bottom - Self.barInset)
        for (k, span) in schedule.preMain.enumerated() {
            let phase = scenario.preMain[k]
            bar(
                &canvas, id("premain-\(k)"), span, band: mainBand, label: phase.name,
                fill: ChartStyle.preMain[k % 2], stroke: "#8c8c8c", classes: "premain",
                tooltip: "pre-main: \(phase.name)\n\(range(span))")
        }

        let launch = schedule.didFinishLaunching
        canvas.box(
            id("did-finish-launching"), x0: axis.x(launch.start), x1: axis.x(launch.end),
            top: lanes[0].top + 3, height: Self.runLoopStrip - 5,
            [
                "fillcolor": .init(ChartStyle.launchSpanFill), "color": .init(ChartStyle.launchSpanStroke),
                "penwidth": "0.8", "class": "did-finish-launching",
                "tooltip": .init(GraphvizText.tooltip("didFinishLaunching\n\(range(launch))")),
                "label": .init(
                    fits("didFinishLaunching", size: 8, in: axis.x(launch.end) - axis.x(launch.start))
                        ? "didFinishLaunching" : ""),
                "fontsize": "8",
            ])

        for (k, span) in schedule.blocked.enumerated() {
            bar(
                &canvas, id("blocked-\(k)"), span, band: mainBand, label: "blocked", fill: ChartStyle.blockedFill,
                stroke: ChartStyle.blockedStroke, classes: "blocked", style: "filled,dashed",
                tooltip: "main thread blocked in didFinishLaunching\n\(range(span))")
        }

        let critical = Set(result.criticalPath.tasks)
        for (i, run) in schedule.tasks.enumerated() {
            let task = scenario.tasks[i]
            let lane = lanes[Int(run.thread)]
            let band = (
                top: run.thread == 0 ? mainBand.top : lane.top + Self.barInset, bottom: lane.bottom - Self.barInset
            )
            let colors = ChartStyle.tierColors(tiers.ofTask[i])
            var classes = "task tier-\(tiers.ofTask[i])"
            if critical.contains(i) { classes += " critical" }
            if task.firstFrame { classes += " first-frame" }
            if task.mainThreadOnly { classes += " main-thread-only" }
            let tip = ids.tooltipAllowed(forTask: barID(i)) ? taskTooltip(i) : nil
            bar(
                &canvas, barID(i), TimeSpan(start: run.start, end: run.end), band: band,
                label: (task.firstFrame ? "★ " : "") + task.id, fill: colors.fill,
                stroke: critical.contains(i) ? ChartStyle.critical : colors.stroke,
                classes: classes, penwidth: critical.contains(i) ? 1.6 : 0.8, tooltip: tip)
        }

        let firstFrameCommit = result.metrics.firstFrameIteration
        for (k, commit) in schedule.commits.enumerated() {
            let tip =
                "commit \(k) (end of run-loop iteration \(k))\n\(range(TimeSpan(start: commit.start, end: commit.end)))"
                + "\npresented at \(formatMillis(commit.presented)) ms"
                + (k == firstFrameCommit ? " — the first frame" : "")
            if commit.end > commit.start {
                bar(
                    &canvas, id("commit-time-\(k)"), TimeSpan(start: commit.start, end: commit.end), band: mainBand,
                    label: "", fill: "#e6d9f5", stroke: ChartStyle.commit, classes: "commit-time", tooltip: tip)
            }
            let x = axis.x(commit.end)
            let color = k == firstFrameCommit ? ChartStyle.firstFrame : ChartStyle.commit
            canvas.box(
                id("commit-\(k)"), x0: x - 4, x1: x + 4, top: lanes[0].top + 2, height: 8,
                [
                    "shape": "invtriangle", "fillcolor": .init(color), "class": "commit",
                    "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
        }

        let firstFrameX = axis.x(result.metrics.timeToFirstFrame)
        marker(
            &canvas, "first-frame", at: result.metrics.timeToFirstFrame, row: 0, top: top, bottom: lanesBottom,
            text: "first frame \(formatMillis(result.metrics.timeToFirstFrame)) ms", color: ChartStyle.firstFrame,
            avoiding: nil)
        marker(
            &canvas, "launch-complete", at: result.metrics.launchComplete, row: 1, top: top, bottom: lanesBottom,
            text: "launch complete \(formatMillis(result.metrics.launchComplete)) ms", color: ChartStyle.launchComplete,
            avoiding: firstFrameX)
        return lanesBottom
    }

    /// A bar from `span.start` to `span.end` inside `band` (points, downward).
    private func bar(
        _ canvas: inout Canvas, _ elementID: String, _ span: TimeSpan, band: (top: Double, bottom: Double), label: String,
        fill: String, stroke: String, classes: String, style: String = "filled", penwidth: Double = 0.8,
        tooltip: String?
    ) {
        let x0 = axis.x(span.start), x1 = axis.x(span.end)
        var attributes: GraphDescription.Attributes = [
            "fillcolor": .init(fill), "color": .init(stroke), "class": .init(classes),
        ]
        if penwidth != 0.8 { attributes["penwidth"] = .init(Number.points(penwidth)) }
        if style != "filled" { attributes["style"] = .init(style) }
        if fits(label, size: 9, in: x1 - x0) { attributes["label"] = .init(GraphvizText.label(label)) }
        if let tooltip { attributes["tooltip"] = .init(GraphvizText.tooltip(tooltip)) }
        canvas.box(elementID, x0: x0, x1: x1, top: band.top, height: band.bottom - band.top, attributes)
    }

    /// A labelled vertical line at time `t` from the marker row down to `bottom`.
    /// The label goes right of the line unless that runs off the picture or
    /// across the line at x = `avoiding` (points).
    private func marker(
        _ canvas: inout Canvas, _ name: String, at t: Micros, row: Int, top: Double, bottom: Double, text: String,
        color: String, avoiding other: Double?
    ) {
        let x = axis.x(t)
        let rowY = top + 7 + Double(row) * 13
        canvas.verticalLine(
            id(name), x: x, top: rowY - 5, bottom: bottom, thickness: 1.6, color: color,
            ["class": .init(name + " marker")])
        let width = ChartStyle.estimatedWidth(text, size: 9.5) * 1.15
        let fitsRight = x + 4 + width < canvas.width - 4
        let fitsLeft = x - 4 - width > 4
        let crossesRight = other.map { $0 > x && $0 < x + 6 + width } ?? false
        let crossesLeft = other.map { $0 < x && $0 > x - 6 - width } ?? false
        let leftAligned = fitsRight && (!crossesRight || !fitsLeft || crossesLeft)
        canvas.text(
            id(name + "-label"), text, x: leftAligned ? x + 4 : x - 4, y: rowY, size: 9.5,
            align: leftAligned ? .left : .right, color: color, bold: true)
    }

    private func fits(_ label: String, size: Double, in width: Double) -> Bool {
        !label.isEmpty && ChartStyle.estimatedWidth(label, size: size) + 6 <= width
    }

    private func range(_ span: TimeSpan) -> String {
        "\(formatMillis(span.start)) → \(formatMillis(span.end)) ms (\(formatMillis(span.duration)) ms)"
    }

    private func taskTooltip(_ i: Int) -> String {
        let task = result.schedule.scenario.tasks[i]
        let run = result.schedule.tasks[i]
        var lines = [task.id]
        lines.append("\(Schedule.threadName(run.thread)): \(range(TimeSpan(start: run.start, end: run.end)))")
        lines.append("ready \(formatMillis(run.ready)) ms, waited \(formatMillis(run.wait)) ms")
        var facts = [tiers.name(tiers.ofTask[i])]
        if task.mainThreadOnly { facts.append("main thread only") }
        if task.firstFrame { facts.append("needed by the first frame") }
        lines.append(facts.joined(separator: " · "))
        return lines.joined(separator: "\n")
    }
}
