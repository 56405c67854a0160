import Foundation
import LaunchflowCore

/// Where a command writes: standard output and standard error, or buffers in tests.
public protocol OutputStreams {
    mutating func write(_ bytes: [UInt8])
    mutating func writeError(_ text: String)
}

extension OutputStreams {
    mutating func write(_ text: String) { write(Array(text.utf8)) }

    /// A text report for people: control characters that came from the
    /// scenario are shown escaped (`\u{1B}`), so a file cannot drive the terminal.
    mutating func writeText(_ text: String) { write(displayEscaped(text, keepingLineFeeds: true)) }
}

/// The process's stdout and stderr.
///
/// A failed write to standard output is remembered (``outputError``) and
/// ends the run with an error (`> /dev/full` must not exit 0 having written
/// nothing); a closed pipe (`| head`) only stops the output, quietly.
public struct StandardStreams: OutputStreams {
    /// The errno of the first failed write to standard output, other than EPIPE.
    public private(set) var outputError: Int32?
    /// The reader went away (EPIPE): nothing more is written.
    public private(set) var outputClosed = false

    public init() {}

    public mutating func write(_ bytes: [UInt8]) {
        guard !outputClosed, outputError == nil else { return }
        let code = writeAll(bytes, to: 1)
        if code == EPIPE {
            outputClosed = true
        } else if code != 0 {
            outputError = code
        }
    }

    public mutating func writeError(_ text: String) { _ = writeAll(Array(text.utf8), to: 2) }
}

/// Output captured in memory.
public struct CapturedStreams: OutputStreams {
    public var output: [UInt8] = []
    public var error = ""

    public init() {}

    public var outputText: String { String(decoding: output, as: UTF8.self) }

    public mutating func write(_ bytes: [UInt8]) { output.append(contentsOf: bytes) }
    public mutating func writeError(_ text: String) { error += text }
}

/// The `launchflow` command line.
public enum LaunchflowCommand {
    public static let version = "0.2.0"

    /// A subcommand: its spec and what it does.
    struct Entry: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments, inout any OutputStreams) throws(CLIError) -> Int32
    }

    static let commands: [Entry] = [
        Entry(spec: SimulateCommand.spec, run: SimulateCommand.run),
        Entry(spec: CompareCommand.spec, run: CompareCommand.run),
        Entry(spec: ValidateCommand.spec, run: ValidateCommand.run),
        Entry(spec: RenderCommand.spec, run: RenderCommand.run),
        Entry(spec: ReportCommand.spec, run: ReportCommand.run),
        Entry(spec: CheckCommand.spec, run: CheckCommand.run),
        Entry(spec: BaselineCommand.spec, run: BaselineCommand.run),
        Entry(spec: DiffCommand.spec, run: DiffCommand.run),
        Entry(spec: SweepCommand.spec, run: SweepCommand.run),
        Entry(spec: WhatIfCommand.spec, run: WhatIfCommand.run),
        Entry(spec: AdviseCommand.spec, run: AdviseCommand.run),
        Entry(spec: ImportCommand.spec, run: ImportCommand.run),
        Entry(spec: CalibrateCommand.spec, run: CalibrateCommand.run),
        Entry(spec: ReplayCommand.spec, run: ReplayCommand.run),
    ]

    /// Runs `launchflow` with `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String], streams: inout any OutputStreams) -> Int32 {
        do {
            return try dispatch(arguments, &streams)
        } catch {
            streams.writeError(error.message)
            return error.status
        }
    }

    /// Runs with the process's arguments and exits. A write to standard
    /// output that failed (other than to a closed pipe) is an error: exit 2
    /// (or the command's own non-zero status) with a message.
    public static func main() -> Never {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is EPIPE from write(2), handled, not a silent death
        var streams: any OutputStreams = StandardStreams()
        var status = main(Array(CommandLine.arguments.dropFirst()), streams: &streams)
        if let code = (streams as? StandardStreams)?.outputError {
            streams.writeError("error: cannot write to standard output: \(String(cString: strerror(code)))\n")
            if status == 0 { status = 2 }
        }
        exit(status)
    }

    private static func dispatch(_ arguments: [String], _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        guard let first = arguments.first else {
            streams.write(overview)
            return 0
        }
        switch first {
        case "-h", "--help":
            streams.write(overview)
            return 0
        case "--version":
            streams.write("launchflow \(version)\n")
            return 0
        case "help":
            guard arguments.count > 1 else {
                streams.write(overview)
                return 0
            }
            let entry = try entry(named: arguments[1])
            streams.write(entry.spec.help)
            return 0
        default:
            let entry = try entry(named: first)
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), for: entry.spec)
            if parsed.isGiven(CommandSpec.helpOption) {
                streams.write(entry.spec.help)
                return 0
            }
            return try entry.run(parsed, &streams)
        }
    }

    private static func entry(named name: String) throws(CLIError) -> Entry {
        if let entry = commands.first(where: { $0.spec.name == name }) { return entry }
        if name.hasPrefix("-") {
            if let option = closestMatch(to: name, in: ["--help", "--version"]) {
                throw CLIError.usage(nil, "unknown option '\(name)'; did you mean '\(option)'?")
            }
            throw CLIError.usage(nil, "unknown option '\(name)'; options come after the command")
        }
        throw CLIError.usage(nil, "unknown command '\(name)'\(didYouMean(name, in: commands.map(\.spec.name)))")
    }

    static var overview: String {
        var out = """
            OVERVIEW: launchflow \(version) — simulate and visualise how a mobile app launches.

            Reads a scenario (launch tasks with costs, threads, priority tiers,
            dependencies, latencies, delays, queues, idle work and anchors; the
            device; the pre-main phases; user input) and simulates the main
            thread's run loop and the worker threads under these strategies:

            """
        for strategy in Strategy.allCases { out += helpRow(strategy.rawValue, strategy.summary) }
        out += """

            Reports time to first frame, launch completion and more; renders the
            DAG and Gantt charts as SVG.

            USAGE: launchflow <command> [<arguments>] [<options>]

            COMMANDS:

            """
        for entry in commands { out += helpRow(entry.spec.name, entry.spec.abstract) }
        out += helpRow("help <command>", "Show a command's help.")
        out += """

            OPTIONS:
              --version                 Show the version.
              -h, --help                Show help information.

            See 'launchflow <command> --help' for a command's arguments and options.
            Exit status: 0 success, 1 a check found a regression, 2 bad input.

            """
        return out
    }
}

