import Foundation
import LaunchflowCore
import LaunchflowRender

/// `launchflow sweep`: Monte-Carlo launches with sampled task costs.
enum SweepCommand {
    enum Options {
        static let runs = OptionSpec(
            name: "runs", value: "<n>", help: "Sampled launches (1 … 1,000,000; default: 1000).", range: 1...1_000_000)
        static let out = OptionSpec(
            name: "out", value: "<dir>",
            help:
                "Also write <name>-sweep.svg there (created if missing):\nthe time-to-first-frame distributions on one axis, and\nreport.html (as 'report' writes it, with this sweep)."
        )
    }

    static let spec = CommandSpec(
        name: "sweep",
        abstract: "Run many launches with sampled task costs: percentiles per strategy, how often each is best.",
        arguments: [.scenario],
        options: [
            Options.runs,
            .seed,
            .strategies,
            .jitter,
            .jobs,
            .maxConcurrent,
            .idleMode,
            .textOrJSON,
            Options.out,
        ],
        discussion: """
            Each run draws every task's cost from a lognormal whose median is the
            task's cost: tasks with costP90 have that 90th percentile; the others
            use the scenario's jitter (or --jitter) as σ, or keep their cost. The
            same sampled costs are used for every strategy in a run, so the
            strategies are compared pairwise. Reports the mean, p50, p90, p99 and
            max of the time to first frame and the launch completion (percentiles
            by nearest rank), and in how many runs each strategy was best (ties
            count for each tied strategy) and sole best.

            Runs are spread over --jobs threads; run r's costs depend only on the
            seed and r, so the output is byte-identical for any --jobs. A progress
            bar is drawn on stderr when it is a terminal.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let runs = try args.integer(Options.runs, default: 1000)
        let seed = try args.seed()
        let strategies = try args.strategies()
        let jitter = try args.jitter()
        let jobs = try args.jobs()
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let sampler: CostSampler
        do throws(ScenarioError) {
            sampler = try CostSampler(scenario, jitter: jitter)
        } catch {
            throw CLIError.diagnostics(
                error.problems.map { problem in
                    var problem = problem
                    problem.file = args.positionals[0]
                    return problem
                })
        }
        for task in sampler.ignoredP90Tasks {
            let note = Diagnostic(
                .warning, file: args.positionals[0], path: "tasks[\(task)].costP90", taskID: scenario.tasks[task].id,
                message: "the task's cost (its median) is 0, so it always costs 0 ms; costP90 is ignored")
            streams.writeError("\(note)\n")
        }
        let configuration = SweepConfiguration(
            runs: runs, seed: seed, strategies: strategies, options: options, jobs: jobs)
        let bar = streams is StandardStreams && isatty(2) == 1 ? ProgressBar(total: runs) : nil
        var progress: (@Sendable (Int) -> Void)? = nil
        if let bar { progress = { done in bar.update(done) } }
        let result = Sweep(engine: LaunchEngine(scenario), sampler: sampler).run(configuration, progress: progress)
        bar?.finish()

        var pictures: [String] = []
        if let directory = args.string(Options.out) {
            let bytes: [UInt8]
            do throws(RenderError) {
                bytes = try DistributionChart(result).svg()
            } catch {
                throw CLIError.input(error.description)
            }
            let file = RenderedFile(name: DistributionChart.fileName(args.scenarioStem), bytes: bytes)
            let page = Report.make(
                scenario, file: args.positionals[0], strategies: strategies, options: options, jobs: jobs, sweep: result
            )
            let html: [UInt8]
            do {
                html = try page.html()
            } catch {
                throw CLIError.input(error.description)
            }
            pictures = try RenderCommand.write(
                [file, RenderedFile(name: Report.fileName, bytes: html)], into: directory)
        }
        if args.format() == .json {
            var writer = JSONWriter(capacity: 1024 * strategies.count + 1024)
            writer.sweep(result, pictures: pictures)
            writer.newline()
            streams.write(writer.bytes)
        } else {
            streams.writeText(UncertaintyReport.sweep(result, pictures: pictures))
        }
        return 0
    }
}

extension OptionSpec {
    static let jobs = OptionSpec(
        name: "jobs", value: "<n>",
        help: "Threads to use (1 … 1024; default: the number of cores).\nThe output is the same for any value.",
        range: 1...1024)
    static let seed = OptionSpec(
        name: "seed", value: "<s>",
        help: "Base seed, an integer 0 … 2⁶⁴−1 (default: 1). The same seed\ngives the same output.")
    static let jitter = OptionSpec(
        name: "jitter", value: "<σ>",
        help:
            "Lognormal σ for tasks without costP90, instead of the\nscenario's jitter (a number ≥ 0; 0: fixed costs).")
}

extension ParsedArguments {
    /// A seed option (`--seed` by default): a decimal integer 0 … 2⁶⁴−1, default 1.
    func seed(_ option: OptionSpec = .seed) throws(CLIError) -> UInt64 {
        guard let text = string(option) else { return 1 }
        guard let seed = UInt64(text) else {
            throw usage(
                "invalid value '\(text)' for '--\(option.name)': expected an integer from 0 to 18446744073709551615")
        }
        return seed
    }

    /// `--jitter`: a finite number ≥ 0, or nil.
    func jitter() throws(CLIError) -> Double? {
        guard let text = string(.jitter) else { return nil }
        guard let sigma = Double(text), sigma.isFinite, sigma >= 0 else {
            throw usage("invalid value '\(text)' for '--jitter': expected a number ≥ 0 (the lognormal σ)")
        }
        return sigma
    }

    /// `--jobs`, or every core.
    func jobs() throws(CLIError) -> Int { try integer(.jobs, default: Parallel.availableCores) }
}
