import Foundation
import LaunchflowCore
import LaunchflowImport
import LaunchflowRender

/// What `launchflow replay` runs, read from its options: the scenario as the
/// runtime runs it (the device's cores set to the pool's threads, `--cpus`),
/// the strategies, the runs of each, and where their files go.
struct ReplaySettings {
    /// The scenario file as the user named it.
    let path: String
    /// The scenario simulated beside the real runs: `device.cores` is the runtime's threads, no inputs
    /// (with `--emulate`, the device's clusters as emulated).
    var scenario: Scenario
    /// `--emulate`: run on the scenario's performance and efficiency cores, emulated (ReplayEmulation).
    let emulate: Bool
    let strategies: [Strategy]
    let runs: Int
    let workers: Int
    let options: SimulationOptions
    /// `launchflow-replay-host`, beside this executable.
    let host: URL
    /// `--out`: each run's trace and record, and per strategy the overlay Gantt of its first run.
    let out: URL?
    let format: OutputFormat

    init(_ args: ParsedArguments) throws(CLIError) {
        let options = ReplayCommand.Options.self
        let written = try args.loadScenario()
        path = args.positionals[0]
        self.options = try args.simulationOptions()
        runs = try args.integer(options.runs, default: 3)
        workers = try args.integer(options.workers, default: max(1, written.device.workerCount))
        strategies = args.choice(options.strategy, as: Strategy.self).map { [$0] } ?? Strategy.allCases
        format = args.format(options.format)
        emulate = args.isGiven(options.emulate)
        if emulate && args.isGiven(options.cpus) {
            throw args.usage("'--emulate' and '--cpus' cannot be used together: the emulated cores are the CPUs")
        }
        host = try ReplayCommand.hostURL()
        out = args.string(options.out).map { URL(fileURLWithPath: $0) }
        if let out {
            do {
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            } catch {
                throw CLIError.input("cannot create the folder \(out.path): \(error.localizedDescription)")
            }
        }
        var device = written.device
        device.cores = workers + 1
        if let text = args.string(options.cpus) {
            guard let n = text == "machine" ? ProcessInfo.processInfo.activeProcessorCount : Int(text),
                (1...1024).contains(n)
            else {
                throw args.usage("invalid value '\(text)' for '--cpus': expected an integer from 1 to 1024 or machine")
            }
            device.cpus = n
        }
        do {
            scenario = try Scenario(
                name: written.name, description: written.description, device: device, preMain: written.preMain,
                tasks: written.tasks, budgets: written.budgets, schema: written.schema, idleMode: written.idleMode,
                inputs: [], mainExecutor: written.mainExecutor)
        } catch {
            throw CLIError.diagnostics(error.problems)
        }
    }
}

/// The real runs: each strategy's runs in fresh host processes, their
/// records read back beside the simulation, and (`--out`) the files copied
/// and the overlay Gantt of each strategy's first run drawn.
struct ReplayRunner {
    let settings: ReplaySettings
    var emulation: CgroupEmulation? = nil

    /// Every strategy's runs against its simulation, in the order of `settings.strategies`.
    func run() throws(CLIError) -> [Replay.Comparison] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "launchflow-replay-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var comparisons: [Replay.Comparison] = []
        for strategy in settings.strategies {
            var measured: [Replay.Run] = []
            for k in 0..<settings.runs { measured.append(try run(strategy, number: k + 1, in: folder)) }
            let simulated = SimulationResult(settings.scenario, strategy: strategy, options: settings.options)
            comparisons.append(Replay.Comparison(simulated: simulated, runs: measured, options: settings.options))
            if let out = settings.out { try drawOverlay(strategy, in: out) }
        }
        return comparisons
    }

    /// Run `number` of `strategy`: the host writes its record (and trace) and the record is read back.
    private func run(_ strategy: Strategy, number: Int, in folder: URL) throws(CLIError) -> Replay.Run {
        let path = settings.path
        let record = folder.appendingPathComponent("\(strategy.rawValue)-\(number).json")
        let trace = (settings.out ?? folder).appendingPathComponent("\(strategy.rawValue)-\(number).trace.json")
        var arguments = [
            path, "--strategy", strategy.rawValue, "--record", record.path, "--trace", trace.path,
            "--workers", String(settings.workers), "--boost",
        ]
        if let limit = settings.options.maxConcurrent { arguments += ["--max-concurrent", String(limit)] }
        if let mode = settings.options.idleMode { arguments += ["--idle-mode", mode.rawValue] }
        arguments += emulation?.hostArguments ?? []
        let status = try ReplayCommand.runHost(settings.host, arguments)
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
        let run: Replay.Run
        do {
            run = try Replay.Run(record: bytes, scenario: settings.scenario, strategy: strategy)
        } catch {
            throw CLIError.input("\(path): \(error.message)")
        }
        if let out = settings.out {
            try? FileManager.default.copyItem(at: record, to: out.appendingPathComponent(record.lastPathComponent))
        }
        return run
    }

    /// calibrate's overlay Gantt of `strategy`'s first run: measured outlines behind the simulated bars.
    private func drawOverlay(_ strategy: Strategy, in out: URL) throws(CLIError) {
        let trace = out.appendingPathComponent("\(strategy.rawValue)-1.trace.json").path
        let gantt = out.appendingPathComponent("\(strategy.rawValue)-gantt.svg").path
        do {
            let comparison = try TraceComparison.run(
                settings.scenario, trace: trace, strategy: strategy, options: settings.options)
            try writeFileAtomically(try TraceComparisonChart(comparison).svg(), to: gantt)
        } catch {
            throw CLIError.input("\(settings.path): the overlay Gantt of \(strategy.rawValue): \(error)")
        }
    }
}

extension ReplayReport {
    /// The report of `comparisons`, with this machine's CPUs and what the runs found about it.
    init(
        _ settings: ReplaySettings, _ comparisons: [Replay.Comparison], otherLoad: Double?, steal: Double?,
        emulated: Bool = false
    ) {
        let nices = comparisons.flatMap { $0.runs.compactMap(\.nice) }
        let raised = !nices.isEmpty && nices.allSatisfy { $0 < 0 }
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        self.init(
            scenario: settings.scenario, path: settings.path, comparisons: comparisons, runs: settings.runs,
            workers: settings.workers, cpus: cpus, otherLoad: otherLoad, steal: steal, raisedPriority: raised,
            warnings: ReplayReport.machineWarnings(
                raisedPriority: raised, threads: settings.workers + 1, cpus: cpus, otherLoad: otherLoad,
                modelShares: emulated))
    }
}
