import Foundation
import Testing

@testable import LaunchflowCore

/// Invariants of model v2 over seeded random scenarios that use every v2 key
/// (latency, delay, queues, idle tasks, anchors, groups, inputs, both idle
/// modes). A failure names its seed: ``PropertyRunLoopTests/scenario(seed:)``.
struct PropertyRunLoopTests {
    static let seeds: [UInt64] = Array(0..<200)

    static func scenario(seed: UInt64) -> Scenario {
        var generator = RandomScenario(taskCount: 1 + Int(seed % 30))
        generator.cores = 2...4
        generator.dependenciesPerTask = Double(seed % 4) * 0.6
        generator.tiers = 1 + Int(seed % 4)
        generator.zeroCostShare = seed % 3 == 0 ? 0.4 : 0.1
        generator.mainThreadShare = seed % 5 == 0 ? 0.7 : 0.35
        generator.maxCostMs = 8
        generator.latencyShare = 0.3
        generator.delayShare = 0.2
        generator.queueShare = seed % 2 == 0 ? 0.5 : 0.2
        generator.queueNames = 1 + Int(seed % 3)
        generator.idleShare = 0.4
        generator.anchorShare = seed % 4 == 0 ? 0 : 0.15
        generator.inputs = Int(seed % 4)
        generator.inputWindowMs = 60
        generator.groups = Int(seed % 3)
        return try! generator.make(seed: seed)  // valid by construction: at least one task, 2–4 cores
    }

