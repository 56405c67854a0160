import LaunchflowCore
import Testing

@testable import LaunchflowRender

extension RenderTests {
    /// `before` in the pictures (docs/examples/pinned.json, under dag): the
    /// crash reporter (before didFinishLaunching returns, done at 10 ms with
    /// dFL returning at 0) is late; the lock screen (before the first frame,
    /// done at 3 ms, first-frame commit at 28 ms) is in time.
    @Suite struct PinnedPictureTests {
        static let scenario = try! Scenario(
            name: "Pinned", device: Device(cores: 2, refreshRate: 1000), preMain: [],
            tasks: [
                LaunchTask(id: "crash-reporter", cost: 10_000, before: .launch),
                LaunchTask(id: "lock-screen", cost: 3_000, mainThreadOnly: true, before: .firstFrame),
                LaunchTask(id: "home", cost: 5_000, mainThreadOnly: true, firstFrame: true),
                LaunchTask(id: "sdk", cost: 20_000, mainThreadOnly: true),
            ])

        @Test func theGanttMarksPinnedTasksAndOutlinesALateOne() throws {
            let svg = try SVG(GanttChart(SimulationResult(Self.scenario, strategy: .dag)).svg())
            let late = try svg.element(withID: "lf-pinned-0")
            #expect(SVG.classes(late).contains("late"))
            #expect(
                SVG.tooltip(late) == "crash-reporter: must be done before didFinishLaunching returns: done 10 ms late")
            let inTime = try svg.element(withID: "lf-pinned-1")
            #expect(!SVG.classes(inTime).contains("late"))
            #expect(SVG.tooltip(inTime) == "lock-screen: must be done before the first frame: done 25 ms before it")
            #expect(svg.elements(withID: "lf-pinned-2").isEmpty && svg.elements(withID: "lf-pinned-3").isEmpty)
            let lateBars = svg.elements.filter { SVG.classes($0).contains("task") && SVG.classes($0).contains("late") }
            #expect(lateBars.count == 1)
            let outline = try #require(SVG.descendants(of: lateBars[0]).first { $0.localName == "polygon" })
            #expect(SVG.attribute(outline, "stroke") == ChartStyle.late)
            #expect(SVG.attribute(outline, "stroke-dasharray") != nil)
            let legend = svg.elements.map(SVG.text)
            #expect(legend.contains("pinned (before): must be done by its point"))
            #expect(legend.contains("pinned task done too late"))
        }

        @Test func theTaskGraphGivesPinnedTasksABadgeAndABorder() throws {
            let svg = try SVG(DAGChart(SimulationResult(Self.scenario, strategy: .dag), tiers: .none).svg())
            let late = try svg.element(withID: "crash-reporter")
            #expect(SVG.classes(late).contains("pinned") && SVG.classes(late).contains("late"))
            #expect(SVG.text(late).contains("▣ before dFL returns"))
            let pinned = try svg.element(withID: "lock-screen")
            #expect(SVG.classes(pinned).contains("pinned") && !SVG.classes(pinned).contains("late"))
            #expect(SVG.text(pinned).contains("▣ before first frame"))
            #expect(!SVG.classes(try svg.element(withID: "sdk")).contains("pinned"))
        }

        @Test func withoutBeforeTheLegendHasNoPinnedEntry() throws {
            let svg = try SVG(GanttChart(SimulationResult(Scenarios.example, strategy: .dag)).svg())
            #expect(!svg.elements.map(SVG.text).contains { $0.contains("pinned") })
        }
    }
}
