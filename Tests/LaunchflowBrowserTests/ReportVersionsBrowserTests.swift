import Foundation
import Testing

extension ReportBrowserTests {
    /// `report NEW --baseline OLD --advise` in headless Chromium: the panels of
    /// the baseline, the new version, the scenario as written and the plan have
    /// every bar, zoom with the strategies' panels (the same axis, the same
    /// transform), the search marks their bars (a removed task's too), Shift +
    /// drag draws the span over them, and the export holds them.
    @Test func theBaselineAndAdvicePanelsZoomSearchAndExport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old.json")
        let new = folder.appendingPathComponent("new.json")
        try Data(
            #"""
            {"name": "versions", "device": {"cores": 3},
             "tasks": [{"id": "a", "cost": 10}, {"id": "b", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a"]},
                       {"id": "c", "cost": 8}, {"id": "e", "cost": 20, "mainThreadOnly": true}]}
            """#.utf8
        ).write(to: old)
        try Data(
            #"""
            {"name": "versions", "device": {"cores": 3},
             "tasks": [{"id": "a", "cost": 14}, {"id": "b", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a"]},
                       {"id": "d", "cost": 6, "mainThreadOnly": true}, {"id": "e", "cost": 20, "mainThreadOnly": true}]}
            """#.utf8
        ).write(to: new)
        let page = folder.appendingPathComponent("report.html")
        let out = try Launchflow.run(["report", new.path, "--baseline", old.path, "--advise", "--out", page.path])
        #expect(out.status == 0, "\(out.stderr)")
        let driver = """
            <script>(function () {
            \(Self.pointerHelpers)
              out.counts = JSON.parse(r.getAttribute("data-lf-counts"));
              out.axes = document.querySelectorAll(".lf-axis svg").length;
              function transform(id) {
                var g = document.getElementById(id), shape = g && g.querySelector("polygon, path");
                return shape ? shape.getAttribute("transform") : null;
              }
              key("w"); key("d");
              out.dag = transform("lf-dag-task-b"); out.fresh = transform("lf-new-task-b");
              out.written = transform("lf-written-task-b"); out.removed = transform("lf-baseline-task-c");
              var s = document.getElementById("lf-search");
              function find(text) { s.value = text; s.dispatchEvent(new Event("input")); }
              find("c"); out.c = +r.getAttribute("data-lf-matches");
              out.cMarked = Array.prototype.map.call(document.querySelectorAll("g.lf-match"), function (g) {
                return g.closest(".lf-panel") ? g.closest(".lf-panel").getAttribute("data-panel") : "graph"; });
              find("e"); out.eMarked = document.querySelectorAll("g.lf-match").length;
              find("");
              document.getElementById("lf-baseline-task-c").dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
              out.card = document.getElementById("lf-card").textContent;
              var svg = document.querySelector('.lf-panel[data-panel="baseline"] svg'), v = view(), w = v[1] - v[0];
              var a = Math.round(at(svg, v[0] + 0.2 * w)), b = Math.round(at(svg, v[0] + 0.5 * w));
              pointer("pointerdown", svg, a, true); pointer("pointermove", svg, b, true); pointer("pointerup", svg, b, true);
              out.bands = document.querySelectorAll(".lf-panel .lf-span-band").length;
              out.span = r.getAttribute("data-lf-span");
              var doc = new DOMParser().parseFromString(window.launchflowExportView(), "image/svg+xml");
              out.exported = Array.prototype.map.call(doc.querySelectorAll("svg > svg[data-panel]"),
                function (s) { return s.getAttribute("data-panel"); });
              out.parseErrors = doc.getElementsByTagName("parsererror").length;
              r.setAttribute("data-test", JSON.stringify(out));
            })();</script>
            """
        let result = try driven(page, by: driver)
        let counts = result["counts"] as? [String: Int] ?? [:]
        #expect(
            counts == [
                "graph": 4, "serial": 4, "priority": 4, "dag": 4, "anchored": 4, "baseline": 4, "new": 4, "written": 4,
                "plan": 4,
            ], "\(counts)")
        #expect(result["axes"] as? Int == 3, "the strategies' axis and one under each pair of panels")
        let dag = try #require(result["dag"] as? String)
        #expect(dag.hasPrefix("matrix("), "zoomed: \(dag)")
        #expect(result["fresh"] as? String == dag, "the new version's bar moves with the dag panel's")
        #expect(result["written"] as? String == dag, "so does the plan's panel's 'as written'")
        #expect((result["removed"] as? String)?.hasPrefix("matrix(") == true, "the removed task's bar zooms too")
        #expect(result["c"] as? Int == 1)
        #expect(result["cMarked"] as? [String] == ["baseline"], "the removed task is only in the baseline")
        #expect(result["eMarked"] as? Int == 9, "the graph, four strategies, baseline, new, as written, plan")
        #expect((result["card"] as? String)?.contains("removed: only in the baseline") == true)
        #expect(result["bands"] as? Int == 8, "a band over every panel")
        #expect((result["span"] as? String)?.isEmpty == false)
        #expect(result["exported"] as? [String] == ["baseline", "new", "written", "plan"])
        #expect(result["parseErrors"] as? Int == 0)
    }

    /// The labels of the first-frame, full-display and launch-complete lines
    /// stay beside their lines as the view zooms (they used to drift by their
    /// width times the zoom), and turn to a line's other side rather than leave the plot.
    @Test func markerLabelsStayBesideTheirLines() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/modules.json", in: folder)
        let driver = """
            <script>(function () {
            \(Self.pointerHelpers)
              out.checked = 0; out.bad = [];
              function check(when) {
                ["serial", "priority", "dag", "anchored"].forEach(function (s) {
                  ["first-frame", "full-display", "launch-complete"].forEach(function (m) {
                    var line = document.getElementById("lf-" + s + "-" + m), label = document.getElementById("lf-" + s + "-" + m + "-label");
                    if (!line || !label) return;
                    var l = line.getBoundingClientRect(), t = label.querySelector("text").getBoundingClientRect();
                    var svg = line.ownerSVGElement, plotRight = at(svg, view()[1]) + 1, plotLeft = at(svg, view()[0]) - 1;
                    if (l.right < plotLeft || l.left > plotRight) return;  // out of view
                    out.checked += 1;
                    var gap = Math.min(Math.abs(t.left - l.right), Math.abs(l.left - t.right));
                    if (gap > 6 || t.right > plotRight + 2 || t.left < plotLeft - 2)
                      out.bad.push(when + " " + s + " " + m + ": line " + l.left + "–" + l.right + ", label " + t.left + "–" + t.right);
                  });
                });
              }
              check("launch");
              key("w"); key("w"); check("zoomed");
              document.querySelector('button[data-zoom="reset"]').click(); check("all");
              r.setAttribute("data-test", JSON.stringify(out));
            })();</script>
            """
        let out = try driven(page, by: driver)
        #expect((out["checked"] as? Int ?? 0) >= 12, "\(out)")
        #expect((out["bad"] as? [String])?.isEmpty == true, "\((out["bad"] as? [String]) ?? [])")
    }
}
