import Foundation

/// The report page's style sheet. Written with the `lf-` prefix; a page whose
/// task ids force another prefix (``ElementIDs``) gets it substituted.
enum ReportStyle {
    static func css(prefix: String) -> String {
        guard prefix != "lf-" else { return source }
        return source.replacingOccurrences(of: ".lf-", with: "." + prefix)
            .replacingOccurrences(of: "#lf-", with: "#" + prefix)
    }

    static let source = #"""
        :root { --ink: #222; --muted: #5b6270; --line: #d0d5dd; --soft: #f5f7fa; --best: #1e8e3e;
          --broken: #c2185b; --accent: #1f3b73; --sel: #111; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink);
          background: #fff; }
        main, .lf-header, .lf-headline { max-width: 1280px; margin: 0 auto; padding: 0 20px; }
        h1 { font-size: 24px; margin: 18px 0 4px; }
        h2 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        details > summary h2 { display: inline; border: 0; }
        .lf-description { margin: 4px 0; max-width: 900px; }
        .lf-facts, .lf-note { color: var(--muted); font-size: 12.5px; margin: 4px 0 8px; }
        .lf-warn { color: var(--broken); }
        .lf-verdict { font-size: 15.5px; font-weight: 600; margin: 12px 0 10px; }
        .lf-cards { display: flex; flex-wrap: wrap; gap: 10px; }
        .lf-strategy-card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; min-width: 230px;
          background: var(--soft); }
        .lf-strategy-card.lf-best { border: 2px solid var(--best); background: #eef8f0; }
        .lf-strategy-card.lf-broken { border-color: #f0b6cf; }
        .lf-strategy-card.lf-off { opacity: .4; }
        .lf-card-title { font-weight: 700; font-size: 15px; margin-bottom: 4px; }
        .lf-figure { display: flex; gap: 8px; align-items: baseline; }
        .lf-figure .lf-label { color: var(--muted); width: 104px; white-space: nowrap; }
        .lf-figure .lf-value { font-weight: 600; font-variant-numeric: tabular-nums; }
        .lf-delta { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
        .lf-badge { display: inline-block; font-size: 11.5px; border-radius: 10px; padding: 0 8px; margin-top: 4px;
          font-weight: 600; }
        .lf-badge-best { background: var(--best); color: #fff; }
        .lf-badge-broken { background: #fde4ef; color: var(--broken); }
        .lf-badge-ok { background: #e3f3e7; color: var(--best); }
        .lf-controls { position: sticky; top: 0; z-index: 5; background: rgba(255,255,255,.96);
          border-bottom: 1px solid var(--line); padding: 6px 20px; display: flex; flex-wrap: wrap; gap: 18px;
          align-items: center; margin-top: 12px; }
        .lf-controls label { margin-right: 6px; white-space: nowrap; }
        .lf-controls button { font: inherit; padding: 1px 9px; margin-left: 3px; border: 1px solid var(--line);
          border-radius: 4px; background: #fff; cursor: pointer; }
        .lf-controls button:hover { background: var(--soft); }
        .lf-range { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
        .lf-table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
        .lf-table th, .lf-table td { border-bottom: 1px solid #e6e9ef; padding: 3px 10px; text-align: right; }
        .lf-table th:first-child, .lf-table td.lf-id, .lf-table th.lf-id { text-align: left; }
        .lf-table thead th { background: var(--soft); vertical-align: bottom; }
        .lf-metrics th[scope=row] { text-align: left; font-weight: normal; }
        .lf-is-best { color: var(--best); font-weight: 700; }
        .lf-is-broken { color: var(--broken); }
        .lf-star, .lf-dagger { margin-left: 1px; }
        .lf-tasks tbody tr, .lf-lint-list li { cursor: pointer; }
        .lf-tasks tbody tr:hover, .lf-lint-list li:hover { background: #f0f4ff; }
        tr.lf-sel, li.lf-sel { background: #ffe9a8 !important; }
        tr.lf-hover, li.lf-hover { background: #fff4cc; }
        .lf-lint-list { padding-left: 18px; }
        .lf-lint-list li { margin: 3px 0; }
        .lf-rule { color: var(--muted); font-size: 11.5px; }
        .lf-hidden { display: none !important; }
        .lf-legend svg, .lf-panel svg, .lf-axis svg { display: block; width: 100%; height: auto; }
        .lf-panels { user-select: none; cursor: grab; }
        .lf-panels.lf-dragging { cursor: grabbing; }
        .lf-panel { border-top: 1px solid #eef0f3; }
        .lf-axis { position: sticky; bottom: 0; background: rgba(255,255,255,.95); }
        .lf-dag-frame { overflow: auto; max-height: 85vh; border: 1px solid #eef0f3; }
        .lf-dag-frame svg { display: block; max-width: none; }
        .lf-dist svg { display: block; max-width: 100%; height: auto; }
        svg g.node.task { cursor: pointer; }
        svg .lf-z polygon, svg .lf-z polyline, svg .lf-z path, svg .lf-z ellipse { vector-effect: non-scaling-stroke; }
        svg g.lf-hover polygon, svg g.lf-hover path { stroke: #333 !important; stroke-width: 2px !important; }
        svg g.lf-sel polygon, svg g.lf-sel path, svg g.lf-sel ellipse { stroke: var(--sel) !important;
          stroke-width: 3px !important; }
        svg g.lf-sel text { font-weight: bold; }
        svg g.lf-rel polygon, svg g.lf-rel path { stroke: #f57c00 !important; stroke-width: 2.4px !important; }
        svg.lf-focus g.node.task:not(.lf-sel):not(.lf-rel) { opacity: .28; }
        svg.lf-focus g.edge:not(.lf-rel) { opacity: .15; }
        svg g.edge.lf-rel path { stroke: #f57c00 !important; stroke-width: 2.4px !important; }
        svg g.edge.lf-rel polygon { fill: #f57c00 !important; stroke: #f57c00 !important; }
        .lf-card { position: fixed; right: 14px; bottom: 14px; width: 420px; max-height: 70vh; overflow: auto;
          z-index: 10; background: #fff; border: 1px solid #b8c0cc; border-radius: 8px;
          box-shadow: 0 6px 24px rgba(0,0,0,.18); padding: 10px 14px; font-size: 13px; }
        .lf-card h3 { margin: 0 0 4px; font-size: 16px; word-break: break-all; padding-right: 24px; }
        .lf-card .lf-close { position: absolute; right: 8px; top: 6px; border: 0; background: none; font-size: 18px;
          cursor: pointer; color: var(--muted); }
        .lf-card table { margin: 6px 0; }
        .lf-card .lf-chips { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0 6px; }
        .lf-chip { border: 1px solid var(--line); border-radius: 10px; padding: 0 7px; background: var(--soft);
          cursor: pointer; font-size: 12px; }
        .lf-chip:hover { background: #e6ecff; }
        .lf-card .lf-viol { color: var(--broken); }
        @media (max-width: 760px) { .lf-card { left: 8px; right: 8px; width: auto; } }
        """#
}
