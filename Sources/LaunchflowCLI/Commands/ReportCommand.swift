import Foundation
import LaunchflowCore
import LaunchflowImport
import LaunchflowRender

/// `launchflow report`: one self-contained HTML page about the launch.
enum ReportCommand {
    enum Options {
        static let advise = OptionSpec.flag(
            "advise",
            "Add advise's plan: as written and the plan on one time\naxis, the changes with their gains, the first-frame bound."
        )
        static let out = OptionSpec(
            name: "out", value: "<file.html>",
            help: "The page to write (default: output/<name>-report.html;\nits directory is created if missing).")
        static let trace = OptionSpec(
            name: "trace", value: "<file>",
            help:
                "Add a traced launch against the simulated one (dag, or\nthe first strategy shown), task by task: the overlay\nGantt and the largest errors (as calibrate --trace)."
        )
        static let baseline = OptionSpec(
            name: "baseline", value: "<old.json>",
            help:
                "Compare with an earlier version of the scenario (as 'diff\nOLD NEW'): the metrics old → new, the changes and their\neffects, both versions' Gantt charts on one time axis."
        )
        static let strategy = OptionSpec(
            name: "strategy", value: "<strategy>",
            help:
                "The strategy of --advise's plan (default: the scenario's\n\"strategy\", else dag) and of --baseline's two Gantt charts\n(default: dag, or the first of --strategies).",
            choices: Strategy.allCases.map(\.rawValue))
        static let allow = OptionSpec(
            name: "allow", value: "<list>",
            help:
                "With --advise: what the plan may change (default:\nafter,priority,idle,qos and strategy unless --strategy\nis given; as advise --allow)."
        )
        static let keep = OptionSpec(
            name: "keep", value: "<ids>", help: "With --advise: task ids the plan leaves as written.")
        static let objective = OptionSpec(
            name: "objective", value: "<metric>",
            help: "With --advise: what to bring forward first (default:\nfirstFrame).",
            choices: AdviseObjective.allCases.map(\.rawValue))
        static let platform = OptionSpec(
            name: "platform", value: "<platform>",
            help: "With --advise: name each change's mechanism on ios or\nandroid (as advise --platform).",
            choices: Platform.allCases.map(\.rawValue))
    }

