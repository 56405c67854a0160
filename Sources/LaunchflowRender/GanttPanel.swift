import LaunchflowCore

/// The lanes of one strategy's schedule, drawn on a ``Canvas``: shared by
/// ``GanttChart`` (one panel) and ``ComparisonChart`` (one panel per strategy).
///
/// Geometry, in points, y downward from the panel's top:
/// - two marker rows (``markerRows`` tall) for the first-frame and
///   launch-complete labels (three with full display);
/// - the `main` lane (``mainLaneHeight``): a run-loop strip on top
///   (`didFinishLaunching` span, commit markers), then the bar band
///   (pre-main phases, main-thread tasks, commits, blocked time), then — with
///   inputs — one row per group of overlapping inputs;
/// - one lane per worker that ran a task (``workerLaneHeight``), ``laneGap``
///   apart; workers that stayed idle are folded into one thin row
///   (``idleRowHeight``, id `…lane-idle`) that names them;
/// - with a folded tail (``TimeAxis/isFolded``), right of the axis break,
///   each lane lists what happens on its thread later (``GanttFold``); a
///   lane grows to hold its list;
/// - a key under the lanes for the bars whose label fit nowhere (``LabelPlanner``).
///
/// Every bar spans exactly `axis.x(start)` … `axis.x(end)`, cut at the
/// axis's ends: what ends before the axis start is left out, what starts
/// after its end is listed in the folded tail instead.
struct GanttPanel {
    static let markerRows = 28.0
    static let mainLaneHeight = 48.0
    static let runLoopStrip = 14.0
    static let workerLaneHeight = 30.0
    static let laneGap = 4.0
    static let barInset = 4.0
    static let laneLabelX = 12.0
    static let idleRowHeight = 14.0
    /// One row of inputs under the `main` lane's bars.
    static let inputRowHeight = 11.0

    let result: SimulationResult
    let axis: TimeAxis
    let ids: ElementIDs
    let tiers: Tiers
    /// Prefix of this panel's non-task ids after the chart prefix: "" or "serial-".
    let scope: String
    /// The element id of task i's bar.
    let barID: (Int) -> String
    /// What each thread does after the axis's end, listed right of the break.
    let fold: GanttFold
    /// Each input's row in the inputs area (overlapping inputs stacked), and the number of rows.
    let inputRows: (row: [Int: Int], count: Int)
    /// Whether labels that do not fit inside their bar go beside it or into the key
    /// (not in the report, whose script refits labels inside the bars as it zooms).
    var labelsOutside = true

    init(
        result: SimulationResult, axis: TimeAxis, ids: ElementIDs, tiers: Tiers, scope: String,
        barID: @escaping (Int) -> String
    ) {
        self.result = result
        self.axis = axis
        self.ids = ids
        self.tiers = tiers
        self.scope = scope
        self.barID = barID
        fold = GanttFold(result, axis: axis, tiers: tiers)
        inputRows = Self.stackInputs(result, axis: axis)
    }

    /// (v2.1) A third marker row when time to full display differs from the first frame.
    var markerRowsHeight: Double { showsFullDisplay ? Self.markerRows + 13 : Self.markerRows }
    /// (v2.1) The scenario has `fullyDrawn` tasks and its content is complete after the first frame.
    var showsFullDisplay: Bool {
        result.schedule.scenario.tasks.contains(where: \.fullyDrawn)
            && result.metrics.timeToFullDisplay != result.metrics.timeToFirstFrame
    }

    /// The threads that get a lane: `main` and every worker that ran a task, ascending.
    var shownThreads: [Int32] {
        var used = Set<Int32>([0])
        for run in result.schedule.tasks { used.insert(run.thread) }
        return used.sorted()
    }

    /// The workers that ran nothing, ascending.
    var idleThreads: [Int32] {
        let shown = Set(shownThreads)
        return (1..<Int32(result.schedule.scenario.device.cores)).filter { !shown.contains($0) }
    }

    /// The `main` lane's height: taller by one ``inputRowHeight`` per row of inputs.
    var mainHeight: Double { Self.mainLaneHeight + Double(inputRows.count) * Self.inputRowHeight }

    /// The y range (points, downward) of each shown thread's lane, by thread;
    /// and the idle row below them, if any.
    func lanes(top: Double) -> (byThread: [Int32: (top: Double, bottom: Double)], idle: (top: Double, bottom: Double)?)
    {
        var lanes: [Int32: (top: Double, bottom: Double)] = [:]
        var y = top + markerRowsHeight
        for thread in shownThreads {
            let height = max(thread == 0 ? mainHeight : Self.workerLaneHeight, fold.height(thread))
            lanes[thread] = (y, y + height)
            y += height + Self.laneGap
        }
        let idle = idleThreads.isEmpty ? nil : (top: y, bottom: y + Self.idleRowHeight)
        return (lanes, idle)
    }

