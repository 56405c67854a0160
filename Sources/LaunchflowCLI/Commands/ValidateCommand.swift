import LaunchflowCore

/// `launchflow validate`: "ok" and a summary, or every problem.
enum ValidateCommand {
    enum Options {
        static let strict = OptionSpec.flag("strict", "Treat warnings as errors (exit 2).")
        static let verbose = OptionSpec.flag(
            "verbose", "List every warning (default: the first two of each kind and a count).")
    }

    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check a scenario file: 'ok' and a one-line summary, or every problem in it.",
        arguments: [.scenario],
        options: [
            Options.strict,
            Options.verbose,
        ],
        discussion: """
            Besides errors (exit 2), validate warns (exit 0, on stderr, each line
            starting 'warning: ') about a valid scenario that will not launch as
            probably meant:
              - a dependency on a task in a later priority tier: a guaranteed
                dependency violation under the priority strategy;
              - a dependency inside one tier that the priority strategy does not
                order (two worker tasks, or a worker and a main-thread task: a
                possible violation; a main-thread task later in the file: a
                guaranteed one);
              - a firstFrame task that needs, directly or through other tasks, a
                task in a later tier: the first frame is drawn without it;
              - a task nothing depends on and the first frame does not need that
                the serial strategy runs before the last firstFrame task;
              - an idle task or a delayed task that the first frame needs;
              - anchors that keep didFinishLaunching blocked for a frame or more;
              - a main-thread task that neither the first frame nor an anchor
                waits for but that runs before the first frame under dag:
                "after": "firstFrame" would gain what the warning says
                (measured by simulating again).
            Warnings of one kind beyond the first two are counted, not listed
            (--verbose lists them all). With --strict each warning is an error:
            'error: ' lines, every one, exit 2.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let scenario = try args.loadScenario()
        let file = args.positionals[0]
        let warnings = Lint.warnings(scenario, file: file)
        if args.isGiven(Options.strict) && !warnings.isEmpty {
            let total = Diagnostic(
                file: file, message: "\(plural(warnings.count, "warning")) (--strict makes warnings errors)")
            throw CLIError.diagnostics(warnings.map { $0.problem.with(.error) } + [total])
        }
        if !warnings.isEmpty {
            streams.writeError(listing(warnings, file: file, verbose: args.isGiven(Options.verbose)))
        }
        var line = "ok: \(file): \(summary(of: scenario))"
        if !warnings.isEmpty { line += "; \(plural(warnings.count, "warning"))" }
        streams.writeText(line + "\n")
        return 0
    }

    /// Each warning on a line; without `verbose`, of each rule only the first
    /// two and then one line with how many more there are.
    static func listing(_ warnings: [LintWarning], file: String, verbose: Bool) -> String {
        let shown = 2
        var seen: [LintWarning.Rule: Int] = [:]
        var out = ""
        var hidden: [(rule: LintWarning.Rule, count: Int)] = []
        for warning in warnings {
            let k = seen[warning.rule, default: 0]
            seen[warning.rule] = k + 1
            if verbose || k < shown { out += displayEscaped(warning.description) + "\n" }
        }
        guard !verbose else { return out }
        // In the order the rules first appear (the listing's order), not the dictionary's.
        var counted = Set<LintWarning.Rule>()
        for warning in warnings where counted.insert(warning.rule).inserted {
            let count = seen[warning.rule]!
            if count > shown { hidden.append((warning.rule, count - shown)) }
        }
        for (rule, count) in hidden {
            out += "warning: \(displayEscaped(file)): … and \(count) more \(rule.title) (--verbose lists them)\n"
        }
        return out
    }

    /// "Example app — 2 tasks (1 main-thread only), 1 tier, 1 dependency; 4 cores, 60 Hz; pre-main 92 ms".
    static func summary(of scenario: Scenario) -> String {
        let tasks = scenario.tasks
        let mainOnly = tasks.filter(\.mainThreadOnly).count
        let tiers = Set(tasks.map(\.priority)).count
        let dependencies = tasks.reduce(0) { $0 + $1.dependsOn.count }
        let device = scenario.device
        var text = "\(scenario.name) — \(plural(tasks.count, "task")) (\(mainOnly) main-thread only)"
        text += ", \(plural(tiers, "tier")), \(plural(dependencies, "dependency", "dependencies"))"
        text += "; \(device.cores) cores"
        if let cpus = device.cpus { text += " sharing \(plural(cpus, "CPU"))" }
        if device.cpus != nil && device.mainThreadPriority { text += " (main thread first)" }
        if device.hasClusters { text += " on \(Device.clusterText(device.clusters))" }
        text += ", \(LaunchflowCore.formatNumber(device.refreshRate)) Hz"
        if scenario.mainExecutor != .dispatch { text += ", main executor \(scenario.mainExecutor.rawValue)" }
        text += "; pre-main \(formatMillis(scenario.preMainTotal)) ms"
        if !scenario.launchPhases.isEmpty {
            text +=
                "; \(plural(scenario.launchPhases.count, "launch phase")), starting in \(scenario.startsIn ?? Scenario.defaultStartsIn)"
        }
        return text
    }

    private static func plural(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) \(n == 1 ? one : many ?? one + "s")"
    }
}
