import LaunchflowCore

/// `launchflow check`: the regression gate — budgets and a baseline; exit 1 on a regression.
enum CheckCommand {
    enum Options {
        static let budget = OptionSpec(
            name: "budget", value: "<metric=value>",
            help:
                "A limit for every strategy, e.g. timeToFirstFrameMs=400\n(times in ms; cpuUtilization as 0.4 or 40%). Repeatable;\nreplaces the scenario's budget for the same metric.",
            repeatable: true)
        static let baseline = OptionSpec(
            name: "baseline", value: "<file>",
            help: "A saved run to compare with: the output of\n'launchflow baseline' (or 'compare --format json').")
        static let tolerance = OptionSpec(
            name: "tolerance", value: "<t>",
            help:
                "How far a metric may get worse than the baseline:\n5% (of the baseline value), 3ms (time metrics only), or\nboth, 2%,1ms (the larger allowance). Default: 0."
        )
        static let gate = OptionSpec(
            name: "gate", value: "<metric>",
            help:
                "Also gate this metric against the baseline (repeatable):\ncpuUtilization, frames, criticalPathMs or lowerBoundMs,\nwhich are reported but not gated by default.",
            repeatable: true)
        static let verbose = OptionSpec.flag(
            "verbose", "Print every check, also when all of them hold\n(a failure always prints them).")
    }

    static let spec = CommandSpec(
        name: "check",
        abstract: "Hold a scenario's metrics against budgets and a baseline; exit 1 on a regression.",
        arguments: [.scenario],
        options: [
            Options.budget,
            Options.baseline,
            Options.tolerance,
            Options.gate,
            .strategies,
            .maxConcurrent,
            .idleMode,
            .textOrJSON,
            Options.verbose,
        ],
        discussion: """
            Simulates the scenario under each strategy and checks:
              budgets   from the scenario's "budgets" object and --budget. A budget
                        is an upper limit (for cpuUtilization, where higher is
                        better, a lower limit); it applies to every strategy.
              baseline  every metric against the saved run. The gated ones —
                        the times (first frame, launch complete, main thread
                        busy and blocked, input delay) and the dependency
                        violations — regress when they get worse by more than
                        the tolerance; getting better never fails. The others
                        (cpuUtilization, frames, criticalPathMs, lowerBoundMs)
                        are context: reported, gated only with --gate or a
                        budget. So a uniform speed-up passes.
                        Metrics the baseline lacks are reported, not checked.
            Record the baseline with the same --strategies and --max-concurrent.

            Exit status: 0 every check holds, 1 a regression or a budget
            exceeded, 2 bad input (unreadable or malformed baseline, unknown
            metric, a strategy missing from the baseline, nothing to check).

            Example (CI):
              launchflow baseline app.json > launch-baseline.json   # commit it
              launchflow check app.json --baseline launch-baseline.json --tolerance 2%
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies()
        let options = try args.simulationOptions()
        var optionBudgets: [CheckBudget] = []
        for text in args.strings(Options.budget) {
            switch CheckBudget.parse(text) {
            case .success(let budget):
                if optionBudgets.contains(where: { $0.metric == budget.metric }) {
                    throw CLIError.usage(spec, "'--budget \(budget.metric.rawValue)=…' given more than once")
                }
                optionBudgets.append(budget)
            case .failure(let error):
                throw CLIError.usage(spec, error.message)
            }
        }
        var tolerance = Tolerance.zero
        if let text = args.string(Options.tolerance) {
            guard let parsed = Tolerance(parsing: text) else {
                throw CLIError.usage(
                    spec,
                    "invalid value '\(text)' for '--tolerance': expected a percentage (5%, at most 1000%), milliseconds (3ms, at most 3600000ms) or both (2%,1ms)"
                )
            }
            guard args.isGiven(Options.baseline) else {
                throw CLIError.usage(spec, "'--tolerance' applies to '--baseline' only (budgets are hard limits)")
            }
            tolerance = parsed
        }
        var gates = Set<Metric>()
        for name in args.strings(Options.gate) {
            guard let metric = Metric(rawValue: name) else {
                let hint = closestMatch(to: name, in: Metric.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" }
                throw CLIError.usage(
                    spec,
                    "unknown metric '\(name)' for '--gate'"
                        + (hint ?? "; metrics: " + Metric.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            gates.insert(metric)
        }
        if !gates.isEmpty && !args.isGiven(Options.baseline) {
            throw CLIError.usage(spec, "'--gate' applies to '--baseline' (a budget always gates its metric)")
        }
        let scenario = try args.loadScenario()
        var baseline: Baseline?
        if let path = args.string(Options.baseline) {
            do {
                baseline = try Baseline.load(path: path)
            } catch {
                throw CLIError.diagnostics([error.diagnostic])
            }
        }
        let budgets = Check.budgets(scenario: scenario.budgets, options: optionBudgets)
        if budgets.isEmpty && baseline == nil {
            throw CLIError.usage(
                spec,
                "nothing to check: give --baseline FILE or --budget METRIC=VALUE, or add \"budgets\" to the scenario")
        }
        let request = CheckRequest(
            budgets: budgets, baseline: baseline, tolerance: tolerance, strategies: strategies, options: options,
            gates: gates)
        let report: CheckReport
        do {
            report = try Check.run(scenario, file: args.positionals[0], request: request)
        } catch {
            throw CLIError.diagnostics([error.diagnostic])
        }
        if args.format() == .json {
            streams.write(report.json())
        } else {
            streams.writeText(report.text(verbose: args.isGiven(Options.verbose)))
        }
        return report.passed ? 0 : 1
    }
}
