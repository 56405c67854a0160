import Foundation
import LaunchflowCore

/// The replay host and `launchflow` as the runtime's tests run them: built
/// beside the test runner (dependencies of this target), each run a child
/// process with its own main run loop — through the shared test support
/// (`builtExecutable`, `runProcess`, `TemporaryFolder`).
enum Host {
    typealias Output = Launchflow.Output

    /// The built executable `name`; the replay host and the runtime probe
    /// may be other builds of them (`LAUNCHFLOW_REPLAY_HOST`,
    /// `LAUNCHFLOW_RUNTIME_PROBE`: `make test` runs their tests once more with
    /// them built under the thread sanitizer, whose reports make them exit
    /// with status 66).
    static func binary(_ name: String) -> URL {
        let overrides = [
            "launchflow-replay-host": "LAUNCHFLOW_REPLAY_HOST", "launchflow-runtime-probe": "LAUNCHFLOW_RUNTIME_PROBE",
        ]
        if let variable = overrides[name], let path = ProcessInfo.processInfo.environment[variable] {
            return URL(fileURLWithPath: path)
        }
        return builtExecutable(name)
    }

    /// Runs `executable arguments…` to completion in the repository's root, output captured.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Output {
        try runProcess(executable, arguments, in: repositoryRoot)
    }

    static func temporaryFolder() throws -> URL { try TemporaryFolder().url }
}

/// One task of a real run, as the host's record states it.
struct RecordedTask {
    var id: String
    var thread: Int
    var iteration: Int
    var ready: Int
    var start: Int
    var end: Int
    var done: Int
    var outcome: String
}

/// The host's record of one real run.
struct RecordedRun {
    var tasks: [RecordedTask]
    var commits: [(start: Int, end: Int, presented: Int)]
    var didFinishLaunching: (start: Int, end: Int)
    var blocked: [(start: Int, end: Int)]
    var problems: [(kind: String, task: String)]
    var warnings: [String]

    init(contentsOf url: URL) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        tasks = (object["tasks"] as! [[String: Any]]).map {
            RecordedTask(
                id: $0["id"] as! String, thread: $0["thread"] as! Int, iteration: $0["iteration"] as! Int,
                ready: $0["ready"] as! Int, start: $0["start"] as! Int, end: $0["end"] as! Int,
                done: $0["done"] as! Int, outcome: $0["outcome"] as! String)
        }
        commits = (object["commits"] as! [[String: Int]]).map { ($0["start"]!, $0["end"]!, $0["presented"]!) }
        let window = object["didFinishLaunching"] as! [Int]
        didFinishLaunching = (window[0], window[1])
        blocked = (object["blocked"] as! [[Int]]).map { ($0[0], $0[1]) }
        problems = (object["problems"] as! [[String: String]]).map { ($0["kind"]!, $0["task"]!) }
        warnings = object["warnings"] as! [String]
    }
}

/// A real run of `scenario` on the runtime, in a child process.
struct RealRun {
    var run: RecordedRun
    var output: Host.Output
    var folder: URL

    /// Writes `scenario` to a file, runs the host on it with `strategy` and
    /// `extra` arguments, and reads the record (nil when the host refused).
    static func of(_ scenario: Scenario, strategy: Strategy, _ extra: [String] = []) throws -> (RealRun?, Host.Output) {
        let folder = try Host.temporaryFolder()
        let file = folder.appendingPathComponent("scenario.json")
        try Data(scenario.jsonBytes()).write(to: file)
        let record = folder.appendingPathComponent("record.json")
        let output = try Host.run(
            Host.binary("launchflow-replay-host"),
            [
                file.path, "--strategy", strategy.rawValue, "--record", record.path,
                "--trace", folder.appendingPathComponent("trace.json").path,
                "--scenario-out", folder.appendingPathComponent("measured.json").path, "--wall-clock", "--boost",
            ] + extra)
        guard output.status == 0 else { return (nil, output) }
        return (RealRun(run: try RecordedRun(contentsOf: record), output: output, folder: folder), output)
    }
}

extension Scenario {
    /// This scenario with every time multiplied by `factor` (costs, latencies,
    /// delays, pre-main, commit and render time; latencies by `latencyFactor`
    /// and delays by `delayFactor` when given) and `cores` threads: slower
    /// than the run's own overheads (hand-off, wake-up), so that the order
    /// and iterations do not hinge on them.
    func scaled(
        by factor: Int, latencies latencyFactor: Double? = nil, delays delayFactor: Int? = nil, cores: Int,
        mainExecutor: MainExecutor? = nil
    ) throws -> Scenario {
        let mainExecutor = mainExecutor ?? self.mainExecutor
        var device = self.device
        device.cores = cores
        device.commitCost *= factor
        device.renderTime *= factor
        let tasks = self.tasks.map { task in
            var task = task
            task.cost *= factor
            task.latency = Micros(Double(task.latency) * (latencyFactor ?? Double(factor)))
            task.delay *= delayFactor ?? factor
            task.costP90 = nil
            task.latencyP90 = nil
            return task
        }
        let preMain = self.preMain.map { PreMainPhase(name: $0.name, cost: $0.cost * factor) }
        return try Scenario(
            name: name, description: description, device: device, preMain: preMain, tasks: tasks, budgets: budgets,
            schema: schema, idleMode: idleMode, inputs: [], mainExecutor: mainExecutor)
    }
}
