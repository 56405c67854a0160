// The sweep benchmark (issue 5): `launchflow-bench --sweep [--runs N] [--tasks N]`.
import Foundation
import LaunchflowCore

/// Prints the sweep throughput with 1, 2, … threads (up to the cores available).
func runSweepBenchmark(_ arguments: [String]) {
    func option(_ name: String, _ fallback: Int) -> Int {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0
        else {
            return fallback
        }
        return n
    }
    let runs = option("--runs", 10_000)
    let taskCount = option("--tasks", 300)
    let v2 = arguments.contains("--v2")
    let scenario: Scenario
    do {
        scenario = try SweepBenchmark.scenario(taskCount: taskCount, v2: v2)
    } catch {
        print(error)
        exit(2)
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var load = [Double](repeating: 0, count: 3)
    _ = getloadavg(&load, 3)
    print(
        "launchflow sweep benchmark — release build, \(cores) cores, load average \(String(format: "%.2f", load[0])) at start"
    )
    print(
        "\(runs) sampled launches of a \(taskCount)-task random scenario (4-core device\(v2 ? ", every v2 key in use" : "")), "
            + Strategy.allCases.map(\.rawValue).joined(separator: " + ") + " each\n"
    )
    print("threads   wall time   CPU time   runs/s   simulations/s   CPU µs/simulation   speed-up")
    var single = 0.0
    for jobs in Array(Set([1, 2, cores])).sorted() {
        let figure = SweepBenchmark.measure(scenario, runs: runs, jobs: jobs)
        if jobs == 1 { single = figure.seconds }
        print(
            String(
                format: "%7d  %8.3f s  %7.3f s  %7.0f  %14.0f  %18.1f   %6.2f×", jobs, figure.seconds,
                figure.cpuSeconds,
                figure.runsPerSecond, figure.simulationsPerSecond,
                figure.cpuSeconds * 1e6 / Double(runs * figure.strategies), single / figure.seconds))
    }
    print("\n(best wall time of 3; CPU time is that of all threads during that repetition — on a busy machine")
    print(" the wall time grows, the CPU time does not; runs/s and simulations/s are per wall-clock second)")
}
