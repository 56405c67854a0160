import LaunchflowCore

/// `launchflow simulate`: one strategy, a report or the §6 JSON.
enum SimulateCommand {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Simulate one strategy on a scenario and report its schedule and metrics.",
        arguments: [.scenario],
        options: [
            .strategy,
            OptionSpec(
                name: "format", value: "<format>",
                help: "text (a readable report) or json (MODEL.md §6; byte-identical\non every run). Default: text.",
                choices: ["text", "json"]),
            .maxConcurrent,
        ],
        discussion: """
            The text report lists the metrics with their units, then every task:
            its thread, when it became ready, started and ended, and how long it
            waited (start − ready), in milliseconds.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategy = Strategy(rawValue: args.value("strategy") ?? "dag")!
        let options = try args.simulationOptions(spec)
        let scenario = try args.loadScenario()
        let result = SimulationResult(scenario, strategy: strategy, options: options)
        if args.value("format") == "json" {
            var writer = JSONWriter(capacity: 128 * scenario.tasks.count + 4096)
            writer.result(result)
            writer.raw("\n")
            streams.write(writer.bytes)
        } else {
            streams.write(TextReport.simulation(result))
        }
        return 0
    }
}
