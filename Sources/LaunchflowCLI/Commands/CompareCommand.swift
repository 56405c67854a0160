import Foundation
import LaunchflowCore
import LaunchflowRender

/// `launchflow compare`: every strategy side by side.
enum CompareCommand {
    enum Options {
        static let format = OptionSpec(
            name: "format", value: "<format>", help: "text, markdown or json (default: text).",
            choices: ["text", "markdown", "json"])
        static let out = OptionSpec(
            name: "out", value: "<dir>",
            help:
                "Also write the pictures (as 'render' does), report.md (the\ntable linking them) and report.html (as 'report' writes it)\ninto this directory."
        )
    }

    static let spec = CommandSpec(
        name: "compare",
        abstract: "Run the strategies side by side: the best value per metric, deltas against serial.",
        arguments: [.scenario],
        options: [
            .strategies,
            Options.format,
            .maxConcurrent,
            .idleMode,
            .device,
            Options.out,
            .clusters,
            .tiers,
        ],
        discussion: """
            With --out, the files are written (atomically) before the table is
            printed; 'wrote <path>' lines go to standard error.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies()
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let results = SimulationResult.compare(scenario, strategies: strategies, options: options)
        if let directory = args.string(Options.out) {
            let stem = args.scenarioStem
            var files = try RenderCommand.render(results, stem: stem, tiers: args.tiers())
            files.append(RenderedFile(name: "report.md", bytes: Array(report(results, stem: stem).utf8)))
            let page = Report.make(
                scenario, file: args.positionals[0], strategies: strategies, options: options, tiers: args.tiers())
            do {
                files.append(RenderedFile(name: Report.fileName, bytes: try page.html()))
            } catch {
                throw CLIError.input(error.description)
            }
            for path in try RenderCommand.write(files, into: directory) { streams.writeError("wrote \(path)\n") }
        }
        switch args.format(Options.format) {
        case .json:
            var writer = JSONWriter(capacity: 3 * 128 * scenario.tasks.count + 4096)
            writer.comparison(results)
            writer.newline()
            streams.write(writer.bytes)
        case .markdown:
            streams.writeText(TextReport.comparison(results, markdown: true))
        case .text, .trace:
            streams.writeText(TextReport.comparison(results, markdown: false) + TextReport.modules(results))
        }
        return 0
    }

    /// `report.md`: the markdown comparison table, then the pictures that
    /// ``Pictures/files(stem:results:tiers:)`` writes beside it (relative links).
    static func report(_ results: [SimulationResult], stem: String) -> String {
        func link(_ name: String) -> String {
            name.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "()"))) ?? name
        }
        var out = "# Launch strategies compared\n\n"
        out += TextReport.comparison(results, markdown: true)
        out += "\n## Pictures\n\n"
        if results.count > 1 {
            out += "Every strategy on one time scale (green line: first frame; dark blue: launch complete):\n\n"
            out +=
                "![\(results.map(\.schedule.strategy.rawValue).joined(separator: " vs "))]"
                + "(\(link(Pictures.comparisonFileName(stem))))\n\n"
        }
        for result in results {
            let strategy = result.schedule.strategy
            out += "- [\(strategy.rawValue) Gantt chart](\(link(Pictures.ganttFileName(stem, strategy))))\n"
        }
        out += "\nThe task graph (red: critical path; hover a task for its times):\n\n"
        out += "![task graph](\(link(Pictures.graphFileName(stem))))\n"
        return out
    }
}
