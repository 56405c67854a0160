import Foundation
import LaunchflowCore
import LaunchflowImport

/// `launchflow advise`: a plan — `after`, priorities, idle work — that brings the first frame forward.
enum AdviseCommand {
    enum Options {
        static let allow = OptionSpec(
            name: "allow", value: "<list>",
            help:
                "What the plan may change, comma-separated: after, priority,\nidle, anchor, qos, strategy (default: after,priority,idle,\nqos, and strategy unless --strategy is given)."
        )
        static let keep = OptionSpec(
            name: "keep", value: "<ids>", help: "Comma-separated task ids the plan leaves as written.")
        static let objective = OptionSpec(
            name: "objective", value: "<metric>",
            help: "What to bring forward first: the first frame or full display.",
            choices: AdviseObjective.allCases.map(\.rawValue), defaultValue: AdviseObjective.firstFrame.rawValue)
        static let maxBlocked = OptionSpec(
            name: "max-blocked", value: "<ms>",
            help: "Most time the main thread may be blocked in\ndidFinishLaunching (ms).")
        static let maxRegression = OptionSpec(
            name: "max-regression", value: "<metric=limit>",
            help:
                "How much a metric may grow against the scenario as written:\nlaunchComplete=10%, timeToFullDisplay=0ms (repeatable,\nor comma-separated).",
            repeatable: true)
        static let minMargin = OptionSpec(
            name: "min-margin", value: "<ms>",
            help:
                "A plan whose first frame is ready less than this before its\nvsync wins its frame by a hair: fragile (default: 1)."
        )
        static let runs = OptionSpec(
            name: "runs", value: "<n>",
            help:
                "Also check the plan on n launches with sampled costs (costP90,\nlatencyP90, jitter): p50 and p90 (default: 0, none).",
            range: 0...1_000_000)
        static let seed = OptionSpec(
            name: "seed", value: "<s>", help: "Seed of the sampled launches, an integer 0 … 2⁶⁴−1 (default: 1).")
        static let out = OptionSpec(
            name: "out", value: "<plan.json>",
            help: "Write the plan as a scenario file: the input with only the\nchanged keys changed.")
        static let format = OptionSpec(
            name: "format", value: "<format>", help: "text, markdown or json (default: text).",
            choices: ["text", "markdown", "json"])
    }

