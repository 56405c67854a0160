import Foundation
import LaunchflowCore
import LaunchflowImport
import LaunchflowRender

/// `launchflow replay`: the scenario run for real on LaunchflowRuntime, beside its simulation.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract:
            "Run a scenario for real on LaunchflowRuntime (a child process) and put each run beside the simulation.",
        arguments: [.scenario],
        options: [
            OptionSpec(
                name: "strategy", value: "<strategy|all>",
                help: "One of \(Strategy.names), or all.",
                choices: Strategy.allCases.map(\.rawValue) + ["all"], defaultValue: "all"),
            OptionSpec(
                name: "runs", value: "<n>", help: "Real runs per strategy (1 … 100; default: 3); medians are shown."),
            OptionSpec(
                name: "workers", value: "<n>",
                help: "The runtime's worker threads (1 … 64; default: the scenario's\ndevice.cores − 1, as the model)."),
            OptionSpec(
                name: "cpus", value: "<n|machine>",
                help:
                    "Simulate with device.cpus n (machine: this machine's CPUs),\nthe threads sharing them (docs/model.md §3.10); default: the\nscenario's."
            ),
            .maxConcurrent,
            .idleMode,
            OptionSpec(
                name: "format", value: "<format>", help: "text, json or markdown (default: text).",
                choices: ["text", "json", "markdown"]),
            OptionSpec(
                name: "out", value: "<dir>",
                help:
                    "Also write there each run's trace (launchflow's trace format:\nimport and calibrate --trace read it) and record, and per\nstrategy the overlay Gantt of its first run (as calibrate's)."
            ),
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

    static func run(_ args: ParsedArguments, _ streams: inout any OutputStreams) throws(CLIError) -> Int32 {
        let scenario = try args.loadScenario()
        let path = args.positionals[0]
        let options = try args.simulationOptions(spec)
        let runs = try args.integer("runs", spec, in: 1...100, default: 3)
        let workers = try args.integer("workers", spec, in: 1...64, default: max(1, scenario.device.workerCount))
        let strategies: [Strategy] =
            args.value("strategy").flatMap(Strategy.init(rawValue:)).map { [$0] } ?? Strategy.allCases
        let host = try hostURL()
        let out = args.value("out").map { URL(fileURLWithPath: $0) }
        if let out {
            do {
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            } catch {
                throw CLIError.input("cannot create the folder \(out.path): \(error.localizedDescription)")
            }
        }
        // The scenario with the device's cores set to the pool's threads, as the runtime runs it.
        var device = scenario.device
        device.cores = workers + 1
        if let text = args.value("cpus") {
            guard let n = text == "machine" ? ProcessInfo.processInfo.activeProcessorCount : Int(text),
                (1...1024).contains(n)
            else {
                throw CLIError.usage(
                    spec, "invalid value '\(text)' for '--cpus': expected an integer from 1 to 1024 or machine")
            }
            device.cpus = n
        }
        let simulatedScenario: Scenario
        do {
            simulatedScenario = try Scenario(
                name: scenario.name, description: scenario.description, device: device, preMain: scenario.preMain,
                tasks: scenario.tasks, budgets: scenario.budgets, schema: scenario.schema, idleMode: scenario.idleMode,
                inputs: [], mainExecutor: scenario.mainExecutor)
        } catch {
            throw CLIError.diagnostics(error.problems)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "launchflow-replay-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let load = LoadMeter()
        var comparisons: [Replay.Comparison] = []
        for strategy in strategies {
            var measured: [Replay.Run] = []
            for k in 0..<runs {
                let record = folder.appendingPathComponent("\(strategy.rawValue)-\(k + 1).json")
                let trace = (out ?? folder).appendingPathComponent("\(strategy.rawValue)-\(k + 1).trace.json")
                var arguments = [
                    path, "--strategy", strategy.rawValue, "--record", record.path, "--trace", trace.path,
                    "--workers", String(workers), "--boost",
                ]
                if let limit = options.maxConcurrent { arguments += ["--max-concurrent", String(limit)] }
                if let mode = options.idleMode { arguments += ["--idle-mode", mode.rawValue] }
                let status = try runHost(host, arguments)
                guard status.code == 0 else {
                    throw CLIError.input(
                        "\(path): the run under \(strategy.rawValue) failed (launchflow-replay-host exit \(status.code)): \(status.stderr)"
                    )
                }
                let bytes: [UInt8]
                do {
                    bytes = Array(try Data(contentsOf: record))
                } catch {
                    throw CLIError.input("\(path): the run under \(strategy.rawValue) wrote no record")
                }
                do {
                    measured.append(try Replay.Run(record: bytes, scenario: simulatedScenario, strategy: strategy))
                } catch {
                    throw CLIError.input("\(path): \(error.message)")
                }
                if let out {
                    try? FileManager.default.copyItem(
                        at: record, to: out.appendingPathComponent(record.lastPathComponent))
                }
            }
            let simulated = SimulationResult(simulatedScenario, strategy: strategy, options: options)
            comparisons.append(Replay.Comparison(simulated: simulated, runs: measured, options: options))
            if let out {
                // calibrate's overlay Gantt of the first run: measured outlines behind the simulated bars.
                let trace = out.appendingPathComponent("\(strategy.rawValue)-1.trace.json").path
                let gantt = out.appendingPathComponent("\(strategy.rawValue)-gantt.svg").path
                do {
                    let comparison = try TraceComparison.run(
                        simulatedScenario, trace: trace, strategy: strategy, options: options)
                    try writeFileAtomically(try TraceComparisonChart(comparison).svg(), to: gantt)
                } catch {
                    throw CLIError.input("\(path): the overlay Gantt of \(strategy.rawValue): \(error)")
                }
            }
        }
        let otherLoad = load.otherProcesses()
        let steal = load.steal()
        var warnings: [String] = []
        let nices = comparisons.flatMap { $0.runs.compactMap(\.nice) }
        let raised = !nices.isEmpty && nices.allSatisfy { $0 < 0 }
        if !raised {
            warnings.append(
                "the runs could not raise their priority (nice −15 needs root or CAP_SYS_NICE): other processes took turns on the CPUs with them, so the real times may be later than the launch alone"
            )
        }
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        if workers + 1 > cpus {
            warnings.append(
                "the runs use \(workers + 1) threads on \(cpus) CPUs: the model gives every thread a CPU, so the real times are later (docs/model.md §3.10: device.cpus models the sharing)"
            )
        }
        if let otherLoad, otherLoad >= 0.1 {
            warnings.append(
                "the machine was loaded: other processes used \(Int((otherLoad * 100).rounded()))% of its CPUs during the runs, so the real times may be later than the launch alone"
            )
        }
        let report = ReplayReport(
            scenario: simulatedScenario, path: path, comparisons: comparisons, runs: runs, workers: workers, cpus: cpus,
            otherLoad: otherLoad, steal: steal, raisedPriority: raised, warnings: warnings)
        switch args.value("format") ?? "text" {
        case "json": streams.write(Array(report.json().utf8))
        case "markdown": streams.writeText(report.markdown())
        default: streams.writeText(report.text())
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
        process.waitUntilExit()
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
