import Foundation
import LaunchflowCore
import LaunchflowRender

/// `launchflow render`: the DAG and the Gantt charts as SVG files.
enum RenderCommand {
    enum Options {
        static let strategy = OptionSpec(
            name: "strategy", value: "<strategy>",
            help: "One of \(Strategy.names), or all.",
            choices: Strategy.allCases.map(\.rawValue) + ["all"], defaultValue: "all")
        static let from = OptionSpec(
            name: "from", value: "<start>",
            help:
                "Where the Gantt charts' time axis starts: ms since process\nstart (0: with pre-main), t0 (the run loop), ttff, ttfd.\nDefault: t0 (pre-main folded)."
        )
        static let to = OptionSpec(
            name: "to", value: "<end>",
            help:
                "Where it ends: ms, ttff, ttfd, launch or end (everything).\nDefault: launch — the later of full display and the last\ntask not deferred; later work is listed behind an axis break."
        )
    }

    static let spec = CommandSpec(
        name: "render",
        abstract: "Draw the task DAG and a Gantt chart per strategy as SVG files.",
        arguments: [.scenario],
        options: [
            Options.strategy,
            .out,
            .clusters,
            .tiers,
            .edges,
            Options.from,
            Options.to,
            .maxConcurrent,
            .idleMode,
        ],
        discussion: """
            Writes, into the output directory (created if missing):
              <name>-graph.svg             the task graph (tooltips: times under each strategy)
              <name>-<strategy>-gantt.svg  one Gantt chart per strategy
              <name>-compare-gantt.svg     all strategies on one time scale (with 'all')
            where <name> is the scenario file's name without its extension.
            Files are replaced atomically; 'wrote <path>' is printed for each.
            Rendering uses Graphviz's library (libgvc) in-process.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = args.choice(Options.strategy, as: Strategy.self).map { [$0] } ?? Strategy.allCases
        let options = try args.simulationOptions()
        let tiers = args.tiers()
        let scenario = try args.loadScenario()
        let from = try timePoint(args, Options.from, default: .t0)
        let to = try timePoint(args, Options.to, default: .launch)
        let working = WorkingLine("render: simulating and drawing", streams: streams)
        defer { working?.finish() }
        let results = SimulationResult.compare(scenario, strategies: strategies, options: options)
        let files = try render(results, stem: args.scenarioStem, tiers: tiers, edges: args.edges(), from: from, to: to)
        let written = try write(files, into: args.outputDirectory)
        working?.finish()
        for path in written { streams.write("wrote \(path)\n") }
        return 0
    }

    /// The pictures of `results`, rendered in memory (nothing is written on error).
    static func render(
        _ results: [SimulationResult], stem: String, tiers: TierDisplay, edges: EdgeDisplay = .auto,
        from: TimePoint = .t0, to: TimePoint = .launch
    ) throws(CLIError) -> [RenderedFile] {
        do {
            return try Pictures.files(stem: stem, results: results, tiers: tiers, edges: edges, from: from, to: to)
        } catch {
            throw CLIError.input(error.description)
        }
    }

    /// The instants `option` (`--from` or `--to`) takes by name, as their help lists them: a window
    /// cannot end at t0 (it would be empty) nor start at the launch's end.
    static func namedTimePoints(_ option: OptionSpec) -> [String] {
        option.name == Options.from.name ? ["t0", "ttff", "ttfd"] : ["ttff", "ttfd", "launch", "end"]
    }

    /// `--from`/`--to`: ms or one of ``namedTimePoints(_:)``.
    static func timePoint(_ args: ParsedArguments, _ option: OptionSpec, default value: TimePoint) throws(CLIError)
        -> TimePoint
    {
        guard let text = args.string(option) else { return value }
        let names = namedTimePoints(option)
        guard let point = TimePoint(text), Double(text) != nil || names.contains(text) else {
            throw args.usage(
                "--\(option.name) takes a time in ms (0 … 3600000) or \(names.joined(separator: ", ")); got '\(text)'")
        }
        return point
    }

    /// Creates `directory` if needed and writes each file atomically; returns the paths written.
    static func write(_ files: [RenderedFile], into directory: String) throws(CLIError) -> [String] {
        try createDirectories(directory)
        var written: [String] = []
        for file in files {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + file.name
            do {
                try writeFileAtomically(file.bytes, to: path)
            } catch {
                throw CLIError.input(error.description)
            }
            written.append(path)
        }
        return written
    }

    /// `mkdir -p`: creates `directory` and its missing parents.
    static func createDirectories(_ directory: String) throws(CLIError) {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw CLIError.input(
                    "cannot create the output directory '\(prefix)': \(String(cString: strerror(errno)))")
            }
            prefix += "/"
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.input("cannot write into '\(directory)': it exists and is not a directory")
        }
    }
}

extension OptionSpec {
    static let out = OptionSpec(
        name: "out", value: "<dir>", help: "Directory for the pictures (default: output/; created if missing).")
    static let clusters = OptionSpec(
        name: "clusters", value: "<by>",
        help:
            "What the DAG draws boxes around: tiers (priority tiers), groups\n(the tasks' group: modules) or none (default: tiers).",
        choices: ["tiers", "groups", "none"])
    static let tiers = OptionSpec(
        name: "tiers", value: "<style>",
        help:
            "The older spelling of --clusters, with one more layout: clusters\n(= --clusters tiers), bands (a band of columns per tier) or\nnone. --clusters wins when both are given.",
        choices: ["clusters", "bands", "none"])
    static let edges = OptionSpec(
        name: "edges", value: "<which>",
        help:
            "Dependencies the DAG draws: all, reduced (leave out those a\nlonger path implies; the legend counts them) or auto\n(reduced above \(DAGChart.reductionThreshold) dependencies; the default).",
        choices: EdgeDisplay.allCases.map(\.rawValue))
}

extension ParsedArguments {
    /// `--out`, or `output`.
    var outputDirectory: String { string(.out) ?? "output" }

    /// `--edges`, or auto.
    func edges() -> EdgeDisplay { choice(.edges, as: EdgeDisplay.self) ?? .auto }

    /// `--clusters` (tiers, groups, none), else `--tiers` (clusters, bands, none), else tier clusters.
    func tiers() -> TierDisplay {
        switch string(.clusters) {
        case "tiers": .clusters
        case "groups": .groups
        case "none": TierDisplay.none
        default: choice(.tiers, as: TierDisplay.self) ?? .clusters
        }
    }

    /// The scenario file's name without directory and extension: `examples/app.json` → `app`.
    var scenarioStem: String {
        let stem = URL(fileURLWithPath: positionals[0]).deletingPathExtension().lastPathComponent
        return stem.isEmpty || stem == "/" ? "scenario" : stem
    }
}
