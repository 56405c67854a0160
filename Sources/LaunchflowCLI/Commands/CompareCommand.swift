import LaunchflowCore

/// `launchflow compare`: every strategy side by side.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "compare",
        abstract: "Run the strategies side by side: the best value per metric, deltas against serial.",
        arguments: [.scenario],
        options: [
            .strategies,
            OptionSpec(
                name: "format", value: "<format>", help: "text, markdown or json (default: text).",
                choices: ["text", "markdown", "json"]),
            .maxConcurrent,
        ])

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies(spec)
        let options = try args.simulationOptions(spec)
        let scenario = try args.loadScenario()
        let results = SimulationResult.compare(scenario, strategies: strategies, options: options)
        switch args.value("format") ?? "text" {
        case "json":
            var writer = JSONWriter(capacity: 3 * 128 * scenario.tasks.count + 4096)
            writer.comparison(results)
            writer.raw("\n")
            streams.write(writer.bytes)
        case "markdown":
            streams.write(TextReport.comparison(results, markdown: true))
        default:
            streams.write(TextReport.comparison(results, markdown: false))
        }
        return 0
    }
}
