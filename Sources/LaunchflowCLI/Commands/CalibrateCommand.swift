import Foundation
import LaunchflowCore
import LaunchflowImport
import LaunchflowRender

/// `launchflow calibrate`: the model's time to first frame against measured launches.
enum CalibrateCommand {
    enum Options {
        static let measured = OptionSpec(
            name: "measured", value: "<file>",
            help:
                "Measured launches: Macrobenchmark\n*-benchmarkData.json (timeToInitialDisplayMs), a MetricKit\npayload (time to first draw), or {\"timeToFirstFrameMs\": [...]}.",
            oneOf: "input")
        static let trace = OptionSpec(
            name: "trace", value: "<file>",
            help:
                "A trace of one launch (any format import reads): each\ntask's measured start and end against the simulated ones\n(matched by id), the largest errors first.",
            oneOf: "input")
        static let gantt = OptionSpec(
            name: "gantt", value: "<file.svg>",
            help: "With --trace: the overlay Gantt (measured as outlines\nbehind the simulated bars) as SVG.")
        static let process = OptionSpec(
            name: "process", value: "<name>", help: "With --trace: the app's process (as import --process).")
        static let mainThread = OptionSpec(
            name: "main-thread", value: "<name|tid>",
            help: "With --trace: the app's main thread (as import\n--main-thread).")
        static let fit = OptionSpec(
            name: "fit", value: "<what>",
            help:
                "scale (the default): the factor for every task's cost\nthat matches the measured median (costScale); overhead:\nthe main-thread time before didFinishLaunching (overheadMs).",
            choices: CalibrationFit.Kind.allCases.map(\.rawValue), implicitValue: "scale")
        static let out = OptionSpec(
            name: "out", value: "<file>",
            help: "With --fit: write the calibrated scenario there (every\nother key kept as written).")
        static let plot = OptionSpec(
            name: "plot", value: "<file.svg>",
            help: "Draw both distributions (and the fitted one) as SVG.")
        static let benchmark = OptionSpec(
            name: "benchmark", value: "<name>",
            help: "The Macrobenchmark benchmark to use when the file has\nseveral (its name, or Class.name).")
        static let runs = OptionSpec(
            name: "runs", value: "<n>",
            help: "Sampled launches when the scenario has costP90 or jitter\n(1 … 100,000; default: 1000).",
            range: 1...100_000)
        static let seed = OptionSpec(name: "seed", value: "<s>", help: "Seed of the sampled launches (default: 1).")
    }

