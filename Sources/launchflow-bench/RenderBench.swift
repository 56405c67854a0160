// The rendering benchmark (issue 3): `launchflow-bench --render`.
import Foundation
import LaunchflowCore
import LaunchflowRender

/// Prints how long Graphviz takes to lay out and render the pictures
/// (best of a few runs; the input is simulated once, untimed).
func runRenderBenchmark() {
    print("launchflow render benchmark — release build, Graphviz \(Graphviz.version), through libgvc in-process\n")
    print("picture                                  best time   size")
    func measure(_ label: String, runs: Int, _ body: () throws -> Int) {
        var bestTime = Double.infinity
        var size = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                size = try body()
            } catch {
                print("\(label): \(error)")
                return
            }
            bestTime = min(bestTime, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let name = label.padding(toLength: 40, withPad: " ", startingAt: 0)
        print(
            "\(name) \(String(format: "%7.3f s", bestTime))  \(String(format: "%6.1f MiB", Double(size) / 1_048_576))")
    }
    // Before issue 18's tier order: dot alone, clusters wherever it put them (no anchors, no restacking).
    func unordered(_ chart: DAGChart) -> GraphDescription {
        var graph = chart.graph
        let anchors = Set(graph.sameRank.joined())
        graph.sameRank = []
        graph.nodes.removeAll { anchors.contains($0.name) }
        for k in graph.clusters.indices { graph.clusters[k].nodes.removeAll { anchors.contains($0) } }
        return graph
    }
    let dag = RenderBenchmark.dagInput(tasks: 500)
    measure("task DAG, 500 tasks (dot, tier clusters)", runs: 3) { try RenderBenchmark.renderDAG(dag) }
    measure("  clusters unordered (dot alone)", runs: 3) { try Graphviz.svg(unordered(DAGChart(dag))).count }
    let hubs = RenderBenchmark.hubDAGInput(tasks: 500, dependencies: 1000)
    measure("DAG, 500 tasks, 1,000 deps, hubs", runs: 3) { try RenderBenchmark.renderDAG(hubs) }
    measure("  clusters unordered (dot alone)", runs: 3) { try Graphviz.svg(unordered(DAGChart(hubs))).count }
    measure("  the same, --tiers none", runs: 3) { try DAGChart(hubs, tiers: .none).svg().count }
    // Where the time goes: the same picture without the reduction, without the bounds, without both.
    func unbounded(_ chart: DAGChart) -> GraphDescription {
        var graph = chart.graph
        for (name, _) in DAGChart.boundedLayout { graph.graphAttributes[name] = nil }
        return graph
    }
    measure("  every edge drawn (--edges all)", runs: 3) { try DAGChart(hubs, edges: .all).svg().count }
    measure("  dot's defaults (no bounds)", runs: 3) { try Graphviz.svg(unbounded(DAGChart(hubs))).count }
    measure("  every edge and dot's defaults", runs: 3) {
        try Graphviz.svg(unbounded(DAGChart(hubs, edges: .all))).count
    }
    let gantt = RenderBenchmark.ganttInput(bars: 10_000)
    measure("Gantt chart, 10,000 bars (nop, pinned)", runs: 3) { try RenderBenchmark.renderGantt(gantt) }
    // The whole report: 4 strategies simulated, what-if, lint, every picture, the HTML.
    let report = RenderBenchmark.reportInput(tasks: 300)
    measure("report page, 300 tasks, 4 strategies", runs: 3) { try RenderBenchmark.renderReport(report) }
    // Issue 18's targets: a report of 500 tasks in ≤ 1 s, and its pictures (render: the DAG, a Gantt
    // chart per strategy and the comparison) in ≤ 1 s.
    let report500 = RenderBenchmark.reportInput(tasks: 500)
    measure("report page, 500 tasks, 4 strategies", runs: 3) { try RenderBenchmark.renderReport(report500) }
    // report --baseline and --advise (not the default path: the ≤ 1 s target is the line above).
    let older500 = RenderBenchmark.reportBaseline(of: report500)
    measure("  the same with --baseline (50 changes)", runs: 3) {
        try RenderBenchmark.renderReport(report500, baseline: older500)
    }
    measure("  the same with --advise", runs: 1) { try RenderBenchmark.renderReportWithAdvice(report500) }
    let results500 = SimulationResult.compare(report500, strategies: Strategy.allCases)
    measure("pictures (render), 500 tasks", runs: 3) {
        try Pictures.files(stem: "bench", results: results500).reduce(0) { $0 + $1.bytes.count }
    }
    let uncertain = RenderBenchmark.reportInput(tasks: 300, jitter: 0.1)
    measure("  the same with a 1,000-run sweep", runs: 3) { try RenderBenchmark.renderReport(uncertain) }
}
