import Foundation
import LaunchflowCore

/// The pictures of the HTML report, rendered by Graphviz like the loose SVG
/// files, but cut so the page can arrange them: one Gantt panel per strategy
/// (so the strategy toggle can hide a whole panel), one shared legend, the
/// DAG and, with a sweep, the distributions.
///
/// Element ids never repeat across the pictures of one page: task elements in
/// the DAG use the task id, Gantt bars `<prefix><strategy>-task-<task id>`,
/// everything else starts with `<prefix>` (``ElementIDs``) and a part that
/// names its picture (`<prefix><strategy>-lane-main`, `<prefix>legend-3`,
/// `<prefix>dist-title`).
struct ReportPictures {
    let results: [SimulationResult]
    let ids: ElementIDs
    /// The whole launch, from 0: the panels are drawn on it and the page zooms.
    let axis: TimeAxis
    /// The launch framed (``LaunchFrame``): the page's first view ends at its end.
    let frame: TimeAxis
    let tiers: Tiers

    init(results: [SimulationResult]) {
        precondition(!results.isEmpty, "a report needs at least one result")
        self.results = results
        let scenario = results[0].schedule.scenario
        ids = ElementIDs(taskIDs: scenario.tasks.map(\.id))
        axis = TimeAxis.shared(by: results)
        // The launch as the comparison frames it (a much longer launch keeps its own scale there).
        let framed = ComparisonChart.axes(results)
        frame = framed.axes[framed.own.firstIndex(of: false) ?? 0]
        tiers = Tiers(scenario)
    }

    var scenario: Scenario { results[0].schedule.scenario }

    /// The id of task `index`'s bar in `strategy`'s panel.
    func barID(_ strategy: Strategy, _ index: Int) -> String {
        ids("\(strategy.rawValue)-task-" + scenario.tasks[index].id)
    }

    /// One strategy's lanes under a heading line (its name and headline
    /// metrics), on the shared axis; no axis (the page draws one that zooms).
    func panel(_ result: SimulationResult) -> GraphDescription {
        let strategy = result.schedule.strategy
        let name = strategy.rawValue
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("\(name)-background"))
        canvas.text(ids("\(name)-heading"), name, x: GanttPanel.laneLabelX, y: 12, size: 13, bold: true)
        canvas.text(
            ids("\(name)-summary"), GanttFrame.summary(result.metrics), x: GanttPanel.laneLabelX + 80, y: 12,
            size: 10, color: ChartStyle.mutedText)
        var panel = GanttPanel(
            result: result, axis: axis, ids: ids, tiers: tiers, scope: name + "-", barID: { barID(strategy, $0) })
        panel.labelsOutside = false  // the page's script refits labels inside the bars as it zooms
        canvas.height = panel.draw(on: &canvas, top: 20) + 4
        return canvas.graph(name: scenario.name + " " + name, graphID: ids("\(name)-graph"))
    }

    /// The Gantt legend (tiers, critical path, pre-main, commits…) alone.
    func legend() -> GraphDescription {
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("legend-background"))
        canvas.height =
            GanttFrame.legend(&canvas, ids: ids, tiers: tiers, contents: GanttContents(results), top: 4) + 2
        return canvas.graph(name: scenario.name + " legend", graphID: ids("legend-graph"))
    }

    /// The task graph with every result's violations (priority).
    func dag(_ display: TierDisplay) -> GraphDescription {
        DAGChart(scenario, results: results, tiers: display).graph
    }

    /// SVG markup for inlining in HTML: without the XML prolog and doctype.
    static func inline(_ svg: [UInt8]) -> String {
        let text = String(decoding: svg, as: UTF8.self)
        guard let start = text.range(of: "<svg") else { return text }
        return String(text[start.lowerBound...])
    }

    /// The sweep's distribution chart, its ids moved under `<prefix>dist-`
    /// (the chart names its elements `lf-…`, which the Gantt panels use too).
    func distribution(_ sweep: SweepResult) throws(RenderError) -> String {
        var svg = Self.inline(try DistributionChart(sweep).svg())
        // Graphviz writes '-' in ids as "&#45;".
        let prefix = ids.prefix.replacingOccurrences(of: "-", with: "&#45;")
        for dash in ["-", "&#45;"] {
            svg = svg.replacingOccurrences(of: " id=\"lf\(dash)", with: " id=\"\(prefix)dist&#45;")
                .replacingOccurrences(of: " id=\"a_lf\(dash)", with: " id=\"a_\(prefix)dist&#45;")
        }
        return svg
    }
}
