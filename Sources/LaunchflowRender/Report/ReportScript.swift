/// The report page's script: selection and hover across every picture and
/// table, the task card, the strategy toggle, zoom and pan of the Gantt
/// charts' time axis, a span of time selected with Shift + drag (a band with
/// its start, end and duration), the export of the current view as one SVG
/// file (`window.launchflowExportView()` returns its text), and `#task=ID`
/// links.
///
/// It reads the page's data (`<script type="application/json">`, written by
/// ``ReportPage``) and finds each task's elements by their ids: the task id in
/// the DAG, `<prefix><strategy>-task-<id>` in the Gantt panels, `data-task`
/// on table rows.
///
/// Zoom keeps text upright: inside the plot (right of the lane labels) wide
/// shapes are scaled along x (`matrix(k 0 0 1 tx 0)`, strokes unscaled) and
/// every text and narrow mark (commits, markers) is moved, not stretched; a
/// clip path keeps the plot inside its frame.
///
/// For tests and tools it writes to `<html>`: `data-lf-ready`, `data-lf-tasks`,
/// `data-lf-counts` (task elements found per picture, as JSON: `graph` and
/// each strategy),
/// `data-lf-selected` (the selected task's id), `data-lf-view` and
/// `data-lf-span` (the view and the selected span, µs: `start,end`) and `data-lf-errors` (any
/// script error).
enum ReportScript {
    /// `report.js`, a resource of this target, read once.
    static let source: String = ReportResources.text("report", "js")
}
