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
    /// The time scale; by default one that fits this result.
    public var axis: TimeAxis

    public init(_ result: SimulationResult, axis: TimeAxis? = nil) {
        self.result = result
        self.axis = axis ?? TimeAxis.shared(by: [result])
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
        y = GanttFrame.axis(&canvas, ids: ids, axis: axis, top: y + 2)
        y = GanttFrame.legend(
            &canvas, ids: ids, tiers: tiers, showsBlocked: !result.schedule.blocked.isEmpty, top: y + 8)
        canvas.height = y + 10
        return canvas.graph(name: scenario.name + " " + result.schedule.strategy.rawValue, graphID: ids("graph"))
    }

    /// The picture as SVG bytes.
    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }
}

/// The strategies' Gantt charts stacked on one shared time scale (same
/// ``TimeAxis``, same x for the same instant in every panel), with one axis
/// and one legend.
///
/// A task appears once per strategy, so its bars cannot all use the task id:
/// bar ids are `<prefix><strategy>-task-<task id>` (e.g. `lf-dag-task-root-vc`);
/// other ids are `<prefix><strategy>-…` (`lf-serial-first-frame`) or
/// `<prefix>…` for the shared parts (`lf-tick-3`).
public struct ComparisonChart: Sendable {
    public var results: [SimulationResult]
    public var axis: TimeAxis

    /// `results` of one scenario, in the order to stack them (top first); at least one.
    public init(_ results: [SimulationResult], axis: TimeAxis? = nil) {
        precondition(!results.isEmpty, "a comparison needs at least one result")
        self.results = results
        self.axis = axis ?? TimeAxis.shared(by: results)
    }

    /// The id of task `index`'s bar in `strategy`'s panel.
    public func barID(strategy: Strategy, task index: Int) -> String {
        let scenario = results[0].schedule.scenario
        return ElementIDs(taskIDs: scenario.tasks.map(\.id))("\(strategy.rawValue)-task-" + scenario.tasks[index].id)
    }

    public var graph: GraphDescription {
        let scenario = results[0].schedule.scenario
        let ids = ElementIDs(taskIDs: scenario.tasks.map(\.id))
        let tiers = Tiers(scenario)
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("background"))
        let strategies = results.map(\.schedule.strategy.rawValue).joined(separator: " vs ")
        var y = GanttFrame.title(
            &canvas, ids: ids, scenario: scenario, heading: "\(scenario.name) — \(strategies)",
            summary: "the same time scale in every panel; bars coloured by priority tier", axis: axis)
        for result in results {
            let strategy = result.schedule.strategy.rawValue
            y += 10
            canvas.horizontalLine(
                ids("\(strategy)-separator"), x0: 8, x1: canvas.width - 8, y: y - 4, thickness: 0.8,
                color: ChartStyle.laneStroke)
            canvas.text(ids("\(strategy)-heading"), strategy, x: GanttPanel.laneLabelX, y: y + 9, size: 13, bold: true)
            canvas.text(
                ids("\(strategy)-summary"), GanttFrame.summary(result.metrics), x: GanttPanel.laneLabelX + 80,
                y: y + 9, size: 10, color: ChartStyle.mutedText)
            y += 18
            let panel = GanttPanel(
                result: result, axis: axis, ids: ids, tiers: tiers, scope: strategy + "-",
                barID: { ids("\(strategy)-task-" + scenario.tasks[$0].id) })
            y = panel.draw(on: &canvas, top: y)
        }
        y = GanttFrame.axis(&canvas, ids: ids, axis: axis, top: y + 2)
        let blocked = results.contains { !$0.schedule.blocked.isEmpty }
        y = GanttFrame.legend(&canvas, ids: ids, tiers: tiers, showsBlocked: blocked, top: y + 8)
        canvas.height = y + 10
        return canvas.graph(name: scenario.name + " comparison", graphID: ids("graph"))
    }

    public func svg() throws(RenderError) -> [UInt8] { try Graphviz.svg(graph) }
}

/// The parts around the panels: title, axis, legend.
enum GanttFrame {
    static let rightMargin = 70.0

