import Foundation
import LaunchflowCore
import LaunchflowImport
import LaunchflowRender

/// `launchflow replay`: the scenario run for real on LaunchflowRuntime, beside its simulation.
enum ReplayCommand {
    enum Options {
        static let strategy = OptionSpec(
            name: "strategy", value: "<strategy|all>",
            help: "One of \(Strategy.names), or all.",
            choices: Strategy.allCases.map(\.rawValue) + ["all"], defaultValue: "all")
        static let runs = OptionSpec(
            name: "runs", value: "<n>", help: "Real runs per strategy (1 … 100; default: 3); medians are shown.",
            range: 1...100)
        static let workers = OptionSpec(
            name: "workers", value: "<n>",
            help: "The runtime's worker threads (1 … 64; default: the scenario's\ndevice.cores − 1, as the model).",
            range: 1...64)
        static let cpus = OptionSpec(
            name: "cpus", value: "<n|machine>",
            help:
                "Simulate with device.cpus n (machine: this machine's CPUs),\nthe threads sharing them (docs/model.md §3.10); default: the\nscenario's."
        )
        static let emulate = OptionSpec.flag(
            "emulate",
            "Linux: run on the scenario's performance and efficiency cores\nas far as this machine's CPUs allow (cgroup v1 cpu and cpuset;\nroot), each worker thread moved to a core by its task's QoS, and\nsimulate the device emulated (docs/model.md §11)."
        )
        static let format = OptionSpec(
            name: "format", value: "<format>", help: "text, json or markdown (default: text).",
            choices: ["text", "json", "markdown"])
        static let out = OptionSpec(
            name: "out", value: "<dir>",
            help:
                "Also write there each run's trace (launchflow's trace format:\nimport and calibrate --trace read it) and record, and per\nstrategy the overlay Gantt of its first run (as calibrate's)."
        )
    }

    static let spec = CommandSpec(
        name: "replay",
        abstract:
            "Run a scenario for real on LaunchflowRuntime (a child process) and put each run beside the simulation.",
        arguments: [.scenario],
        options: [
            Options.strategy,
            Options.runs,
            Options.workers,
            Options.cpus,
            Options.emulate,
            .maxConcurrent,
            .idleMode,
            Options.format,
            Options.out,
        ],
        discussion: """
            Each run is a fresh process (launchflow-replay-host, installed beside
            launchflow) with a real main run loop (CoreFoundation), the main
            dispatch queue and the runtime's own worker threads: a task's body
            spins for its cost in thread CPU time, a latency or delay is a timer,
            pre-main spins before the launch, and a BeforeWaiting observer at
            order 2,000,000 spins commitCost as Core Animation's commit would.
            The model assumes a CPU for every thread: replay warns when the
            scenario's threads outnumber this machine's CPUs, and when other
            processes used the CPUs during the runs.
            """)

    /// Options → runner → report: what to run (``ReplaySettings``), the real runs beside their
    /// simulations (``ReplayRunner``), then the report with what the machine did meanwhile.
    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        var settings = try ReplaySettings(args)
        var warnings: [String] = []
        let device = settings.emulate ? settings.scenario.device : nil
        let report = try ReplayEmulation.around(device, warnings: &warnings) { emulation throws(CLIError) in
            // The simulation beside the runs is of the device emulated.
            if let emulation { settings.scenario.device.clusters = emulation.device.clusters }
            let runner = ReplayRunner(settings: settings, emulation: emulation)
            let load = LoadMeter()
            let comparisons = try runner.run()
            var report = ReplayReport(
                settings, comparisons, otherLoad: load.otherProcesses(), steal: load.steal(), emulated: emulation != nil
            )
            if let emulation { ReplayEmulation.describe(emulation, comparisons, in: &report) }
            return report
        }
        var shown = report
        shown.warnings = warnings + report.warnings
        switch settings.format {
        case .json: streams.write(Array(shown.json().utf8))
        case .markdown: streams.writeText(shown.markdown())
        case .text, .trace: streams.writeText(shown.text())
        }
        return 0
    }

    /// `launchflow-replay-host`, installed beside this executable.
    static func hostURL() throws(CLIError) -> URL {
        let me = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let candidate = me.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(
            "launchflow-replay-host")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw CLIError.input(
                "launchflow-replay-host is not beside launchflow (\(candidate.path)): build it with 'swift build -c release --product launchflow-replay-host' or 'make install'"
            )
        }
        return candidate
    }

    /// Runs the host to completion; its stderr kept for an error.
    static func runHost(_ host: URL, _ arguments: [String]) throws(CLIError) -> (code: Int32, stderr: String) {
        let process = Process()
        process.executableURL = host
        process.arguments = arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
            "launchflow-replay-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        do {
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            throw CLIError.input("cannot start \(host.path): \(error.localizedDescription)")
        }
        CgroupCleanup.child = process.processIdentifier
        process.waitUntilExit()
        CgroupCleanup.holdIfSignalled()
        CgroupCleanup.child = 0
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
