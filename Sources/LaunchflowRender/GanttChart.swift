import LaunchflowCore

/// One strategy's schedule as a Gantt chart, laid out by our code at exact
/// coordinates and rendered through Graphviz's `nop` engine.
///
/// - One lane per thread (`main`, `worker-1`, …); one bar per task whose SVG
///   element id is the task id, spanning exactly ``TimeAxis/x(_:)`` of its
///   start to that of its end (points; 1 point = 1 SVG user unit).
/// - Pre-main phases and the `didFinishLaunching` span, blocked time (dashed,
///   pale red), commits (triangles; commit time as a purple bar), the
///   first-frame and launch-complete instants as labelled vertical lines.
/// - A millisecond axis, a title with the headline metrics, a legend.
/// - Bars are coloured by priority tier (the same colours as the DAG); the
///   critical path's bars have a red outline.
///
/// Other elements have ids starting with ``ElementIDs`` prefix (normally
/// `lf-`): `lf-lane-main`, `lf-premain-0`, `lf-commit-3`, `lf-first-frame`,
/// `lf-tick-2` with `lf-tick-label-2`, `lf-legend-…`.
public struct GanttChart: Sendable {
    public var result: SimulationResult
    /// The time scale; by default the launch (``LaunchFrame``), later work folded.
    public var axis: TimeAxis

    public init(_ result: SimulationResult, axis: TimeAxis? = nil) {
        self.result = result
        self.axis = axis ?? TimeAxis.framed(by: [result])
    }

    /// The picture as a Graphviz description (plain Swift, no C).
    public var graph: GraphDescription {
        let scenario = result.schedule.scenario
        let ids = ElementIDs(taskIDs: scenario.tasks.map(\.id))
        let tiers = Tiers(scenario)
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("background"))
        var y = GanttFrame.title(
            &canvas, ids: ids, scenario: scenario,
            heading: "\(scenario.name) — \(result.schedule.strategy.rawValue) strategy",
            summary: GanttFrame.summary(result.metrics), axis: axis)
        let panel = GanttPanel(
            result: result, axis: axis, ids: ids, tiers: tiers, scope: "", barID: { scenario.tasks[$0].id })
        y = panel.draw(on: &canvas, top: y)
        y = GanttFrame.axis(&canvas, ids: ids, scope: "", axis: axis, top: y + 2, title: true)
        y = GanttFrame.legend(&canvas, ids: ids, tiers: tiers, contents: GanttContents([result]), top: y + 8)
        canvas.height = y + 10
        return canvas.graph(name: scenario.name + " " + result.schedule.strategy.rawValue, graphID: ids("graph"))
    }

    /// The picture as SVG bytes.
    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }
}

/// The strategies' Gantt charts stacked, each with its own time axis, with
/// one legend. Panels share one time scale (same x for the same instant) —
/// unless a strategy's launch lasts over ``ownScaleRatio`` times the shortest
/// one's: that panel gets a scale of its own, and its heading says so.
///
/// A task appears once per strategy, so its bars cannot all use the task id:
/// bar ids are `<prefix><strategy>-task-<task id>` (e.g. `lf-dag-task-root-vc`);
/// other ids are `<prefix><strategy>-…` (`lf-serial-first-frame`,
/// `lf-dag-tick-3`) or `<prefix>…` for the shared parts (`lf-legend-2`).
public struct ComparisonChart: Sendable {
    public var results: [SimulationResult]
    /// Each panel's time axis, in the order of ``results``.
    public var axes: [TimeAxis]
    /// Whether each panel has a time scale of its own (its launch is much longer than the others').
    public var ownScale: [Bool]

    /// A launch this many times longer than the shortest gets a scale of its own.
    public static let ownScaleRatio = 3.0

    /// `results` of one scenario, in the order to stack them (top first); at
    /// least one. With `axis`, every panel uses it.
    public init(_ results: [SimulationResult], axis: TimeAxis? = nil) {
        precondition(!results.isEmpty, "a comparison needs at least one result")
        self.results = results
        let framed = Self.axes(results)
        self.axes = axis.map { Array(repeating: $0, count: results.count) } ?? framed.axes
        self.ownScale = axis == nil ? framed.own : results.map { _ in false }
    }