    static let spec = CommandSpec(
        name: "calibrate",
        abstract:
            "Compare the model with measured launches (time to first frame; fit a cost scale or an overhead) or with a trace, task by task.",
        arguments: [.scenario],
        options: [
            Options.measured,
            Options.trace,
            Options.gantt,
            Options.process,
            Options.mainThread,
            .strategy,
            Options.fit,
            Options.out,
            Options.plot,
            Options.benchmark,
            Options.runs,
            Options.seed,
            .jobs,
            .maxConcurrent,
            .idleMode,
            .textOrJSON,
        ],
        discussion: """
            Simulates the scenario under the strategy — one launch, or a sweep's
            sampled launches when costs vary (costP90, jitter) — and compares the
            median and p90 of the time to first frame with the measured ones:
            error in ms and %. --fit searches the cost scale (or overhead) whose
            simulated median is closest to the measured median; the first frame
            moves in whole frames, so the fit also reports the range of values
            that give the same median.

            With --trace, a trace of one launch (any format import reads): each
            task's measured start and end (slices named after the scenario's
            tasks) against the simulated ones, aligned at the first item both
            have; the largest errors first, the first frame, and where the model
            runs early or late. --gantt draws both on one time axis. See
            docs/import.md.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let tracePath = args.string(Options.trace)
        guard let measuredPath = args.string(Options.measured) else {
            guard let tracePath else {
                throw CLIError.usage(
                    spec, "missing option '--measured <file>' or '--trace <file>': the launches to compare with")
            }
            for option in [Options.fit, Options.out, Options.plot, Options.benchmark] where args.isGiven(option) {
                throw CLIError.usage(spec, "'--\(option.name)' works with '--measured', not with '--trace' alone")
            }
            return try runTrace(args, trace: tracePath, &streams)
        }
        if args.isGiven(Options.gantt), tracePath == nil {
            throw CLIError.usage(spec, "'--gantt' draws the comparison with a trace: it needs '--trace'")
        }
        if tracePath != nil, args.format() == .json {
            throw CLIError.usage(spec, "'--format json' takes '--measured' or '--trace', not both: run it twice")
        }
        let fitKind = args.choice(Options.fit, as: CalibrationFit.Kind.self)
        if args.isGiven(Options.out), fitKind == nil {
            throw CLIError.usage(spec, "'--out' writes the calibrated scenario: it needs '--fit'")
        }
        let runs = try args.integer(Options.runs, default: 1000)
        let options = try args.simulationOptions()
        let seed = try args.seed(Options.seed)
        let jobs = try args.jobs()
        let scenario = try args.loadScenario()
        let request = CalibrationRequest(
            strategy: args.strategy(for: scenario), options: options, runs: runs, seed: seed, jobs: jobs, fit: fitKind)
        let calibration: Calibration
        do {
            let measured = try MeasuredLaunches.load(path: measuredPath, benchmark: args.string(Options.benchmark))
            // A fit over sampled launches can take a while: a line with the time taken on a terminal.
            let working = WorkingLine("calibrate: simulating and fitting", streams: streams)
            defer { working?.finish() }
            calibration = try Calibration.run(scenario, measured: measured, request: request)
        } catch {
            streams.writeError(error.log.text)
            return 2
        }

        // Everything is computed before anything is written.
        var log = ImportLog()
        var files: [(path: String, bytes: [UInt8])] = []
        if let out = args.string(Options.out) {
            do {
                let original = try ScenarioLoader.readFile(args.positionals[0])
                files.append((out, try calibration.calibratedScenario(original, path: out, log: &log)))
            } catch let error as ImportError {
                streams.writeError(error.log.text)
                return 2
            } catch let error as ScenarioError {
                throw CLIError.diagnostics(error.problems)
            } catch {
                throw CLIError.input("\(error)")
            }
        }
        if let plot = args.string(Options.plot) {
            do {
                files.append((plot, try CalibrationChart(calibration).svg()))
            } catch {
                throw CLIError.input(error.description)
            }
        }
        for file in files {
            do {
                try writeFileAtomically(file.bytes, to: file.path)
            } catch {
                throw CLIError.input(error.description)
            }
        }
        streams.writeError(log.text)
        if args.format() == .json {
            streams.write(calibration.json(plot: args.string(Options.plot), out: args.string(Options.out)))
        } else {
            streams.write(calibration.text(plot: args.string(Options.plot), out: args.string(Options.out)))
        }
        if let tracePath {
            streams.write("\n")
            return try runTrace(args, trace: tracePath, &streams)
        }
        return 0
    }

    /// `--trace`: the tasks of one traced launch against the simulated ones.
    static func runTrace(_ args: ParsedArguments, trace: String, _ streams: inout any OutputStreams) throws(CLIError)
        -> Int32
    {
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let strategy = args.strategy(for: scenario)
        let comparison: TraceComparison
        do {
            comparison = try TraceComparison.run(
                scenario, trace: trace, strategy: strategy, options: options,
                importOptions: ImportOptions(
                    mainThread: args.string(Options.mainThread), process: args.string(Options.process)))
        } catch {
            streams.writeError(error.log.text)
            return 2
        }
        if let gantt = args.string(Options.gantt) {
            do {
                try writeFileAtomically(try TraceComparisonChart(comparison).svg(), to: gantt)
            } catch {
                throw CLIError.input("\(error)")
            }
        }
        streams.writeError(comparison.log.text)
        if args.format() == .json {
            streams.write(comparison.json(gantt: args.string(Options.gantt)))
        } else {
            var text = comparison.text()
            if let gantt = args.string(Options.gantt) { text += TerminalText.escape("Gantt: \(gantt)") + "\n" }
            streams.write(text)
        }
        return 0
    }
}
