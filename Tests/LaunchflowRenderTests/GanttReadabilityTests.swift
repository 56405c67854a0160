import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// Gantt charts readable as still images (issue 11): labels where they
    /// fit, pre-main foldable, commits not in a tier's colours, a legend that
    /// does not wrap.
    @Suite struct GanttReadabilityTests {
        @Test func aLabelGoesInsideWholeOrNotAtAll() {
            #expect(LabelPlanner.insideSize("launch-cache", width: 200) == 9)
            #expect(LabelPlanner.insideSize("launch-cache", width: 60) == 7)
            #expect(LabelPlanner.insideSize("network-configuration", width: 40) == nil)
            #expect(LabelPlanner.insideSize("", width: 200) == nil)
        }

        /// Every bar of every panel can be told apart: its label inside it,
        /// beside it, or its number with a key entry that names it.
        @Test(arguments: ["article", "permission-alerts", "idle-work", "large-app"])
        func everyBarIsIdentifiable(_ name: String) throws {
            let scenario = try ScenarioLoader.load(path: "scenarios/\(name).json")
            let results = SimulationResult.compare(scenario, strategies: Strategy.allCases)
            let chart = ComparisonChart(results)
            let svg = try SVG(chart.svg())
            for result in results {
                let strategy = result.schedule.strategy.rawValue
                for (i, task) in scenario.tasks.enumerated() {
                    let bar = try svg.element(withID: chart.barID(strategy: result.schedule.strategy, task: i))
                    if SVG.classes(bar).contains("folded") { continue }  // listed by name in the fold
                    let inside = SVG.text(bar).hasSuffix(task.id)
                    let beside =
                        svg.elements(withID: "lf-\(strategy)-label-\(i)").map(SVG.text) == [
                            GanttPanel.marks(task) + task.id
                        ]
                    var keyed = false
                    if let number = svg.elements(withID: "lf-\(strategy)-key-number-\(i)").first.map(SVG.text) {
                        let entry = "\(number) " + GanttPanel.marks(task) + task.id
                        keyed = (0..<20).contains { r in
                            svg.elements(withID: "lf-\(strategy)-key-row-\(r)").map(SVG.text).contains {
                                // Graphviz writes a run of spaces as a space and no-break spaces.
                                $0.replacingOccurrences(of: "\u{00A0}", with: " ").components(separatedBy: "  ·  ")
                                    .contains(entry)
                            }
                        }
                    }
                    #expect(inside || beside || keyed, "\(name) \(strategy): \(task.id) cannot be told apart")
                }
            }
        }

        @Test func foldingPreMainStartsTheAxisAtTheRunLoop() throws {
            let result = SimulationResult(Scenarios.example, strategy: .dag)
            let axis = TimeAxis.shared(by: [result], foldingPreMain: true)
            #expect(axis.start > 0 && axis.start <= result.schedule.t0)
            #expect(axis.x(axis.start) == axis.originX)
            #expect(axis.ticks.first == axis.start && axis.ticks.allSatisfy { $0 % axis.tickStep == 0 })
            let svg = try SVG(GanttChart(result, axis: axis).svg())
            #expect(SVG.text(try svg.element(withID: "lf-axis-title")).contains("(pre-main) folded"))
            let scale = try GanttChartTests().drawnScale(svg)
            #expect(abs(scale.perMs - axis.pointsPerMillisecond) < 0.01)
            for (i, run) in result.schedule.tasks.enumerated() {
                let bar = try SVG.box(try svg.element(withID: Scenarios.example.tasks[i].id))
                #expect(abs(bar.minX - (scale.origin + Double(run.start) / 1000 * scale.perMs)) <= 1)
            }
        }

        @Test func commitsAreInNoTiersColours() {
            let tierColours = (0..<8).flatMap { [ChartStyle.tierColors($0).fill, ChartStyle.tierColors($0).stroke] }
            #expect(!tierColours.contains(ChartStyle.commit) && !tierColours.contains(ChartStyle.commitTimeFill))
        }

        @Test func theLegendHasATierRowAndAMarkRow() throws {
            let svg = try SVG(
                ComparisonChart(SimulationResult.compare(Scenarios.example, strategies: [.priority])).svg())
            var tops: [Double] = []
            var k = 0
            while let swatch = svg.elements(withID: "lf-legend-\(k)").first {
                tops.append(try SVG.box(swatch).minY)
                k += 1
            }
            tops.sort()
            let rows = 1 + zip(tops, tops.dropFirst()).filter { $1 - $0 > 8 }.count
            #expect(k > 6 && rows == 2, "\(tops)")
        }
    }
}