    /// One panel per result, each framed from `from` to `to` (the launch by default).
    public init(_ results: [SimulationResult], from: TimePoint, to: TimePoint) {
        precondition(!results.isEmpty, "a comparison needs at least one result")
        self.results = results
        (self.axes, self.ownScale) = Self.axes(results, from: from, to: to)
    }

    /// The panels' axes: one shared by the results whose right edge is
    /// within ``ownScaleRatio`` of the earliest, one of its own for each
    /// other (only when framing on the launch). When any is folded, all keep
    /// room for the fold, so that the plots line up.
    static func axes(
        _ results: [SimulationResult], from: TimePoint = .t0, to: TimePoint = .launch
    ) -> (axes: [TimeAxis], own: [Bool]) {
        let ends = results.map(to.resolve)
        let shortest = max(ends.min() ?? 1, 1)
        let own = results.indices.map { to == .launch && Double(ends[$0]) > ownScaleRatio * Double(shortest) }
        let shared = results.indices.filter { !own[$0] }.map { results[$0] }
        var axes = results.indices.map { k in
            TimeAxis.framed(by: own[k] ? [results[k]] : shared, from: from, to: to)
        }
        if let folded = axes.first(where: \.isFolded) {
            for k in axes.indices where !axes[k].isFolded {
                let end = axes[k].end
                axes[k] = TimeAxis(upTo: end, from: axes[k].start, originX: folded.originX, width: folded.width)
                axes[k].latest = end
            }
        }
        return (axes, own)
    }

    /// The id of task `index`'s bar in `strategy`'s panel.
    public func barID(strategy: Strategy, task index: Int) -> String {
        let scenario = results[0].schedule.scenario
        return ElementIDs(taskIDs: scenario.tasks.map(\.id))("\(strategy.rawValue)-task-" + scenario.tasks[index].id)
    }

    /// Whether panel `k` has a time scale of its own.
    func hasOwnScale(_ k: Int) -> Bool { ownScale[k] }

    public var graph: GraphDescription {
        let scenario = results[0].schedule.scenario
        let ids = ElementIDs(taskIDs: scenario.tasks.map(\.id))
        let tiers = Tiers(scenario)
        var canvas = Canvas(width: axes.map(GanttFrame.width).max()!, backgroundID: ids("background"))
        let strategies = results.map(\.schedule.strategy.rawValue).joined(separator: " vs ")
        let scales = axes.dropFirst().contains { $0.pointsPerMillisecond != axes[0].pointsPerMillisecond }
        var y = GanttFrame.title(
            &canvas, ids: ids, scenario: scenario, heading: "\(scenario.name) — \(strategies)",
            summary: (scales ? "a time axis per panel" : "the same time scale in every panel")
                + "; bars coloured by priority tier", axis: scales ? nil : axes[0])
        for (k, result) in results.enumerated() {
            y = panel(&canvas, k, result, ids: ids, tiers: tiers, top: y)
        }
        y = GanttFrame.legend(&canvas, ids: ids, tiers: tiers, contents: GanttContents(results), top: y + 8)
        canvas.height = y + 10
        return canvas.graph(name: scenario.name + " comparison", graphID: ids("graph"))
    }

    /// Panel `k`: a separator, the strategy and its headline metrics, the
    /// lanes and the panel's axis; returns the y below.
    private func panel(
        _ canvas: inout Canvas, _ k: Int, _ result: SimulationResult, ids: ElementIDs, tiers: Tiers, top: Double
    ) -> Double {
        let scenario = result.schedule.scenario
        let strategy = result.schedule.strategy.rawValue
        var y = top + 10
        canvas.horizontalLine(
            ids("\(strategy)-separator"), x0: 8, x1: canvas.width - 8, y: y - 4, thickness: 0.8,
            color: ChartStyle.laneStroke)
        canvas.text(ids("\(strategy)-heading"), strategy, x: GanttPanel.laneLabelX, y: y + 9, size: 13, bold: true)
        var summary = GanttFrame.summary(result.metrics)
        if hasOwnScale(k) {
            summary = "its own time scale (1 ms = \(Number.fixed(axes[k].pointsPerMillisecond, 3)) pt) · " + summary
        }
        canvas.text(
            ids("\(strategy)-summary"), summary, x: GanttPanel.laneLabelX + 80, y: y + 9, size: 10,
            color: hasOwnScale(k) ? ChartStyle.launchComplete : ChartStyle.mutedText)
        y += 18
        let panel = GanttPanel(
            result: result, axis: axes[k], ids: ids, tiers: tiers, scope: strategy + "-",
            barID: { ids("\(strategy)-task-" + scenario.tasks[$0].id) })
        y = panel.draw(on: &canvas, top: y)
        return GanttFrame.axis(
            &canvas, ids: ids, scope: strategy + "-", axis: axes[k], top: y + 2,
            title: k == results.count - 1 || hasOwnScale(k))
    }

    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }
}

