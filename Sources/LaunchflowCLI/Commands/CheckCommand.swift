import LaunchflowCore

/// `launchflow check`: the regression gate — budgets and a baseline; exit 1 on a regression.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Hold a scenario's metrics against budgets and a baseline; exit 1 on a regression.",
        arguments: [.scenario],
        options: [
            OptionSpec(
                name: "budget", value: "<metric=value>",
                help:
                    "A limit for every strategy, e.g. timeToFirstFrameMs=400\n(times in ms; cpuUtilization as 0.4 or 40%). Repeatable;\nreplaces the scenario's budget for the same metric.",
                repeatable: true),
            OptionSpec(
                name: "baseline", value: "<file>",
                help: "A saved run to compare with: the output of\n'launchflow baseline' (or 'compare --format json')."),
            OptionSpec(
                name: "tolerance", value: "<t>",
                help:
                    "How far a metric may get worse than the baseline:\n5% (of the baseline value) or 3ms (time metrics only).\nDefault: 0."
            ),
            .strategies,
            .maxConcurrent,
            .idleMode,
            .textOrJSON,
        ],
        discussion: """
            Simulates the scenario under each strategy and checks:
              budgets   from the scenario's "budgets" object and --budget. A budget
                        is an upper limit (for cpuUtilization, where higher is
                        better, a lower limit); it applies to every strategy.
              baseline  every metric against the saved run. A metric regresses
                        when it gets worse by more than the tolerance; getting
                        better never fails. frames, criticalPathMs and
                        lowerBoundMs have no better direction: they are reported
                        against the baseline but fail only a budget (when above it).
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
        let strategies = try args.strategies(spec)
        let options = try args.simulationOptions(spec)
        var optionBudgets: [CheckBudget] = []
        for text in args.all("budget") {
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
        if let text = args.value("tolerance") {
            guard let parsed = Tolerance(parsing: text) else {
                throw CLIError.usage(
                    spec, "invalid value '\(text)' for '--tolerance': expected a percentage (5%) or milliseconds (3ms)")
            }
            guard args.value("baseline") != nil else {
                throw CLIError.usage(spec, "'--tolerance' applies to '--baseline' only (budgets are hard limits)")
            }
            tolerance = parsed
        }
        let scenario = try args.loadScenario()
        var baseline: Baseline?
        if let path = args.value("baseline") {
            do {
                baseline = try Baseline.load(path: path)
            } catch {
                throw CLIError.input(error.description)
            }
        }
        let budgets = Check.budgets(scenario: scenario.budgets, options: optionBudgets)
        if budgets.isEmpty && baseline == nil {
            throw CLIError.usage(
                spec,
                "nothing to check: give --baseline FILE or --budget METRIC=VALUE, or add \"budgets\" to the scenario")
        }
        let request = CheckRequest(
            budgets: budgets, baseline: baseline, tolerance: tolerance, strategies: strategies, options: options)
        let report: CheckReport
        do {
            report = try Check.run(scenario, file: args.positionals[0], request: request)
        } catch {
            throw CLIError.input(error.message)
        }
        if args.value("format") == "json" {
            streams.write(report.json())
        } else {
            streams.write(report.text())
        }
        return report.passed ? 0 : 1
    }
}