    @Test(arguments: seeds)
    func schedulesKeepTheRunLoopInvariants(seed: UInt64) {
        let s = Self.scenario(seed: seed)
        for strategy in Strategy.allCases {
            let limits: [Int?] = strategy.definition.limitsConcurrency ? [nil, 1, 2] : [nil]
            for maxConcurrent in limits {
                for idleMode in IdleMode.allCases {
                    let options = SimulationOptions(maxConcurrent: maxConcurrent, idleMode: idleMode)
                    let result = SimulationResult(s, strategy: strategy, options: options)
                    let failures = Self.check(result)
                    #expect(
                        failures.isEmpty,
                        "seed \(seed), \(strategy), maxConcurrent \(String(describing: maxConcurrent)), \(idleMode): \(failures)"
                    )
                }
            }
        }
    }

    /// Everything that must hold of a v2 schedule, as a list of broken rules.
    static func check(_ result: SimulationResult) -> [String] {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let tasks = scenario.tasks
        let strategy = schedule.strategy
        var failures: [String] = []
        func fail(_ text: String) { if failures.count < 5 { failures.append(text) } }
        // Costs, latencies, delays, and the order of a task's instants.
        for (i, run) in schedule.tasks.enumerated() {
            let id = tasks[i].id
            if run.end - run.start != tasks[i].cost { fail("\(id) does not last its cost") }
            if run.done - run.end != tasks[i].latency { fail("\(id): done ≠ end + latency") }
            if run.ready > run.start || run.start < schedule.t0 { fail("\(id) starts before it is ready") }
            if tasks[i].mainThreadOnly && !run.isOnMain { fail("\(id) is mainThreadOnly but ran on a worker") }
            if strategy != .serial {
                if !(run.madeReady <= run.released && run.released <= run.ready) {
                    fail("\(id): ready → released → handed over out of order")
                }
                if run.released - run.madeReady != tasks[i].delay { fail("\(id): released ≠ ready + delay") }
            } else if !run.isOnMain {
                fail("serial ran \(id) off main")
            }
        }
        // One thing at a time per thread (inputs, commits, pre-main and blocked time on main).
        var busy: [Int32: [TimeSpan]] = [:]
        for run in schedule.tasks { busy[run.thread, default: []].append(TimeSpan(start: run.start, end: run.end)) }
        busy[0, default: []] +=
            schedule.commits.map { TimeSpan(start: $0.start, end: $0.end) } + schedule.preMain + schedule.blocked
            + schedule.inputs.map { TimeSpan(start: $0.start, end: $0.end) }
        for (thread, spans) in busy {
            let sorted = spans.filter { $0.duration > 0 }.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.start < a.end {
                fail("thread \(thread) runs two things at once at \(b.start)")
            }
        }
        // A queue never has two tasks in flight (admitted — or started, under serial — until done).
        var byQueue: [String: [TimeSpan]] = [:]
        for (i, task) in tasks.enumerated() {
            guard let queue = task.queue else { continue }
            let run = schedule.tasks[i]
            byQueue[queue, default: []].append(
                TimeSpan(start: strategy == .serial ? run.start : run.ready, end: run.done))
        }
        for (queue, spans) in byQueue {
            let sorted = spans.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.start < a.end {
                fail("queue \(queue) has two tasks in flight at \(b.start)")
            }
        }
        // At most maxConcurrent worker tasks in flight (started, not done).
        if let limit = schedule.maxConcurrent {
            var events: [(Micros, Int)] = []
            for run in schedule.tasks where !run.isOnMain && run.done > run.start {
                events += [(run.start, 1), (run.done, -1)]
            }
            var level = 0
            for (_, delta) in events.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
                level += delta
                if level > limit { fail("more than \(limit) worker tasks in flight") }
            }
        }
        // An idle task never starts while a main-queue task or an input waits
        // (the first idle task of an idle step; strict, to leave same-instant order aside).
        let plan = strategy.definition.plan(StrategyInputs(scenario))
        if strategy != .serial {
            var firstOfStep: [Int32: Int] = [:]  // iteration → its first idle task
            // (Not those `didFinishLaunching` takes out while it waits: they run at once.)
            for (i, run) in schedule.tasks.enumerated()
            where plan.route[i] == .idle && run.isOnMain && run.start >= schedule.didFinishLaunching.end {
                if let j = firstOfStep[run.iteration], schedule.tasks[j].start <= run.start { continue }
                firstOfStep[run.iteration] = i
            }
            for i in firstOfStep.values.sorted() {
                let run = schedule.tasks[i]
                let s = run.start
                for (j, other) in schedule.tasks.enumerated()
                where plan.route[j] == .main && other.ready < s && other.start > s && other.iteration > run.iteration {
                    fail("idle \(tasks[i].id) started at \(s) while \(tasks[j].id) waited in the main queue")
                    break
                }
                for input in schedule.inputs where input.at < s && input.start > s {
                    fail("idle \(tasks[i].id) started at \(s) while an input waited")
                    break
                }
            }
        }
        // Inputs: never before they arrive, never in iteration 0.
        for input in schedule.inputs {
            if input.start < input.at { fail("an input started before it arrived") }
            if input.start < schedule.commits[0].end { fail("an input was handled in iteration 0") }
        }
        let m = result.metrics
        if strategy != .priority && m.dependencyViolations != 0 { fail("\(strategy) violated a dependency") }
        if strategy == .anchored && m.firstFrameIteration != 0 {
            fail("anchored: the first frame is not iteration 0's")
        }
        if m.lowerBound < m.criticalPath { fail("lower bound below the critical path") }
        if strategy != .priority && m.launchComplete < m.lowerBound { fail("launch complete below the lower bound") }
        if !(0...1).contains(m.cpuUtilization) { fail("utilisation out of range") }
        return failures
    }

    @Test func theRunnersViolationFlagAgreesWithTheMetrics() throws {
        for seed in Self.seeds.prefix(80) {
            let s = Self.scenario(seed: seed)
            let engine = LaunchEngine(s)
            var runner = engine.makeRunner()
            for strategy in Strategy.allCases {
                let times = runner.headlineTimes(strategy, costs: engine.costs)
                let metrics = engine.metrics(strategy)
                #expect(times.timeToFirstFrame == metrics.timeToFirstFrame, "seed \(seed) \(strategy)")
                #expect(times.launchComplete == metrics.launchComplete, "seed \(seed) \(strategy)")
                #expect(
                    runner.lastRunBrokeADependency == (metrics.dependencyViolations > 0), "seed \(seed) \(strategy)")
            }
        }
    }

    @Test func withoutAnchorsAnchoredIsDag() {
        for seed in Self.seeds.prefix(60) {
            var s = Self.scenario(seed: seed)
            for i in s.tasks.indices {
                s.tasks[i].anchor = false
                s.tasks[i].firstFrame = false
            }
            var a = JSONWriter()
            var d = JSONWriter()
            a.result(SimulationResult(s, strategy: .anchored))
            d.result(SimulationResult(s, strategy: .dag))
            let anchored = String(decoding: a.bytes, as: UTF8.self).replacingOccurrences(
                of: "\"anchored\"", with: "\"dag\"")
            #expect(anchored == String(decoding: d.bytes, as: UTF8.self), "seed \(seed)")
        }
    }
}