/// What the charts of some results contain, for the legend: only what is drawn gets an entry.
struct GanttContents {
    var blocked = false
    var latency = false
    var delay = false
    var queueWait = false
    var inputs = false
    var idle = false
    var anchor = false
    var after = false
    var fullyDrawn = false
    /// Tasks with `before`, and whether one is done past its point.
    var pinned = false
    var late = false
    var fullDisplayLine = false
    var firstFrameBound = false
    /// (§3.12) Whether a schedule has launch phases.
    var launchPhases = false
    /// (§3.13) The slower clusters some worker task ran on mostly (their names).
    var slowClusters: [String] = []

    init(_ results: [SimulationResult]) {
        for result in results {
            let schedule = result.schedule
            let metrics = result.metrics
            fullDisplayLine =
                fullDisplayLine
                || (schedule.scenario.tasks.contains(where: \.fullyDrawn)
                    && metrics.timeToFullDisplay != metrics.timeToFirstFrame)
            firstFrameBound = firstFrameBound || metrics.firstFrameBound < metrics.timeToFirstFrame
            blocked = blocked || !schedule.blocked.isEmpty
            inputs = inputs || !schedule.inputs.isEmpty
            for (i, run) in schedule.tasks.enumerated() {
                latency = latency || run.done > run.end
                delay = delay || run.released > run.madeReady
                queueWait = queueWait || run.ready > run.released
                idle = idle || schedule.scenario.tasks[i].idle
                anchor = anchor || schedule.scenario.tasks[i].anchor
                after = after || schedule.scenario.tasks[i].after != nil
                fullyDrawn = fullyDrawn || schedule.scenario.tasks[i].fullyDrawn
                pinned = pinned || schedule.scenario.tasks[i].before != nil
            }
            late = late || schedule.lateTasks(firstFrameIteration: metrics.firstFrameIteration).contains(true)
            launchPhases = launchPhases || !schedule.launchPhases.isEmpty
            let clusters = schedule.scenario.device.clusters
            for k in schedule.taskClusters where k >= 0 && clusters[Int(k)].speedThousandths < 1000 {
                if !slowClusters.contains(clusters[Int(k)].name) { slowClusters.append(clusters[Int(k)].name) }
            }
        }
    }
}

/// The parts around the panels: title, axis, legend.
enum GanttFrame {
    static let rightMargin = 70.0

    static func width(_ axis: TimeAxis) -> Double { axis.rightEdge + rightMargin }

    /// "first frame 133.336 ms · launch complete 130 ms · main busy … · CPU 25%".
    static func summary(_ m: Metrics) -> String {
        let cpu = Number.fixed(m.cpuUtilization * 100, 1)
        return
            "first frame \(formatMillis(m.timeToFirstFrame)) ms · launch complete \(formatMillis(m.launchComplete)) ms"
            + " · main busy \(formatMillis(m.mainThreadBusy)) ms · blocked \(formatMillis(m.mainThreadBlocked)) ms"
            + " · CPU \(cpu)% · \(m.frames) frame\(m.frames == 1 ? "" : "s")"
            + " · \(m.dependencyViolations) violation\(m.dependencyViolations == 1 ? "" : "s")"
    }

