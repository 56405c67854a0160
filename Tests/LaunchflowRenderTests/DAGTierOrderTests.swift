import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender
@testable import launchflow_bench

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RenderTests {
    /// Issue 18: the tier clusters are drawn top to bottom in tier order (the
    /// layout runs left to right, `rankdir=LR`), as bands that do not overlap,
    /// and every dependency is still an arrow from its task to its dependent.
    @Suite struct DAGTierOrderTests {
        typealias Box = (minX: Double, maxX: Double, minY: Double, maxY: Double)

        /// The bounding box of the first path or polygon inside `element` (SVG units: y grows downward).
        static func box(_ element: XMLElement) throws -> Box {
            let shape = try #require(
                SVG.descendants(of: element).first { $0.localName == "path" || $0.localName == "polygon" })
            let text = try #require(SVG.attribute(shape, "d") ?? SVG.attribute(shape, "points"))
            let values = Self.numbers(text)
            let xs = stride(from: 0, to: values.count - 1, by: 2).map { values[$0] }
            let ys = stride(from: 1, to: values.count, by: 2).map { values[$0] }
            return (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        }

        static func numbers(_ text: String) -> [Double] {
            var values: [Double] = []
            var current = ""
            for c in text {
                if c.isNumber || c == "." || (c == "-" && current.isEmpty) {
                    current.append(c)
                } else {
                    if let v = Double(current) { values.append(v) }
                    current = c == "-" ? "-" : ""
                }
            }
            if let v = Double(current) { values.append(v) }
            return values
        }

        static func inside(_ x: Double, _ y: Double, _ b: Box, tolerance: Double = 6) -> Bool {
            x >= b.minX - tolerance && x <= b.maxX + tolerance && y >= b.minY - tolerance && y <= b.maxY + tolerance
        }

        /// Renders `scenario`'s DAG with tier clusters and checks the order, the
        /// bands and that each drawn dependency starts at its task and ends at its dependent.
        static func checkTierOrder(_ scenario: Scenario, _ label: String) throws {
            let tierCount = Set(scenario.tasks.map(\.priority)).count
            let chart = DAGChart(scenario, results: [SimulationResult(scenario, strategy: .priority)])
            let svg = try SVG(chart.svg())
            #expect(svg.duplicateIDs.isEmpty, "\(label)")
            let ids = ElementIDs(taskIDs: scenario.tasks.map(\.id))
            var byID: [String: XMLElement] = [:]
            for element in svg.elements { if let id = SVG.attribute(element, "id") { byID[id] = element } }
            func element(_ id: String) throws -> XMLElement { try #require(byID[id], "\(label): no element \(id)") }
            var boxes: [Box] = []
            for tier in 0..<tierCount { boxes.append(try box(try element(ids("tier-\(tier)")))) }
            for tier in boxes.indices.dropLast() {
                let (upper, lower) = (boxes[tier], boxes[tier + 1])
                #expect(
                    upper.maxY <= lower.minY,
                    "\(label): tier \(tier) (y \(upper.minY)…\(upper.maxY)) is not above tier \(tier + 1) (y \(lower.minY)…\(lower.maxY))"
                )
            }
            var nodeBoxes: [String: Box] = [:]
            let tiers = Tiers(scenario)
            for (i, task) in scenario.tasks.enumerated() {
                let node = try box(try element(task.id))
                nodeBoxes[task.id] = node
                let tier = tiers.ofTask[i]
                let cluster = boxes[tier]
                #expect(
                    node.minX >= cluster.minX && node.maxX <= cluster.maxX && node.minY >= cluster.minY
                        && node.maxY <= cluster.maxY, "\(label): \(task.id) is outside tier \(tier)'s box")
            }
            let edges = svg.groups(withClass: "edge").filter { SVG.classes($0).contains("dependency") }
            let drawn = chart.graph.edges.filter { $0.attributes["class"]?.text.hasPrefix("dependency") == true }
            #expect(edges.count == drawn.count, "\(label)")
            for edge in edges {
                let id = try #require(SVG.attribute(edge, "id"))
                let parts = id.split(separator: "-")
                let (d, i) = (Int(parts[parts.count - 2])!, Int(parts[parts.count - 1])!)
                let path = try #require(SVG.descendants(of: edge).first { $0.localName == "path" })
                let points = numbers(try #require(SVG.attribute(path, "d")))
                let tail = try #require(nodeBoxes[scenario.tasks[d].id])
                #expect(inside(points[0], points[1], tail), "\(label): \(id) does not start at its task")
                let arrow = try #require(SVG.descendants(of: edge).first { $0.localName == "polygon" })
                let tip = numbers(try #require(SVG.attribute(arrow, "points")))
                let head = try #require(nodeBoxes[scenario.tasks[i].id])
                #expect(
                    stride(from: 0, to: tip.count - 1, by: 2).contains { inside(tip[$0], tip[$0 + 1], head) },
                    "\(label): \(id) does not end at its dependent")
            }
        }

        @Test(arguments: [
            "article", "large-app", "large-app-network", "modules", "idle-work", "permission-alerts", "tiers-only",
        ])
        func bundledScenariosDrawTheirTiersInOrder(_ name: String) throws {
            let scenario = try ScenarioLoader.load(path: "scenarios/\(name).json")
            #expect(Set(scenario.tasks.map(\.priority)).count > 1)
            try Self.checkTierOrder(scenario, name)
        }

        @Test(
            arguments: [(30, 3, 1), (60, 4, 2), (90, 5, 3), (150, 4, 4), (150, 6, 5), (200, 3, 6)]
                as [(Int, Int, UInt64)])
        func randomScenariosDrawTheirTiersInOrder(_ tasks: Int, _ tiers: Int, _ seed: UInt64) throws {
            var generator = RandomScenario(taskCount: tasks)
            generator.tiers = tiers
            generator.dependencyWindow = 40
            try Self.checkTierOrder(
                try generator.make(seed: seed), "random \(tasks) tasks, \(tiers) tiers, seed \(seed)")
        }

        /// The 500-task scenarios of the render benchmark (`launchflow-bench --render`).
        @Test func benchmarkScenariosDrawTheirTiersInOrder() throws {
            try Self.checkTierOrder(RenderBenchmark.dagInput(tasks: 500).schedule.scenario, "bench DAG, 500 tasks")
            try Self.checkTierOrder(
                RenderBenchmark.hubDAGInput(tasks: 500, dependencies: 1000).schedule.scenario, "bench hubs, 500 tasks")
        }

        @Test func theSameInputGivesTheSameBytes() throws {
            let scenario = try ScenarioLoader.load(path: "scenarios/large-app.json")
            let chart = DAGChart(scenario, results: SimulationResult.compare(scenario, strategies: Strategy.allCases))
            #expect(try chart.svg() == chart.svg())
        }
    }
}
