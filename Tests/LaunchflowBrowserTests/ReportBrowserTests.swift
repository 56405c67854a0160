import Foundation
import Testing

/// `launchflow report` loaded in a real browser (headless Chromium): no
/// script error, one element per task in every picture, `#task=ID` selects
/// the task, and a screenshot that shows something. Skipped, saying so, when
/// Chromium is not installed.
@Suite(.enabled(if: Chromium.isAvailable, Comment(rawValue: Chromium.skipMessage)), .serialized)
struct ReportBrowserTests {
    /// The page's own report of itself: attributes its script sets on `<html>`.
    struct PageState {
        var ready: Bool
        var errors: String?
        var tasks: Int?
        var counts: [String: Int]
        var selected: String?
        /// `class="node task…"` elements in the whole DOM.
        var taskElements: Int

        init(dom: String) {
            let html = String(
                dom[..<(dom.range(of: ">", range: dom.range(of: "<html")!.upperBound..<dom.endIndex)!.lowerBound)])
            func attribute(_ name: String) -> String? {
                guard let start = html.range(of: " \(name)=\"") else { return nil }
                let rest = html[start.upperBound...]
                return ReportBrowserTests.decodeEntities(String(rest[..<rest.firstIndex(of: "\"")!]))
            }
            ready = attribute("data-lf-ready") == "true"
            errors = attribute("data-lf-errors")
            tasks = attribute("data-lf-tasks").flatMap { Int($0) }
            let json = attribute("data-lf-counts") ?? "{}"
            counts = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Int] ?? [:]
            selected = attribute("data-lf-selected")
            taskElements = dom.components(separatedBy: "class=\"node task").count - 1
        }
    }

    static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Writes the report of `scenarioPath` into a fresh folder; returns the page's URL.
    func report(_ scenarioPath: String, in folder: URL) throws -> URL {
        let page = folder.appendingPathComponent("report.html")
        let out = try Launchflow.run(["report", scenarioPath, "--out", page.path])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout == "wrote \(page.path)\n")  // as render says it (issue 26)
        return page
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theReportLoadsWithoutErrorsAndALinkSelectsItsTask() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/article.json", in: folder)
        let run = try Chromium.load(page.absoluteString + "#task=launch-cache")
        #expect(run.status == 0)
        #expect(run.console.isEmpty, "the page logged: \(run.console)")
        let state = PageState(dom: run.dom)
        #expect(state.ready, "the page's script did not finish")
        #expect(state.errors == nil)
        #expect(state.tasks == 9)
        #expect(state.counts == ["graph": 9, "serial": 9, "priority": 9, "dag": 9, "anchored": 9])
        #expect(state.taskElements == 9 * 5)
        #expect(state.selected == "launch-cache")
        #expect(run.dom.contains("class=\"lf-card\"") && !run.dom.contains("class=\"lf-card\" hidden"))
    }

    @Test func anyTaskIdSurvivesThePageAndItsLink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = [
            "</script><script>alert(1)</script>", "say \"hi\" & 'bye'", "lf-looks-internal", "rtl\u{202E}evil",
            "100% #1 ?x=y", "ünïcødé ✓", "a_lf-x",
        ]
        var tasks: [String] = []
        for (k, id) in ids.enumerated() {
            let escaped = id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\u{202E}", with: "\\u202e")
            let dependency =
                k == 0 ? "" : ", \"dependsOn\": [\"\(tasks.count > 0 ? ids[k - 1].jsonEscaped : "")\"]"
            tasks.append(
                "{\"id\": \"\(escaped)\", \"cost\": \(5 + k), \"priority\": \(k % 2), \"mainThreadOnly\": \(k == 3)\(dependency)}"
            )
        }
        let json = """
            {"name": "Nasty </title> & <b>ids</b>", "description": "bidi\\u202eoverride and <i>markup</i>",
             "tasks": [\(tasks.joined(separator: ",\n"))]}
            """
        let scenario = folder.appendingPathComponent("nasty.json")
        try Data(json.utf8).write(to: scenario)
        let page = try report(scenario.path, in: folder)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<script>alert(1)"))
        #expect(!html.contains("<b>ids</b>") && !html.contains("<i>markup</i>"))
        #expect(html.contains("bidi\\u{202E}override"))
        let selectedID = ids[0]
        let fragment = selectedID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = try Chromium.load(page.absoluteString + "#task=" + fragment)
        #expect(run.console.isEmpty, "the page logged: \(run.console)")
        let state = PageState(dom: run.dom)
        #expect(state.ready && state.errors == nil, "\(state.errors ?? "")")
        #expect(state.counts.values.allSatisfy { $0 == ids.count }, "\(state.counts)")
        #expect(state.counts.count == 5)
        #expect(state.selected == selectedID)
        // The export of the view holds every id as text: it parses, with every bar.
        let exported = try driven(
            page,
            by: """
                <script>(function () {
                  var text = window.launchflowExportView(), doc = new DOMParser().parseFromString(text, "image/svg+xml");
                  document.documentElement.setAttribute("data-test", JSON.stringify({
                    errors: doc.getElementsByTagName("parsererror").length,
                    scripts: doc.getElementsByTagName("script").length,
                    bars: doc.querySelectorAll("g.node.task").length }));
                })();</script>
                """)
        #expect(exported["errors"] as? Int == 0)
        #expect(exported["scripts"] as? Int == 0)
        #expect(exported["bars"] as? Int == ids.count * 4)
    }

    /// W/S zoom, A/D pan (as in Perfetto and speedscope); the search box
    /// highlights matching tasks in every picture, by substring or /regex/.
    @Test func keyboardPanAndZoomAndSearch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/article.json", in: folder)
        let driver = """
            <script>(function () {
              var r = document.documentElement, out = {};
              function view() { return r.getAttribute("data-lf-view").split(",").map(Number); }
              function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); }
              out.initial = view(); key("w"); out.zoomIn = view(); key("d"); out.right = view();
              key("a"); out.left = view(); key("s"); out.zoomOut = view();
              var s = document.getElementById("lf-search");
              function find(text) { s.value = text; s.dispatchEvent(new Event("input")); }
              find("CACHE"); out.cache = +r.getAttribute("data-lf-matches");
              out.marked = document.querySelectorAll("g.lf-match").length;
              find("/^launch-(page|cache)$/"); out.regex = +r.getAttribute("data-lf-matches");
              find("/(/"); out.invalid = s.classList.contains("lf-invalid");
              find(""); out.cleared = document.querySelectorAll(".lf-match").length;
              r.setAttribute("data-test", JSON.stringify(out));
            })();</script>
            """
        let out = try driven(page, by: driver)
        func view(_ key: String) -> [Double] { (out[key] as? [Double]) ?? [] }
        let (initial, zoomIn, right, left, zoomOut) = (
            view("initial"), view("zoomIn"), view("right"), view("left"), view("zoomOut")
        )
        try #require(initial.count == 2 && zoomIn.count == 2 && right.count == 2 && left.count == 2)
        #expect(zoomIn[1] - zoomIn[0] < initial[1] - initial[0], "W zooms in: \(initial) → \(zoomIn)")
        #expect(right[0] > zoomIn[0] && abs((right[1] - right[0]) - (zoomIn[1] - zoomIn[0])) <= 1, "D pans right")
        #expect(abs(left[0] - zoomIn[0]) <= 1, "A pans back")
        #expect(zoomOut[1] - zoomOut[0] > left[1] - left[0], "S zooms out")
        #expect(out["cache"] as? Int == 1)
        #expect((out["marked"] as? Int ?? 0) >= 5, "the DAG node and the four bars")
        #expect(out["regex"] as? Int == 2)
        #expect(out["invalid"] as? Bool == true)
        #expect(out["cleared"] as? Int == 0)
    }

    /// Loads `page` with `driver` (a `<script>`) added at the end of its body;
    /// returns what the driver wrote, as JSON, to `data-test` on `<html>`.
    func driven(_ page: URL, by driver: String) throws -> [String: Any] {
        var html = try String(contentsOf: page, encoding: .utf8)
        html = html.replacingOccurrences(of: "</body>", with: driver + "</body>")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let run = try Chromium.load(page.absoluteString)
        #expect(run.console.isEmpty, "the page logged: \(run.console)")
        let state = PageState(dom: run.dom)
        #expect(state.ready && state.errors == nil, "\(state.errors ?? "")")
        let head = String(
            run.dom[
                ..<run.dom.range(of: ">", range: run.dom.range(of: "<html")!.upperBound..<run.dom.endIndex)!.lowerBound]
        )
        let json = try #require(head.range(of: " data-test=\"")).upperBound
        let text = Self.decodeEntities(String(head[json...].prefix { $0 != "\"" }))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The driver's helpers: `pointer(type, svg, clientX, shift)` dispatches a
    /// pointer event; `at(svg, t)` is the client x of time `t` (µs) in the
    /// current view, from the page's data and the panel's geometry.
    static let pointerHelpers = """
        var r = document.documentElement, out = {};
        var data = JSON.parse(document.querySelector('script[type="application/json"]').textContent);
        function view() { return r.getAttribute("data-lf-view").split(",").map(Number); }
        function geometry(svg) {
          var box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
          var m = svg.querySelector("g.graph").transform.baseVal.consolidate();
          return { box: box, scale: box.width / vb.width, pad: m ? m.matrix.e : 0 };
        }
        function at(svg, t) {
          var g = geometry(svg), v = view();
          return g.box.left + (g.pad + data.axis.originX + (t - v[0]) * data.axis.width / (v[1] - v[0])) * g.scale;
        }
        function pointer(type, target, x, shift) {
          var box = target.getBoundingClientRect();
          (type === "pointerdown" ? target : window).dispatchEvent(new PointerEvent(type, {
            bubbles: true, cancelable: true, button: 0, buttons: type === "pointerup" ? 0 : 1, pointerId: 1,
            isPrimary: true, shiftKey: !!shift, clientX: x, clientY: box.top + box.height / 2 }));
        }
        function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); }
        function ms(us) { return (us / 1000).toFixed(3); }
        """

    /// Shift + drag selects a span of time: a band over every panel shown and a
    /// label "start – end ms (duration ms)", from the page's time axis; it keeps
    /// its times when the view pans; Escape or a click clears it; a plain drag
    /// still pans.
    @Test func shiftDragSelectsASpanOfTime() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/article.json", in: folder)
        let driver = """
            <script>(function () {
            \(Self.pointerHelpers)
              var svg = document.querySelector(".lf-panel svg"), v = view(), w = v[1] - v[0];
              var a = Math.round(at(svg, v[0] + 0.2 * w)), b = Math.round(at(svg, v[0] + 0.6 * w));
              function timeOf(x) {  // the inverse of at(), for the whole pixels the events carry
                var g = geometry(svg);
                return v[0] + ((x - g.box.left) / g.scale - g.pad - data.axis.originX) * w / data.axis.width;
              }
              out.expected = ms(timeOf(a)) + " – " + ms(timeOf(b)) + " ms (" + ms(timeOf(b) - timeOf(a)) + " ms)";
              pointer("pointerdown", svg, b, true); pointer("pointermove", svg, (a + b) / 2, true);
              pointer("pointermove", svg, a, true); pointer("pointerup", svg, a, true);
              svg.dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey: true }));
              out.viewBefore = v; out.viewAfter = view();
              var bands = document.querySelectorAll(".lf-panel svg .lf-span-band");
              out.bands = bands.length;
              out.panels = document.querySelectorAll(".lf-panel").length;
              var labels = document.querySelectorAll(".lf-span-label");
              out.labels = labels.length;
              out.label = labels.length ? labels[0].textContent : null;
              var box = bands.length ? bands[0].getBoundingClientRect() : { left: 0, right: 0 };
              out.bandEdges = [box.left - a, box.right - b];
              out.span = r.getAttribute("data-lf-span");
              key("d");  // pan: the band keeps its times
              out.labelAfterPan = document.querySelector(".lf-span-label").textContent;
              out.bandMoved = document.querySelector(".lf-span-band").getBoundingClientRect().left < box.left - 1;
              var box2 = document.querySelector('input.lf-toggle[value="serial"]');
              box2.checked = false; box2.dispatchEvent(new Event("change"));
              out.bandsWithoutSerial = document.querySelectorAll(".lf-span-band").length;
              box2.checked = true; box2.dispatchEvent(new Event("change"));
              key("Escape");
              out.afterEscape = [document.querySelectorAll(".lf-span-band").length, r.getAttribute("data-lf-span")];
              pointer("pointerdown", svg, a, true); pointer("pointermove", svg, b, true); pointer("pointerup", svg, b, true);
              out.again = document.querySelectorAll(".lf-span-band").length;
              pointer("pointerdown", document.body, 5, false); pointer("pointerup", document.body, 5, false);
              document.body.dispatchEvent(new MouseEvent("click", { bubbles: true }));
              out.afterClick = document.querySelectorAll(".lf-span-band").length;
              var before = view();
              pointer("pointerdown", svg, b, false); pointer("pointermove", svg, a, false); pointer("pointerup", svg, a, false);
              out.panned = view()[0] > before[0];
              out.afterPan = document.querySelectorAll(".lf-span-band").length;
              r.setAttribute("data-test", JSON.stringify(out));
            })();</script>
            """
        let out = try driven(page, by: driver)
        let label = try #require(out["label"] as? String)
        #expect(label == out["expected"] as? String)
        let numbers = label.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        try #require(numbers.count == 3, "\(label)")
        #expect(label.wholeMatch(of: /\d+\.\d{3} – \d+\.\d{3} ms \(\d+\.\d{3} ms\)/) != nil, "\(label)")
        #expect(numbers[0] < numbers[1] && abs(numbers[1] - numbers[0] - numbers[2]) <= 0.0015, "\(label)")
        #expect(out["panels"] as? Int == 4)
        #expect(out["bands"] as? Int == 4, "a band over every panel")
        #expect(out["labels"] as? Int == 1)
        let edges = (out["bandEdges"] as? [Double]) ?? []
        #expect(edges.count == 2 && edges.allSatisfy { abs($0) <= 1.5 }, "the band is where the drag was: \(edges)")
        #expect((out["span"] as? String)?.isEmpty == false)
        #expect(out["viewAfter"] as? [Double] == out["viewBefore"] as? [Double], "a shift + drag does not pan")
        #expect(out["labelAfterPan"] as? String == label)
        #expect(out["bandMoved"] as? Bool == true)
        #expect(out["bandsWithoutSerial"] as? Int == 3)
        let afterEscape = (out["afterEscape"] as? [Any]) ?? []
        #expect(afterEscape.first as? Int == 0 && afterEscape.last is NSNull, "\(afterEscape)")
        #expect(out["again"] as? Int == 4)
        #expect(out["afterClick"] as? Int == 0)
        #expect(out["panned"] as? Bool == true, "a plain drag still pans")
        #expect(out["afterPan"] as? Int == 0)
    }

    /// The export of the current view: one well-formed standalone SVG (xmlns,
    /// its own style) with the panels shown, as zoomed, and the span; the
    /// button downloads it as `<scenario>-view.svg`.
    @Test func theCurrentViewExportsAsOneSVG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/article.json", in: folder)
        let driver = """
            <script>(function () {
            \(Self.pointerHelpers)
              key("w");
              var toggle = document.querySelector('input.lf-toggle[value="priority"]');
              toggle.checked = false; toggle.dispatchEvent(new Event("change"));
              var svg = document.querySelector('.lf-panel[data-strategy="dag"] svg'), v = view(), w = v[1] - v[0];
              var a = Math.round(at(svg, v[0] + 0.3 * w)), b = Math.round(at(svg, v[0] + 0.5 * w));
              pointer("pointerdown", svg, a, true); pointer("pointermove", svg, b, true); pointer("pointerup", svg, b, true);
              var text = window.launchflowExportView();
              out.length = text.length;
              out.head = text.slice(0, 200);
              var doc = new DOMParser().parseFromString(text, "image/svg+xml"), top = doc.documentElement;
              out.parseErrors = doc.getElementsByTagName("parsererror").length;
              out.root = top.localName; out.namespace = top.namespaceURI;
              out.size = [top.getAttribute("width"), top.getAttribute("height"), top.getAttribute("viewBox")];
              out.styles = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "style").length;
              out.scripts = doc.getElementsByTagName("script").length;
              out.strategies = Array.prototype.map.call(doc.querySelectorAll("svg > svg[data-strategy]"),
                function (s) { return s.getAttribute("data-strategy"); });
              out.bars = {};
              ["serial", "priority", "dag", "anchored"].forEach(function (name) {
                out.bars[name] = Array.prototype.filter.call(doc.querySelectorAll("g.node"),
                  function (g) { return g.id.indexOf("lf-" + name + "-task-") === 0; }).length;
              });
              var id = document.querySelector('.lf-panel[data-strategy="dag"] g.node.task').id;
              var live = document.getElementById(id).querySelector("polygon, path");
              var copy = Array.prototype.filter.call(doc.querySelectorAll("g.node"), function (g) { return g.id === id; })[0];
              out.sameZoom = !!copy && copy.querySelector("polygon, path").getAttribute("transform") === live.getAttribute("transform")
                && !!live.getAttribute("transform");
              out.bands = doc.querySelectorAll(".lf-span-band").length;
              var label = doc.querySelector(".lf-span-label");
              out.label = label ? label.textContent : null;
              out.liveLabel = document.querySelector(".lf-span-label").textContent;
              var clicked = null, orig = HTMLAnchorElement.prototype.click;
              HTMLAnchorElement.prototype.click = function () { clicked = { name: this.download, href: this.href }; };
              document.getElementById("lf-export").click();
              HTMLAnchorElement.prototype.click = orig;
              out.download = clicked ? clicked.name : null;
              out.blob = !!clicked && clicked.href.indexOf("blob:") === 0;
              out.spanAfterExport = document.querySelectorAll(".lf-panel .lf-span-band").length;
              r.setAttribute("data-test", JSON.stringify(out));
            })();</script>
            """
        let out = try driven(page, by: driver)
        #expect(out["parseErrors"] as? Int == 0, "\(out["head"] ?? "")")
        #expect(out["root"] as? String == "svg")
        #expect(out["namespace"] as? String == "http://www.w3.org/2000/svg")
        let head = (out["head"] as? String) ?? ""
        #expect(head.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"), "\(head)")
        #expect(head.contains("xmlns=\"http://www.w3.org/2000/svg\""), "\(head)")
        #expect(out["styles"] as? Int == 1)
        #expect(out["scripts"] as? Int == 0)
        #expect(out["strategies"] as? [String] == ["serial", "dag", "anchored"], "only the strategies shown")
        #expect(out["bars"] as? [String: Int] == ["serial": 9, "priority": 0, "dag": 9, "anchored": 9])
        #expect(out["sameZoom"] as? Bool == true, "the bars as zoomed")
        #expect(out["bands"] as? Int == 3)
        #expect(out["label"] as? String == out["liveLabel"] as? String)
        #expect(out["download"] as? String == "article-view.svg")
        #expect(out["blob"] as? Bool == true)
        #expect(out["spanAfterExport"] as? Int == 3, "the export button keeps the span")
    }

    @Test func aScreenshotShowsThePage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = try report("scenarios/large-app.json", in: folder)
        let png = folder.appendingPathComponent("report.png")
        let run = try Chromium.load(page.absoluteString + "#task=home-screen", screenshot: png)
        #expect(run.status == 0)
        #expect(run.console.isEmpty, "the page logged: \(run.console)")
        let bytes = try Data(contentsOf: png)
        #expect(bytes.count > 20_000)
        if let colours = try Chromium.distinctColours(png: png) {
            #expect(colours > 50, "a nearly blank screenshot: \(colours) colours")
        }
    }
}

extension String {
    /// The string as the body of a JSON string literal.
    fileprivate var jsonEscaped: String {
        replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\u{1B}", with: "\\u001b")
    }
}
