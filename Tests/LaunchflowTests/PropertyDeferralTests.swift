import Foundation
import Testing

@testable import LaunchflowCore

/// Invariants of the v2.1 keys — work deferred until the first frame
/// (`after`), the launch's content (`fullyDrawn`) — and of the bounds, over
/// seeded random scenarios that also use every v2 key. A failure names its
/// seed: ``PropertyDeferralTests/scenario(seed:)``.
struct PropertyDeferralTests {
    static let seeds: [UInt64] = Array(0..<150)

    static func scenario(seed: UInt64) -> Scenario {
        var generator = RandomScenario(taskCount: 1 + Int(seed % 40))
        generator.cores = 2...4
        generator.dependenciesPerTask = Double(seed % 4) * 0.6
        generator.tiers = 1 + Int(seed % 4)
        generator.zeroCostShare = seed % 3 == 0 ? 0.4 : 0.1
        generator.mainThreadShare = seed % 5 == 0 ? 0.7 : 0.35
        generator.maxCostMs = 8
        generator.latencyShare = seed % 2 == 0 ? 0.3 : 0
        generator.delayShare = seed % 3 == 1 ? 0.2 : 0
        generator.queueShare = seed % 4 == 0 ? 0.4 : 0
        generator.queueNames = 1 + Int(seed % 3)
        generator.idleShare = seed % 5 == 1 ? 0.4 : 0
        generator.anchorShare = seed % 4 == 1 ? 0.15 : 0
        generator.inputs = Int(seed % 3)
        generator.inputWindowMs = 60
        generator.afterShare = [0.2, 0.5, 0.9][Int(seed % 3)]
        generator.fullyDrawnShare = 0.2
        return try! generator.make(seed: seed)  // valid by construction
    }

    @Test(arguments: seeds)
    func deferredWorkKeepsItsInvariants(seed: UInt64) {
        let s = Self.scenario(seed: seed)
        for strategy in Strategy.allCases {
            let limits: [Int?] = strategy.definition.limitsConcurrency ? [nil, 1] : [nil]
            for maxConcurrent in limits {
                let result = SimulationResult(
                    s, strategy: strategy, options: SimulationOptions(maxConcurrent: maxConcurrent))
                let failures = Self.check(result)
                #expect(
                    failures.isEmpty,
                    "seed \(seed), \(strategy), maxConcurrent \(String(describing: maxConcurrent)): \(failures)")
            }
        }
    }

    /// Everything that must hold of a v2.1 schedule, as a list of broken rules.
    static func check(_ result: SimulationResult) -> [String] {
        let schedule = result.schedule
        let tasks = schedule.scenario.tasks
        let metrics = result.metrics
        var failures: [String] = []
        func fail(_ text: String) { if failures.count < 5 { failures.append(text) } }
        let frame = schedule.commits[metrics.firstFrameIteration]
        // The first-frame commit is the first at whose end every firstFrame task has run.
        for (k, _) in schedule.commits.enumerated() where k < metrics.firstFrameIteration {
            if tasks.indices.allSatisfy({ !tasks[$0].firstFrame || (schedule.tasks[$0].iteration <= Int32(k)) }) {
                fail("commit \(k) already ends an iteration after every firstFrame task ran")
            }
        }
        if schedule.strategy != .serial {
            for (i, run) in schedule.tasks.enumerated() where tasks[i].after != nil {
                // Never handed over (nor released) before the first frame is presented; its delay counts from then.
                if run.released < frame.presented {
                    fail("\(tasks[i].id) released before the first frame was presented")
                }
                if run.ready < frame.presented || run.start < frame.presented {
                    fail("\(tasks[i].id) handed over or started before the first frame was presented")
                }
                if run.released != max(run.madeReady, frame.presented) + tasks[i].delay {
                    fail("\(tasks[i].id): released ≠ max(ready, first frame) + delay")
                }
            }
            for (i, run) in schedule.tasks.enumerated() where tasks[i].after == nil {
                if run.released - run.madeReady != tasks[i].delay { fail("\(tasks[i].id): released ≠ ready + delay") }
            }
        }
        if metrics.firstFrameReady != frame.end + schedule.scenario.device.renderTime {
            fail("firstFrameReady is not the first-frame commit's end + renderTime")
        }
        if metrics.firstFrameReady > metrics.timeToFirstFrame { fail("the first frame is ready after it is presented") }
        if metrics.timeToFullDisplay < metrics.timeToFirstFrame { fail("full display before the first frame") }
        if !tasks.contains(where: \.fullyDrawn) && metrics.timeToFullDisplay != metrics.timeToFirstFrame {
            fail("without fullyDrawn tasks, full display is not the first frame")
        }
        for (i, run) in schedule.tasks.enumerated() where tasks[i].fullyDrawn {
            let presented = schedule.commits[Int(run.iteration)].presented
            if metrics.timeToFullDisplay < presented {
                fail("full display before fullyDrawn \(tasks[i].id) is on screen")
            }
        }
        // The bounds hold for every run that keeps every dependency.
        if metrics.dependencyViolations == 0 {
            if metrics.timeToFirstFrame < metrics.firstFrameBound {
                fail("first frame \(metrics.timeToFirstFrame) µs below its bound \(metrics.firstFrameBound) µs")
            }
            let lastDone = schedule.tasks.map(\.done).max() ?? 0
            if lastDone < metrics.lowerBound { fail("every task done at \(lastDone) µs, below the lower bound") }
        }
        return failures
    }

    /// `serial` ignores `after`: the schedule is the same without it.
    @Test(arguments: seeds.prefix(60))
    func serialIgnoresAfter(seed: UInt64) throws {
        let s = Self.scenario(seed: seed)
        var without = s
        for i in without.tasks.indices { without.tasks[i].after = nil }
        #expect(simulate(s, strategy: .serial).tasks == simulate(without, strategy: .serial).tasks, "seed \(seed)")
    }

    /// Without `after` and `fullyDrawn` the v2 schedule is unchanged: the
    /// generator's v2.1 draws come last, so clearing them gives the v2 scenario.
    @Test(arguments: seeds.prefix(60))
    func withoutTheNewKeysTheScheduleIsTheV2One(seed: UInt64) throws {
        var s = Self.scenario(seed: seed)
        for i in s.tasks.indices {
            s.tasks[i].after = nil
            s.tasks[i].fullyDrawn = false
        }
        for strategy in Strategy.allCases {
            let result = SimulationResult(s, strategy: strategy)
            #expect(result.metrics.timeToFullDisplay == result.metrics.timeToFirstFrame, "seed \(seed)")
            #expect(PropertyRunLoopTests.check(result).isEmpty, "seed \(seed), \(strategy)")
        }
    }
}