    /// "worker-3", "worker-2 and worker-5", "worker-2 … worker-5" (contiguous), or a list.
    static func names(_ threads: [Int32]) -> String {
        let names = threads.map(Schedule.threadName)
        if names.count == 1 { return names[0] }
        if let first = threads.first, let last = threads.last, Int(last - first) + 1 == threads.count, threads.count > 2
        {
            return "\(names[0]) … \(names[names.count - 1])"
        }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    func id(_ suffix: String) -> String { ids(scope + suffix) }

    /// Where a panel's parts are, once laid out.
    struct Layout {
        var lanes: [Int32: (top: Double, bottom: Double)]
        var idle: (top: Double, bottom: Double)?
        /// The band of the `main` lane where its bars are.
        var mainBand: (top: Double, bottom: Double)
        /// The top of the first lane and the bottom of the last lane that ran something.
        var lanesTop: Double
        var busyBottom: Double
        /// The bottom of everything, the idle row included.
        var bottom: Double
    }

    func layout(top: Double) -> Layout {
        let (lanes, idle) = lanes(top: top)
        let main = lanes[0]!
        let last = lanes[shownThreads[shownThreads.count - 1]]!
        return Layout(
            lanes: lanes, idle: idle,
            mainBand: (main.top + Self.runLoopStrip, main.top + Self.mainLaneHeight - Self.barInset),
            lanesTop: main.top, busyBottom: last.bottom, bottom: idle?.bottom ?? last.bottom)
    }

    /// Draws the panel with its top at `top`; returns the y below it (its key included).
    func draw(on canvas: inout Canvas, top: Double) -> Double {
        let layout = layout(top: top)
        drawLanes(&canvas, layout)
        drawRunLoop(&canvas, layout)
        let keyed = drawTasks(&canvas, layout)
        if !result.schedule.inputs.isEmpty {
            inputs(&canvas, row: (top: layout.mainBand.bottom + Self.barInset, bottom: layout.lanes[0]!.bottom))
        }
        drawCommits(&canvas, layout)
        fold.draw(&canvas, panel: self, layout: layout)
        drawMarkers(&canvas, top: top, layout: layout)
        return key(&canvas, keyed.keyed, unnamed: keyed.unnamed, top: layout.bottom + 4)
    }

    /// Lane backgrounds and names, the idle workers' row, the grid.
    private func drawLanes(_ canvas: inout Canvas, _ layout: Layout) {
        for (k, thread) in shownThreads.enumerated() {
            let lane = layout.lanes[thread]!
            let name = Schedule.threadName(thread)
            canvas.box(
                id("lane-" + name), x0: axis.originX - 4, x1: axis.x(axis.end) + 4, top: lane.top,
                height: lane.bottom - lane.top,
                [
                    "fillcolor": .init(ChartStyle.laneFills[k % 2]), "color": .init(ChartStyle.laneStroke),
                    "penwidth": "0.6", "class": "lane",
                ])
            canvas.text(
                id("lane-label-" + name), name, x: Self.laneLabelX, y: (lane.top + lane.bottom) / 2, size: 11,
                bold: thread == 0)
        }
        if let idle = layout.idle {
            let idleThreads = self.idleThreads
            let text =
                "\(Self.names(idleThreads)): idle (no task ran on \(idleThreads.count == 1 ? "it" : "them"))"
            canvas.box(
                id("lane-idle"), x0: axis.originX - 4, x1: axis.rightEdge + 4, top: idle.top,
                height: idle.bottom - idle.top,
                [
                    "fillcolor": "white", "color": .init(ChartStyle.laneStroke), "penwidth": "0.6",
                    "class": "lane idle-workers",
                ])
            canvas.text(
                id("lane-idle-label"), text, x: axis.originX + 4, y: (idle.top + idle.bottom) / 2, size: 8.5,
                color: ChartStyle.mutedText)
        }
        for (k, tick) in axis.ticks.enumerated() where tick > axis.start {
            canvas.verticalLine(
                id("grid-\(k)"), x: axis.x(tick), top: layout.lanesTop, bottom: layout.busyBottom, thickness: 0.75,
                color: ChartStyle.grid)
        }
    }

    /// Pre-main phases, the `didFinishLaunching` span and the main thread's blocked time.
    private func drawRunLoop(_ canvas: inout Canvas, _ layout: Layout) {
        let schedule = result.schedule
        for (k, span) in schedule.preMain.enumerated() where span.end > axis.start && span.start < axis.end {
            let phase = schedule.scenario.preMain[k]
            let shown = TimeSpan(start: max(span.start, axis.start), end: min(span.end, axis.end))
            bar(
                &canvas, id("premain-\(k)"), shown, band: layout.mainBand, label: phase.name,
                fill: ChartStyle.preMain[k % 2], stroke: "#8c8c8c", classes: "premain",
                tooltip: "pre-main: \(phase.name)\n\(range(span))")
        }
        // (§3.12) Each launch phase's own work, labelled with its callback's name.
        for (k, run) in schedule.launchPhases.enumerated() where run.costEnd > axis.start && run.start < axis.end {
            let phase = schedule.scenario.launchPhases[k]
            let own = TimeSpan(start: max(run.start, axis.start), end: min(run.costEnd, axis.end))
            let dFL =
                k == schedule.scenario.startPhase ? "; then didFinishLaunching until \(formatMillis(run.end)) ms" : ""
            bar(
                &canvas, id("launch-phase-\(k)"), own, band: layout.mainBand, label: phase.name,
                fill: ChartStyle.launchPhase[k % 2], stroke: "#7f95b3", classes: "launch-phase",
                tooltip: "launch phase: \(phase.name)\n\(range(TimeSpan(start: run.start, end: run.costEnd)))\(dFL)")
        }
        let launch = schedule.didFinishLaunching
        if launch.start < axis.end {
            let x0 = axis.clampedX(launch.start)
            let x1 = axis.clampedX(launch.end)
            canvas.box(
                id("did-finish-launching"), x0: x0, x1: x1, top: layout.lanes[0]!.top + 3,
                height: Self.runLoopStrip - 5,
                [
                    "fillcolor": .init(ChartStyle.launchSpanFill), "color": .init(ChartStyle.launchSpanStroke),
                    "penwidth": "0.8", "class": "did-finish-launching",
                    "tooltip": .init(GraphvizText.tooltip("didFinishLaunching\n\(range(launch))")),
                    "label": .init(
                        LabelPlanner.insideSize("didFinishLaunching", width: x1 - x0) != nil
                            ? "didFinishLaunching" : ""),
                    "fontsize": "8",
                ])
        }
        for (k, span) in schedule.blocked.enumerated() where span.end > axis.start && span.start < axis.end {
            bar(
                &canvas, id("blocked-\(k)"), span, band: layout.mainBand, label: "blocked",
                fill: ChartStyle.blockedFill, stroke: ChartStyle.blockedStroke, classes: "blocked",
                style: "filled,dashed", tooltip: "main thread blocked in didFinishLaunching\n\(range(span))")
        }
    }

    /// Commit time (a bar) and commit markers (triangles) inside the axis;
    /// later commits are counted in the folded tail.
    private func drawCommits(_ canvas: inout Canvas, _ layout: Layout) {
        let firstFrameCommit = result.metrics.firstFrameIteration
        for (k, commit) in result.schedule.commits.enumerated() where commit.end >= axis.start {
            guard commit.end <= axis.end else { break }
            let tip =
                "commit \(k) (end of run-loop iteration \(k))\n\(range(TimeSpan(start: commit.start, end: commit.end)))"
                + "\npresented at \(formatMillis(commit.presented)) ms"
                + (k == firstFrameCommit ? " — the first frame" : "")
            if commit.end > commit.start {
                bar(
                    &canvas, id("commit-time-\(k)"), TimeSpan(start: commit.start, end: commit.end),
                    band: layout.mainBand, label: "", fill: ChartStyle.commitTimeFill, stroke: ChartStyle.commit,
                    classes: "commit-time", tooltip: tip)
            }
            let x = axis.x(commit.end)
            let color = k == firstFrameCommit ? ChartStyle.firstFrame : ChartStyle.commit
            canvas.box(
                id("commit-\(k)"), x0: x - 4, x1: x + 4, top: layout.lanes[0]!.top + 2, height: 8,
                [
                    "shape": "invtriangle", "fillcolor": .init(color), "class": "commit",
                    "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
        }
    }

    /// The marks before a task's id in its label: ⚓ anchor, ★ first frame,
    /// (v2.1) ↦ after the first frame, ✔ fully drawn.
    static func marks(_ task: LaunchTask) -> String {
        (task.anchor ? "⚓ " : "") + (task.firstFrame ? "★ " : "") + (task.after != nil ? "↦ " : "")
            + (task.fullyDrawn ? "✔ " : "")
    }

    /// A bar from `span.start` to `span.end` inside `band` (points, downward),
    /// cut at the axis's ends; `label` inside when it fits whole.
    func bar(
        _ canvas: inout Canvas, _ elementID: String, _ span: TimeSpan, band: (top: Double, bottom: Double),
        label: String, fill: String, stroke: String, classes: String, style: String = "filled",
        penwidth: Double = 0.8, tooltip: String?
    ) {
        let x0 = axis.clampedX(span.start)
        let x1 = axis.clampedX(span.end)
        var attributes: GraphDescription.Attributes = [
            "fillcolor": .init(fill), "color": .init(stroke), "class": .init(classes),
        ]
        if penwidth != 0.8 { attributes["penwidth"] = .init(Number.points(penwidth)) }
        if style != "filled" { attributes["style"] = .init(style) }
        if let size = LabelPlanner.insideSize(label, width: x1 - x0) {
            attributes["label"] = .init(GraphvizText.label(label))
            if size != 9 { attributes["fontsize"] = .init(Number.points(size)) }
        }
        if let tooltip { attributes["tooltip"] = .init(GraphvizText.tooltip(tooltip)) }
        canvas.box(elementID, x0: x0, x1: x1, top: band.top, height: band.bottom - band.top, attributes)
    }

    func range(_ span: TimeSpan) -> String {
        "\(formatMillis(span.start)) → \(formatMillis(span.end)) ms (\(formatMillis(span.duration)) ms)"
    }
}
