import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender
@testable import launchflow_bench

extension RenderTests {
    /// The DAG at size: implied dependencies left out above a threshold and counted.
    @Suite struct ReductionTests {
        func task(_ id: String, _ deps: [Int] = []) -> LaunchTask { LaunchTask(id: id, cost: 1000, dependsOn: deps) }

        @Test func anEdgeALongerPathImpliesIsFound() throws {
            // a; b needs a; c needs a and b; d needs c and a (implied through b and c).
            let tasks = [task("a"), task("b", [0]), task("c", [0, 1]), task("d", [2, 0])]
            let implied = try #require(TransitiveReduction.implied(tasks))
            #expect(implied == [[], [false], [true, false], [false, true]])
        }

        @Test func theReducedPictureDrawsEveryOtherEdgeAndCountsTheRest() throws {
            let result = RenderBenchmark.hubDAGInput(tasks: 120, dependencies: 300)
            let scenario = result.schedule.scenario
            let implied = try #require(TransitiveReduction.implied(scenario.tasks))
            let impliedCount = implied.reduce(0) { $0 + $1.filter { $0 }.count }
            #expect(impliedCount > 0)
            let dependencies = scenario.tasks.reduce(0) { $0 + $1.dependsOn.count }
            #expect(dependencies > DAGChart.reductionThreshold)
            let chart = DAGChart(scenario, results: [result])
            #expect(chart.drawsReduction)
            let svg = try SVG(chart.svg())
            let drawn = svg.groups(withClass: "edge").filter { SVG.classes($0).contains("dependency") }.count
            let critical = result.criticalPath.tasks.count - 1
            #expect(drawn >= dependencies - impliedCount && drawn <= dependencies - impliedCount + critical)
            #expect(SVG.text(try svg.element(withID: "lf-graph")).contains("implied by longer paths not drawn"))
            let all = try SVG(DAGChart(scenario, results: [result], edges: .all).svg())
            #expect(
                all.groups(withClass: "edge").filter { SVG.classes($0).contains("dependency") }.count == dependencies)
        }
    }
}
