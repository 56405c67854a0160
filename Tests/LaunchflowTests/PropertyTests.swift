import Foundation
import Testing

@testable import LaunchflowCore

/// Invariants over many seeded random scenarios. A failure names its seed:
/// `RandomScenario(taskCount:).make(seed:)` rebuilds the scenario.
struct PropertyTests {
    static let seeds: [UInt64] = Array(0..<150)

    static func scenario(seed: UInt64) -> Scenario {
        var generator = RandomScenario(taskCount: 1 + Int(seed % 40))
        generator.cores = 2...5
        generator.dependenciesPerTask = Double(seed % 4) * 0.7
        generator.tiers = 1 + Int(seed % 5)
        generator.zeroCostShare = seed % 3 == 0 ? 0.4 : 0.1
        generator.mainThreadShare = seed % 7 == 0 ? 0.8 : 0.3
        return try! generator.make(seed: seed)  // these settings are valid for every seed
    }

    @Test(arguments: seeds)
    func schedulesKeepTheirInvariants(seed: UInt64) {
        let s = Self.scenario(seed: seed)
        for strategy in Strategy.allCases {
            for maxConcurrent in strategy == .dag ? [nil, 1] : [nil] {
                let result = SimulationResult(
                    s, strategy: strategy, options: SimulationOptions(maxConcurrent: maxConcurrent))
                let failures = Self.check(result)
                #expect(
                    failures.isEmpty,
                    "seed \(seed), \(strategy), maxConcurrent \(String(describing: maxConcurrent)): \(failures)")
            }
        }
    }

    /// Everything that must hold of any schedule, as a list of broken rules.
    static func check(_ result: SimulationResult) -> [String] {
        let schedule = result.schedule
        let tasks = schedule.scenario.tasks
        var failures: [String] = []
        var busy: [Int32: [TimeSpan]] = [:]
        for (i, run) in schedule.tasks.enumerated() {
            if run.end - run.start != tasks[i].cost { failures.append("\(tasks[i].id) does not last its cost") }
            if run.ready > run.start { failures.append("\(tasks[i].id) starts before it is ready") }
            if run.start < schedule.t0 { failures.append("\(tasks[i].id) starts before t0") }
            if tasks[i].mainThreadOnly && !run.isOnMain {
                failures.append("\(tasks[i].id) is mainThreadOnly but ran on \(run.thread)")
            }
            if schedule.strategy == .serial && !run.isOnMain { failures.append("serial ran \(tasks[i].id) off main") }
            busy[run.thread, default: []].append(TimeSpan(start: run.start, end: run.end))
        }
        busy[0, default: []] +=
            schedule.commits.map { TimeSpan(start: $0.start, end: $0.end) } + schedule.preMain + schedule.blocked
        for (thread, spans) in busy {
            let sorted = spans.filter { $0.duration > 0 }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.start < a.end {
                failures.append("thread \(thread) runs two things at once at \(b.start)")
            }
        }
        if schedule.strategy == .dag {
            // Worker concurrency never exceeds maxConcurrent.
            var events: [(Micros, Int)] = []
            for run in schedule.tasks where !run.isOnMain && run.end > run.start {
                events += [(run.start, 1), (run.end, -1)]
            }
            var level = 0
            for (_, delta) in events.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
                level += delta
                if level > (schedule.maxConcurrent ?? .max) {
                    failures.append("more than maxConcurrent worker tasks at once")
                }
            }
        }
        let m = result.metrics
        if schedule.strategy != .priority {
            if m.dependencyViolations != 0 { failures.append("\(schedule.strategy) violated a dependency") }
            if m.launchComplete < m.lowerBound {
                failures.append("launch complete \(m.launchComplete) below lower bound \(m.lowerBound)")
            }
        }
        if m.lowerBound < m.criticalPath { failures.append("lower bound below the critical path") }
        if m.timeToFirstFrame % schedule.scenario.device.frameInterval != 0 {
            failures.append("first frame not on a vsync")
        }
        if m.frames != schedule.commits.count { failures.append("frames ≠ commits") }
        for (a, b) in zip(schedule.commits, schedule.commits.dropFirst()) where b.iterationStart < a.end {
            failures.append("iterations overlap")
        }
        let pathCost = result.criticalPath.tasks.reduce(0) { $0 + tasks[$1].cost }
        if pathCost + schedule.t0 != m.criticalPath { failures.append("critical path tasks do not add up") }
        for (a, b) in zip(result.criticalPath.tasks, result.criticalPath.tasks.dropFirst())
        where !tasks[b].dependsOn.contains(a) {
            failures.append("critical path is not a dependency chain")
        }
        if !(0...1).contains(m.cpuUtilization) { failures.append("utilisation out of range") }
        return failures
    }

    @Test(arguments: [UInt64(1), 7, 99])
    func theSameInputGivesByteIdenticalJSON(seed: UInt64) throws {
        var generator = RandomScenario(taskCount: 300)
        generator.cores = 3...6
        let bytes = try generator.make(seed: seed).jsonBytes()
        func run() throws -> [UInt8] {
            let s = try ScenarioLoader.decode(bytes, file: "random.json")
            var writer = JSONWriter()
            writer.comparison(SimulationResult.compare(s, strategies: Strategy.allCases))
            return writer.bytes
        }
        let first = try run()
        #expect(try run() == first)
        #expect(try run() == first)
    }

    @Test(arguments: [UInt64(3), 4, 5])
    func scenarioFilesRoundTrip(seed: UInt64) throws {
        let original = Self.scenario(seed: seed)
        let decoded = try ScenarioLoader.decode(original.jsonBytes(), file: "round-trip.json")
        #expect(decoded.tasks == original.tasks)
        #expect(decoded.device == original.device)
        #expect(decoded.preMain == original.preMain)
    }

    @Test func dagWaitsForEveryDependency() {
        for seed in Self.seeds {
            let s = Self.scenario(seed: seed)
            let schedule = simulate(s, strategy: .dag)
            for (i, task) in s.tasks.enumerated() {
                let latest = task.dependsOn.map { schedule.tasks[$0].end }.max() ?? schedule.t0
                #expect(schedule.tasks[i].ready == latest, "seed \(seed) task \(task.id)")
            }
        }
    }
}
