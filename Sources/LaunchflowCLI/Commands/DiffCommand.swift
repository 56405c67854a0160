import LaunchflowCore

/// `launchflow diff`: two versions of a scenario — metric deltas, then why.
enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Compare two versions of a scenario: metric deltas, then what changed and its effect.",
        arguments: [
            ArgumentSpec(name: "old", help: "The earlier scenario file (JSON)."),
            ArgumentSpec(name: "new", help: "The later scenario file (JSON)."),
        ],
        options: [
            .strategies,
            .maxConcurrent,
            .idleMode,
            .textOrJSON,
        ],
        discussion: """
            Lists every metric old → new per strategy; then every change — tasks
            added or removed, cost, dependency, priority, mainThreadOnly and
            firstFrame changes, device and pre-main changes — and the tasks that
            entered or left the critical path.

            Changes are ordered by their effect on time to first frame under dag
            (or the first strategy listed): each change is applied alone to OLD,
            which is simulated again, and the change in time to first frame is
            shown per strategy. Effects are measured one at a time and need not
            add up. For very large scenarios with many changes, effects are not
            measured and changes are ordered by their cost change.

            Tasks are matched by id; a renamed task shows as removed and added.
            Exit status: 0 (also when the files differ), 2 bad input.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let strategies = try args.strategies()
        let options = try args.simulationOptions()
        let old = try load(args.positionals[0])
        let new = try load(args.positionals[1])
        let diff = ScenarioDiff(
            old: old, oldFile: args.positionals[0], new: new, newFile: args.positionals[1], strategies: strategies,
            options: options)
        if args.format() == .json {
            streams.write(diff.json())
        } else {
            streams.writeText(diff.text())
        }
        return 0
    }

    /// A scenario file, or every problem in it (exit 2).
    static func load(_ path: String) throws(CLIError) -> Scenario {
        do {
            return try ScenarioLoader.load(path: path)
        } catch {
            throw CLIError.diagnostics(error.problems)
        }
    }
}
