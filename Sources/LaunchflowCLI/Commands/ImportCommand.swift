import Foundation
import LaunchflowCore
import LaunchflowImport

/// `launchflow import`: task costs from traces and field metrics.
enum ImportCommand {
    enum Options {
        static let into = OptionSpec(
            name: "into", value: "<scenario>",
            help:
                "Refresh the costs (and costP90) of this scenario's tasks\nand keep every other key as written; writes it back\nunless --out is given."
        )
        static let out = OptionSpec(
            name: "out", value: "<file>",
            help:
                "Write the scenario there (atomically) instead of to\nstandard output (or, with --into, instead of in place)."
        )
        static let from = OptionSpec(
            name: "from", value: "<format>",
            help: "perfetto, chrome, atrace, metrickit or xctrace (default:\ndetected from the content).",
            choices: ImportFormat.allCases.map(\.rawValue))
        static let match = OptionSpec(
            name: "match", value: "<regex>",
            help:
                "Tasks are the outermost slices whose name the regex finds\n(default: every slice at depth 0 on the app's threads;\nwith --into, the slices named after its tasks)."
        )
        static let map = OptionSpec(
            name: "map", value: "<file>",
            help:
                "JSON: {\"slice name\": \"task id\", …}, or\n{\"rules\": [{\"match\": REGEX, \"task\": ID}, …]}; slices of\none task add up."
        )
        static let mainThread = OptionSpec(
            name: "main-thread", value: "<name|tid>",
            help:
                "The app's main thread (default: the thread named 'main',\nelse the thread whose tid is its pid). Its process is the\napp; other processes are ignored."
        )
        static let process = OptionSpec(
            name: "process", value: "<name>",
            help:
                "The app's process by name (Android: the package name);\nits main thread is the one named 'main', else the one\nwhose tid is the pid (or --main-thread)."
        )
        static let cost = OptionSpec(
            name: "cost", value: "<what>",
            help:
                "wall (the default): a task costs its slices' wall time;\nrunning: the time its thread was running on a CPU during\nthem (needs sched_switch: a Perfetto trace with ftrace\nsched events).",
            choices: ImportCost.allCases.map(\.rawValue))
        static let cpus = OptionSpec(
            name: "cpus", value: "<n>",
            help:
                "The device's CPUs (device.cpus, 1 … 1024), where the trace\nrecords none (Instruments exports) or another count.",
            range: 1...1024)
        static let premain = OptionSpec(
            name: "premain", value: "<regex>",
            help:
                "Main-thread slices whose name the regex finds become\npre-main phases (dyld, +load, static initialisers)."
        )
    }

    static let spec = CommandSpec(
        name: "import",
        abstract:
            "Build a scenario from traces (or refresh an existing one's costs): Perfetto, Chrome JSON, atrace, MetricKit,\nInstruments.",
        arguments: [
            ArgumentSpec(
                name: "trace",
                help:
                    "Trace files: Perfetto protobuf traces (.perfetto-trace,\n.pftrace), Chrome Trace Event JSON (also launchflow's\n--format trace), atrace/systrace text, MetricKit payloads,\nInstruments exports (xctrace export XML; one file per\ntable of one recording are merged); plain or gzip'd. Several traces of one launch: cost =\nmedian, costP90 = p90.",
                repeatable: true)
        ],
        options: [
            Options.into,
            Options.out,
            Options.from,
            Options.match,
            Options.map,
            Options.mainThread,
            Options.process,
            Options.cost,
            Options.cpus,
            Options.premain,
        ],
        discussion: """
            Reads each trace (Perfetto protobuf: TrackEvent slices and flows,
            atrace sections in ftrace print events, sched_switch; Chrome JSON in
            any event order; atrace text), finds the app's process and main
            thread, and turns slices into tasks: the cost is the slice's wall
            time, or with --cost running the time its thread ran (slices nested
            in a task are part of it; a name that occurs several times is
            summed); a task that ran only on the main thread is mainThreadOnly;
            flow events become dependencies (none are guessed from timing).
            launchflow's own traces give back the scenario's costs, threads and
            dependencies exactly. A MetricKit payload gives each signpost's
            median and p90.

            With --into, a slice whose name equals a task id refreshes that
            task's cost; the result is validated, written atomically, and the
            costs that moved are listed. Errors (malformed or unbalanced traces,
            negative durations, a slice two map rules claim) are all reported,
            with the file and the event or line; the exit status is then 2 and
            nothing is written. See docs/import.md.
            """)

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let cpus = try args.integer(Options.cpus)
        if cpus != nil, args.isGiven(Options.into) {
            throw CLIError.usage(
                spec,
                "--cpus sets the imported scenario's device, and --into keeps the target's: set cpus in the target")
        }
        var options = ImportOptions(
            format: args.choice(Options.from, as: ImportFormat.self), match: args.string(Options.match),
            premain: args.string(Options.premain), mainThread: args.string(Options.mainThread),
            process: args.string(Options.process), cost: args.choice(Options.cost, as: ImportCost.self) ?? .wall,
            cpus: cpus)
        if let map = args.string(Options.map) {
            do {
                options.map = try NameMap.load(path: map)
            } catch {
                streams.writeError(error.log.text)
                return 2
            }
        }
        let request = ImportRequest(traces: args.positionals, options: options, into: args.string(Options.into))
        let bar = streams is StandardStreams && isatty(2) == 1 ? ByteProgress() : nil
        let outcome: ImportOutcome
        do {
            outcome = try TraceImport.run(request, progress: bar.map { bar in { bar.update($0, $1, $2) } })
            bar?.finish()
        } catch {
            bar?.finish()
            streams.writeError(error.log.text)
            return 2
        }
        streams.writeError(outcome.log.text)

        let destination = args.string(Options.out) ?? args.string(Options.into)
        guard let destination else {
            streams.writeError(outcome.summary)
            streams.write(outcome.scenario)
            return 0
        }
        var summary = outcome.summary
        if let into = args.string(Options.into), destination == into, outcome.changes.isEmpty {
            summary += TerminalText.escape("\(into) is left as it was.") + "\n"
        } else {
            do {
                try writeFileAtomically(outcome.scenario, to: destination)
            } catch {
                throw CLIError.input(error.description)
            }
            summary += TerminalText.escape("Wrote \(destination).") + "\n"
        }
        streams.write(summary)
        return 0
    }
}

/// `reading big.json  45% (90 of 200 MB)` on stderr, redrawn at most once per percent.
///
/// A class: the import calls it back through a closure while it reads.
final class ByteProgress {
    private var file = ""
    private var percent = -1
    /// Files smaller than this read too fast for a bar to help.
    static let threshold = 16 << 20

    func update(_ file: String, _ done: Int, _ total: Int) {
        guard total >= Self.threshold else { return }
        let now = min(done * 100 / max(total, 1), 100)
        guard file != self.file || now > percent else { return }
        self.file = file
        percent = now
        let line =
            "\r\u{1B}[2Kreading \(TerminalText.escape(file))  \(now)% (\(done >> 20) of \(total >> 20) MB)"
        Self.write(line)
    }

    func finish() {
        if percent >= 0 { Self.write("\r\u{1B}[2K") }
    }

    private static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
