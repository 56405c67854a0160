import LaunchflowCore

/// `launchflow simulate`: one strategy, a report or the §6 JSON.
enum SimulateCommand {
    enum Options {
        static let format = OptionSpec(
            name: "format", value: "<format>",
            help:
                "text (a readable report), json (docs/model.md §8; byte-identical\non every run) or trace (Chrome Trace Event JSON for Perfetto,\nchrome://tracing, speedscope). Default: text.",
            choices: ["text", "json", "trace"])
        static let sort = OptionSpec(
            name: "sort", value: "<order>",
            help: "text only: the task table in file order or by start time\n(file or start; default: file).",
            choices: TextReport.TaskOrder.allCases.map(\.rawValue))
    }

    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Simulate one strategy on a scenario and report its schedule and metrics.",
        arguments: [.scenario],
        options: [
            .strategy,
            Options.format,
            Options.sort,
            .maxConcurrent,
            .idleMode,
            .device,
        ],
        discussion: """
            The text report lists the metrics with their units, then every task:
            its thread, when it became ready, started and ended, and how long it
            waited (start − ready), in milliseconds.

            --format trace writes every task as a slice on its thread (main,
            worker-1 …), the pre-main phases, run-loop iterations,
            didFinishLaunching, commits and blocked spans on main, frame
            presentations, and an arrow per dependency; times in µs from process
            start. Open the file in https://ui.perfetto.dev or chrome://tracing:
              launchflow simulate app.json --format trace > app.trace.json
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let strategy = args.strategy(for: scenario)
        let result = SimulationResult(scenario, strategy: strategy, options: options)
        switch args.format(Options.format) {
        case .json:
            // Room for every task and every broken dependency: no regrowth of a large output.
            var writer = JSONWriter(
                capacity: 128 * scenario.tasks.count + 128 * result.metrics.dependencyViolations + 4096)
            writer.result(result)
            writer.newline()
            streams.write(writer.bytes)
        case .trace:
            streams.write(TraceExport.json(result))
        case .text, .markdown:
            let order = args.choice(Options.sort, as: TextReport.TaskOrder.self) ?? .file
            streams.writeText(TextReport.simulation(result, order: order))
        }
        return 0
    }
}
