import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender
@testable import launchflow_bench

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RenderTests {
    /// The C wrapper: errors, repeated and parallel use, memory.
    @Suite struct GraphvizTests {
        func tinyGraph(layout: GraphDescription.Layout = .dot) -> GraphDescription {
            GraphDescription(
                name: "tiny", layout: layout, graphAttributes: ["id": "lf-graph"],
                nodes: [.init(name: "a", ["id": "a", "label": "a"]), .init(name: "b", ["id": "b", "label": "b"])],
                edges: [.init(from: "a", to: "b", ["id": "lf-a-b"])])
        }

        @Test func unknownLayoutEngineGivesGraphvizsMessageAndThePackage() throws {
            let error = try #require(throws: RenderError.self) { try Graphviz.svg(tinyGraph(layout: "no-such-engine")) }
            #expect(error.stage == .layout)
            #expect(
                error.messages.contains { $0.contains("Layout type: \"no-such-engine\" not recognized") },
                "\(error.messages)")
            #expect(error.looksLikeBrokenInstallation)
            #expect(error.description.contains("apt-get install libgraphviz-dev"))
            // The context survives a failure.
            #expect(try SVG(Graphviz.svg(tinyGraph())).elements(withID: "a").count == 1)
        }

        @Test func nodeWithoutPositionUnderNopIsAnError() throws {
            var graph = tinyGraph(layout: .nop)
            graph.nodes[0].attributes["pos"] = "10,10"
            graph.edges = []
            let error = try #require(throws: RenderError.self) { try Graphviz.svg(graph) }
            #expect(error.messages.contains { $0.contains("has no position") }, "\(error.messages)")
            #expect(!error.looksLikeBrokenInstallation && !error.description.contains("apt-get"))
        }

        /// The post-layout round trip: what `adjust` moves is drawn there; an
        /// unchanged geometry gives the engine's own picture, byte for byte.
        @Test func adjustingTheLayoutMovesWhatItSays() throws {
            let plain = try Graphviz.svg(tinyGraph())
            #expect(try Graphviz.svg(tinyGraph(), adjustingLayout: { _ in }) == plain)
            var seen: LayoutGeometry? = nil
            let moved = try SVG(
                Graphviz.svg(
                    tinyGraph(),
                    adjustingLayout: { geometry in
                        seen = geometry
                        geometry.nodes[1].center.y -= 100
                        geometry.bounds.minY -= 100
                        let a = geometry.nodes[0].center
                        let b = geometry.nodes[1].center
                        geometry.edges[0] = [
                            LayoutGeometry.Spline(
                                end: b,
                                points: [
                                    a, a, LayoutGeometry.Point(b.x, b.y + 10), LayoutGeometry.Point(b.x, b.y + 10),
                                ])
                        ]
                    }))
            let geometry = try #require(seen)
            #expect(geometry.nodes.count == 2 && geometry.edges.count == 1 && geometry.edges[0].count == 1)
            #expect(geometry.nodes[0].width > 0 && geometry.edges[0][0].end != nil)
            let before = try SVG(plain)
            let ya = try labelY(moved.element(withID: "b"))
            let yb = try labelY(before.element(withID: "b"))
            #expect(abs((ya - yb) - 100) < 0.5, "b moved by \(ya - yb)")
            #expect(moved.elements(withID: "lf-a-b").count == 1)
        }

        func labelY(_ node: XMLElement) throws -> Double {
            let text = try #require(SVG.descendants(of: node).first { $0.localName == "text" })
            return try #require(SVG.attribute(text, "y").flatMap(Double.init))
        }

        @Test func positionsParseAndPrintInGraphvizsSyntax() {
            let splines = LayoutGeometry.splines("s,1,2 e,3.5,-4 5,6 7,8 9,10 11,12;13,14 15,16 17,18 19,20")
            #expect(splines.count == 2)
            #expect(splines[0].start == LayoutGeometry.Point(1, 2) && splines[0].end == LayoutGeometry.Point(3.5, -4))
            #expect(splines[0].points.count == 4 && splines[1].points.count == 4 && splines[1].end == nil)
            #expect(LayoutGeometry.text(splines) == "s,1,2 e,3.5,-4 5,6 7,8 9,10 11,12;13,14 15,16 17,18 19,20")
            #expect(LayoutGeometry.point("12.5,7!") == LayoutGeometry.Point(12.5, 7))
            #expect(LayoutGeometry.box("0,0,10.25,20").map(LayoutGeometry.text) == "0,0,10.25,20")
            #expect(LayoutGeometry.splines("1,2 3,4").isEmpty)  // not 3k + 1 points
        }

        @Test func inconsistentDescriptionIsRejectedBeforeGraphviz() throws {
            var graph = tinyGraph()
            graph.nodes.append(.init(name: "a"))
            graph.edges.append(.init(from: "a", to: "nowhere"))
            graph.clusters = [.init(name: "c", nodes: ["b"]), .init(name: "d", nodes: ["b"])]
            #expect(graph.problems().count == 3)
            let error = try #require(throws: RenderError.self) { try Graphviz.svg(graph) }
            #expect(error.stage == .description)
            #expect(!error.description.contains("apt-get"))
        }

        @Test func rootGraphLabelIsNotCopiedIntoClusters() throws {
            var graph = tinyGraph()
            graph.graphAttributes["label"] = "ROOT"
            graph.clusters = [.init(name: "c", ["id": "lf-c"], nodes: ["a"])]
            let svg = try SVG(Graphviz.svg(graph))
            #expect(!SVG.text(try svg.element(withID: "lf-c")).contains("ROOT"))
            #expect(SVG.text(try svg.element(withID: "lf-graph")).contains("ROOT"))
        }

        /// Memory growth (KiB of VmRSS) over `count` calls of `body`, after a warm-up
        /// (the context, fonts, plugins and caches are made once).
        func growth(over count: Int, _ body: () throws -> Void) throws -> Int {
            for _ in 0..<6 { try body() }
            let before = try residentKiB()
            for _ in 0..<count { try body() }
            return try residentKiB() - before
        }

        @Test func manyRendersInARowKeepMemoryFlat() throws {
            let results = SimulationResult.compare(
                try RenderBenchmark.scenario(tasks: 150, cores: 4, seed: 7), strategies: Strategy.allCases)
            var k = 0
            let grown = try growth(over: 50) {
                switch k % 4 {
                case 0: _ = try DAGChart(results[0].schedule.scenario, results: results, tiers: .none).svg()
                case 1: _ = try DAGChart(results[1], tiers: .bands).svg()
                case 2: _ = try GanttChart(results[k % 3]).svg()
                default: _ = try ComparisonChart(results).svg()
                }
                k += 1
            }
            // Each of these SVGs is 100–400 KB; a leaked layout or render buffer would add ≥ 10 MiB.
            #expect(grown < 6 * 1024, "VmRSS grew by \(grown) KiB over 50 renders")
        }

        /// Graphviz 2.42's `dot` leaks the virtual nodes it makes for clusters
        /// (ellson/MOTHBALLED-graphviz#65, fixed upstream later): about 1 KB per task
        /// per render of a DAG with tier clusters. Recorded as a known issue so
        /// that a fixed Graphviz makes it pass.
        @Test func clusteredDAGLeakIsGraphvizsAndBounded() throws {
            let result = RenderBenchmark.dagInput(tasks: 120)
            let grown = try growth(over: 30) { _ = try DAGChart(result, tiers: .clusters).svg() }
            #expect(grown < 30 * 120 * 3, "more than the known upstream leak: \(grown) KiB")
            withKnownIssue("Graphviz 2.42 dot leaks cluster virtual nodes", isIntermittent: true) {
                #expect(grown < 1024, "VmRSS grew by \(grown) KiB over 30 clustered renders")
            }
        }

        @Test func parallelRendersAreSerialisedAndIdentical() async throws {
            let result = SimulationResult(Scenarios.example, strategy: .priority)
            let expectedGantt = try GanttChart(result).svg()
            let expectedDAG = try DAGChart(result).svg()
            let matches = try await withThrowingTaskGroup(of: Bool.self) { group in
                for k in 0..<16 {
                    group.addTask {
                        for _ in 0..<4 {
                            let same =
                                k % 2 == 0
                                ? try GanttChart(result).svg() == expectedGantt
                                : try DAGChart(result).svg() == expectedDAG
                            if !same { return false }
                        }
                        return true
                    }
                }
                return try await group.reduce(true) { $0 && $1 }
            }
            #expect(matches)
        }

        @Test func versionIsReported() {
            #expect(Graphviz.version.first?.isNumber == true)
        }
    }

    /// Plain-Swift pieces: escaping, ids, numbers, the description.
    @Suite struct DescriptionTests {
        @Test func idsAvoidTaskPrefixes() {
            #expect(ElementIDs(taskIDs: ["a", "b"]).prefix == "lf-")
            #expect(ElementIDs(taskIDs: ["lf-x"]).prefix == "lf1-")
            #expect(ElementIDs(taskIDs: ["a_lf-x", "lf1-y"]).prefix == "lf2-")
            let ids = ElementIDs(taskIDs: ["x", "a_x"])
            #expect(!ids.tooltipAllowed(forTask: "x"))
            #expect(ids.tooltipAllowed(forTask: "a_x"))
        }

        @Test func escapingForEachAttribute() {
            #expect(GraphvizText.id("a\\N&b\n") == "a\\\\N&amp;b&#10;")
            #expect(GraphvizText.label("a\\n&amp;") == "a\\\\n&amp;amp;")
            #expect(GraphvizText.tooltip("\\") == "\\\\\\\\")
            #expect(GraphvizText.html("<&>\\") == "&lt;&amp;&gt;\\\\")
            #expect(GraphvizText.xmlSafe("a\u{1}b") == "a\u{FFFD}b")
            #expect(GraphvizText.label(lines: ["a", "b"]) == "a\\nb")
        }

        @Test func numbersAreShortAndExact() {
            #expect(Number.points(12.0) == "12")
            #expect(Number.points(-0.0001) == "0")
            #expect(Number.points(1.23456) == "1.235")
            #expect(Number.inches(fromPoints: 72) == "1")
            #expect(Number.inches(fromPoints: 1) == "0.013889")
            #expect(Number.fixed(-2.5, 1) == "-2.5")
        }

        @Test func attributesKeepOrderAndReplaceInPlace() {
            var attributes: GraphDescription.Attributes = ["b": "1", "a": "2"]
            attributes["b"] = "3"
            attributes["c"] = .html("<B>x</B>")
            #expect(attributes.map(\.name) == ["b", "a", "c"])
            #expect(attributes["b"]?.text == "3")
            attributes["a"] = nil
            #expect(attributes.map(\.name) == ["b", "c"])
        }
    }
}
