import Foundation
import LaunchflowRender
import Testing

@testable import LaunchflowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension RenderTests {
    /// Issue 19: every picture and the page are well-formed whatever the
    /// scenario holds. A file cannot hold control characters any more (the
    /// validator refuses them), so the scenario is changed after validation,
    /// as a caller of the library could.
    @Suite struct WellFormedTests {
        /// Characters XML 1.0 forbids (C0 controls, U+FFFE, U+FFFF), with markup and comment breakers.
        static let nasty = "esc\u{1B}[2J bell\u{07} nul\u{0} \u{FFFE}\u{FFFF} del\u{7F} c1\u{85} --> ]]> <&>"

        static func scenario() throws -> Scenario {
            var scenario = try Scenario(
                name: "x", device: Device(cores: 2),
                tasks: [
                    LaunchTask(id: "a", cost: 3000, mainThreadOnly: true, firstFrame: true),
                    LaunchTask(id: "b", cost: 2000, dependsOn: [0]),
                ])
            scenario.name = "name " + nasty
            scenario.description = "description " + nasty
            scenario.tasks[0].id = "id " + nasty
            scenario.tasks[1].id = "\u{1}"
            return scenario
        }

        /// No character XML 1.0 forbids; `where` names the picture.
        static func expectXMLCharacters(_ text: String, _ place: String) {
            let bad = text.unicodeScalars.first {
                ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE || $0.value == 0xFFFF
            }
            #expect(bad == nil, "\(place) holds U+\(String(bad?.value ?? 0, radix: 16))")
        }

        @Test func everyPictureIsWellFormed() throws {
            let scenario = try Self.scenario()
            let results = SimulationResult.compare(
                scenario, strategies: Strategy.allCases, options: SimulationOptions())
            let files = try Pictures.files(stem: "x", results: results)
            #expect(files.count == 2 + Strategy.allCases.count)
            for file in files {
                Self.expectXMLCharacters(String(decoding: file.bytes, as: UTF8.self), file.name)
                let svg = try SVG(file.bytes)
                #expect(svg.root.name == "svg", "\(file.name)")
            }
        }

        @Test func theReportPageHoldsNoForbiddenCharacter() throws {
            let page = String(
                decoding: try Report.make(try Self.scenario(), file: "x.json", jobs: 1, sweepRuns: 20).html(),
                as: UTF8.self)
            Self.expectXMLCharacters(page, "the page")
            for svg in ReportTests.svgs(page) { _ = try SVG(Array(svg.utf8)) }
        }
    }
}
