import Foundation
import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// Gantt charts framed on the launch (issue 18): from t0 to the later of
    /// full display and the last task not deferred; later work listed right
    /// of an axis break, each item with its time; labels that never overlap.
    @Suite struct FramingTests {
        static func load(_ name: String) throws -> Scenario {
            try ScenarioLoader.load(path: "scenarios/\(name).json")
        }

        @Test func alertsWaitingForTheUserAndWhatTheyReleaseAreDeferred() throws {
            let scenario = try Self.load("permission-alerts")
            let result = SimulationResult(scenario, strategy: .dag)
            let deferred = LaunchFrame.deferred(result.schedule)
            let named = Dictionary(uniqueKeysWithValues: zip(scenario.tasks.map(\.id), deferred))
            // The first alert is shown during the launch; the next ones wait for the user's answer.
            #expect(named["push-permission-alert"] == false)
            #expect(named["tracking-permission-alert"] == true && named["whats-new-alert"] == true)
            #expect(named["push-registration"] == true && named["analytics-start"] == true)
            #expect(named["feed-render"] == false && named["root-view-controller"] == false)
            // feed-render (278 → 287 ms) is the last task of the launch.
            #expect(LaunchFrame.end(result) == 287_000)
        }

        @Test func delayedAfterAndIdleWorkIsDeferredWithWhatDependsOnIt() throws {
            let scenario = try Self.load("modules")
            let result = SimulationResult(scenario, strategy: .dag)
            let deferred = LaunchFrame.deferred(result.schedule)
            for (i, task) in scenario.tasks.enumerated() {
                let direct = task.delay > 0 || task.after != nil || task.idle
                if direct { #expect(deferred[i], "\(task.id)") }
                if task.dependsOn.contains(where: { deferred[$0] }) { #expect(deferred[i], "\(task.id)") }
            }
            // Framed on full display (391.651 ms), not on ads.sdk (3,651.7 ms).
            #expect(LaunchFrame.end(result) == result.metrics.timeToFullDisplay)
        }

        @Test func theDefaultAxisStartsAtT0AndFoldsWhatComesAfterTheLaunch() throws {
            let result = SimulationResult(try Self.load("modules"), strategy: .dag)
            let axis = TimeAxis.framed(by: [result])
            #expect(axis.start <= result.schedule.t0 && result.schedule.t0 - axis.start < axis.tickStep)
            #expect(axis.end >= LaunchFrame.end(result) && axis.end - axis.tickStep < LaunchFrame.end(result))
            #expect(axis.isFolded && axis.latest == result.metrics.launchComplete)
            // The picture keeps its width: plot + break + strip.
            #expect(abs(axis.rightEdge - (axis.originX + 1000)) < 0.001)
            // --to end folds nothing; --from 0 shows pre-main.
            let whole = TimeAxis.framed(by: [result], from: .micros(0), to: .end)
            #expect(!whole.isFolded && whole.start == 0 && whole.end >= result.metrics.launchComplete)
        }

        @Test func timePointsParse() {
            #expect(TimePoint("t0") == .t0 && TimePoint("ttff") == .ttff && TimePoint("ttfd") == .ttfd)
            #expect(TimePoint("end") == .end && TimePoint("launch") == .launch)
            #expect(TimePoint("12.5") == .micros(12_500) && TimePoint("0") == .micros(0))
            #expect(TimePoint("-1") == nil && TimePoint("soon") == nil && TimePoint("nan") == nil)
        }

        /// The folded strip in the SVG: right of the break, every later task
        /// listed there (its element, class `folded`) with its time; no bar
        /// drawn past the axis's end.
        @Test func laterWorkIsListedRightOfTheAxisBreak() throws {
            let scenario = try Self.load("modules")
            let result = SimulationResult(scenario, strategy: .dag)
            let chart = GanttChart(result)
            let axis = chart.axis
            let svg = try SVG(chart.svg())
            #expect(svg.duplicateIDs.isEmpty)
            let plotEnd = axis.x(axis.end)
            for k in 0..<2 {
                let stroke = try SVG.box(try svg.element(withID: "lf-axis-break-\(k)"))
                #expect(stroke.minX > plotEnd && stroke.maxX < axis.foldX, "the break sits in the gap")
            }
            let strip = try SVG.box(try svg.element(withID: "lf-fold-lane-main"))
            #expect(abs(strip.minX - axis.foldX) < 0.5 && abs(strip.maxX - axis.rightEdge) < 0.5)
            var folded = 0
            for (i, run) in result.schedule.tasks.enumerated() {
                let element = try svg.element(withID: scenario.tasks[i].id)
                let box = try SVG.box(element)
                if run.start >= axis.end {
                    folded += 1
                    #expect(SVG.classes(element).contains("folded"))
                    #expect(box.minX >= axis.foldX, "\(scenario.tasks[i].id) is listed in the strip")
                } else {
                    #expect(box.maxX <= plotEnd + 0.5, "\(scenario.tasks[i].id) is drawn past the axis's end")
                }
            }
            #expect(folded >= 4)
            let texts = svg.elements.filter { $0.localName == "text" }.map { $0.stringValue ?? "" }
            #expect(texts.contains("ads.sdk 3,630.7 ms"))
            #expect(texts.contains("payments.sdk 1,622.8 ms"))
            #expect(texts.contains { $0.hasPrefix("later, not to scale · until 3,651.7 ms") })
            #expect(texts.contains("launch complete 3651.7 ms ›"))
        }

        @Test func aLaunchMuchLongerThanTheOthersGetsAScaleOfItsOwn() throws {
            let results = SimulationResult.compare(try Self.load("permission-alerts"), strategies: Strategy.allCases)
            let chart = ComparisonChart(results)
            #expect(chart.ownScale == [true, false, false, false])
            #expect(chart.axes[1] == chart.axes[2] && chart.axes[2] == chart.axes[3])
            #expect(chart.axes[2].end == 300_000)
            let svg = try SVG(chart.svg())
            #expect(SVG.text(try svg.element(withID: "lf-serial-summary")).hasPrefix("its own time scale"))
            // A time axis per panel.
            for strategy in Strategy.allCases { _ = try svg.element(withID: "lf-\(strategy.rawValue)-tick-0") }
        }

        @Test func groupsThousandsInTheFold() {
            #expect(GanttFold.ms(3_630_700) == "3,630.7")
            #expect(GanttFold.ms(999_000) == "999")
            #expect(GanttFold.ms(12_345_678_000) == "12,345,678")
        }

        /// The planner never puts two labels in the same place, nor a label beside its bar over another bar.
        @Test func placedLabelsNeverOverlap() {
            var seed: UInt64 = 7
            func next() -> Double {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(seed >> 33) / Double(1 << 31)
            }
            for _ in 0..<50 {
                var planner = LabelPlanner(minX: 100, maxX: 900)
                var x = 100.0
                var bars: [LabelPlanner.Bar] = []
                for i in 0..<40 {
                    x += next() * 30
                    let width = next() * 40
                    bars.append(
                        .init(
                            index: i, x0: x, x1: x + width, label: "task-\(i)-" + String(repeating: "x", count: i % 9)))
                    x += width
                }
                let band = (top: 10.0, bottom: 32.0)
                let placements = planner.place(bars, band: band)
                var boxes: [(Int, LabelPlanner.Box)] = []
                var besides = Set<Int>()
                for bar in bars {
                    switch placements[bar.index]! {
                    case .inside: break
                    case .beside(let x, let y):
                        let w = LabelPlanner.width(bar.label, size: LabelPlanner.besideSize)
                        boxes.append((bar.index, .init(x0: x, x1: x + w, y0: y - 4.5, y1: y + 4.5)))
                        besides.insert(bar.index)
                    case .keyed(let n, let x, let y):
                        let w = LabelPlanner.width(String(n), size: LabelPlanner.numberSize) / 2
                        boxes.append((bar.index, .init(x0: x - w, x1: x + w, y0: y - 4.4, y1: y + 4.4)))
                    }
                }
                for (k, (i, box)) in boxes.enumerated() {
                    for (j, other) in boxes.dropFirst(k + 1) {
                        #expect(!box.overlaps(other), "labels of \(i) and \(j)")
                    }
                    for bar in bars where bar.index != i && besides.contains(i) {
                        let barBox = LabelPlanner.Box(x0: bar.x0, x1: bar.x1, y0: band.top, y1: band.bottom)
                        #expect(!box.overlaps(barBox) || bar.x1 - bar.x0 < 0.01, "label of \(i) over bar \(bar.index)")
                    }
                }
            }
        }
    }
}
