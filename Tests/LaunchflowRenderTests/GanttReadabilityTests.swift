import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// Gantt charts readable as still images (issue 11): labels where they
    /// fit, pre-main foldable, commits not in a tier's colours, a legend that
    /// does not wrap.
    @Suite struct GanttReadabilityTests {
        @Test func barsCarryAsMuchOfTheirNameAsFits() {
            #expect(GanttPanel.fitted("launch-cache", in: 200)! == ("launch-cache", 9))
            #expect(GanttPanel.fitted("launch-cache", in: 60)! == ("launch-cache", 7))
            #expect(GanttPanel.fitted("network-configuration", in: 40)! == ("network…", 7))
            #expect(GanttPanel.fitted("network-configuration", in: 20) == nil)
            #expect(GanttPanel.fitted("", in: 200) == nil)
        }

        @Test func mostBarsOfTheBundledArticleAreLabelled() throws {
            let results = SimulationResult.compare(Scenarios.example, strategies: Strategy.allCases)
            let chart = ComparisonChart(results)
            let svg = try SVG(chart.svg())
            var labelled = 0
            for result in results {
                for i in result.schedule.tasks.indices
                where result.schedule.tasks[i].end > result.schedule.tasks[i].start {
                    let bar = try svg.element(withID: chart.barID(strategy: result.schedule.strategy, task: i))
                    if !SVG.text(bar).isEmpty { labelled += 1 }
                }
            }
            let bars = results.count * Scenarios.example.tasks.count
            #expect(Double(labelled) >= 0.7 * Double(bars), "\(labelled) of \(bars) bars labelled")
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
