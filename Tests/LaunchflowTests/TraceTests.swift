import Foundation
import Testing

@testable import LaunchflowCore

/// `simulate --format trace`: Chrome Trace Event JSON, checked structurally —
/// every task once on its thread with `dur` = cost, thread names present,
/// slices properly nested on each thread, a flow arrow per dependency.
struct TraceTests {
    struct Event {
        var index: Int
        var name: String
        var cat: String
        var phase: String
        var tid: Int
        var ts: Int
        var dur: Int
        var id: Int
        var object: JSONValue

        var end: Int { ts + dur }
    }

    static func events(_ bytes: [UInt8]) throws -> (root: JSONValue, events: [Event]) {
        let root = try JSONValue.parse(bytes)
        guard case .array(let list)? = root["traceEvents"] else {
            Issue.record("no traceEvents array")
            return (root, [])
        }
        var events: [Event] = []
        for (k, item) in list.enumerated() {
            func int(_ key: String) -> Int {
                if case .number(let x)? = item[key] { return Int(x) }
                return -1
            }
            events.append(
                Event(
                    index: k, name: item["name"]?.string ?? "", cat: item["cat"]?.string ?? "",
                    phase: item["ph"]?.string ?? "",
                    tid: int("tid"), ts: int("ts"), dur: int("dur"), id: int("id"), object: item))
            if int("pid") != TraceExport.pid { Issue.record("event \(k) has pid \(int("pid"))") }
        }
        return (root, events)
    }

