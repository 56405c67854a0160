import Foundation
import LaunchflowCore
import LaunchflowRender

/// `launchflow report`: one self-contained HTML page about the launch.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write one self-contained, interactive HTML page: the comparison, pictures, what to optimise.",
        arguments: [.scenario],
        options: [
            OptionSpec(
                name: "out", value: "<file.html>",
                help: "The page to write (default: output/<name>-report.html;\nits directory is created if missing)."),
            .strategies,
            .maxConcurrent,
            .idleMode,
            .clusters,
            .tiers,
            .jobs,
            OptionSpec(
                name: "trace", value: "<file>",
                help:
                    "Add a traced launch against the simulated one (dag, or\nthe first strategy shown), task by task: the overlay\nGantt and the largest errors (as calibrate --trace)."
            ),
        ],
        discussion: """
            The page holds, inline (no network; it works from file://): the time to
            first frame and launch completion per strategy and the best strategy
            that keeps every dependency; the comparison table; lint warnings; the
            Gantt charts on one zoomable time axis; the task graph; with cost
            uncertainty (costP90, jitter) a sweep of 1000 sampled launches; and
            the 'whatif' top ten under the best correct strategy.
            Hover or click a task in any picture or table to highlight it
            everywhere and see its card; page.html#task=ID opens with that task
            selected. The file is replaced atomically; its path is printed.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies(spec)
        let options = try args.simulationOptions(spec)
        let jobs = try args.jobs(spec)
        let scenario = try args.loadScenario()
        let path = args.value("out") ?? "output/\(args.scenarioStem)-report.html"
        let working = WorkingLine("report: simulating, sampling and drawing", streams: streams)
        defer { working?.finish() }
        var report = Report.make(
            scenario, file: args.positionals[0], strategies: strategies, options: options, jobs: jobs,
            tiers: args.tiers())
        if let trace = args.value("trace") {
            do {
                report.traceComparison = try TraceComparison.run(
                    scenario, trace: trace, strategy: strategies.contains(.dag) ? .dag : strategies[0],
                    options: options)
            } catch {
                streams.writeError(error.log.text)
                return 2
            }
        }
        try write(report, to: path)
        working?.finish()
        streams.write(path + "\n")
        return 0
    }

    /// Renders `report` in memory, then writes it atomically to `path` (creating its directory).
    static func write(_ report: Report, to path: String) throws(CLIError) {
        let bytes: [UInt8]
        do {
            bytes = try report.html()
        } catch {
            throw CLIError.input(error.description)
        }
        let directory = splitPath(path).directory
        if directory != "." && directory != "/" { try RenderCommand.createDirectories(directory) }
        do {
            try writeFileAtomically(bytes, to: path)
        } catch {
            throw CLIError.input(error.description)
        }
    }
}
