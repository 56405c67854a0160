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

    /// `results` are the report's strategies; `extra` the runs of the other
    /// panels (``ReportPanel``: the baseline, the plan), drawn on the same axis;
    /// `extraIDs` the task ids only they have (tasks the baseline removed).
    init(results: [SimulationResult], extra: [SimulationResult] = [], extraIDs: [String] = []) {
        precondition(!results.isEmpty, "a report needs at least one result")
        self.results = results
        let scenario = results[0].schedule.scenario
        ids = ElementIDs(taskIDs: scenario.tasks.map(\.id) + extraIDs)
        let all = results + extra
        axis = TimeAxis.shared(by: all)
        // The launch as the comparison frames it (a much longer launch keeps its own scale there).
        let framed = ComparisonChart.axes(all)
        frame = framed.axes[framed.own.firstIndex(of: false) ?? 0]
        tiers = Tiers(scenario)
        contents = GanttContents(all)
    }

    /// What the legend lists: the marks of every panel on the page.
    let contents: GanttContents

    var scenario: Scenario { results[0].schedule.scenario }

    /// The id of task `index`'s bar in `strategy`'s panel.
    func barID(_ strategy: Strategy, _ index: Int) -> String {
        ids("\(strategy.rawValue)-task-" + scenario.tasks[index].id)
    }

    /// One strategy's lanes under a heading line (its name and headline
    /// metrics), on the shared axis; no axis (the page draws one that zooms).
    func panel(_ result: SimulationResult) -> GraphDescription {
        let name = result.schedule.strategy.rawValue
        return panel(result, key: name, heading: name)
    }

    /// A panel of another run on the same axis (``ReportPanel``): its ids under
    /// `<prefix><key>-`, its bars `<prefix><key>-task-<task id>` (ids of its own scenario's tasks).
    func panel(_ result: SimulationResult, key: String, heading: String) -> GraphDescription {
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("\(key)-background"))
        canvas.text(ids("\(key)-heading"), heading, x: GanttPanel.laneLabelX, y: 12, size: 13, bold: true)
        // The strategies' headings are short; the other panels' ("as written · anchored") share a wider column.
        let summaryX = GanttPanel.laneLabelX + (key == heading ? 80 : 170)
        canvas.text(
            ids("\(key)-summary"), GanttFrame.summary(result.metrics), x: summaryX, y: 12,
            size: 10, color: ChartStyle.mutedText)
        let own = result.schedule.scenario
        let head = ids("\(key)-task-")
        var panel = GanttPanel(
            result: result, axis: axis, ids: ids, tiers: Tiers(own),
            scope: key + "-", barID: { head + own.tasks[$0].id })
        panel.labelsOutside = false  // the page's script refits labels inside the bars as it zooms
        canvas.height = panel.draw(on: &canvas, top: 20) + 4
        return canvas.graph(name: own.name + " " + heading, graphID: ids("\(key)-graph"))
    }

    /// The Gantt legend (tiers, critical path, pre-main, commits…) alone.
    func legend() -> GraphDescription {
        var canvas = Canvas(width: GanttFrame.width(axis), backgroundID: ids("legend-background"))
        canvas.height =
            GanttFrame.legend(&canvas, ids: ids, tiers: tiers, contents: contents, top: 4) + 2
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
