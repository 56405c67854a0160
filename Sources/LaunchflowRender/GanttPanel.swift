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
/// - one lane per worker that ran a task (``workerLaneHeight``), ``laneGap``
///   apart; workers that stayed idle are folded into one thin row
///   (``idleRowHeight``, id `…lane-idle`) that names them.
///
/// Every bar spans exactly `axis.x(start)` … `axis.x(end)`; when the axis
/// starts after 0 (pre-main folded), what ends before it is left out and
/// what straddles it is cut at the axis start.
struct GanttPanel {
    static let markerRows = 28.0
    /// (v2.1) A third marker row when time to full display differs from the first frame.
    var markerRowsHeight: Double { showsFullDisplay ? Self.markerRows + 13 : Self.markerRows }
    /// (v2.1) The scenario has `fullyDrawn` tasks and its content is complete after the first frame.
    var showsFullDisplay: Bool {
        result.schedule.scenario.tasks.contains(where: \.fullyDrawn)
            && result.metrics.timeToFullDisplay != result.metrics.timeToFirstFrame
    }
    static let mainLaneHeight = 48.0
    static let runLoopStrip = 14.0
    static let workerLaneHeight = 30.0
    static let laneGap = 4.0
    static let barInset = 4.0
    static let laneLabelX = 12.0
    static let idleRowHeight = 14.0
    /// The row under the `main` lane's bars where inputs are drawn (when the scenario has some).
    static let inputRowHeight = 12.0

    let result: SimulationResult
    let axis: TimeAxis
    let ids: ElementIDs
    let tiers: Tiers
    /// Prefix of this panel's non-task ids after the chart prefix: "" or "serial-".
    let scope: String
    /// The element id of task i's bar.
    let barID: (Int) -> String

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

    /// The `main` lane's height: taller by ``inputRowHeight`` when there are inputs.
    var mainHeight: Double {
        Self.mainLaneHeight + (result.schedule.inputs.isEmpty ? 0 : Self.inputRowHeight)
    }

