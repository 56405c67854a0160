import LaunchflowCore

/// The tasks' bars, their labels and the key of the bars too narrow for one.
extension GanttPanel {
    /// A bar whose label went into the key: its number and task.
    struct KeyEntry {
        var number: Int
        var task: Int
    }

    /// The band of task bars in `thread`'s lane.
    func band(_ thread: Int32, _ layout: Layout) -> (top: Double, bottom: Double) {
        if thread == 0 { return layout.mainBand }
        let lane = layout.lanes[thread]!
        return (lane.top + Self.barInset, lane.top + Self.workerLaneHeight - Self.barInset)
    }

    /// Whether task `i`'s bar is drawn to scale (else it is listed in the folded tail or left out).
    func isDrawn(_ run: TaskRun) -> Bool { run.start < axis.end && run.end >= axis.start }

    /// Draws every task's bar with its marks (anchor, delay, queue wait,
    /// latency) and its label where ``LabelPlanner`` puts it; returns the
    /// bars that got a number for the key, in number order, and how many got no label.
    func drawTasks(_ canvas: inout Canvas, _ layout: Layout) -> (keyed: [KeyEntry], unnamed: Int) {
        let schedule = result.schedule
        let critical = Set(result.criticalPath.tasks)
        var planner = LabelPlanner(minX: axis.originX, maxX: axis.x(axis.end))
        var keyed: [KeyEntry] = []
        var byThread: [Int32: [LabelPlanner.Bar]] = [:]
        for (i, run) in schedule.tasks.enumerated() where isDrawn(run) {
            var label = Self.marks(schedule.scenario.tasks[i]) + schedule.scenario.tasks[i].id
            if !labelsOutside && LabelPlanner.insideSize(label, width: axis.x(run.end) - axis.x(run.start)) == nil {
                label = ""
            }
            byThread[run.thread, default: []].append(
                .init(index: i, x0: axis.clampedX(run.start), x1: axis.clampedX(run.end), label: label))
        }
        for thread in shownThreads {
            let bars = byThread[thread] ?? []
            let band = band(thread, layout)
            let placements = planner.place(bars, band: band, obstacles: thread == 0 ? mainObstacles(band) : [])
            for bar in bars {
                drawTask(&canvas, bar.index, band: band, critical: critical.contains(bar.index))
                guard let placement = placements[bar.index] else { continue }
                switch placement {
                case .inside: break
                case .beside(let x, let y):
                    canvas.text(
                        id("label-\(bar.index)"), bar.label, x: x, y: y, size: LabelPlanner.besideSize,
                        color: ChartStyle.text, tooltip: taskTooltipIfAllowed(bar.index))
                case .keyed(let number, let x, let y):
                    canvas.text(
                        id("key-number-\(bar.index)"), String(number), x: x, y: y, size: LabelPlanner.numberSize,
                        align: .center, color: ChartStyle.text, bold: true, tooltip: taskTooltipIfAllowed(bar.index))
                    keyed.append(KeyEntry(number: number, task: bar.index))
                }
            }
        }
        return (keyed.sorted { $0.number < $1.number }, planner.unnamed)
    }

    /// The marks in the `main` lane's band that labels must not cover: commit time, pre-main, blocked time.
    private func mainObstacles(_ band: (top: Double, bottom: Double)) -> [LabelPlanner.Box] {
        let schedule = result.schedule
        let spans =
            schedule.commits.map { TimeSpan(start: $0.start, end: $0.end) } + schedule.preMain + schedule.blocked
            + schedule.launchPhases.map { TimeSpan(start: $0.start, end: $0.costEnd) }
        return spans.filter { $0.end >= axis.start && $0.start <= axis.end }.map {
            LabelPlanner.Box(
                x0: axis.clampedX($0.start) - 0.5, x1: axis.clampedX($0.end) + 0.5, y0: band.top, y1: band.bottom)
        }
    }

    /// Task `i`'s bar (label inside when it fits), anchor mark, waits and latency.
    /// (§3.13) ` · E` after a worker task that ran mostly on a cluster slower
    /// than the fastest (the speed-1 cores carry no mark).
    func clusterSuffix(_ i: Int) -> String {
        let schedule = result.schedule
        guard schedule.taskClusters.indices.contains(i), schedule.taskClusters[i] >= 0 else { return "" }
        let cluster = schedule.scenario.device.clusters[Int(schedule.taskClusters[i])]
        return cluster.speedThousandths == 1000 ? "" : " · \(cluster.name)"
    }

