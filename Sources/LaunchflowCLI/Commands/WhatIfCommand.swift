import Foundation
import LaunchflowCore

/// `launchflow whatif`: which task to make faster first.
enum WhatIfCommand {
    enum Options {
        static let reduce = OptionSpec(
            name: "reduce", value: "<share>",
            help:
                "How much cheaper each task is made, in turn: a percentage\nabove 0 and at most 100, % optional (default: 50%)."
        )
        static let target = OptionSpec(
            name: "target", value: "<what>",
            help: "What to reduce: each task's cost, or each task's latency\n(the tasks that have one).",
            choices: WhatIfTarget.allCases.map(\.rawValue), defaultValue: WhatIfTarget.cost.rawValue)
        static let objective = OptionSpec(
            name: "objective", value: "<metric>",
            help:
                "What to rank by: time to first frame (then the first frame\nbefore vsync, then launch completion), or time to full display first.",
            choices: WhatIfObjective.allCases.map(\.rawValue), defaultValue: WhatIfObjective.firstFrame.rawValue)
        static let top = OptionSpec(
            name: "top", value: "<n>", help: "Show only the n best-ranked tasks (default: all).", range: 1...Int.max)
    }

    static let spec = CommandSpec(
        name: "whatif",
        abstract: "Rank the tasks by what making each one cheaper gains; show how much each could grow.",
        arguments: [.scenario],
        options: [
            .strategy,
            Options.reduce,
            Options.target,
            Options.objective,
            Options.top,
            .textOrJSON,
            .jobs,
            .maxConcurrent,
            .idleMode,
        ],
        discussion: """
            For each task, the launch is simulated again with only that task's
            cost reduced by the share (rounded to the µs); its gains are the
            base time to first frame, first frame before vsync rounding, full
            display and launch completion minus the new ones (negative when the
            launch gets slower: schedules are not always monotonic). Tasks are
            ranked by first-frame gain, then the first frame before vsync (a
            saving smaller than a frame shows there), then launch gain;
            '--objective fullDisplay' ranks by time to full display first.

            A task's slack is how much its cost could grow before the first frame
            (with '--objective fullDisplay', full display) moves, found by re-simulation: growths of 1, 2, 4, … µs until the
            frame moves, then bisection to the µs. It is exact when the first
            frame only moves later as the task grows; otherwise it is an upper
            estimate. Growth stops at the base launch completion ('≥' in text,
            "slackCapped": true in JSON); a task that ends after that frame's
            commit cannot move it and is not searched. Uses the scenario's costs
            (medians). A progress bar is drawn on stderr when it is a terminal.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let reduction = try args.reduction()
        let top = try args.integer(Options.top)
        let jobs = try args.jobs()
        let options = try args.simulationOptions()
        let scenario = try args.loadScenario()
        let strategy = args.strategy(for: scenario)
        let target = args.choice(Options.target, as: WhatIfTarget.self) ?? .cost
        let objective = args.choice(Options.objective, as: WhatIfObjective.self) ?? .firstFrame
        let analysed = target == .cost ? scenario.tasks.count : scenario.tasks.filter { $0.latency > 0 }.count
        let bar =
            streams is StandardStreams && isatty(2) == 1 ? ProgressBar(total: analysed, unit: "tasks") : nil
        var progress: (@Sendable (Int) -> Void)? = nil
        if let bar { progress = { done in bar.update(done) } }
        let analysis = WhatIf.analyse(
            LaunchEngine(scenario), strategy: strategy, reduction: reduction, target: target, objective: objective,
            options: options, jobs: jobs, progress: progress)
        bar?.finish()
        if args.format() == .json {
            var writer = JSONWriter(capacity: 200 * scenario.tasks.count + 1024)
            writer.whatIf(analysis, top: top)
            writer.newline()
            streams.write(writer.bytes)
        } else {
            streams.writeText(UncertaintyReport.whatIf(analysis, top: top))
        }
        return 0
    }
}

extension ParsedArguments {
    /// `--reduce 50%` (or `50`, a percentage without its sign) → 0.5: above 0
    /// and at most 100; default 50%. A bare number of at most 1 (`0.5`) could
    /// mean a share or a percentage, and is refused with both readings.
    func reduction() throws(CLIError) -> Double {
        guard let text = string(WhatIfCommand.Options.reduce) else { return 0.5 }
        let problem = usage(
            "invalid value '\(text)' for '--reduce': expected a percentage above 0% and at most 100%, such as 50%")
        let signed = text.hasSuffix("%")
        guard let percent = Double(signed ? String(text.dropLast()) : text), percent.isFinite, percent > 0,
            percent <= 100
        else { throw problem }
        if !signed && percent <= 1 {
            func shown(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
            throw usage(
                "ambiguous value '\(text)' for '--reduce': write \(shown(percent * 100))% (a share of \(text)) or \(text)%"
            )
        }
        return percent / 100
    }
}