    /// Everything that must hold of a trace, as a list of broken rules.
    static func check(_ result: SimulationResult) throws -> [String] {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let (root, events) = try events(TraceExport.json(result))
        var failures: [String] = []
        if root["displayTimeUnit"]?.string != "ms" { failures.append("displayTimeUnit is not ms") }

        var threadNames: [Int: String] = [:]
        for event in events where event.phase == "M" && event.name == "thread_name" {
            threadNames[event.tid] = event.object["args"]?["name"]?.string
        }
        if !events.contains(where: { $0.phase == "M" && $0.name == "process_name" }) {
            failures.append("no process_name")
        }
        for thread in 0..<Int32(scenario.device.cores)
        where threadNames[TraceExport.tid(ofThread: thread)] != Schedule.threadName(thread) {
            failures.append("thread \(thread) is not named \(Schedule.threadName(thread))")
        }
        for event in events where event.phase != "M" && threadNames[event.tid] == nil {
            failures.append("event \(event.index) on unnamed tid \(event.tid)")
        }

        // Every task exactly once, on its thread, at its time, lasting its cost.
        let taskSlices = events.filter { $0.phase == "X" && $0.cat == "task" }
        var seen: [String: Int] = [:]
        for slice in taskSlices { seen[slice.name, default: 0] += 1 }
        for (i, task) in scenario.tasks.enumerated() {
            guard seen[task.id] == 1, let slice = taskSlices.first(where: { $0.name == task.id }) else {
                failures.append("\(task.id) appears \(seen[task.id] ?? 0) times")
                continue
            }
            let run = schedule.tasks[i]
            if slice.dur != task.cost { failures.append("\(task.id): dur \(slice.dur) ≠ cost \(task.cost)") }
            if slice.ts != run.start { failures.append("\(task.id): ts \(slice.ts) ≠ start \(run.start)") }
            if threadNames[slice.tid] != Schedule.threadName(run.thread) {
                failures.append("\(task.id) on the wrong thread")
            }
            if slice.object["args"]?["id"]?.string != task.id { failures.append("\(task.id): args.id missing") }
            if slice.object["args"]?["priority"] == nil || slice.object["args"]?["readyMs"] == nil
                || slice.object["args"]?["waitMs"] == nil
            {
                failures.append("\(task.id): args incomplete")
            }
        }
        if taskSlices.count != scenario.tasks.count { failures.append("\(taskSlices.count) task slices") }

        // Pre-main phases, commits, didFinishLaunching on main.
        let mainTid = TraceExport.tid(ofThread: 0)
        let phases = events.filter { $0.phase == "X" && $0.cat == "preMain" && $0.name != "pre-main" }
        if phases.map(\.dur) != scenario.preMain.map(\.cost) { failures.append("pre-main phases differ") }
        let commits = events.filter { $0.phase == "X" && $0.cat == "commit" }
        if commits.count != schedule.commits.count || commits.contains(where: { $0.tid != mainTid }) {
            failures.append("commits differ")
        }
        let launch = events.filter { $0.phase == "X" && $0.name == "didFinishLaunching" }
        if launch.count != 1 || launch.first?.ts != schedule.didFinishLaunching.start
            || launch.first?.end != schedule.didFinishLaunching.end
        {
            failures.append("didFinishLaunching differs")
        }
        let blocked = events.filter { $0.phase == "X" && $0.cat == "blocked" }
        if blocked.map(\.dur) != schedule.blocked.map(\.duration) { failures.append("blocked spans differ") }

        // Nesting: on each thread, slices either contain one another or do not overlap.
        let slices = events.filter { $0.phase == "X" }
        for tid in Set(slices.map(\.tid)) {
            let ordered = slices.filter { $0.tid == tid }.sorted {
                ($0.ts, -$0.dur, $0.index) < ($1.ts, -$1.dur, $1.index)
            }
            var stack: [Event] = []
            for slice in ordered {
                while let top = stack.last, !(top.ts <= slice.ts && slice.end <= top.end) {
                    if top.end <= slice.ts {
                        stack.removeLast()
                    } else {
                        failures.append("on tid \(tid), '\(slice.name)' overlaps '\(top.name)' without nesting")
                        break
                    }
                }
                stack.append(slice)
            }
        }

        // Instants.
        let instants = events.filter { $0.phase == "i" }
        if instants.first(where: { $0.name == "first frame" })?.ts != result.metrics.timeToFirstFrame {
            failures.append("first frame instant")
        }
        if instants.first(where: { $0.name == "launch complete" })?.ts != result.metrics.launchComplete {
            failures.append("launch complete instant")
        }
        if instants.filter({ $0.name.hasSuffix("presented") }).map(\.ts) != schedule.commits.map(\.presented) {
            failures.append("presentations differ")
        }

        // One flow arrow per dependency: start inside the dependency's slice, end where the dependent starts.
        let starts = events.filter { $0.phase == "s" }
        let ends = events.filter { $0.phase == "f" }
        let dependencies = scenario.tasks.flatMap { task in task.dependsOn.map { (task, scenario.tasks[$0]) } }
        if starts.count != dependencies.count || ends.count != dependencies.count { failures.append("flow count") }
        let sliceOf = Dictionary(taskSlices.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (k, (task, dependency)) in dependencies.enumerated() where k < starts.count && k < ends.count {
            let s = starts[k]
            let f = ends[k]
            guard s.id == f.id, let source = sliceOf[dependency.id], let target = sliceOf[task.id] else {
                failures.append("flow \(k) unpaired")
                continue
            }
            if s.tid != source.tid || s.ts < source.ts || s.ts > source.end {
                failures.append("flow \(k) starts outside \(dependency.id)")
            }
            if f.tid != target.tid || f.ts != target.ts { failures.append("flow \(k) ends away from \(task.id)") }
            if f.object["bp"]?.string != "e" { failures.append("flow \(k) without bp e") }
        }
        return failures
    }

    @Test(arguments: SchemaTests.bundled)
    func bundledScenariosGiveAWellFormedTrace(_ name: String) throws {
        let scenario = try ScenarioLoader.load(
            path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path)
        for strategy in Strategy.allCases {
            let failures = try Self.check(SimulationResult(scenario, strategy: strategy))
            #expect(failures.isEmpty, "\(name) \(strategy): \(failures)")
        }
    }

    @Test func blockedSpansAndZeroCostTasksNestInsideDidFinishLaunching() throws {
        let s = try scenario(
            """
            {"name": "blocking", "device": {"cores": 3, "commitCost": 1},
             "preMain": [{"name": "dyld", "cost": 5}, {"name": "empty", "cost": 0}],
             "tasks": [
               {"id": "slow-worker", "cost": 40},
               {"id": "zero", "cost": 0, "mainThreadOnly": true},
               {"id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["slow-worker"]},
               {"id": "later", "cost": 3, "priority": 1, "dependsOn": ["zero"]}
             ]}
            """)
        for strategy in Strategy.allCases {
            let failures = try Self.check(SimulationResult(s, strategy: strategy))
            #expect(failures.isEmpty, "\(strategy): \(failures)")
        }
        let (_, events) = try Self.events(TraceExport.json(SimulationResult(s, strategy: .priority)))
        let blocked = try #require(events.first { $0.cat == "blocked" })
        #expect(blocked.ts == 10_000 && blocked.dur == 35_000)
        let launch = try #require(events.first { $0.name == "didFinishLaunching" })
        #expect(launch.ts <= blocked.ts && blocked.end <= launch.end)
        let early = try #require(events.first { $0.name == "ui" }?.object["args"]?["startedBeforeDependencies"])
        #expect(MiniSchema.canonical(early) == "[\"slow-worker\"]")
    }

    @Test(arguments: Array(UInt64(0)..<40))
    func randomScenariosGiveAWellFormedTrace(_ seed: UInt64) throws {
        let s = PropertyTests.scenario(seed: seed)
        for strategy in Strategy.allCases {
            let failures = try Self.check(SimulationResult(s, strategy: strategy))
            #expect(failures.isEmpty, "seed \(seed) \(strategy): \(failures)")
        }
    }

    @Test func theCommandWritesTheTraceAndOnlyTheTrace() throws {
        let out = try Launchflow.run([
            "simulate", "scenarios/article.json", "--strategy", "priority", "--format", "trace",
        ])
        #expect(out.status == 0 && out.stderr.isEmpty)
        let (root, events) = try Self.events(Array(out.stdout.utf8))
        #expect(root["otherData"]?["strategy"]?.string == "priority")
        #expect(events.filter { $0.cat == "task" }.count == 9)
        let again = try Launchflow.run([
            "simulate", "scenarios/article.json", "--strategy", "priority", "--format", "trace",
        ])
        #expect(again.stdout == out.stdout)
    }
}
