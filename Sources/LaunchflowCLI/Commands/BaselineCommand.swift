import LaunchflowCore

/// `launchflow baseline`: the saved run `check --baseline` compares with.
enum BaselineCommand {
    static let spec = CommandSpec(
        name: "baseline",
        abstract: "Print a baseline for 'check --baseline' (the 'compare --format json' output).",
        arguments: [.scenario],
        options: [.strategies, .maxConcurrent, .idleMode],
        discussion: """
            Redirect it into a file and commit it next to the scenario:
              launchflow baseline app.json > launch-baseline.json
            The output is byte-identical on every run, so the file only changes
            when the launch does.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies()
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let results = SimulationResult.compare(scenario, strategies: strategies, options: options)
        var writer = JSONWriter(capacity: 3 * 128 * scenario.tasks.count + 4096)
        writer.comparison(results)
        writer.newline()
        streams.write(writer.bytes)
        return 0
    }
}
