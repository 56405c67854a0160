import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RenderTests {
    @Suite struct DAGChartTests {
        static let dependencyCount = Scenarios.example.tasks.reduce(0) { $0 + $1.dependsOn.count }

        @Test(arguments: TierDisplay.allCases)
        func oneNodePerTaskAndOneDependencyEdgePerDependency(_ tiers: TierDisplay) throws {
            let results = SimulationResult.compare(Scenarios.example, strategies: Strategy.allCases)
            let svg = try SVG(DAGChart(Scenarios.example, results: results, tiers: tiers).svg())
            #expect(svg.duplicateIDs.isEmpty)
            for task in Scenarios.example.tasks {
                let node = try svg.element(withID: task.id)
                #expect(SVG.classes(node).contains("node"))
                #expect(SVG.text(node).contains(task.id))
            }
            // Counting rule (see DAGChart): one edge per dependency, class "dependency"; a broken one
            // is the same arrow with class "violation" too, never a second arrow beside it.
            let dependencies = svg.groups(withClass: "edge").filter { SVG.classes($0).contains("dependency") }
            #expect(dependencies.count == Self.dependencyCount)
            let violations = svg.groups(withClass: "violation")
            #expect(violations.count == results[1].schedule.violations().count)
            #expect(violations.allSatisfy { SVG.classes($0).contains("dependency") })
            #expect(svg.groups(withClass: "edge").count == dependencies.count)
        }

        /// The highlighted path ends at the first frame by default; `.launch` draws the whole launch's.
        @Test func theHighlightedPathIsThePathToTheFirstFrame() throws {
            let scenario = try ScenarioLoader.load(path: "scenarios/article.json")
            let result = SimulationResult(scenario, strategy: .dag)
            let chart = DAGChart(result)
            let path = chart.highlightedPath.tasks.map { scenario.tasks[$0].id }
            #expect(path == ["crash-reporter", "launch-cache", "launch-page"])
            #expect(scenario.tasks[chart.highlightedPath.tasks.last!].firstFrame)
            let svg = try SVG(chart.svg())
            let critical = svg.groups(withClass: "task").filter { SVG.classes($0).contains("critical") }
            #expect(Set(critical.compactMap { SVG.attribute($0, "id") }) == Set(path))
            #expect(SVG.text(try svg.element(withID: "lf-graph")).contains("critical path to the first frame"))
            var whole = chart
            whole.path = .launch
            #expect(whole.highlightedPath == result.criticalPath)
            // Without a firstFrame task, the whole launch's path.
            #expect(
                CriticalPath.toFirstFrame(of: try Scenario(name: "x", tasks: [LaunchTask(id: "a", cost: 1)])) == nil)
        }

        /// The legend wraps to the graph's estimated width: no row of it is wider than the graph.
        @Test func theLegendIsNoWiderThanTheGraph() throws {
            for name in ["article", "idle-work", "permission-alerts"] {
                let scenario = try ScenarioLoader.load(path: "scenarios/\(name).json")
                let results = SimulationResult.compare(scenario, strategies: Strategy.allCases)
                let svg = try SVG(DAGChart(scenario, results: results).svg())
                // Every x of the nodes' and clusters' outlines ("x,y" pairs of polygons and paths).
                var xs: [Double] = []
                for group in svg.groups(withClass: "node") + svg.groups(withClass: "cluster") {
                    for shape in SVG.descendants(of: group) {
                        let geometry = SVG.attribute(shape, "points") ?? SVG.attribute(shape, "d") ?? ""
                        for pair in geometry.split(whereSeparator: { " MCLZ".contains($0) }) {
                            if let x = pair.split(separator: ",").first.flatMap({ Double($0) }) { xs.append(x) }
                        }
                    }
                }
                let nodes = [(minX: xs.min()!, maxX: xs.max()!)]
                let graphWidth = xs.max()! - xs.min()!
                // The graph label (title, summary, legend) is the graph group's own text.
                let graph = try svg.element(withID: "lf-graph")
                let texts = (graph.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == "text" }
                let left = nodes.map(\.minX).min()!
                for text in texts {
                    let x = SVG.attribute(text, "x").flatMap(Double.init) ?? 0
                    let size = SVG.attribute(text, "font-size").flatMap(Double.init) ?? 11
                    let width = ChartStyle.estimatedWidth(text.stringValue ?? "", size: size) * 0.9
                    let end = SVG.attribute(text, "text-anchor") == "middle" ? x + width / 2 : x + width
                    #expect(end <= left + graphWidth + 40, "\(name): '\(text.stringValue ?? "")' runs past the graph")
                }
            }
        }

        @Test func criticalPathNodesAndEdgesCarryTheClass() throws {
            let result = SimulationResult(Scenarios.example, strategy: .dag)
            let chart = DAGChart(result)
            let path = chart.highlightedPath.tasks
            try #require(path.count >= 3)
            let svg = try SVG(chart.svg())
            let tasks = Scenarios.example.tasks
            for (i, task) in tasks.enumerated() {
                #expect(
                    SVG.classes(try svg.element(withID: task.id)).contains("critical") == path.contains(i), "\(task.id)"
                )
            }
            var criticalEdges = Set<String>()
            for (a, b) in zip(path, path.dropFirst()) {
                let edge = try svg.element(withID: "lf-dep-\(a)-\(b)")
                #expect(SVG.classes(edge).contains("critical"))
                criticalEdges.insert("lf-dep-\(a)-\(b)")
            }
            #expect(
                svg.groups(withClass: "edge").filter { SVG.classes($0).contains("critical") }.count
                    == criticalEdges.count)
        }

        @Test func tooltipsGiveCostTierAndTimesUnderTheStrategy() throws {
            let result = SimulationResult(Scenarios.example, strategy: .priority)
            let svg = try SVG(DAGChart(result).svg())
            let i = 8  // root-vc
            let run = result.schedule.tasks[i]
            let tooltip = try #require(SVG.tooltip(try svg.element(withID: "root-vc")))
            #expect(tooltip.contains("cost 24 ms"))
            #expect(tooltip.contains("tier 0 (priority 0)"))
            #expect(
                tooltip.contains("priority: main, start \(formatMillis(run.start)) ms, end \(formatMillis(run.end)) ms")
            )
        }

        @Test func mainThreadAndFirstFrameTasksLookDifferent() throws {
            let svg = try SVG(DAGChart(Scenarios.example, tiers: .none).svg())
            func polygons(_ id: String) throws -> Int {
                SVG.descendants(of: try svg.element(withID: id)).filter { $0.localName == "polygon" }.count
            }
            #expect(try polygons("window") == 2)  // double outline: main thread only
            #expect(try polygons("logging") == 0)  // rounded: drawn as a path
            #expect(SVG.text(try svg.element(withID: "root-vc")).hasPrefix("★ root-vc"))
            #expect(SVG.classes(try svg.element(withID: "root-vc")).contains("first-frame"))
        }

        @Test func clustersHoldTheirTiers() throws {
            let svg = try SVG(DAGChart(Scenarios.example, tiers: .clusters).svg())
            for tier in 0..<3 {
                let cluster = try svg.element(withID: "lf-tier-\(tier)")
                #expect(SVG.text(cluster) == "tier \(tier) · priority \(tier)")
            }
            let none = try SVG(DAGChart(Scenarios.example, tiers: .none).svg())
            #expect(none.elements(withID: "lf-tier-0").isEmpty)
            let bands = try SVG(DAGChart(Scenarios.example, tiers: .bands).svg())
            _ = try bands.element(withID: "lf-band-2")
        }

        @Test func violationsAreDrawnOnlyForPriority() throws {
            for strategy in Strategy.allCases {
                let result = SimulationResult(Scenarios.example, strategy: strategy)
                let svg = try SVG(DAGChart(result).svg())
                let violations = result.schedule.violations()
                #expect(svg.groups(withClass: "violation").count == violations.count)
                for v in violations {
                    let edge = try svg.element(withID: "lf-dep-\(v.dependency)-\(v.task)")
                    #expect(SVG.classes(edge).contains("violation"))
                    #expect(SVG.tooltip(edge)?.contains("dependency violated under priority") == true)
                }
                if strategy == .priority { #expect(!violations.isEmpty) }
            }
        }

        @Test(arguments: TierDisplay.allCases)
        func awkwardIDsSurviveExactly(_ tiers: TierDisplay) throws {
            let results = SimulationResult.compare(Scenarios.awkward, strategies: Strategy.allCases)
            let svg = try SVG(DAGChart(Scenarios.awkward, results: results, tiers: tiers).svg())
            #expect(svg.duplicateIDs.isEmpty, "\(svg.duplicateIDs)")
            for task in Scenarios.awkward.tasks {
                let node = try svg.element(withID: task.id)
                // The hover text (<title>) starts with the id: the tooltip, or the id alone.
                let title = try #require(SVG.descendants(of: node).first { $0.localName == "title" })
                #expect(title.stringValue == task.id || title.stringValue?.hasPrefix(task.id + "\n") == true)
                // The label's first line is the id (★ marks the first-frame task); a line feed splits it.
                let label = SVG.text(node).replacingOccurrences(of: "★ ", with: "")
                #expect(
                    label.hasPrefix(task.id.replacingOccurrences(of: "\n", with: "|")), "\(task.id.debugDescription)")
                if !Scenarios.awkwardIDs.contains("a_" + task.id) && !task.id.contains("\t") {
                    #expect(SVG.tooltip(node)?.hasPrefix(task.id + "\n") == true, "\(task.id.debugDescription)")
                }
            }
            #expect(SVG.text(try svg.element(withID: "lf2-graph")).contains(Scenarios.awkward.name + " — task graph"))
            let dependencies = svg.groups(withClass: "dependency").filter { SVG.classes($0).contains("edge") }
            #expect(dependencies.count == Scenarios.awkward.tasks.reduce(0) { $0 + $1.dependsOn.count })
        }

        @Test func descriptionIsPlainSwift() {
            let graph = DAGChart(Scenarios.example).graph
            #expect(graph.layout == .dot)
            #expect(graph.problems().isEmpty)
            let taskNodes = graph.nodes.filter { $0.attributes["class"]?.text.hasPrefix("task ") == true }
            #expect(taskNodes.count == Scenarios.example.tasks.count)
            // One invisible anchor per tier cluster, all on the first rank (ClusterStacking).
            #expect(graph.nodes.count == Scenarios.example.tasks.count + 3)
            #expect(graph.sameRank == [["lf-tier-anchor-0", "lf-tier-anchor-1", "lf-tier-anchor-2"]])
            #expect(graph.edges.count == Self.dependencyCount)
            #expect(graph.clusters.count == 3)
            #expect(graph.nodes[0].attributes["id"]?.text == "crash-reporter")
            #expect(graph.dotSource.contains("\"logging\" -> \"config\""))
        }
    }
}
