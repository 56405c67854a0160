import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// The v2 marks: latency, delay, queue waits, inputs, idle tasks, anchors
    /// and the anchor closure, queues and group clusters — read back from the SVG.
    @Suite struct RunLoopMarksPicturesTests {
        /// MODEL.md §3.6's `way.json` plus an idle task, an anchor, a first-frame task, a tap and groups.
        static let scenario: Scenario = {
            let ms = 1000
            return try! Scenario(
                name: "V2 marks", device: Device(cores: 3, refreshRate: 1000),
                tasks: [
                    LaunchTask(id: "config", cost: 2 * ms, latency: 10 * ms, group: "net"),  // 0
                    LaunchTask(id: "alert-a", cost: ms, mainThreadOnly: true, latency: 5 * ms, queue: "alerts"),  // 1
                    LaunchTask(id: "alert-b", cost: ms, mainThreadOnly: true, latency: 5 * ms, queue: "alerts"),  // 2
                    LaunchTask(id: "sdk", cost: 3 * ms, delay: 4 * ms),  // 3
                    LaunchTask(id: "apply", cost: ms, dependsOn: [0], group: "net"),  // 4
                    LaunchTask(id: "home", cost: 2 * ms, mainThreadOnly: true, firstFrame: true, group: "ui"),  // 5
                    LaunchTask(id: "warm", cost: 3 * ms, mainThreadOnly: true, idle: true, group: "ui"),  // 6
                    LaunchTask(id: "crash", cost: ms, anchor: true, group: "core"),  // 7
                ],
                inputs: [UserInput(name: "tap", at: 3 * ms, cost: ms)])
        }()

        /// x of `t` µs as the drawn axis says.
        func x(_ t: Micros, _ scale: (origin: Double, perMs: Double)) -> Double {
            scale.origin + Double(t) / 1000 * scale.perMs
        }

        func expectSpan(
            _ svg: SVG, _ id: String, from t0: Micros, to t1: Micros, _ scale: (origin: Double, perMs: Double),
            class token: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let element = try svg.element(withID: id, sourceLocation: sourceLocation)
            #expect(SVG.classes(element).contains(token), "\(id)", sourceLocation: sourceLocation)
            let box = try SVG.box(element)
            #expect(abs(box.minX - x(t0, scale)) <= 1, "\(id) starts at \(box.minX)", sourceLocation: sourceLocation)
            #expect(abs(box.maxX - x(t1, scale)) <= 1, "\(id) ends at \(box.maxX)", sourceLocation: sourceLocation)
        }

        @Test func ganttDrawsLatencyDelayQueueWaitInputsIdleAndAnchorsAtTheirTimes() throws {
            let result = SimulationResult(Self.scenario, strategy: .dag)
            // The whole run to scale (by default the alerts' answers would be folded).
            let svg = try SVG(GanttChart(result, axis: .framed(by: [result], from: .micros(0), to: .end)).svg())
            #expect(svg.duplicateIDs.isEmpty)
            let scale = try GanttChartTests().drawnScale(svg)
            let runs = result.schedule.tasks
            // The schedule has each mark at least once.
            #expect(
                runs[0].done > runs[0].end && runs[2].ready > runs[2].released && runs[3].released > runs[3].madeReady)
            for (i, run) in runs.enumerated() {
                if run.done > run.end {
                    try expectSpan(svg, "lf-latency-\(i)", from: run.end, to: run.done, scale, class: "latency")
                    let tip = try #require(SVG.tooltip(try svg.element(withID: "lf-latency-\(i)")))
                    #expect(tip.contains("latency \(formatMillis(run.latency)) ms, done at \(formatMillis(run.done))"))
                    let tick = try SVG.box(try svg.element(withID: "lf-latency-\(i)-end"))
                    #expect(abs((tick.minX + tick.maxX) / 2 - x(run.done, scale)) <= 1)
                } else {
                    #expect(svg.elements(withID: "lf-latency-\(i)").isEmpty)
                }
                if run.released > run.madeReady {
                    try expectSpan(svg, "lf-delay-\(i)", from: run.madeReady, to: run.released, scale, class: "delay")
                    let mark = try SVG.box(try svg.element(withID: "lf-delay-\(i)-start"))
                    #expect(abs((mark.minX + mark.maxX) / 2 - x(run.madeReady, scale)) <= 1)
                }
                if run.ready > run.released {
                    try expectSpan(
                        svg, "lf-queue-wait-\(i)", from: run.released, to: run.ready, scale, class: "queue-wait")
                }
                let bar = SVG.classes(try svg.element(withID: Self.scenario.tasks[i].id))
                #expect(bar.contains("idle") == Self.scenario.tasks[i].idle)
                #expect(bar.contains("anchor") == Self.scenario.tasks[i].anchor)
            }
            let input = result.schedule.inputs[0]
            #expect(input.start > input.at)
            try expectSpan(svg, "lf-input-0", from: input.start, to: input.end, scale, class: "input")
            try expectSpan(svg, "lf-input-0-wait", from: input.at, to: input.start, scale, class: "input")
            let tip = try #require(SVG.tooltip(try svg.element(withID: "lf-input-0")))
            #expect(tip.contains("tap") && tip.contains("arrived at 3 ms") && tip.contains("waited"))
            // The input row is inside the main lane, below its bars.
            let lane = try SVG.box(try svg.element(withID: "lf-lane-main"))
            let handler = try SVG.box(try svg.element(withID: "lf-input-0"))
            let home = try SVG.box(try svg.element(withID: "home"))
            #expect(handler.minY >= home.maxY && handler.maxY <= lane.maxY)
        }

        @Test func legendListsOnlyWhatTheChartContains() throws {
            func legend(_ result: SimulationResult) throws -> String {
                let svg = try SVG(GanttChart(result).svg())
                return svg.elements.filter { (SVG.attribute($0, "id") ?? "").hasPrefix("lf-legend-label-") }
                    .map(SVG.text).joined(separator: "|")
            }
            let v2 = try legend(SimulationResult(Self.scenario, strategy: .dag))
            for label in ["latency", "delay", "waiting for its queue", "input", "idle task", "anchor"] {
                #expect(v2.contains(label), "\(label) in \(v2)")
            }
            let v1 = try legend(SimulationResult(Scenarios.example, strategy: .dag))
            for label in ["latency", "delay", "queue", "input", "idle task", "anchor"] {
                #expect(!v1.contains(label), "\(label) in \(v1)")
            }
        }

        @Test func comparisonHasFourPanelsEachWithItsMarks() throws {
            let results = SimulationResult.compare(Self.scenario, strategies: Strategy.allCases)
            let svg = try SVG(ComparisonChart(results).svg())
            #expect(svg.duplicateIDs.isEmpty)
            #expect(Strategy.allCases.map(\.rawValue) == ["serial", "priority", "dag", "anchored"])
            var lanes: [Double] = []
            for strategy in Strategy.allCases {
                let heading = try svg.element(withID: "lf-\(strategy.rawValue)-heading")
                #expect(SVG.text(heading) == strategy.rawValue)
                lanes.append(try SVG.box(try svg.element(withID: "lf-\(strategy.rawValue)-lane-main")).minY)
                #expect(svg.elements(withID: "lf-\(strategy.rawValue)-latency-0").count == 1)
                #expect(svg.elements(withID: "lf-\(strategy.rawValue)-input-0").count == 1)
            }
            #expect(lanes == lanes.sorted())
        }

        @Test func dagMarksAnchorsClosureQueuesAndIdleTasks() throws {
            let results = SimulationResult.compare(Self.scenario, strategies: Strategy.allCases)
            let svg = try SVG(DAGChart(Self.scenario, results: results).svg())
            let closure = try #require(AnchorClosure(of: Self.scenario, strategy: .dag))
            for (i, task) in Self.scenario.tasks.enumerated() {
                let node = try svg.element(withID: task.id)
                let classes = SVG.classes(node)
                #expect(classes.contains("anchor") == task.anchor, "\(task.id)")
                #expect(classes.contains("closure") == closure.contains[i], "\(task.id)")
                #expect(classes.contains("idle") == task.idle, "\(task.id)")
                #expect(classes.contains("queue-0") == (task.queue == "alerts"), "\(task.id)")
                if task.queue != nil { #expect(SVG.text(node).contains("queue: alerts")) }
            }
            #expect(closure.contains[7] && closure.count == 1)
        }

        @Test(arguments: [TierDisplay.groups, .clusters, .none])
        func groupClustersAreOnePerGroup(_ display: TierDisplay) throws {
            let svg = try SVG(DAGChart(Self.scenario, tiers: display).svg())
            let clusters = svg.groups(withClass: "cluster")
            let groups = clusters.filter { SVG.classes($0).contains("group") }
            #expect(groups.count == (display == .groups ? 3 : 0))
            if display == .groups {
                #expect(clusters.count == 3)
                #expect(Set(groups.map(SVG.text)) == ["module: net", "module: ui", "module: core"])
            }
        }
    }
}