    /// Title, summary and a line about the device and the scale; returns the y below.
    static func title(
        _ canvas: inout Canvas, ids: ElementIDs, scenario: Scenario, heading: String, summary: String, axis: TimeAxis?
    ) -> Double {
        canvas.text(ids("title"), heading, x: GanttPanel.laneLabelX, y: 18, size: 16, bold: true)
        canvas.text(ids("subtitle"), summary, x: GanttPanel.laneLabelX, y: 38, size: 11)
        let device = scenario.device
        var facts =
            "\(device.cores) cores (main + \(device.workerCount) workers) · \(Number.fixed(device.refreshRate, 3)) Hz"
            + " · pre-main \(formatMillis(scenario.preMainTotal)) ms · \(scenario.tasks.count) tasks"
        if let axis { facts += " · scale: 1 ms = \(Number.fixed(axis.pointsPerMillisecond, 3)) pt" }
        canvas.text(ids("facts"), facts, x: GanttPanel.laneLabelX, y: 54, size: 9.5, color: ChartStyle.mutedText)
        return 62
    }

    /// The ms axis below a panel's lanes: a line, ticks and their labels;
    /// with a folded tail, the break ("//") and the strip's caption; with
    /// `title`, what the axis measures. Ids `<scope>axis`, `<scope>tick-k`,
    /// `<scope>tick-label-k`, `<scope>axis-break`. Returns the y below.
    static func axis(
        _ canvas: inout Canvas, ids: ElementIDs, scope: String, axis: TimeAxis, top: Double, title: Bool
    ) -> Double {
        canvas.horizontalLine(
            ids(scope + "axis"), x0: axis.originX, x1: axis.x(axis.end), y: top, thickness: 1, color: ChartStyle.axis)
        for (k, tick) in axis.ticks.enumerated() {
            canvas.verticalLine(
                ids(scope + "tick-\(k)"), x: axis.x(tick), top: top, bottom: top + 5, thickness: 1,
                color: ChartStyle.axis, ["class": "tick"])
            canvas.text(
                ids(scope + "tick-label-\(k)"), formatMillis(tick), x: axis.x(tick), y: top + 13, size: 9.5,
                align: .center, color: ChartStyle.mutedText)
        }
        if axis.isFolded { axisBreak(&canvas, ids: ids, scope: scope, axis: axis, top: top) }
        guard title else { return top + 20 }
        var text = "time since process start (ms)"
        if axis.start > 0 { text += " — the first \(formatMillis(axis.start)) ms (pre-main) folded" }
        canvas.text(
            ids(scope + "axis-title"), text, x: axis.x(axis.end), y: top + 27, size: 9.5, align: .right,
            color: ChartStyle.mutedText)
        return top + 34
    }

    /// The axis break right of the axis's end: two slanted strokes, and the
    /// folded strip's axis — a dotted line and "later, not to scale · until 8,601 ms".
    private static func axisBreak(_ canvas: inout Canvas, ids: ElementIDs, scope: String, axis: TimeAxis, top: Double) {
        let x = axis.x(axis.end) + TimeAxis.breakGap / 2
        for (k, dx) in [-2.5, 2.5].enumerated() {
            canvas.box(
                ids(scope + "axis-break-\(k)"), x0: x + dx - 0.6, x1: x + dx + 0.6, top: top - 6, height: 12,
                ["fillcolor": .init(ChartStyle.axis), "orientation": "20", "class": "axis-break"])
        }
        canvas.box(
            ids(scope + "axis-fold"), x0: axis.foldX, x1: axis.rightEdge, top: top - 0.6, height: 1.2,
            ["fillcolor": "none", "color": .init(ChartStyle.axis), "style": "dotted", "class": "axis-fold"])
        canvas.text(
            ids(scope + "axis-fold-label"), "later, not to scale · until \(GanttFold.ms(axis.latest)) ms",
            x: axis.foldX, y: top + 13, size: 9.5, color: ChartStyle.mutedText)
    }

    /// One legend entry: its label and how its swatch is drawn.
    struct LegendItem {
        enum Swatch {
            /// A 14 × 10 box with these attributes.
            case box(GraphDescription.Attributes)
            /// A thin vertical line (first frame, launch complete).
            case line(String)
            case latency, delay, queueWait, input
        }
        var label: String
        var swatch: Swatch
    }

