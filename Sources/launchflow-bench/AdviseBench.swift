// The advise benchmark (issue 16): `launchflow-bench --advise [--scenarios N] [--jobs N]`.
import Foundation
import LaunchflowCore

/// Prints how often `advise` reaches the first-frame bound on random
/// scenarios of 20–150 tasks under dag with the default knobs, and how long
/// it takes on a 60-task and a 300-task scenario.
func runAdviseBenchmark(_ arguments: [String]) {
    func option(_ name: String, _ fallback: Int) -> Int {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0
        else { return fallback }
        return n
    }
    if let i = arguments.firstIndex(of: "--dump"), i + 1 < arguments.count, let seed = UInt64(arguments[i + 1]) {
        _ = FileManager.default.createFile(
            atPath: "advise-random-\(seed).json", contents: Data(AdviseBenchmark.randomScenario(seed: seed).jsonBytes())
        )
        return
    }
    let count = option("--scenarios", 100)
    let jobs = option("--jobs", ProcessInfo.processInfo.activeProcessorCount)
    print("launchflow advise benchmark — release build, \(jobs) jobs")
    var reached = 0
    var reachedFloor = 0
    var blocked = 0
    var total = 0.0
    var slowest = 0.0
    for seed in 1...count {
        let scenario = AdviseBenchmark.randomScenario(seed: UInt64(seed))
        var configuration = AdviseConfiguration()
        configuration.jobs = jobs
        var plan: AdvicePlan?
        let time = seconds { plan = try? Advise.plan(scenario, configuration) }
        total += time
        slowest = max(slowest, time)
        guard let plan else { continue }
        let floor = plan.dagFloor ?? plan.firstFrameBound
        if plan.metrics.timeToFirstFrame <= floor { reachedFloor += 1 }
        if plan.metrics.timeToFirstFrame <= plan.firstFrameBound {
            reached += 1
        } else if arguments.contains("--verbose") && plan.metrics.timeToFirstFrame > floor {
            let tasks = scenario.tasks
            let needed = TaskGraph(tasks: tasks).dependencyClosure(of: tasks.indices.filter { tasks[$0].firstFrame })
            let workerWork = tasks.indices.filter { needed[$0] && !tasks[$0].mainThreadOnly }.reduce(0) {
                $0 + tasks[$1].cost
            }
            let mainWork = tasks.indices.filter { needed[$0] && tasks[$0].mainThreadOnly }.reduce(0) {
                $0 + tasks[$1].cost
            }
            print(
                "seed \(seed): \(tasks.count) tasks, \(scenario.device.cores) cores, F \(formatMillis(scenario.device.frameInterval)), commit \(formatMillis(scenario.device.commitCost)), needed \(needed.filter { $0 }.count), main \(formatMillis(mainWork)), worker work/workers \(formatMillis(workerWork / (scenario.device.cores - 1))), t0 \(formatMillis(scenario.preMainTotal)) | as written \(formatMillis(plan.baseline.timeToFirstFrame)), simple \(formatMillis(plan.simpleMetrics.timeToFirstFrame)), plan \(formatMillis(plan.metrics.timeToFirstFrame)), bound \(formatMillis(plan.firstFrameBound)), dag's floor \(formatMillis(floor)), frames \(plan.metrics.frames)"
            )
        }
        if plan.metrics.mainThreadBlocked > 0 { blocked += 1 }
    }
    print(
        "\(count) random scenarios of 20–150 tasks: \(reached) reach the first-frame bound (\(reached * 100 / count)%), \(blocked) block the main thread; \(reachedFloor) (\(reachedFloor * 100 / count)%) reach the larger of it and dag's floor (what no plan of these knobs beats under dag); mean \(ms(total / Double(count))), slowest \(ms(slowest))"
    )
    for size in [60, 300] {
        guard let scenario = try? SweepBenchmark.scenario(taskCount: size, seed: 7, v2: false) else { continue }
        var plan: AdvicePlan?
        var configuration = AdviseConfiguration()
        configuration.jobs = jobs
        let time = seconds { plan = try? Advise.plan(scenario, configuration) }
        print(
            "\(size) tasks: \(ms(time)), \(plan?.evaluations ?? 0) simulations, first frame \(formatMillis(plan?.baseline.timeToFirstFrame ?? 0)) → \(formatMillis(plan?.metrics.timeToFirstFrame ?? 0)) ms (bound \(formatMillis(plan?.firstFrameBound ?? 0)) ms)"
        )
    }
}

enum AdviseBenchmark {
    /// The random scenario the tests and the benchmark use: 20–150 tasks.
    static func randomScenario(seed: UInt64) -> Scenario {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9)
        let size = 20 + Int(rng.next() % 131)
        return try! RandomScenario(taskCount: size).make(seed: seed)
    }
}
