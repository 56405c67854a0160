import Foundation
import LaunchflowCore
import LaunchflowRender
import Testing

extension RenderTests {
    /// `report --baseline` and `report --advise` without a browser: their panels
    /// are on the page's one time axis, every bar is there, the tables hold
    /// what the simulations and `advise` give, and ids stay unique.
    @Suite struct ReportVersionsTests {
        /// ``Scenarios/example`` changed as a pull request would: `database`
        /// slower, `analytics` removed, `push` added.
        static let changed: Scenario = {
            var tasks = Scenarios.example.tasks
            tasks[5].cost = 50_000
            tasks.remove(at: 11)
            tasks.append(LaunchTask(id: "push", cost: 7000, dependsOn: [2]))
            let example = Scenarios.example
            return try! Scenario(name: example.name, device: example.device, preMain: example.preMain, tasks: tasks)
        }()

        static func page(_ report: Report) throws -> String { String(decoding: try report.html(), as: UTF8.self) }

        /// The inline picture whose graph has id `<prefix><key>-graph`.
        static func panel(_ html: String, _ key: String, prefix: String = "lf-") throws -> SVG {
            let svg = try #require(
                ReportTests.svgs(html).first {
                    $0.contains("id=\"\(prefix)\(key)-graph\"".replacingOccurrences(of: "-", with: "&#45;"))
                },
                "no panel \(key)")
            return try SVG(Array(svg.utf8))
        }

        /// The visible text of one table row's cells (`<tr data-metric="…">`), by strategy or column.
        static func cells(_ html: String, metric: Metric, in section: String) throws -> [String] {
            let start = try #require(html.range(of: "<section id=\"lf-\(section)\">"))
            let body = html[start.upperBound...].components(separatedBy: "</section>")[0]
            let row = try #require(body.range(of: "<tr data-metric=\"\(metric.rawValue)\">"))
            let line = body[row.upperBound...].components(separatedBy: "</tr>")[0]
            return line.components(separatedBy: "<td").dropFirst().map { cell in
                let inner = cell[cell.index(after: cell.firstIndex(of: ">")!)...].components(separatedBy: "</td>")[0]
                return inner.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            }
        }

        /// The left edge of a bar (SVG units, inside its graph).
        static func left(_ svg: SVG, _ id: String) throws -> Double { try SVG.box(svg.element(withID: id)).minX }

