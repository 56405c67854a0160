import LaunchflowCore

/// `launchflow validate`: "ok" and a summary, or every problem.
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check a scenario file: 'ok' and a one-line summary, or every problem in it.",
        arguments: [.scenario],
        options: [])

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let scenario = try args.loadScenario()
        streams.write("ok: \(args.positionals[0]): \(summary(of: scenario))\n")
        return 0
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
        text += "; \(device.cores) cores, \(LaunchflowCore.formatNumber(device.refreshRate)) Hz"
        text += "; pre-main \(formatMillis(scenario.preMainTotal)) ms"
        return text
    }

    private static func plural(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) \(n == 1 ? one : many ?? one + "s")"
    }
}