    static let spec = CommandSpec(
        name: "advise",
        abstract: "Find the after/priority/idle changes that bring the first frame (or full display) forward.",
        arguments: [.scenario],
        options: [
            .strategy,
            Options.allow,
            Options.keep,
            Options.objective,
            Options.maxBlocked,
            Options.maxRegression,
            Options.minMargin,
            Options.runs,
            Options.seed,
            .jobs,
            Options.out,
            Options.format,
            .maxConcurrent,
            .idleMode,
            platformOption,
        ],
        discussion: """
            The plan changes only how the app schedules its work: 'after' on tasks
            the first frame does not wait for (nor any anchor, directly or not),
            'priority' values (the rank order), 'idle' on main-thread tasks the
            first frame does not wait for and, when allowed, 'anchor' on tasks it
            waits for. Costs, dependencies, threads, latencies, delays, queues,
            the device and everything else stay as written.

            The search starts from the scenario as written, 'defer everything the
            first frame does not need', critical-path-first ranks (the longest
            path to the first frame first) and both together, then improves the
            best by local search with the engine, one key of one task at a time.
            Plans are compared by the objective, then the first frame before
            vsync, full display, launch completion and the number of changes; a
            plan that breaks a constraint loses to any that keeps them. The
            search stops improving the objective once it reaches the first-frame
            bound. Each change's effect is measured by taking it out of the plan.

            The output is the same for any --jobs. Exit status 2, and nothing
            written, for bad input or a constraint no plan meets. A progress bar
            is drawn on stderr when it is a terminal.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        var configuration = AdviseConfiguration()
        configuration.knobs = try knobs(args)
        configuration.keep = list(args.string(Options.keep))
        configuration.objective = args.choice(Options.objective, as: AdviseObjective.self) ?? .firstFrame
        try constraints(args, into: &configuration)
        configuration.runs = try args.integer(Options.runs, default: 0)
        configuration.seed = try args.seed(Options.seed)
        configuration.jobs = try args.jobs()
        configuration.options = try args.simulationOptions()
        configuration.platform = args.choice(platformOption, as: Platform.self)
        let scenario = try args.loadScenario()
        configuration.strategy = args.strategy(for: scenario)

        let budget = configuration.totalBudget(taskCount: scenario.tasks.count)
        let bar =
            streams is StandardStreams && isatty(2) == 1 ? ProgressBar(total: budget, unit: "simulations at most") : nil
        var progress: (@Sendable (Int, Int) -> Void)? = nil
        if let bar { progress = { done, _ in bar.update(done) } }
        let plan: AdvicePlan
        do {
            plan = try Advise.plan(scenario, configuration, progress: progress)
        } catch {
            bar?.finish()
            throw CLIError.input(error.message)
        }
        bar?.finish()
        if let out = args.string(Options.out) {
            let schema = plan.scenario.schema.map { rebasedPath($0, from: args.positionals[0], to: out) }
            let bytes = planFile(plan, plan.scenario.withSchema(schema), input: args.positionals[0], out: out, &streams)
            do {
                try writeFileAtomically(bytes, to: out)
            } catch {
                throw CLIError.input(error.description)
            }
        }
        switch args.format(Options.format) {
        case .json:
            var writer = JSONWriter(capacity: 200 * plan.changes.count + 4096)
            writer.advice(plan)
            streams.write(writer.bytes)
        case .markdown: streams.writeText(AdviseReport.markdown(plan))
        case .text, .trace: streams.writeText(AdviseReport.text(plan))
        }
        return 0
    }

    /// The plan file: the input file with only the changed keys changed
    /// (``ScenarioText/edited(from:to:file:)``, checked to decode to the
    /// plan); when that cannot be done (the input changed since it was read,
    /// say), the whole plan from the scenario writer, with a warning.
    static func planFile(
        _ plan: AdvicePlan, _ scenario: Scenario, input: String, out: String, _ streams: inout any OutputStreams
    ) -> [UInt8] {
        let reason: String
        do {
            let bytes = try ScenarioLoader.readFile(input)
            do {
                return try ScenarioText(bytes).edited(from: plan.written, to: scenario, file: out)
            } catch let error as JSONSyntaxError {
                let (line, column) = error.location(in: bytes)
                reason = "invalid JSON at \(line):\(column): \(error.message)"
            } catch {
                reason = "\(error)"
            }
        } catch {
            reason = error.description
        }
        streams.writeError(
            TerminalText.escape(
                "warning: \(input) could not be edited in place (\(reason)); \(out) is the whole plan as the scenario writer writes it"
            ) + "\n")
        return scenario.jsonBytes()
    }

    /// `--platform ios|android`: the words each change's mechanism is named in.
    static let platformOption = OptionSpec(
        name: "platform", value: "<platform>",
        help: "Name each change's mechanism on ios or android (default:\nthe scenario's \"platform\", else both).",
        choices: Platform.allCases.map(\.rawValue))

    /// `--max-blocked`, `--min-margin` and `--max-regression` (advise's, and report's with `--advise`).
    static func constraints(_ args: ParsedArguments, into configuration: inout AdviseConfiguration) throws(CLIError) {
        /// A value of ms ≥ 0 given to `option`, in µs; `example` in the error.
        func milliseconds(_ option: OptionSpec, example: Int) throws(CLIError) -> Micros? {
            guard let text = args.string(option) else { return nil }
            guard let ms = Double(text), ms.isFinite, ms >= 0, ms <= 3_600_000 else {
                throw args.usage(
                    "invalid value '\(text)' for '--\(option.name)': expected a number of ms ≥ 0, such as \(example)")
            }
            return microseconds(fromMilliseconds: ms)
        }
        if let limit = try milliseconds(Options.maxBlocked, example: 5) { configuration.maxBlocked = limit }
        if let margin = try milliseconds(Options.minMargin, example: 1) { configuration.minMargin = margin }
        for text in args.strings(Options.maxRegression) {
            for item in list(text) { configuration.maxRegressions.append(try regression(item, args)) }
        }
    }

    /// The options of advise's constraints, for another command that runs advise.
    static var constraintOptions: [OptionSpec] { [Options.maxBlocked, Options.maxRegression, Options.minMargin] }

    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `--allow`, for advise or report --advise.
    /// Without `--allow`, the task keys but `anchor`, and the strategy unless `--strategy` pins it.
    static func knobs(_ args: ParsedArguments) throws(CLIError) -> [AdviseKnob] {
        let pinned = args.isGiven(.strategy)
        guard let text = args.string(Options.allow) else { return AdviseKnob.defaults(strategyPinned: pinned) }
        var knobs: [AdviseKnob] = []
        for name in list(text) {
            guard let knob = AdviseKnob(rawValue: name) else {
                let names = AdviseKnob.allCases.map(\.rawValue)
                throw args.usage(
                    "unknown knob '\(name)' in '--allow': expected some of \(names.joined(separator: ", "))\(didYouMean(name, in: names))"
                )
            }
            if knob == .strategy && pinned {
                throw args.usage(
                    "'--allow strategy' lets the plan change the strategy, which '--strategy' pins: give one of them")
            }
            if !knobs.contains(knob) { knobs.append(knob) }
        }
        guard !knobs.isEmpty else {
            let names = AdviseKnob.allCases.map(\.rawValue).joined(separator: ", ")
            throw args.usage("'--allow' needs at least one of \(names), comma-separated")
        }
        return knobs
    }

    /// `launchComplete=10%` or `timeToFullDisplay=0ms` (the metric with or without its `Ms`).
    static func regression(_ text: String, _ args: ParsedArguments) throws(CLIError) -> AdviseRegressionLimit {
        let names = AdviseRegressionLimit.metrics.map { String($0.rawValue.dropLast(2)) }
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw args.usage(
                "invalid value '\(text)' for '--max-regression': expected metric=limit, such as launchComplete=10%")
        }
        let name = parts[0].hasSuffix("Ms") ? String(parts[0].dropLast(2)) : parts[0]
        guard let k = names.firstIndex(of: name) else {
            throw args.usage(
                "unknown metric '\(parts[0])' in '--max-regression': expected one of \(names.joined(separator: ", "))\(didYouMean(name, in: names))"
            )
        }
        let metric = AdviseRegressionLimit.metrics[k]
        let value = parts[1]
        if value.hasSuffix("%"), let percent = Double(value.dropLast()), percent.isFinite, percent >= 0 {
            return AdviseRegressionLimit(metric: metric, allowance: .share(percent / 100))
        }
        if value.hasSuffix("ms"), let ms = Double(value.dropLast(2)), ms.isFinite, ms >= 0, ms <= 3_600_000 {
            return AdviseRegressionLimit(metric: metric, allowance: .micros(microseconds(fromMilliseconds: ms)))
        }
        throw args.usage(
            "invalid limit '\(value)' for '\(parts[0])' in '--max-regression': expected a percentage (10%) or milliseconds (5ms), ≥ 0"
        )
    }
}

/// `path`, relative to the folder of the file `from` (a URL or an absolute
/// path is kept), as a path relative to the folder of the file `to`:
/// `scenario.schema.json` from `scenarios/app.json` to `plans/app.json` is
/// `../scenarios/scenario.schema.json`.
func rebasedPath(_ path: String, from: String, to: String) -> String {
    if path.hasPrefix("/") || path.contains("://") { return path }
    /// `parts` followed from `base`, `.` and `..` resolved.
    func walk(_ parts: some Sequence<Substring>, from base: [String]) -> [String] {
        var result = base
        for part in parts {
            switch part {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(String(part))
            }
        }
        return result
    }
    func folder(_ file: String) -> [String] {
        let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        return walk(absolute.split(separator: "/").dropLast(), from: [])
    }
    let target = walk(path.split(separator: "/"), from: folder(from))
    let base = folder(to)
    var common = 0
    while common < min(base.count, target.count - 1) && base[common] == target[common] { common += 1 }
    let up = [String](repeating: "..", count: base.count - common)
    return (up + target[common...]).joined(separator: "/")
}