// MARK: Shared pieces of the commands

extension OptionSpec {
    static let strategy = OptionSpec(
        name: "strategy", value: "<strategy>",
        help: "One of \(Strategy.names)\n(default: the scenario's \"strategy\", else dag).",
        choices: Strategy.allCases.map(\.rawValue))
    static let strategies = OptionSpec(
        name: "strategies", value: "<list>", help: "Comma-separated strategies to run.",
        defaultValue: Strategy.allCases.map(\.rawValue).joined(separator: ","))
    /// `--format text|json`, the output of most commands.
    static let textOrJSON = OptionSpec(
        name: "format", value: "<format>", help: "text (tables) or json (default: text).", choices: ["text", "json"])
    static let maxConcurrent = OptionSpec(
        name: "max-concurrent", value: "<n>",
        help:
            "\(StrategyDefinition.all.filter(\.limitsConcurrency).map(\.strategy.rawValue).joined(separator: " and ")) only: at most n worker tasks in\nflight, started and not yet done (an integer ≥ 1).",
        range: 1...Int.max)
    static let device = OptionSpec(
        name: "device", value: "<phone>",
        help:
            "Run on a phone launchflow knows: its clusters of cores and refresh\nrate, a thread per core (docs/scenarios.md lists them).",
        choices: DevicePreset.allCases.map(\.rawValue))

    static let idleMode = OptionSpec(
        name: "idle-mode", value: "<mode>",
        help:
            "How the run loop runs idle tasks: batch (all at once) or\noneByOne (one per iteration); overrides the scenario's idleMode.",
        choices: IdleMode.allCases.map(\.rawValue))
}

/// What `--format` asks for.
enum OutputFormat: String {
    case text, json, markdown, trace
}

extension ParsedArguments {
    /// The command's `--format` (`.textOrJSON` for most), text when not given.
    func format(_ option: OptionSpec = .textOrJSON) -> OutputFormat { choice(option, as: OutputFormat.self) ?? .text }
}

extension ArgumentSpec {
    static let scenario = ArgumentSpec(name: "scenario", help: "The scenario file (JSON).")
}

extension ParsedArguments {
    func loadScenario() throws(CLIError) -> Scenario {
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(path: positionals[0])
        } catch {
            throw CLIError.diagnostics(error.problems)
        }
        // (§3.13) `--device NAME`: the launch on that phone.
        guard let preset = choice(.device, as: DevicePreset.self) else { return scenario }
        return scenario.onDevice(preset)
    }

    /// `--idle-mode` and `--max-concurrent`.
    func simulationOptions() throws(CLIError) -> SimulationOptions {
        var options = SimulationOptions(idleMode: choice(.idleMode))
        options.maxConcurrent = try integer(.maxConcurrent)
        return options
    }

    /// `--strategy`, or else the strategy the app uses today (the scenario's `"strategy"`), or else dag.
    func strategy(for scenario: Scenario) -> Strategy { choice(.strategy) ?? scenario.strategy ?? .dag }

    /// `--strategies a,b` (no repeats), or every strategy.
    func strategies() throws(CLIError) -> [Strategy] {
        guard isGiven(.strategies), let text = string(.strategies) else { return Strategy.allCases }
        var result: [Strategy] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            guard let strategy = Strategy(rawValue: name) else {
                let hint = didYouMean(name, in: Strategy.allCases.map(\.rawValue))
                throw usage("unknown strategy '\(name)' in '--strategies': expected one of \(Strategy.names)\(hint)")
            }
            if result.contains(strategy) {
                throw usage("strategy '\(name)' listed twice in '--strategies'")
            }
            result.append(strategy)
        }
        return result
    }
}