    static let spec = CommandSpec(
        name: "report",
        abstract: "Write one self-contained, interactive HTML page: the comparison, pictures, what to optimise.",
        arguments: [.scenario],
        options: [
            Options.out,
            .strategies,
            .maxConcurrent,
            .idleMode,
            .device,
            .clusters,
            .tiers,
            .jobs,
            Options.trace,
            Options.baseline,
            Options.advise,
            Options.strategy,
            Options.allow,
            Options.keep,
            Options.objective,
            Options.platform,
        ]
            + AdviseCommand.constraintOptions.map { option in
                var option = option
                option.help =
                    "With --advise: as advise --\(option.name)."
                return option
            },
        discussion: """
            The page holds, inline (no network; it works from file://): the time to
            first frame and launch completion per strategy and the best strategy
            that keeps every dependency; the comparison table; lint warnings; the
            Gantt charts on one zoomable time axis; the task graph; with cost
            uncertainty (costP90, jitter) a sweep of 1000 sampled launches; and
            the 'whatif' top ten under the best correct strategy.
            Hover or click a task in any picture or table to highlight it
            everywhere and see its card; page.html#task=ID opens with that task
            selected. The file is replaced atomically; 'wrote <path>' is printed, as
            render prints it.

            --baseline OLD.json puts the scenario against an earlier version, the
            page a reviewer opens in a pull request: first frame, full display and
            launch complete old → new per strategy, better or worse; every metric
            old → new; 'diff''s changes ordered by their effect, tasks added and
            removed; the Gantt charts of both under --strategy (default: dag, or
            the first of --strategies) stacked on the page's time axis.

            --advise adds an Advice section: 'advise''s plan under --strategy
            (--allow, --keep, --objective, --max-blocked and --max-regression
            as for advise), its metrics against the scenario as written, the
            first-frame bound and the gap to it, each change with its measured
            gain, and the Gantt charts of the scenario as written and of the
            plan on the page's time axis.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies()
        let options = try args.simulationOptions()
        let jobs = try args.jobs()
        let advise = try adviseConfiguration(args, options: options, jobs: jobs)
        let scenario = try args.loadScenario()
        var baseline: Scenario?
        if let file = args.string(Options.baseline) { baseline = try DiffCommand.load(file) }
        let path = args.string(Options.out) ?? "output/\(args.scenarioStem)-report.html"
        var advice: ReportAdvice?
        if var advise {
            advise.strategy = args.strategy(for: scenario)
            advice = ReportAdvice(try plan(scenario, advise, streams: streams))
        }
        let working = WorkingLine("report: simulating, sampling and drawing", streams: streams)
        defer { working?.finish() }
        var report = Report.make(
            scenario, file: args.positionals[0], strategies: strategies, options: options, jobs: jobs,
            tiers: args.tiers())
        report.advice = advice
        if let baseline, let file = args.string(Options.baseline) {
            report.baseline = ReportBaseline(
                old: baseline, oldFile: file, new: scenario, newFile: args.positionals[0], strategies: strategies,
                options: options, panels: args.choice(Options.strategy, as: Strategy.self))
        }
        if let trace = args.string(Options.trace) {
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
        streams.write("wrote \(path)\n")
        return 0
    }

    /// advise's settings when `--advise` is given; its options without it are a usage error.
    static func adviseConfiguration(_ args: ParsedArguments, options: SimulationOptions, jobs: Int) throws(CLIError)
        -> AdviseConfiguration?
    {
        guard args.isGiven(Options.advise) else {
            let adviseOptions =
                [Options.allow, Options.keep, Options.objective] + AdviseCommand.constraintOptions + [Options.platform]
            for option in adviseOptions where args.isGiven(option) {
                throw CLIError.usage(spec, "'--\(option.name)' is an option of '--advise', which is not given")
            }
            if args.isGiven(Options.strategy) && !args.isGiven(Options.baseline) {
                throw CLIError.usage(spec, "'--strategy' is an option of '--advise' and '--baseline', neither is given")
            }
            return nil
        }
        var configuration = AdviseConfiguration()
        // The strategy is set once the scenario is read (its "strategy" is the default).
        configuration.platform = args.choice(Options.platform, as: Platform.self)
        configuration.knobs = try AdviseCommand.knobs(args)
        configuration.keep = AdviseCommand.list(args.string(Options.keep))
        if let objective = args.choice(Options.objective, as: AdviseObjective.self) {
            configuration.objective = objective
        }
        try AdviseCommand.constraints(args, into: &configuration)
        configuration.jobs = jobs
        configuration.options = options
        return configuration
    }

    /// advise's plan, with a progress bar on a terminal once it takes more than a second.
    static func plan(_ scenario: Scenario, _ configuration: AdviseConfiguration, streams: any OutputStreams)
        throws(CLIError) -> AdvicePlan
    {
        let budget = configuration.totalBudget(taskCount: scenario.tasks.count)
        let bar =
            streams is StandardStreams && isatty(2) == 1
            ? ProgressBar(total: budget, unit: "simulations at most (advise)") : nil
        let start = DispatchTime.now().uptimeNanoseconds
        var progress: (@Sendable (Int, Int) -> Void)? = nil
        if let bar {
            progress = { done, _ in
                if DispatchTime.now().uptimeNanoseconds - start > 1_000_000_000 { bar.update(done) }
            }
        }
        defer { bar?.finish() }
        do {
            return try Advise.plan(scenario, configuration, progress: progress)
        } catch {
            throw CLIError.input(error.message)
        }
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
