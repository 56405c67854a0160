import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// The Gantt charts, checked in the SVG Graphviz wrote: geometry is read
    /// back from the polygons and the axis ticks, not from our own numbers.
    @Suite struct GanttChartTests {
        /// The axis as drawn: (x of 0 ms, points per ms) from the first and last tick.
        func drawnScale(_ svg: SVG, prefix: String = "lf-") throws -> (origin: Double, perMs: Double) {
            var ticks: [(ms: Double, x: Double)] = []
            var k = 0
            while let tick = svg.elements(withID: "\(prefix)tick-\(k)").first {
                let label = try svg.element(withID: "\(prefix)tick-label-\(k)")
                let box = try SVG.box(tick)
                ticks.append((try #require(Double(SVG.text(label))), (box.minX + box.maxX) / 2))
                k += 1
            }
            try #require(ticks.count >= 2)
            let perMs = (ticks.last!.x - ticks[0].x) / (ticks.last!.ms - ticks[0].ms)
            return (ticks[0].x - ticks[0].ms * perMs, perMs)
        }

        @Test(arguments: Strategy.allCases)
        func barsSitAtTheirTimesOnTheAxis(_ strategy: Strategy) throws {
            let result = SimulationResult(Scenarios.example, strategy: strategy)
            let svg = try SVG(GanttChart(result).svg())
            let scale = try drawnScale(svg)
            for (i, run) in result.schedule.tasks.enumerated() {
                let id = Scenarios.example.tasks[i].id
                let box = try SVG.box(try svg.element(withID: id))
                let start = scale.origin + Double(run.start) / 1000 * scale.perMs
                let end = scale.origin + Double(run.end) / 1000 * scale.perMs
                #expect(abs(box.minX - start) <= 1, "\(id) starts at x \(box.minX), expected \(start)")
                #expect(abs(box.maxX - end) <= 1, "\(id) ends at x \(box.maxX), expected \(end)")
            }
        }

        @Test(arguments: Strategy.allCases)
        func lanesDoNotOverlapAndHoldTheirBars(_ strategy: Strategy) throws {
            let result = SimulationResult(Scenarios.example, strategy: strategy)
            let svg = try SVG(GanttChart(result).svg())
            // Main and every worker that ran a task have a lane; idle workers are folded into one row.
            let used = Set(result.schedule.tasks.map(\.thread)).union([0])
            var lanes: [Int32: (minX: Double, maxX: Double, minY: Double, maxY: Double)] = [:]
            for thread in 0..<Int32(Scenarios.example.device.cores) {
                let found = svg.elements(withID: "lf-lane-" + Schedule.threadName(thread))
                #expect(found.count == (used.contains(thread) ? 1 : 0), "\(thread)")
                if let lane = found.first { lanes[thread] = try SVG.box(lane) }
            }
            var boxes = lanes.keys.sorted().map { lanes[$0]! }
            let idle = svg.elements(withID: "lf-lane-idle")
            #expect(idle.count == (used.count < Scenarios.example.device.cores ? 1 : 0))
            if let row = idle.first { boxes.append(try SVG.box(row)) }
            for (upper, lower) in zip(boxes, boxes.dropFirst()) {
                #expect(upper.maxY <= lower.minY, "lanes overlap: \(upper) and \(lower)")
            }
            for (i, run) in result.schedule.tasks.enumerated() {
                let bar = try SVG.box(try svg.element(withID: Scenarios.example.tasks[i].id))
                let lane = lanes[run.thread]!
                #expect(
                    bar.minY >= lane.minY && bar.maxY <= lane.maxY, "\(Scenarios.example.tasks[i].id) outside its lane")
            }
        }

        @Test(arguments: Strategy.allCases)
        func markerLinesSitAtTheirInstants(_ strategy: Strategy) throws {
            let result = SimulationResult(Scenarios.example, strategy: strategy)
            let svg = try SVG(GanttChart(result).svg())
            let scale = try drawnScale(svg)
            for (id, micros) in [
                ("lf-first-frame", result.metrics.timeToFirstFrame),
                ("lf-launch-complete", result.metrics.launchComplete),
            ] {
                let line = try SVG.box(try svg.element(withID: id))
                let expected = scale.origin + Double(micros) / 1000 * scale.perMs
                #expect(abs((line.minX + line.maxX) / 2 - expected) <= 1, "\(id)")
            }
            let label = try svg.element(withID: "lf-first-frame-label")
            #expect(SVG.text(label) == "first frame \(formatMillis(result.metrics.timeToFirstFrame)) ms")
            for k in result.schedule.commits.indices { _ = try svg.element(withID: "lf-commit-\(k)") }
            for k in result.schedule.blocked.indices { _ = try svg.element(withID: "lf-blocked-\(k)") }
            // Pre-main is folded: only the phase the axis's first step reaches is drawn.
            let axis = GanttChart(result).axis
            for (k, span) in result.schedule.preMain.enumerated() {
                #expect(svg.elements(withID: "lf-premain-\(k)").count == (span.end > axis.start ? 1 : 0))
            }
            _ = try svg.element(withID: "lf-did-finish-launching")
        }

        @Test func priorityShowsBlockedTimeDrawnDifferently() throws {
            let result = SimulationResult(Scenarios.example, strategy: .priority)
            try #require(!result.schedule.blocked.isEmpty, "the example should block the main thread under priority")
            let svg = try SVG(GanttChart(result).svg())
            let blocked = try svg.element(withID: "lf-blocked-0")
            let outline = try #require(SVG.descendants(of: blocked).first { $0.localName == "polygon" })
            #expect(SVG.attribute(outline, "stroke-dasharray") != nil)
            #expect(SVG.classes(blocked).contains("blocked"))
        }

        @Test func titleNamesScenarioStrategyAndHeadlineMetrics() throws {
            let result = SimulationResult(Scenarios.example, strategy: .dag)
            let svg = try SVG(GanttChart(result).svg())
            #expect(SVG.text(try svg.element(withID: "lf-title")) == "Test app — dag strategy")
            let summary = SVG.text(try svg.element(withID: "lf-subtitle"))
            #expect(summary.contains("first frame \(formatMillis(result.metrics.timeToFirstFrame)) ms"))
            #expect(summary.contains("launch complete \(formatMillis(result.metrics.launchComplete)) ms"))
        }

        @Test func axisTicksAreRoundMilliseconds() {
            #expect(TimeAxis(upTo: 133_336).tickStep == 20_000)
            #expect(TimeAxis(upTo: 133_336).end == 140_000)
            #expect(TimeAxis(upTo: 0).end > 0)
            for latest in [1, 7, 999, 1000, 1001, 25_000, 99_999, 3_600_000_000] {
                let axis = TimeAxis(upTo: latest)
                #expect(axis.end >= latest && axis.end % axis.tickStep == 0)
                #expect(axis.ticks.count - 1 <= TimeAxis.maxTicks && axis.ticks.count >= 2, "\(latest)")
            }
        }

        @Test func comparisonStacksStrategiesOnOneScale() throws {
            let results = SimulationResult.compare(Scenarios.example, strategies: Strategy.allCases)
            let chart = ComparisonChart(results)
            let svg = try SVG(chart.svg())
            #expect(svg.duplicateIDs.isEmpty)
            #expect(chart.ownScale.allSatisfy { !$0 })
            var previousBottom = -Double.infinity
            for result in results {
                let strategy = result.schedule.strategy
                // Each panel has its axis; all say the same scale.
                let scale = try drawnScale(svg, prefix: "lf-\(strategy.rawValue)-")
                #expect(abs(scale.perMs - chart.axes[0].pointsPerMillisecond) < 0.01)
                let mainLane = try SVG.box(try svg.element(withID: "lf-\(strategy.rawValue)-lane-main"))
                #expect(mainLane.minY > previousBottom, "panels overlap")
                previousBottom =
                    try svg.elements(withID: "lf-\(strategy.rawValue)-lane-idle").first.map { try SVG.box($0).maxY }
                    ?? SVG.box(
                        try svg.element(
                            withID: "lf-\(strategy.rawValue)-lane-worker-\(Scenarios.example.device.workerCount)")
                    ).maxY
                for (i, run) in result.schedule.tasks.enumerated() {
                    let bar = try SVG.box(try svg.element(withID: chart.barID(strategy: strategy, task: i)))
                    #expect(abs(bar.minX - (scale.origin + Double(run.start) / 1000 * scale.perMs)) <= 1)
                    #expect(abs(bar.maxX - (scale.origin + Double(run.end) / 1000 * scale.perMs)) <= 1)
                }
                let line = try SVG.box(try svg.element(withID: "lf-\(strategy.rawValue)-first-frame"))
                let expected = scale.origin + Double(result.metrics.timeToFirstFrame) / 1000 * scale.perMs
                #expect(abs((line.minX + line.maxX) / 2 - expected) <= 1)
            }
        }

        @Test func everyTaskIsOneElementEvenWithAwkwardIDs() throws {
            for strategy in Strategy.allCases {
                let result = SimulationResult(Scenarios.awkward, strategy: strategy)
                let svg = try SVG(GanttChart(result).svg())
                #expect(svg.duplicateIDs.isEmpty, "\(strategy): \(svg.duplicateIDs)")
                for task in Scenarios.awkward.tasks {
                    #expect(svg.elements(withID: task.id).count == 1, "\(strategy): \(task.id.debugDescription)")
                }
                // "lf-lane-main" and "a_lf-commit-0" are task ids, so other ids move to the next free prefix.
                _ = try svg.element(withID: "lf2-lane-main")
                #expect(
                    SVG.text(try svg.element(withID: "lf2-title")) == Scenarios.awkward.name
                        + " — \(strategy.rawValue) strategy")
            }
        }

        @Test func tooltipsAndLabelsShowTheIdExactly() throws {
            let result = SimulationResult(Scenarios.awkward, strategy: .dag)
            let svg = try SVG(GanttChart(result).svg())
            for task in Scenarios.awkward.tasks where !Scenarios.awkwardIDs.contains("a_" + task.id) {
                let element = try svg.element(withID: task.id)
                let tooltip = try #require(SVG.tooltip(element), "\(task.id.debugDescription) has no tooltip")
                let firstLine = tooltip.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
                if !task.id.contains("\n") && !task.id.contains("\t") { #expect(firstLine == task.id) }
            }
            // "x" keeps no tooltip: its link would be called "a_x", which is another task's id.
            #expect(SVG.tooltip(try svg.element(withID: "x")) == nil)
        }
    }
}
