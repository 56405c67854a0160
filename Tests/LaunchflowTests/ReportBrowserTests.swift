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
        #expect(out.stdout == page.path + "\n")
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
        let out = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
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