    static func width(_ axis: TimeAxis) -> Double { axis.x(axis.end) + rightMargin }

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
        _ canvas: inout Canvas, ids: ElementIDs, scenario: Scenario, heading: String, summary: String, axis: TimeAxis
    ) -> Double {
        canvas.text(ids("title"), heading, x: GanttPanel.laneLabelX, y: 18, size: 16, bold: true)
        canvas.text(ids("subtitle"), summary, x: GanttPanel.laneLabelX, y: 38, size: 11)
        let device = scenario.device
        let scale = Number.fixed(axis.pointsPerMillisecond, 3)
        let facts =
            "\(device.cores) cores (main + \(device.workerCount) workers) · \(Number.fixed(device.refreshRate, 3)) Hz"
            + " · pre-main \(formatMillis(scenario.preMainTotal)) ms · \(scenario.tasks.count) tasks"
            + " · scale: 1 ms = \(scale) pt"
        canvas.text(ids("facts"), facts, x: GanttPanel.laneLabelX, y: 54, size: 9.5, color: ChartStyle.mutedText)
        return 62
    }

    /// The ms axis below the lanes: a line, ticks and their labels; returns the y below.
    static func axis(_ canvas: inout Canvas, ids: ElementIDs, axis: TimeAxis, top: Double) -> Double {
        canvas.horizontalLine(
            ids("axis"), x0: axis.originX, x1: axis.x(axis.end), y: top, thickness: 1, color: ChartStyle.axis)
        for (k, tick) in axis.ticks.enumerated() {
            canvas.verticalLine(
                ids("tick-\(k)"), x: axis.x(tick), top: top, bottom: top + 5, thickness: 1, color: ChartStyle.axis,
                ["class": "tick"])
            canvas.text(
                ids("tick-label-\(k)"), formatMillis(tick), x: axis.x(tick), y: top + 13, size: 9.5, align: .center,
                color: ChartStyle.mutedText)
        }
        let title =
            "time since process start (ms)"
            + (axis.start > 0 ? " — the first \(formatMillis(axis.start)) ms (pre-main) folded" : "")
        canvas.text(
            ids("axis-title"), title, x: axis.x(axis.end), y: top + 27, size: 9.5,
            align: .right,
            color: ChartStyle.mutedText)
        return top + 34
    }

    /// Swatches with labels in two rows that never wrap: the tiers, then the
    /// marks (critical path, pre-main, commits…); a row too long for the width
    /// gets smaller text. Returns the y below.
    static func legend(_ canvas: inout Canvas, ids: ElementIDs, tiers: Tiers, showsBlocked: Bool, top: Double) -> Double
    {
        typealias Item = (label: String, attributes: GraphDescription.Attributes)
        var items: [Item] = []
        let shownTiers = min(tiers.priorities.count, 8)
        for tier in 0..<shownTiers {
            let colors = ChartStyle.tierColors(tier)
            items.append(
                (tiers.name(tier), ["fillcolor": .init(colors.fill), "color": .init(colors.stroke), "penwidth": "0.8"]))
        }
        if tiers.priorities.count > shownTiers {
            items.append(
                ("… \(tiers.priorities.count - shownTiers) more tiers (colours repeat)", ["fillcolor": "white"]))
        }
        items.append(("critical path", ["fillcolor": "white", "color": .init(ChartStyle.critical), "penwidth": "1.6"]))
        items.append(("pre-main", ["fillcolor": .init(ChartStyle.preMain[0]), "color": "#8c8c8c", "penwidth": "0.8"]))
        items.append(
            (
                "didFinishLaunching",
                [
                    "fillcolor": .init(ChartStyle.launchSpanFill), "color": .init(ChartStyle.launchSpanStroke),
                    "penwidth": "0.8",
                ]
            ))
        if showsBlocked {
            items.append(
                (
                    "main thread blocked",
                    [
                        "fillcolor": .init(ChartStyle.blockedFill), "color": .init(ChartStyle.blockedStroke),
                        "penwidth": "0.8", "style": "filled,dashed",
                    ]
                ))
        }
        items.append(("commit", ["shape": "invtriangle", "fillcolor": .init(ChartStyle.commit)]))
        items.append(("first frame", ["fillcolor": .init(ChartStyle.firstFrame)]))
        items.append(("launch complete", ["fillcolor": .init(ChartStyle.launchComplete)]))

        canvas.text(ids("legend-title"), "Legend", x: GanttPanel.laneLabelX, y: top + 6, size: 10, bold: true)
        let tierItems = tiers.priorities.count > shownTiers ? shownTiers + 1 : shownTiers
        let rows = [Array(items.indices.prefix(tierItems)), Array(items.indices.dropFirst(tierItems))]
        let left = GanttPanel.laneLabelX + 56
        var y = top
        for row in rows where !row.isEmpty {
            func width(_ k: Int, _ size: Double) -> Double {
                ChartStyle.estimatedWidth(items[k].label, size: size) * 1.1 + 26 * size / 9.5
            }
            var size = 9.5
            let room = canvas.width - 8 - left
            let natural = row.reduce(0) { $0 + width($1, size) }
            if natural > room { size = max(6, size * room / natural) }
            var x = left
            for k in row {
                let item = items[k]
                let lineLike = item.label == "first frame" || item.label == "launch complete"
                let swatchWidth = lineLike ? 2.0 : 14
                canvas.box(
                    ids("legend-\(k)"), x0: x + (14 - swatchWidth) / 2, x1: x + (14 + swatchWidth) / 2, top: y,
                    height: lineLike ? 12 : 10, item.attributes)
                canvas.text(ids("legend-label-\(k)"), item.label, x: x + 18, y: y + 5, size: size)
                x += width(k, size)
            }
            y += 16
        }
        return y
    }
}