    /// Swatches with labels in rows that never wrap: the tiers, then the
    /// marks (critical path, pre-main, commits…), then — when the chart has
    /// any — the v2 marks (latency, delay, queue wait, inputs, idle tasks,
    /// anchors); a row too long for the width gets smaller text. Returns the y below.
    static func legend(
        _ canvas: inout Canvas, ids: ElementIDs, tiers: Tiers, contents: GanttContents, top: Double
    ) -> Double {
        let rows = [tierItems(tiers), markItems(contents), waitItems(contents)]
        canvas.text(ids("legend-title"), "Legend", x: GanttPanel.laneLabelX, y: top + 6, size: 10, bold: true)
        let left = GanttPanel.laneLabelX + 56
        var y = top
        var k = 0
        for row in rows where !row.isEmpty {
            func width(_ item: LegendItem, _ size: Double) -> Double {
                ChartStyle.estimatedWidth(item.label, size: size) * 1.1 + 26 * size / 9.5
            }
            var size = 9.5
            let room = canvas.width - 8 - left
            let natural = row.reduce(0) { $0 + width($1, size) }
            if natural > room { size = max(6, size * room / natural) }
            var x = left
            for item in row {
                swatch(&canvas, ids("legend-\(k)"), item.swatch, x: x, y: y)
                canvas.text(ids("legend-label-\(k)"), item.label, x: x + 18, y: y + 5, size: size)
                x += width(item, size)
                k += 1
            }
            y += 16
        }
        return y
    }

    /// The legend's first row: one swatch per tier (at most 8).
    private static func tierItems(_ tiers: Tiers) -> [LegendItem] {
        var row: [LegendItem] = []
        let shownTiers = min(tiers.priorities.count, 8)
        for tier in 0..<shownTiers {
            let colors = ChartStyle.tierColors(tier)
            row.append(
                .init(
                    label: tiers.name(tier),
                    swatch: .box(["fillcolor": .init(colors.fill), "color": .init(colors.stroke), "penwidth": "0.8"])))
        }
        if tiers.priorities.count > shownTiers {
            row.append(
                .init(
                    label: "… \(tiers.priorities.count - shownTiers) more tiers (colours repeat)",
                    swatch: .box(["fillcolor": "white"])))
        }
        return row
    }

    /// The legend's second row: the critical path, the run loop's marks and the instants.
    private static func markItems(_ contents: GanttContents) -> [LegendItem] {
        var row: [LegendItem] = [
            .init(
                label: "critical path",
                swatch: .box(["fillcolor": "white", "color": .init(ChartStyle.critical), "penwidth": "1.6"])),
            .init(
                label: "pre-main",
                swatch: .box(["fillcolor": .init(ChartStyle.preMain[0]), "color": "#8c8c8c", "penwidth": "0.8"])),
            .init(
                label: "didFinishLaunching",
                swatch: .box([
                    "fillcolor": .init(ChartStyle.launchSpanFill), "color": .init(ChartStyle.launchSpanStroke),
                    "penwidth": "0.8",
                ])),
        ]
        if contents.launchPhases {
            row.append(
                .init(
                    label: "launch phase (the app's own work in the callback)",
                    swatch: .box([
                        "fillcolor": .init(ChartStyle.launchPhase[0]), "color": "#7f95b3", "penwidth": "0.8",
                    ])))
        }
        if contents.blocked {
            row.append(
                .init(
                    label: "main thread blocked",
                    swatch: .box([
                        "fillcolor": .init(ChartStyle.blockedFill), "color": .init(ChartStyle.blockedStroke),
                        "penwidth": "0.8", "style": "filled,dashed",
                    ])))
        }
        row.append(
            .init(label: "commit", swatch: .box(["shape": "invtriangle", "fillcolor": .init(ChartStyle.commit)])))
        row.append(.init(label: "first frame", swatch: .line(ChartStyle.firstFrame)))
        if contents.fullDisplayLine {
            row.append(.init(label: "full display", swatch: .line(ChartStyle.fullDisplay)))
        }
        row.append(.init(label: "launch complete", swatch: .line(ChartStyle.launchComplete)))
        if contents.firstFrameBound {
            row.append(.init(label: "first-frame bound", swatch: .line(ChartStyle.firstFrame + "80")))
        }
        return row
    }