        @Test func theBaselineSectionShowsBothVersionsOnThePagesAxis() throws {
            let old = Scenarios.example
            let new = Self.changed
            var report = Report.make(new, file: "new.json", jobs: 1, sweepRuns: 20)
            report.baseline = ReportBaseline(
                old: old, oldFile: "old.json", new: new, newFile: "new.json", strategies: Strategy.allCases)
            let html = try Self.page(report)

            // Both panels, every task of each version, on the axis of the strategies' panels.
            let baseline = try Self.panel(html, "baseline")
            let current = try Self.panel(html, "new")
            let dag = try Self.panel(html, "dag")
            #expect(baseline.groups(withClass: "task").count == old.tasks.count)
            #expect(current.groups(withClass: "task").count == new.tasks.count)
            for task in old.tasks { _ = try baseline.element(withID: "lf-baseline-task-" + task.id) }
            for task in new.tasks { _ = try current.element(withID: "lf-new-task-" + task.id) }
            let width = SVG.attribute(dag.root, "viewBox")?.split(separator: " ")[2]
            #expect(SVG.attribute(baseline.root, "viewBox")?.split(separator: " ")[2] == width)
            #expect(SVG.attribute(current.root, "viewBox")?.split(separator: " ")[2] == width)
            let oldRun = LaunchEngine(old).result(.dag, options: .init())
            let newRun = LaunchEngine(new).result(.dag, options: .init())
            let axis = TimeAxis.shared(
                by: Report.make(new, file: "", strategies: Strategy.allCases, jobs: 1).results + [oldRun])
            let perMicro = axis.width / Double(axis.end - axis.start)
            var shifted = 0
            for (i, task) in old.tasks.enumerated() {
                guard let j = new.tasks.firstIndex(where: { $0.id == task.id }) else { continue }
                let shift =
                    try Self.left(current, "lf-new-task-" + task.id)
                    - Self.left(baseline, "lf-baseline-task-" + task.id)
                let expected = Double(newRun.schedule.tasks[j].start - oldRun.schedule.tasks[i].start) * perMicro
                if expected > 1 { shifted += 1 }
                // (A critical-path outline is drawn a little inside its bar: 0.07 points.)
                #expect(abs(shift - expected) < 0.15, "\(task.id): \(shift) points, expected \(expected)")
                // The new panel is the dag panel's run: the same bar at the same place.
                #expect(try Self.left(current, "lf-new-task-" + task.id) == Self.left(dag, "lf-dag-task-" + task.id))
            }

            #expect(shifted >= 2, "database's 20 ms should move the tasks after it")

            // Every metric old → new as the simulations give them, better or worse in words.
            let oldResults = Strategy.allCases.map { LaunchEngine(old).result($0, options: .init()).metrics }
            let newResults = Strategy.allCases.map { LaunchEngine(new).result($0, options: .init()).metrics }
            var moved = 0
            for metric in Metric.allCases {
                let cells = try Self.cells(html, metric: metric, in: "versus")
                #expect(cells.count == Strategy.allCases.count)
                for (k, cell) in cells.enumerated() {
                    let a = TextReport.valueText(metric, oldResults[k])
                    let b = TextReport.valueText(metric, newResults[k])
                    let delta = newResults[k].value(metric) - oldResults[k].value(metric)
                    if delta == 0 {
                        #expect(cell == b, "\(metric) \(k): \(cell)")
                        continue
                    }
                    moved += 1
                    #expect(cell.hasPrefix("\(a) → \(b) (\(TextReport.signed(delta, metric)))"), "\(metric): \(cell)")
                    if metric.info.direction == .lowerIsBetter {
                        #expect(cell.hasSuffix(delta < 0 ? " better" : " worse"), "\(metric): \(cell)")
                    }
                }
            }
            #expect(moved > 0)

            // diff's changes: the tasks added and removed, each change described as diff describes it.
            #expect(html.contains("<b>1 task added:</b> <code>push</code>"))
            #expect(html.contains("<b>1 task removed:</b> <code>analytics</code>"))
            let diff = ScenarioDiff(
                old: old, oldFile: "old.json", new: new, newFile: "new.json", strategies: Strategy.allCases)
            #expect(diff.changes.count == 3)
            for change in diff.changes {
                #expect(html.contains(ScenarioDiff.describe(change).replacingOccurrences(of: "'", with: "&#39;")))
            }

            // The removed task is in the page's data (its bar in the baseline panel is found by the script).
            let data = try #require(html.range(of: "<script type=\"application/json\" id=\"lf-data\">"))
            let json = html[data.upperBound...].components(separatedBy: "</script>")[0]
            let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let tasks = try #require(object["tasks"] as? [[String: Any]])
            #expect(tasks.compactMap { $0["id"] as? String } == new.tasks.map(\.id) + ["analytics"])
            #expect(tasks.last?["removed"] as? Bool == true)
            #expect(tasks.first { $0["id"] as? String == "push" }?["added"] as? Bool == true)
            let panels = try #require(object["panels"] as? [[String: Any]])
            #expect(panels.compactMap { $0["key"] as? String } == ["baseline", "new"])
            // The first view covers both versions.
            let axisEnd = try #require((object["axis"] as? [String: Any])?["end"] as? Int)
            #expect(Micros(axisEnd) >= max(oldRun.metrics.launchComplete, newRun.metrics.launchComplete))

            // No id repeats across the page's pictures.
            var seen = Set<String>()
            for picture in try ReportTests.svgs(html).map({ try SVG(Array($0.utf8)) }) {
                for element in picture.elements {
                    guard let id = SVG.attribute(element, "id") else { continue }
                    #expect(seen.insert(id).inserted, "id '\(id)' repeats")
                }
            }
        }