    /// The y range (points, downward) of each shown thread's lane, by thread;
    /// and the idle row below them, if any.
    func lanes(top: Double) -> (byThread: [Int32: (top: Double, bottom: Double)], idle: (top: Double, bottom: Double)?)
    {
        var lanes: [Int32: (top: Double, bottom: Double)] = [:]
        var y = top + markerRowsHeight
        for thread in shownThreads {
            let height = thread == 0 ? mainHeight : Self.workerLaneHeight
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

    private func id(_ suffix: String) -> String { ids(scope + suffix) }

    /// Draws the panel with its top at `top`; returns the y below its last lane.
    func draw(on canvas: inout Canvas, top: Double) -> Double {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let layout = lanes(top: top)
        let lanes = layout.byThread
        let shown = shownThreads
        let lanesTop = lanes[0]!.top
        let lanesBottom = layout.idle?.bottom ?? lanes[shown[shown.count - 1]]!.bottom

        for (k, thread) in shown.enumerated() {
            let lane = lanes[thread]!
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
                id("lane-idle"), x0: axis.originX - 4, x1: axis.x(axis.end) + 4, top: idle.top,
                height: idle.bottom - idle.top,
                [
                    "fillcolor": "white", "color": .init(ChartStyle.laneStroke), "penwidth": "0.6",
                    "class": "lane idle-workers",
                ])
            canvas.text(
                id("lane-idle-label"), text, x: axis.originX + 4, y: (idle.top + idle.bottom) / 2, size: 8.5,
                color: ChartStyle.mutedText)
        }
        for (k, tick) in axis.ticks.enumerated() where tick > 0 {
            canvas.verticalLine(
                id("grid-\(k)"), x: axis.x(tick), top: lanesTop, bottom: lanesBottom, thickness: 0.75,
                color: ChartStyle.grid)
        }

        let mainBand = (
            top: lanes[0]!.top + Self.runLoopStrip, bottom: lanes[0]!.top + Self.mainLaneHeight - Self.barInset
        )
        for (k, span) in schedule.preMain.enumerated() where span.end > axis.start {
            let phase = scenario.preMain[k]
            let span = TimeSpan(start: max(span.start, axis.start), end: span.end)
            bar(
                &canvas, id("premain-\(k)"), span, band: mainBand, label: phase.name,
                fill: ChartStyle.preMain[k % 2], stroke: "#8c8c8c", classes: "premain",
                tooltip: "pre-main: \(phase.name)\n\(range(span))")
        }

        let launch = schedule.didFinishLaunching
        canvas.box(
            id("did-finish-launching"), x0: axis.x(launch.start), x1: axis.x(launch.end),
            top: lanes[0]!.top + 3, height: Self.runLoopStrip - 5,
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
            let lane = lanes[run.thread]!
            let band = run.thread == 0 ? mainBand : (top: lane.top + Self.barInset, bottom: lane.bottom - Self.barInset)
            let colors = ChartStyle.tierColors(tiers.ofTask[i])
            var classes = "task tier-\(tiers.ofTask[i])"
            if critical.contains(i) { classes += " critical" }
            if task.firstFrame { classes += " first-frame" }
            if task.mainThreadOnly { classes += " main-thread-only" }
            if task.idle { classes += " idle" }
            if task.anchor { classes += " anchor" }
            if task.after != nil { classes += " after" }
            if task.fullyDrawn { classes += " fully-drawn" }
            let tip = ids.tooltipAllowed(forTask: barID(i)) ? taskTooltip(i) : nil
            let x0 = axis.x(run.start)
            let x1 = axis.x(run.end)
            bar(
                &canvas, barID(i), TimeSpan(start: run.start, end: run.end), band: band,
                label: Self.marks(task) + task.id,
                fill: task.idle ? ChartStyle.idleStripes(colors.fill, width: x1 - x0) : colors.fill,
                stroke: critical.contains(i) ? ChartStyle.critical : colors.stroke,
                classes: classes, style: task.idle ? "striped" : "filled",
                penwidth: critical.contains(i) ? 1.6 : task.idle ? 1.2 : 0.8, tooltip: tip)
            if task.anchor {
                canvas.box(
                    id("anchor-\(i)"), x0: x0, x1: min(x0 + 3, max(x1, x0 + 1.5)), top: band.top,
                    height: band.bottom - band.top,
                    [
                        "fillcolor": .init(ChartStyle.anchor), "class": "anchor anchor-mark",
                        "tooltip": .init(
                            GraphvizText.tooltip(
                                "\(task.id): an anchor (didFinishLaunching waits for it under dag and anchored)")),
                    ])
            }
            waits(&canvas, task: i, run: run, band: band)
            tail(&canvas, task: i, run: run, band: band, color: colors.stroke)
        }
        if let mainLane = lanes[0], !schedule.inputs.isEmpty {
            inputs(&canvas, row: (top: mainBand.bottom + Self.barInset, bottom: mainLane.bottom))
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
                    label: "", fill: ChartStyle.commitTimeFill, stroke: ChartStyle.commit, classes: "commit-time",
                    tooltip: tip)
            }
            let x = axis.x(commit.end)
            let color = k == firstFrameCommit ? ChartStyle.firstFrame : ChartStyle.commit
            canvas.box(
                id("commit-\(k)"), x0: x - 4, x1: x + 4, top: lanes[0]!.top + 2, height: 8,
                [
                    "shape": "invtriangle", "fillcolor": .init(color), "class": "commit",
                    "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
        }

        let metrics = result.metrics
        firstFrameBound(&canvas, top: lanesTop, bottom: lanesBottom)
        let firstFrameX = axis.x(metrics.timeToFirstFrame)
        let fullyDrawn = scenario.tasks.contains(where: \.fullyDrawn)
        let firstFrameText =
            fullyDrawn && !showsFullDisplay
            ? "first frame = full display \(formatMillis(metrics.timeToFirstFrame)) ms"
            : "first frame \(formatMillis(metrics.timeToFirstFrame)) ms"
        marker(
            &canvas, "first-frame", at: metrics.timeToFirstFrame, row: 0, top: top, bottom: lanesBottom,
            text: firstFrameText, color: ChartStyle.firstFrame, avoiding: nil)
        if showsFullDisplay {
            marker(
                &canvas, "full-display", at: metrics.timeToFullDisplay, row: 1, top: top, bottom: lanesBottom,
                text: "full display \(formatMillis(metrics.timeToFullDisplay)) ms", color: ChartStyle.fullDisplay,
                avoiding: firstFrameX)
        }
        marker(
            &canvas, "launch-complete", at: metrics.launchComplete, row: showsFullDisplay ? 2 : 1, top: top,
            bottom: lanesBottom, text: "launch complete \(formatMillis(metrics.launchComplete)) ms",
            color: ChartStyle.launchComplete, avoiding: firstFrameX)
        return lanesBottom
    }

    /// The marks before a task's id in its label: ⚓ anchor, ★ first frame,
    /// (v2.1) ↦ after the first frame, ✔ fully drawn.
    static func marks(_ task: LaunchTask) -> String {
        (task.anchor ? "⚓ " : "") + (task.firstFrame ? "★ " : "") + (task.after != nil ? "↦ " : "")
            + (task.fullyDrawn ? "✔ " : "")
    }

    /// (v2.1) The first-frame bound as a faint dashed line across the lanes,
    /// when the first frame comes later: the gap no schedule can close is
    /// left of it, the gap a better plan could close right of it.
    private func firstFrameBound(_ canvas: inout Canvas, top: Double, bottom: Double) {
        let metrics = result.metrics
        let bound = metrics.firstFrameBound
        guard bound < metrics.timeToFirstFrame, bound >= axis.start, bound <= axis.end else { return }
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

    /// The way to the thread before task `i`'s bar, on the top edge of its
    /// band: its delay (a diamond at `madeReady`, a line to `released`,
    /// class `delay`) and its wait for its queue (a dotted line from
    /// `released` to `ready`, class `queue-wait`).
    private func waits(
        _ canvas: inout Canvas, task i: Int, run: TaskRun, band: (top: Double, bottom: Double)
    ) {
        let task = result.schedule.scenario.tasks[i]
        let y = band.top - 1.5
        if run.released > run.madeReady && run.released > axis.start {
            let from = max(run.madeReady, axis.start)
            let what =
                task.after != nil ? "held for the first frame" + (task.delay > 0 ? " and delayed" : "") : "delayed"
            let tip =
                "\(task.id): \(what) \(formatMillis(run.delayed)) ms"
                + " (made ready at \(formatMillis(run.madeReady)) ms, released at \(formatMillis(run.released)) ms)"
            canvas.box(
                id("delay-\(i)"), x0: axis.x(from), x1: axis.x(run.released), top: y - 0.75, height: 1.5,
                [
                    "fillcolor": .init(ChartStyle.delay), "class": "delay",
                    "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
            if run.madeReady >= axis.start {
                let x = axis.x(run.madeReady)
                canvas.box(
                    id("delay-\(i)-start"), x0: x - 3, x1: x + 3, top: y - 3, height: 6,
                    [
                        "shape": "diamond", "fillcolor": .init(ChartStyle.delay), "class": "delay delay-start",
                        "tooltip": .init(GraphvizText.tooltip(tip)),
                    ])
            }
        }
        if run.ready > run.released && run.ready > axis.start {
            let tip =
                "\(task.id): waited \(formatMillis(run.queueWait)) ms for queue '\(task.queue ?? "")'"
                + " (released at \(formatMillis(run.released)) ms, admitted at \(formatMillis(run.ready)) ms)"
            canvas.box(
                id("queue-wait-\(i)"), x0: axis.x(max(run.released, axis.start)), x1: axis.x(run.ready),
                top: y - 1, height: 2,
                [
                    "fillcolor": "none", "color": .init(ChartStyle.queueWait), "style": "dotted", "penwidth": "1.2",
                    "class": "queue-wait", "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
        }
    }

    /// Task `i`'s latency: a thin translucent line on the bottom edge of its
    /// band from its end to its done time, with a tick at the done time
    /// (class `latency`; the tick also `latency-end`).
    private func tail(
        _ canvas: inout Canvas, task i: Int, run: TaskRun, band: (top: Double, bottom: Double), color: String
    ) {
        guard run.done > run.end, run.done > axis.start else { return }
        let tip = "latency \(formatMillis(run.latency)) ms, done at \(formatMillis(run.done)) ms"
        let y = band.bottom + 2
        canvas.box(
            id("latency-\(i)"), x0: axis.x(max(run.end, axis.start)), x1: axis.x(run.done), top: y - 1.5,
            height: 3,
            [
                "fillcolor": .init(color + "80"), "class": "latency",
                "tooltip": .init(GraphvizText.tooltip(result.schedule.scenario.tasks[i].id + ": " + tip)),
            ])
        canvas.verticalLine(
            id("latency-\(i)-end"), x: axis.x(run.done), top: y - 5, bottom: y + 2, thickness: 1.2, color: color,
            ["class": "latency latency-end", "tooltip": .init(GraphvizText.tooltip(tip))])
    }

    /// The inputs, in the row under the `main` lane's bars: each one's wait
    /// from its arrival (a tick and a thin line, class `input input-wait`;
    /// consecutive inputs' lines alternate between two heights so overlapping waits stay apart)
    /// and its handler (a small bar from start to end, class `input`).
    private func inputs(_ canvas: inout Canvas, row: (top: Double, bottom: Double)) {
        let scenario = result.schedule.scenario
        let middle = (row.top + row.bottom) / 2
        canvas.text(
            id("inputs-label"), "inputs", x: Self.laneLabelX + 8, y: middle, size: 8, color: ChartStyle.mutedText)
        let shown = result.schedule.inputs.filter { $0.end > axis.start }.sorted {
            ($0.at, $0.input) < ($1.at, $1.input)
        }
        for (n, run) in shown.enumerated() {
            let k = run.input
            let input = scenario.inputs[k]
            let tip =
                "\(input.name): arrived at \(formatMillis(run.at)) ms, waited \(formatMillis(run.wait)) ms,"
                + " handled \(formatMillis(run.start)) → \(formatMillis(run.end)) ms"
            if run.start > run.at {
                canvas.box(
                    id("input-\(k)-wait"), x0: axis.x(max(run.at, axis.start)), x1: axis.x(run.start),
                    top: (n % 2 == 0 ? row.top + 3 : row.bottom - 3) - 0.6, height: 1.2,
                    [
                        "fillcolor": .init(ChartStyle.inputStroke), "class": "input input-wait",
                        "tooltip": .init(GraphvizText.tooltip(tip)),
                    ])
            }
            if run.at >= axis.start {
                canvas.verticalLine(
                    id("input-\(k)-arrival"), x: axis.x(run.at), top: row.top + 1, bottom: row.bottom - 1,
                    thickness: 1.2, color: ChartStyle.inputStroke,
                    ["class": "input input-arrival", "tooltip": .init(GraphvizText.tooltip(tip))])
            }
            bar(
                &canvas, id("input-\(k)"), TimeSpan(start: max(run.start, axis.start), end: run.end),
                band: (row.top + 1, row.bottom - 1), label: "", fill: ChartStyle.inputFill,
                stroke: ChartStyle.inputStroke, classes: "input", tooltip: tip)
            // The name right of the handler, if it fits before the next input's marks (else only in the tooltip).
            let labelX = axis.x(run.end) + 3
            let limit = n + 1 < shown.count ? axis.x(max(shown[n + 1].at, axis.start)) - 3 : canvas.width - 4
            if let text = Self.shortened(input.name, size: 7.5, in: limit - labelX) {
                canvas.text(
                    id("input-\(k)-label"), text, x: labelX, y: middle, size: 7.5, color: ChartStyle.inputStroke)
            }
        }
    }

    /// A bar from `span.start` to `span.end` inside `band` (points, downward).
    private func bar(
        _ canvas: inout Canvas, _ elementID: String, _ span: TimeSpan, band: (top: Double, bottom: Double),
        label: String,
        fill: String, stroke: String, classes: String, style: String = "filled", penwidth: Double = 0.8,
        tooltip: String?
    ) {
        let x0 = axis.x(span.start)
        let x1 = axis.x(span.end)
        var attributes: GraphDescription.Attributes = [
            "fillcolor": .init(fill), "color": .init(stroke), "class": .init(classes),
        ]
        if penwidth != 0.8 { attributes["penwidth"] = .init(Number.points(penwidth)) }
        if style != "filled" { attributes["style"] = .init(style) }
        if let (text, size) = Self.fitted(label, in: x1 - x0) {
            attributes["label"] = .init(GraphvizText.label(text))
            if size != 9 { attributes["fontsize"] = .init(Number.points(size)) }
        }
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

    /// The label a bar `width` points wide can carry: the whole text at 9 pt,
    /// else at 7 pt, else its start and "…" at 7 pt (at least 3 characters),
    /// else none.
    static func fitted(_ label: String, in width: Double) -> (text: String, size: Double)? {
        guard !label.isEmpty else { return nil }
        for size in [9.0, 7.0] where ChartStyle.estimatedWidth(label, size: size) + 6 <= width {
            return (label, size)
        }
        let characters = Array(label)
        let room = Int((width - 6) / (7 * 0.58)) - 1  // characters that fit beside "…"
        guard room >= 3 else { return nil }
        return (String(characters.prefix(room)) + "…", 7)
    }

    /// `text` at `size` points if it fits in `width` points, else its start and "…" (at least 3 characters), else nil.
    static func shortened(_ text: String, size: Double, in width: Double) -> String? {
        let perCharacter = size * 0.58 * 1.15
        if Double(text.unicodeScalars.count) * perCharacter <= width { return text }
        let room = Int(width / perCharacter) - 1
        return room >= 3 ? String(text.prefix(room)) + "…" : nil
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
        if task.idle { facts.append("idle task (runs when the run loop is about to sleep)") }
        if task.anchor { facts.append("anchor") }
        if task.after != nil { facts.append("after the first frame (post-frame callback)") }
        if task.fullyDrawn { facts.append("fully drawn: part of the launch's content") }
        if let queue = task.queue { facts.append("queue '\(queue)'") }
        lines.append(facts.joined(separator: " · "))
        if run.delayed > 0 {
            lines.append(
                task.after != nil
                    ? "held for the first frame (and its delay) \(formatMillis(run.delayed)) ms"
                    : "delayed \(formatMillis(run.delayed)) ms")
        }
        if run.queueWait > 0 { lines.append("waited \(formatMillis(run.queueWait)) ms for its queue") }
        if run.latency > 0 {
            lines.append("latency \(formatMillis(run.latency)) ms, done at \(formatMillis(run.done)) ms")
        }
        return lines.joined(separator: "\n")
    }
}