    /// The legend's third row, with only what the chart has: latency, delay,
    /// queue wait, inputs, idle tasks, after, fully drawn, anchors.
    private static func waitItems(_ contents: GanttContents) -> [LegendItem] {
        var row: [LegendItem] = []
        if contents.latency { row.append(.init(label: "latency (until done)", swatch: .latency)) }
        if contents.delay { row.append(.init(label: "delay", swatch: .delay)) }
        if contents.queueWait { row.append(.init(label: "waiting for its queue", swatch: .queueWait)) }
        if contents.inputs { row.append(.init(label: "input: wait and handler", swatch: .input)) }
        if contents.idle {
            let colors = ChartStyle.tierColors(0)
            row.append(
                .init(
                    label: "idle task",
                    swatch: .box([
                        "fillcolor": .init(ChartStyle.idleStripes(colors.fill, width: 14)), "style": "striped",
                        "color": .init(colors.stroke), "penwidth": "1.2",
                    ])))
        }
        if contents.after {
            row.append(
                .init(label: "↦ after the first frame", swatch: .box(["fillcolor": "white", "penwidth": "0.8"])))
        }
        if contents.fullyDrawn {
            row.append(.init(label: "✔ fully drawn", swatch: .box(["fillcolor": "white", "penwidth": "0.8"])))
        }
        if !contents.slowClusters.isEmpty {
            let names = contents.slowClusters.joined(separator: ", ")
            row.append(
                .init(
                    label: "· \(contents.slowClusters[0]): ran mostly on a slower core (\(names))",
                    swatch: .box(["fillcolor": "white", "penwidth": "0.8"])))
        }
        if contents.pinned {
            row.append(
                .init(
                    label: "pinned (before): must be done by its point",
                    swatch: .box(["fillcolor": .init(ChartStyle.pinned), "penwidth": "0.8"])))
        }
        if contents.late {
            row.append(
                .init(
                    label: "pinned task done too late",
                    swatch: .box([
                        "fillcolor": "white", "color": .init(ChartStyle.late), "penwidth": "2",
                        "style": "filled,dashed",
                    ])))
        }
        if contents.anchor {
            row.append(
                .init(
                    label: "⚓ anchor",
                    swatch: .box([
                        "fillcolor": "white", "color": .init(ChartStyle.anchor), "penwidth": "0.8",
                        "style": "filled",
                    ])))
        }
        return row
    }

    /// A legend swatch in the 14 × 10 cell at (`x`, `y`); extra parts get ids `<id>-…`.
    private static func swatch(_ canvas: inout Canvas, _ id: String, _ swatch: LegendItem.Swatch, x: Double, y: Double)
    {
        switch swatch {
        case .box(let attributes):
            canvas.box(id, x0: x, x1: x + 14, top: y, height: 10, attributes)
        case .line(let color):
            canvas.box(id, x0: x + 6, x1: x + 8, top: y, height: 12, ["fillcolor": .init(color)])
        case .latency:
            let stroke = ChartStyle.tierColors(0).stroke
            canvas.box(id, x0: x, x1: x + 14, top: y + 3.5, height: 3, ["fillcolor": .init(stroke + "80")])
            canvas.verticalLine(id + "-end", x: x + 14, top: y + 1.5, bottom: y + 8.5, thickness: 1.2, color: stroke)
        case .delay:
            canvas.box(id, x0: x + 2, x1: x + 14, top: y + 4.25, height: 1.5, ["fillcolor": .init(ChartStyle.delay)])
            canvas.box(
                id + "-start", x0: x, x1: x + 6, top: y + 2, height: 6,
                ["shape": "diamond", "fillcolor": .init(ChartStyle.delay)])
        case .queueWait:
            canvas.box(
                id, x0: x, x1: x + 14, top: y + 4, height: 2,
                [
                    "fillcolor": "none", "color": .init(ChartStyle.queueWait), "style": "dotted",
                    "penwidth": "1.2",
                ])
        case .input:
            canvas.verticalLine(
                id + "-arrival", x: x, top: y + 1, bottom: y + 9, thickness: 1.2, color: ChartStyle.inputStroke)
            canvas.box(
                id + "-wait", x0: x, x1: x + 9, top: y + 4.4, height: 1.2, ["fillcolor": .init(ChartStyle.inputStroke)])
            canvas.box(
                id, x0: x + 9, x1: x + 14, top: y + 1, height: 8,
                ["fillcolor": .init(ChartStyle.inputFill), "color": .init(ChartStyle.inputStroke)])
        }
    }
}