        @Test func theBaselineIsEscapedAndItsIdsStayApart() throws {
            // Task ids that look like the page's own; a removed one that needs escaping.
            let awkward = Scenarios.awkward
            let old = try Scenario(
                name: awkward.name, device: awkward.device,
                tasks: awkward.tasks + [LaunchTask(id: "</script><b>gone</b>", cost: 3000)])
            var report = Report.make(Scenarios.awkward, file: "a.json", jobs: 1, sweepRuns: 20)
            report.baseline = ReportBaseline(
                old: old, oldFile: "<i>old</i>.json", new: Scenarios.awkward, newFile: "a.json",
                strategies: Strategy.allCases)
            let html = try Self.page(report)
            #expect(!html.contains("<b>gone</b>") && !html.contains("<i>old</i>"))
            #expect(html.contains("&lt;i&gt;old&lt;/i&gt;.json"))
            #expect(html.components(separatedBy: "</script>").count == 3)
            let pictures = try ReportTests.svgs(html).map { try SVG(Array($0.utf8)) }
            #expect(pictures.allSatisfy { $0.duplicateIDs.isEmpty })
        }

        @Test func theAdviceSectionHoldsThePlanAdviseFinds() throws {
            // One worker: the home screen waits for db-open, which runs after feed-cache as written;
            // analytics holds the main thread before the first frame.
            let scenario = try Scenario(
                name: "worker", device: Device(cores: 2, refreshRate: 1000),
                tasks: [
                    LaunchTask(id: "feed-cache", cost: 10_000),
                    LaunchTask(id: "db-open", cost: 5000),
                    LaunchTask(id: "analytics", cost: 3000, mainThreadOnly: true),
                    LaunchTask(id: "home", cost: 1000, mainThreadOnly: true, dependsOn: [1], firstFrame: true),
                ])
            var configuration = AdviseConfiguration()
            configuration.jobs = 1
            let plan = try Advise.plan(scenario, configuration)
            try #require(!plan.changes.isEmpty, "the example needs a plan that changes something")
            var report = Report.make(scenario, file: "app.json", jobs: 1, sweepRuns: 20)
            report.advice = ReportAdvice(plan)
            let html = try Self.page(report)

            #expect(html.contains("<tr data-metric=\"margin\"><th scope=\"row\">margin to the vsync (ms)</th>"))
            for metric in AdviseReport.tableMetrics + [.maxInputDelayMs] {
                let cells = try Self.cells(html, metric: metric, in: "advice")
                #expect(cells.count == 3)
                #expect(cells[0] == TextReport.valueText(metric, plan.baseline))
                #expect(cells[1].hasPrefix(TextReport.valueText(metric, plan.metrics)), "\(metric): \(cells[1])")
                #expect(cells[2] == TextReport.valueText(metric, plan.bestStrategyMetrics))
            }
            #expect(html.contains("data-bound=\"\(plan.firstFrameBound)\""))
            #expect(html.contains("data-gap=\"\(plan.metrics.timeToFirstFrame - plan.firstFrameBound)\""))
            let gains = html.components(separatedBy: " data-gain=\"").dropFirst().map {
                Micros($0.prefix { $0 != "\"" })!
            }
            #expect(gains == plan.changes.map(\.gain))
            for (line, _) in AdviseReport.changeList(plan) {
                #expect(html.contains(line.replacingOccurrences(of: "'", with: "&#39;")), "\(line)")
            }

            // As written and the plan under the plan's strategy, on the page's axis, every task in each.
            let written = try Self.panel(html, "written")
            let planned = try Self.panel(html, "plan")
            let dag = try Self.panel(html, "dag")
            for svg in [written, planned] {
                #expect(svg.groups(withClass: "task").count == scenario.tasks.count)
                #expect(
                    SVG.attribute(svg.root, "viewBox").map { $0.split(separator: " ")[2] }
                        == SVG.attribute(dag.root, "viewBox").map { $0.split(separator: " ")[2] })
            }
            // As written under dag is the dag panel's run.
            for task in scenario.tasks {
                #expect(
                    try Self.left(written, "lf-written-task-" + task.id) == Self.left(dag, "lf-dag-task-" + task.id))
            }
            let run = LaunchEngine(plan.scenario).result(.dag, options: .init())
            #expect(run.metrics == plan.metrics)
        }

        @Test func withoutTheFlagsThePageHasNeitherSection() throws {
            let html = try Self.page(Report.make(Scenarios.example, file: "app.json", jobs: 1, sweepRuns: 20))
            #expect(!html.contains("id=\"lf-versus\"") && !html.contains("id=\"lf-advice\""))
            #expect(!html.contains("\"panels\":") && !html.contains("\"more\":"))
        }
    }
}
