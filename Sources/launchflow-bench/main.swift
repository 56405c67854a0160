// launchflow-bench: the benchmark. Prints figures; asserts nothing.
//
//   swift run -c release launchflow-bench [--quick] [--sizes 1000,10000] [--v2]
//   swift run -c release launchflow-bench --sweep [--runs 10000] [--tasks 300]
//   swift run -c release launchflow-bench --advise [--scenarios 100] [--jobs N]
//   swift run -c release launchflow-bench --render
//   swift run -c release launchflow-bench --import [--events 2000000]
//
// For each size it generates a random valid scenario (seeded, about three
// dependencies per task), writes it to a temporary file, and measures per
// strategy, in a release build:
//   engine   decoded scenario in → schedule and metrics out (best of a few runs)
//   command  the whole `launchflow simulate FILE --strategy S --format json`,
//            run as a child process (read, decode, validate, simulate, write
//            JSON to /dev/null), best wall time of three and its peak memory (max RSS)
// and, in process, where the command's time goes: read+decode+validate,
// simulate+metrics, JSON encoding.
import Foundation
import LaunchflowCore

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var result = Double.infinity
    for _ in 0..<runs { result = min(result, try seconds(body)) }
    return result
}

func ms(_ s: Double) -> String { String(format: "%9.1f ms", s * 1000) }

var sizes = [1_000, 10_000, 100_000, 1_000_000]
let arguments = CommandLine.arguments
if arguments.contains("--runtime") {  // LaunchflowRuntime against OperationQueue and Dispatch (RuntimeBench.swift)
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        if let k = arguments.firstIndex(of: "--profile"), k + 1 < arguments.count {
            runRuntimeProfile(onMain: arguments[k + 1] == "main")
        } else {
            runRuntimeBenchmark()
        }
    } else {
        print("the runtime benchmark needs macOS 15 (its plain Dispatch baseline counts with Synchronization's Atomic)")
    }
    exit(0)
}
if arguments.contains("--render") {  // the rendering benchmark (RenderBench.swift)
    runRenderBenchmark()
    exit(0)
}
if arguments.contains("--advise") {  // the advise benchmark (AdviseBench.swift)
    runAdviseBenchmark(arguments)
    exit(0)
}
if arguments.contains("--sweep") {  // the sweep benchmark (SweepBench.swift)
    runSweepBenchmark(arguments)
    exit(0)
}
if arguments.contains("--perfetto") {  // the Perfetto import benchmark (PerfettoBench.swift)
    runPerfettoBenchmark(arguments)
    exit(0)
}
if arguments.contains("--import") {  // the import benchmark (ImportBench.swift)
    runImportBenchmark(arguments)
    exit(0)
}
if let i = arguments.firstIndex(of: "--engine-loop"), i + 2 < arguments.count,
    let size = Int(arguments[i + 1]), let strategy = Strategy(rawValue: arguments[i + 2])
{
    // For profilers: the engine alone, over and over (`perf record … --engine-loop 100000 dag`).
    var generator = RandomScenario(taskCount: size)
    generator.cores = 4...4
    let scenario = try generator.make(seed: 42)
    for _ in 0..<20 { print(ms(seconds { _ = SimulationResult(scenario, strategy: strategy) })) }
    exit(0)
}
if arguments.contains("--quick") { sizes = [1_000, 10_000, 100_000] }
if let i = arguments.firstIndex(of: "--sizes"), i + 1 < arguments.count {
    sizes = arguments[i + 1].split(separator: ",").compactMap { Int($0) }
}

print("launchflow benchmark — release build, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("random scenarios, about 3 dependencies per task, 4 tiers, 25% main-thread tasks\n")
print(
    "tasks      strategy  engine        command       peak RSS   (command = read+decode+validate · simulate+metrics · JSON)"
)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("launchflow-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let v2 = arguments.contains("--v2")
if v2 { print("with every v2 key in use (RandomScenario.usingEveryV2Key)\n") }
for size in sizes {
    var generator = RandomScenario(taskCount: size)
    generator.cores = 4...4
    if v2 { generator = generator.usingEveryV2Key() }
    let file = folder.appendingPathComponent("random-\(size).json")
    try Data(try generator.make(seed: 42).jsonBytes()).write(to: file)
    let fileMiB = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) / 1_048_576
    let scenario = try ScenarioLoader.load(path: file.path)
    let runs = size >= 1_000_000 ? 3 : size >= 100_000 ? 10 : 20
    for strategy in Strategy.allCases {
        var result: SimulationResult?
        let engine = best(of: runs) { result = SimulationResult(scenario, strategy: strategy) }
        var decodeTime = 0.0
        var encodeTime = 0.0
        decodeTime = try best(of: runs) { _ = try ScenarioLoader.load(path: file.path) }
        encodeTime = best(of: runs) {
            var writer = JSONWriter(capacity: 128 * size)
            writer.result(result!)
            precondition(!writer.bytes.isEmpty)
        }
        // Best of three: a single child process on a shared machine varies by ±30%.
        var command = try runCommand(["simulate", file.path, "--strategy", strategy.rawValue, "--format", "json"])
        for _ in 1..<3 {
            let again = try runCommand(["simulate", file.path, "--strategy", strategy.rawValue, "--format", "json"])
            if again.seconds < command.seconds { command = again }
        }
        let label = String(size).padding(toLength: 10, withPad: " ", startingAt: 0)
        let name = strategy.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        print(
            "\(label) \(name) \(ms(engine))  \(ms(command.seconds))  \(String(format: "%6.0f MiB", command.peakMiB))   (\(ms(decodeTime)) · \(ms(engine)) · \(ms(encodeTime)))"
        )
    }
    print(String(format: "           (scenario file %.1f MiB)", fileMiB))
}