    private func drawTask(_ canvas: inout Canvas, _ i: Int, band: (top: Double, bottom: Double), critical: Bool) {
        let task = result.schedule.scenario.tasks[i]
        let run = result.schedule.tasks[i]
        let colors = ChartStyle.tierColors(tiers.ofTask[i])
        var classes = "task tier-\(tiers.ofTask[i])"
        if critical { classes += " critical" }
        if task.firstFrame { classes += " first-frame" }
        if task.mainThreadOnly { classes += " main-thread-only" }
        if task.idle { classes += " idle" }
        if task.anchor { classes += " anchor" }
        if task.after != nil { classes += " after" }
        if task.fullyDrawn { classes += " fully-drawn" }
        let deadline = deadlineFact(i)
        if deadline != nil { classes += " pinned" }
        if deadline?.late == true { classes += " late" }
        let x0 = axis.clampedX(run.start)
        let x1 = axis.clampedX(run.end)
        bar(
            &canvas, barID(i), TimeSpan(start: run.start, end: run.end), band: band,
            label: Self.marks(task) + task.id + clusterSuffix(i),
            fill: task.idle ? ChartStyle.idleStripes(colors.fill, width: x1 - x0) : colors.fill,
            stroke: deadline?.late == true ? ChartStyle.late : critical ? ChartStyle.critical : colors.stroke,
            classes: classes, style: task.idle ? "striped" : deadline?.late == true ? "filled,dashed" : "filled",
            penwidth: deadline?.late == true ? 2 : critical ? 1.6 : task.idle ? 1.2 : 0.8,
            tooltip: taskTooltipIfAllowed(i))
        if let deadline {
            // A small flag at the bar's top right: the task is pinned (`before`); red when late.
            let width = min(4, max(x1 - x0, 1.5))
            canvas.box(
                id("pinned-\(i)"), x0: x1 - width, x1: x1, top: band.top, height: min(4, band.bottom - band.top),
                [
                    "fillcolor": .init(deadline.late ? ChartStyle.late : ChartStyle.pinned),
                    "class": .init(deadline.late ? "pinned pinned-mark late" : "pinned pinned-mark"),
                    "tooltip": .init(GraphvizText.tooltip("\(task.id): \(deadline.text)")),
                ])
        }
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

    /// The key under the lanes: "Key: 1 network-configuration  ·  2 …", in
    /// rows (one text each, ids `…key-row-k`) that never run past the
    /// picture; returns the y below it.
    func key(_ canvas: inout Canvas, _ entries: [KeyEntry], unnamed: Int, top: Double) -> Double {
        guard !entries.isEmpty else { return top - 4 }
        let tasks = result.schedule.scenario.tasks
        let size = 8.0
        canvas.text(id("key-title"), "Key:", x: axis.originX, y: top + 5, size: size, bold: true)
        let left = axis.originX + 26
        // One text per row (a node per entry would double the picture's nodes on a large launch).
        var rows: [String] = [""]
        for entry in entries {
            let text = "\(entry.number) " + Self.marks(tasks[entry.task]) + tasks[entry.task].id
            let row = rows[rows.count - 1]
            let joined = row.isEmpty ? text : row + "  ·  " + text
            if !row.isEmpty && left + LabelPlanner.width(joined, size: size) > canvas.width - 8 {
                rows.append(text)
            } else {
                rows[rows.count - 1] = joined
            }
        }
        var y = top + 5
        for (r, row) in rows.enumerated() {
            if r > 0 { y += 11 }
            canvas.text(id("key-row-\(r)"), row, x: left, y: y, size: size, color: ChartStyle.text)
        }
        if unnamed > 0 {
            canvas.text(
                id("key-more"), "… and \(unnamed) bars too narrow to label: their tooltips name them", x: left,
                y: y + 11, size: size, color: ChartStyle.mutedText)
            y += 11
        }
        return y + 8
    }

    /// The way to the thread before task `i`'s bar, on the top edge of its
    /// band: its delay (a diamond at `madeReady`, a line to `released`,
    /// class `delay`) and its wait for its queue (a dotted line from
    /// `released` to `ready`, class `queue-wait`). Cut at the axis's ends.
    private func waits(_ canvas: inout Canvas, task i: Int, run: TaskRun, band: (top: Double, bottom: Double)) {
        let task = result.schedule.scenario.tasks[i]
        let y = band.top - 1.5
        if run.released > run.madeReady && run.released > axis.start && run.madeReady < axis.end {
            let what =
                task.after != nil ? "held for the first frame" + (task.delay > 0 ? " and delayed" : "") : "delayed"
            let tip =
                "\(task.id): \(what) \(formatMillis(run.delayed)) ms"
                + " (made ready at \(formatMillis(run.madeReady)) ms, released at \(formatMillis(run.released)) ms)"
            canvas.box(
                id("delay-\(i)"), x0: axis.clampedX(run.madeReady), x1: axis.clampedX(run.released),
                top: y - 0.75, height: 1.5,
                [
                    "fillcolor": .init(ChartStyle.delay), "class": "delay",
                    "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
            if axis.contains(run.madeReady) {
                let x = axis.x(run.madeReady)
                canvas.box(
                    id("delay-\(i)-start"), x0: x - 3, x1: x + 3, top: y - 3, height: 6,
                    [
                        "shape": "diamond", "fillcolor": .init(ChartStyle.delay), "class": "delay delay-start",
                        "tooltip": .init(GraphvizText.tooltip(tip)),
                    ])
            }
        }
        if run.ready > run.released && run.ready > axis.start && run.released < axis.end {
            let tip =
                "\(task.id): waited \(formatMillis(run.queueWait)) ms for queue '\(task.queue ?? "")'"
                + " (released at \(formatMillis(run.released)) ms, admitted at \(formatMillis(run.ready)) ms)"
            canvas.box(
                id("queue-wait-\(i)"), x0: axis.clampedX(run.released), x1: axis.clampedX(run.ready),
                top: y - 1, height: 2,
                [
                    "fillcolor": "none", "color": .init(ChartStyle.queueWait), "style": "dotted", "penwidth": "1.2",
                    "class": "queue-wait", "tooltip": .init(GraphvizText.tooltip(tip)),
                ])
        }
    }

    /// Task `i`'s latency: a thin translucent line on the bottom edge of its
    /// band from its end to its done time, with a tick at the done time
    /// (class `latency`; the tick also `latency-end`). Cut at the axis's end,
    /// where the folded tail says when it is done.
    private func tail(
        _ canvas: inout Canvas, task i: Int, run: TaskRun, band: (top: Double, bottom: Double), color: String
    ) {
        guard run.done > run.end, run.done > axis.start, run.end < axis.end else { return }
        let tip = "latency \(formatMillis(run.latency)) ms, done at \(formatMillis(run.done)) ms"
        let y = band.bottom + 2
        canvas.box(
            id("latency-\(i)"), x0: axis.clampedX(run.end), x1: axis.clampedX(run.done), top: y - 1.5,
            height: 3,
            [
                "fillcolor": .init(color + "80"), "class": "latency",
                "tooltip": .init(GraphvizText.tooltip(result.schedule.scenario.tasks[i].id + ": " + tip)),
            ])
        guard axis.contains(run.done) else { return }
        canvas.verticalLine(
            id("latency-\(i)-end"), x: axis.x(run.done), top: y - 5, bottom: y + 2, thickness: 1.2, color: color,
            ["class": "latency latency-end", "tooltip": .init(GraphvizText.tooltip(tip))])
    }

    /// Task `i`'s `before` in this run: "must be done before the first frame:
    /// done 3 ms late" (done, latency included, after the point) or "…: done
    /// 1.5 ms before it"; nil without `before`.
    func deadlineFact(_ i: Int) -> (late: Bool, text: String)? {
        let schedule = result.schedule
        guard let before = schedule.scenario.tasks[i].before else { return nil }
        let point = schedule.instant(of: before, firstFrameIteration: result.metrics.firstFrameIteration)
        let done = schedule.tasks[i].done
        let head = "must be done before \(before.noun)"
        return done > point
            ? (true, "\(head): done \(formatMillis(done - point)) ms late")
            : (false, "\(head): done \(formatMillis(point - done)) ms before it")
    }

    /// Task `i`'s hover text, unless its link id would collide with another task's id.
    func taskTooltipIfAllowed(_ i: Int) -> String? {
        ids.tooltipAllowed(forTask: barID(i)) ? taskTooltip(i) : nil
    }

    /// The task's id, then its thread and times, its tier and kind, and its waits.
    func taskTooltip(_ i: Int) -> String {
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
        if task.after != nil { facts.append("after the first frame is on screen") }
        if task.fullyDrawn { facts.append("fully drawn: part of the launch's content") }
        if let queue = task.queue { facts.append("queue '\(queue)'") }
        lines.append(facts.joined(separator: " · "))
        let schedule = result.schedule
        if schedule.taskClusters.indices.contains(i), schedule.taskClusters[i] >= 0 {
            let cluster = schedule.scenario.device.clusters[Int(schedule.taskClusters[i])]
            let cost = schedule.costs[i]
            lines.append(
                "QoS \(task.qos.rawValue); ran mostly on \(cluster.name) (speed \(formatNumber(cluster.speed)))"
                    + (run.end - run.start > cost
                        ? ", \(formatMillis(run.end - run.start - cost)) ms over its cost" : ""))
        }
        if let deadline = deadlineFact(i) { lines.append(deadline.text) }
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
