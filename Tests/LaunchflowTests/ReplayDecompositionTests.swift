import Foundation
import Testing

@testable import LaunchflowCore

/// `replay` splits a run's error in two: the bodies' stretch (they ran longer
/// than their cost) and the schedule's own error (the simulation run again
/// with the durations the bodies took). Checked on records written here from
/// a simulation, with one body made longer by hand.
struct ReplayDecompositionTests {
    /// A host record (the fields `Replay.Run` reads) of `schedule`, with `stretch` µs added to the end of
    /// task `index` and everything after it on its thread left as it was (the record need not be consistent:
    /// only each body's duration and t0 feed the re-simulation).
    static func record(_ schedule: Schedule, stretching index: Int, by stretch: Micros) -> [UInt8] {
        record(schedule, shifts: [index: (0, stretch)])
    }

    /// A host record of `schedule` with each task of `shifts` started and ended later by its two shifts (µs).
    static func record(_ schedule: Schedule, shifts: [Int: (start: Micros, end: Micros)]) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.raw("{"); w.key("tasks"); w.raw("[")
        for (i, run) in schedule.tasks.enumerated() {
            let (late, extra) = shifts[i] ?? (0, 0)
            if i > 0 { w.raw(", ") }
            w.raw("{"); w.key("thread"); w.integer(Int(run.thread))
            w.raw(", "); w.key("iteration"); w.integer(Int(run.iteration))
            for (key, value) in [
                ("ready", run.ready), ("start", run.start + late), ("end", run.end + extra),
                ("done", run.done + extra),
                ("madeReady", run.madeReady), ("released", run.released),
            ] {
                w.raw(", "); w.key(key); w.integer(Int(value))
            }
            w.raw(", "); w.key("outcome"); w.string("succeeded"); w.raw("}")
        }
        w.raw("], "); w.key("commits"); w.raw("[")
        for (k, commit) in schedule.commits.enumerated() {
            if k > 0 { w.raw(", ") }
            w.raw("{"); w.key("iterationStart"); w.integer(Int(commit.iterationStart))
            w.raw(", "); w.key("start"); w.integer(Int(commit.start))
            w.raw(", "); w.key("end"); w.integer(Int(commit.end))
            w.raw(", "); w.key("presented"); w.integer(Int(commit.presented)); w.raw("}")
        }
        w.raw("], "); w.key("didFinishLaunching"); w.raw("[")
        w.integer(Int(schedule.didFinishLaunching.start)); w.raw(", "); w.integer(Int(schedule.didFinishLaunching.end))
        w.raw("]}")
        return w.bytes
    }

    static func scenario() throws -> Scenario {
        try ScenarioLoader.load(path: repositoryRoot.appendingPathComponent("scenarios/dependencies-only.json").path)
    }

    @Test(arguments: Strategy.allCases)
    func aRunAsSimulatedHasNoStretchAndNoScheduleError(_ strategy: Strategy) throws {
        let scenario = try Self.scenario()
        let simulated = SimulationResult(scenario, strategy: strategy)
        let run = try Replay.Run(
            record: Self.record(simulated.schedule, stretching: 0, by: 0), scenario: scenario, strategy: strategy)
        let comparison = Replay.Comparison(simulated: simulated, runs: [run])
        #expect(comparison.bodyStretch == 0)
        #expect(comparison.resimulated == comparison.rows.map(\.simulated), "\(strategy)")
    }

    /// The body that ends last made 7 ms longer: the stretch is 7 ms, and the re-simulation is the
    /// simulation of the scenario with that task's cost 7 ms higher (so a run that followed the model with
    /// that duration has no schedule error left), which moves launch complete.
    @Test(arguments: Strategy.allCases)
    func aLongerBodyIsStretchAndTheResimulationUsesIt(_ strategy: Strategy) throws {
        let scenario = try Self.scenario()
        let simulated = SimulationResult(scenario, strategy: strategy)
        let tasks = simulated.schedule.tasks
        let index = try #require(tasks.indices.max { (tasks[$0].done, $1) < (tasks[$1].done, $0) })
        let run = try Replay.Run(
            record: Self.record(simulated.schedule, stretching: index, by: 7000), scenario: scenario,
            strategy: strategy)
        let comparison = Replay.Comparison(simulated: simulated, runs: [run])
        #expect(comparison.bodyStretch == 7000)
        var longer = scenario
        longer.tasks[index].cost += 7000
        let expected = SimulationResult(longer, strategy: strategy).metrics
        #expect(comparison.resimulated == Replay.metrics.map { expected.value($0) }, "\(strategy)")
        let launch = try #require(Replay.metrics.firstIndex(of: .launchCompleteMs))
        #expect(comparison.resimulated[launch] > comparison.rows[launch].simulated, "\(strategy)")
    }

    /// A dependency that ended late is named as the reason its dependent started late; a late start
    /// nothing explains stays hand-off latency.
    @Test func aLateStartNamesTheDependencyThatEndedLate() throws {
        let scenario = try Self.scenario()
        let simulated = SimulationResult(scenario, strategy: .dag)
        let index = try #require(scenario.tasks.indices.first { !scenario.tasks[$0].dependsOn.isEmpty })
        let dependency = try #require(
            scenario.tasks[index].dependsOn.max {
                simulated.schedule.tasks[$0].done < simulated.schedule.tasks[$1].done
            })
        let late = Self.record(simulated.schedule, shifts: [dependency: (0, 6000), index: (6000, 6000)])
        let explained = Replay.Comparison(
            simulated: simulated, runs: [try Replay.Run(record: late, scenario: scenario, strategy: .dag)])
        let task = explained.tasks[index]
        #expect(task.cause?.id == scenario.tasks[dependency].id)
        #expect(
            task.reason == "started 6 ms late: '\(scenario.tasks[dependency].id)', which it waits for, ended 6 ms late",
            "\(task.reason)")
        let alone = Self.record(simulated.schedule, shifts: [index: (6000, 6000)])
        let unexplained = Replay.Comparison(
            simulated: simulated, runs: [try Replay.Run(record: alone, scenario: scenario, strategy: .dag)])
        #expect(unexplained.tasks[index].cause == nil)
        #expect(unexplained.tasks[index].reason.hasSuffix("(hand-off and wake-up latency before it)"))
    }
}
