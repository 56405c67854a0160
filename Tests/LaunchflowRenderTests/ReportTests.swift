import Foundation
import LaunchflowCore
import LaunchflowRender
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RenderTests {
    /// The report page's structure, without a browser: every inline picture is
    /// well-formed SVG, each holds one element per task, no id repeats across
    /// the page, and nothing from the scenario reaches the HTML unescaped.
    @Suite struct ReportTests {
        /// The inline `<svg>…</svg>` blocks of a page, in order (before its scripts).
        static func svgs(_ html: String) -> [String] {
            html.components(separatedBy: "<script")[0].components(separatedBy: "<svg").dropFirst().map {
                "<svg" + $0.components(separatedBy: "</svg>")[0] + "</svg>"
            }
        }

        static func page(_ scenario: Scenario) throws -> String {
            let report = Report.make(scenario, file: "test.json", jobs: 1, sweepRuns: 50)
            return String(decoding: try report.html(), as: UTF8.self)
        }

        @Test(arguments: ["example", "awkward"])
        func everyPictureHasOneElementPerTaskAndNoIdRepeats(_ name: String) throws {
            let scenario = name == "example" ? Scenarios.example : Scenarios.awkward
            let html = try Self.page(scenario)
            let pictures = try Self.svgs(html).map { try SVG(Array($0.utf8)) }
            // The legend, one panel per strategy, the DAG.
            #expect(pictures.count == 2 + Strategy.allCases.count)
            let ids = scenario.tasks.map(\.id).map(GraphvizText.xmlSafe)
            let prefix = ["lf-", "lf1-", "lf2-", "lf3-"].first { candidate in
                !scenario.tasks.contains { $0.id.hasPrefix(candidate) || $0.id.hasPrefix("a_" + candidate) }
            }!
            for (k, strategy) in Strategy.allCases.enumerated() {
                let panel = pictures[1 + k]
                #expect(panel.groups(withClass: "task").count == ids.count, "\(strategy)")
                for id in ids { #expect(panel.elements(withID: prefix + strategy.rawValue + "-task-" + id).count == 1) }
            }
            let dag = pictures.last!
            #expect(dag.groups(withClass: "task").count == ids.count)
            for id in ids { #expect(dag.elements(withID: id).count == 1, "\(id)") }
            var seen = Set<String>()
            for picture in pictures {
                for element in picture.elements {
                    guard let id = SVG.attribute(element, "id") else { continue }
                    #expect(seen.insert(id).inserted, "id '\(id)' repeats")
                }
            }
        }

        @Test func scenarioTextIsEscapedEverywhere() throws {
            let scenario = Scenarios.awkward(
                description: "</script><script>alert(1)</script> esc\u{1B}[2J form\u{0C}feed")
            let html = try Self.page(scenario)
            #expect(!html.contains("<script>alert(1)"))
            #expect(!html.contains("\u{1B}") && !html.contains("\u{0C}"))
            #expect(html.contains("esc\\u{1B}[2J form\\ffeed"))
            #expect(html.components(separatedBy: "</script>").count == 3)  // the data and the script
            #expect(!html.contains("<b>\"q\"</b>"))
            // The page's data is JSON that holds every id exactly.
            let start = try #require(html.range(of: "<script type=\"application/json\" id=\"lf2-data\">"))
            let json = html[start.upperBound...].components(separatedBy: "</script>")[0]
            let data = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let tasks = try #require(data["tasks"] as? [[String: Any]])
            #expect(tasks.compactMap { $0["id"] as? String } == scenario.tasks.map(\.id))
        }
    }
}
