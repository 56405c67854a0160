import Foundation
import Testing

@testable import LaunchflowCore

/// MODEL.md §3.10 (`device.cpus`, `device.mainThreadPriority`: threads
/// sharing CPUs, processor sharing in whole µs) and §3.11 (`mainExecutor`:
/// the main operation queue): the hand-derived cases C1–C8 and O1–O8 of
/// Tools/reference/test_ref.py, with the schedules worked out there from the
/// docs (the derivations are in its comments), the validation of the new
/// keys, and the rule that without them nothing changes.
///
/// Expected runs are `[thread, ready, start, end]` or `[thread, ready, start,
/// end, done]` in µs, thread 0 for `main` and k for `worker-k`; 1000 Hz (a
/// vsync every millisecond) unless said otherwise.
struct ContentionTests {
    static let ms = 1000

    // MARK: Helpers

    static func run(_ json: String, _ strategy: Strategy = .dag) throws -> SimulationResult {
        SimulationResult(try scenario(json), strategy: strategy)
    }

    /// The differences between the runs of `result` and `expected` (by task id).
    static func runDifferences(_ result: SimulationResult, _ expected: [String: [Int]]) -> [String] {
        let schedule = result.schedule
        var out: [String] = []
        for (i, task) in schedule.scenario.tasks.enumerated() {
            guard let want = expected[task.id] else { continue }
            let r = schedule.tasks[i]
            let got = Array([Int(r.thread), r.ready, r.start, r.end, r.done].prefix(want.count))
            if got != want { out.append("\(task.id): expected \(want), got \(got)") }
        }
        for id in expected.keys where !schedule.scenario.tasks.contains(where: { $0.id == id }) {
            out.append("\(id): no such task")
        }
        return out
    }

    static func expectRuns(
        _ result: SimulationResult, _ expected: [String: [Int]], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let differences = runDifferences(result, expected)
        #expect(differences.isEmpty, "\(differences)", sourceLocation: sourceLocation)
    }

    /// Every commit as `[start, end, presented]`.
    static func commits(_ result: SimulationResult) -> [[Int]] {
        result.schedule.commits.map { [$0.start, $0.end, $0.presented] }
    }

    /// The §6 JSON object of a run, as text.
    static func json(_ scenario: Scenario, _ strategy: Strategy, maxConcurrent: Int? = nil) -> String {
        var writer = JSONWriter()
        writer.result(
            SimulationResult(scenario, strategy: strategy, options: SimulationOptions(maxConcurrent: maxConcurrent)))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: §3.10 CPU contention

    /// C1: two workers on one CPU share it (1/2 each); the docs' example; `cpus: null` is absent.
    @Test func twoWorkersShareOneCPU() throws {
        let ms = Self.ms
        let c1 = try Self.run(
            """
            {"name":"C1","device":{"cores":3,"cpus":1,"refreshRate":1000},"tasks":[
             {"id":"a","cost":4},{"id":"b","cost":2},{"id":"c","cost":1,"dependsOn":["b"]}]}
            """)
        Self.expectRuns(
            c1,
            [
                "a": [1, 0, 0, 7 * ms, 7 * ms], "b": [2, 0, 0, 4 * ms, 4 * ms],
                "c": [2, 4 * ms, 4 * ms, 6 * ms, 6 * ms],
            ])
        let m = c1.metrics
        #expect(m.launchComplete == 7 * ms)
        #expect(m.mainThreadBusy == 0)
        #expect(abs(m.cpuUtilization - 1) < 1e-12)
        #expect(m.criticalPath == 4 * ms)  // unchanged by contention
        #expect(m.lowerBound == 7 * ms)  // ⌈7000 / min(3, 1)⌉
        #expect(m.frames == 1)

        let docs = """
            {"name":"C1b","device":{"cores":3,"cpus":CPUS,"refreshRate":1000},"tasks":[
             {"id":"a","cost":4},{"id":"b","cost":2}]}
            """
        Self.expectRuns(
            try Self.run(docs.replacingOccurrences(of: "CPUS", with: "1")),
            ["a": [1, 0, 0, 6 * ms, 6 * ms], "b": [2, 0, 0, 4 * ms, 4 * ms]])
        Self.expectRuns(
            try Self.run(docs.replacingOccurrences(of: "CPUS", with: "null")), ["a": [1, 0, 0, 4 * ms, 4 * ms]])
    }

    /// C2: the main thread shares too (2/3 each); with `mainThreadPriority` it
    /// runs at 1 and the workers share the rest; the docs' example, rate 0.
    @Test func mainThreadSharesUnlessItHasPriority() throws {
        let ms = Self.ms
        let c2 = """
            {"name":"C2","device":{"cores":3,"cpus":2,"refreshRate":1000PRIORITY},"tasks":[
             {"id":"m","cost":4,"mainThreadOnly":true},{"id":"a","cost":3},{"id":"b","cost":3}]}
            """
        let shared = try Self.run(c2.replacingOccurrences(of: "PRIORITY", with: ""))
        Self.expectRuns(
            shared, ["m": [0, 0, 0, 5500, 5500], "a": [1, 0, 0, 4500, 4500], "b": [2, 0, 0, 4500, 4500]])
        #expect(Self.commits(shared) == [[0, 0, 0], [5500, 5500, 6000]])
        #expect(shared.metrics.launchComplete == 5500)
        #expect(shared.metrics.mainThreadBusy == 5500)  // wall time, not the 4 ms cost
        #expect(shared.metrics.lowerBound == 5 * ms)
        #expect(abs(shared.metrics.cpuUtilization - 10.0 / 11.0) < 1e-12)

        let first = try Self.run(c2.replacingOccurrences(of: "PRIORITY", with: ",\"mainThreadPriority\":true"))
        Self.expectRuns(
            first, ["m": [0, 0, 0, 4 * ms, 4 * ms], "a": [1, 0, 0, 5 * ms, 5 * ms], "b": [2, 0, 0, 5 * ms, 5 * ms]])
        #expect(first.metrics.launchComplete == 5 * ms)
        #expect(first.metrics.mainThreadBusy == 4 * ms)
        #expect(abs(first.metrics.cpuUtilization - 1) < 1e-12)

        let docs = """
            {"name":"C2d","device":{"cores":2,"cpus":1,"mainThreadPriority":PRIORITY,"refreshRate":1000},"tasks":[
             {"id":"m","cost":3,"mainThreadOnly":true},{"id":"w","cost":2}]}
            """
        Self.expectRuns(
            try Self.run(docs.replacingOccurrences(of: "PRIORITY", with: "true")),
            ["m": [0, 0, 0, 3 * ms], "w": [1, 0, 0, 5 * ms]])
        Self.expectRuns(
            try Self.run(docs.replacingOccurrences(of: "PRIORITY", with: "false")),
            ["m": [0, 0, 0, 5 * ms], "w": [1, 0, 0, 4 * ms]])
    }

    /// C3: a commit is stretched like any item; CPU utilisation counts its
    /// `commitCost`, busy time its wall time.
    @Test func commitsAreStretched() throws {
        let ms = Self.ms
        let c3 = try Self.run(
            """
            {"name":"C3","device":{"cores":2,"cpus":1,"refreshRate":1000,"commitCost":2},"tasks":[
             {"id":"w","cost":4},{"id":"f","cost":1,"mainThreadOnly":true,"firstFrame":true}]}
            """)
        Self.expectRuns(c3, ["w": [1, 0, 0, 8 * ms, 8 * ms], "f": [0, 0, 4 * ms, 6 * ms, 6 * ms]])
        #expect(Self.commits(c3) == [[0, 4 * ms, 4 * ms], [6 * ms, 9 * ms, 9 * ms]])
        let m = c3.metrics
        #expect(m.timeToFirstFrame == 9 * ms)
        #expect(m.firstFrameReady == 9 * ms)
        #expect(m.launchComplete == 9 * ms)
        #expect(m.mainThreadBusy == 9 * ms)
        #expect(abs(m.cpuUtilization - 1) < 1e-12)  // (4 + 1 + 2 × 2) / (1 × 9), not 12 / 9
        #expect(m.firstFrameBound == 3 * ms)
        #expect(m.lowerBound == 5 * ms)
        #expect(m.maxInputDelay == 0)
    }

    /// C3i: an input handler is stretched; busy counts its wall time.
    @Test func inputHandlersAreStretched() throws {
        let ms = Self.ms
        let r = try Self.run(
            """
            {"name":"C3i","device":{"cores":2,"cpus":1,"refreshRate":1000},
             "inputs":[{"at":0,"cost":2}],"tasks":[{"id":"w","cost":2}]}
            """)
        let input = r.schedule.inputs[0]
        let times: [Micros] = [input.at, input.start, input.end]
        #expect(times == [0, 0, 4 * ms])
        Self.expectRuns(r, ["w": [1, 0, 0, 4 * ms, 4 * ms]])
        let m = r.metrics
        #expect(m.mainThreadBusy == 4 * ms)
        #expect(abs(m.cpuUtilization - 1) < 1e-12)
        #expect(m.maxInputDelay == 4 * ms)
        #expect(m.launchComplete == 4 * ms)
        #expect(m.frames == 2)
    }

    /// C4: latency and delay hold no CPU (and their instants are visited).
    @Test func latencyAndDelayHoldNoCPU() throws {
        let ms = Self.ms
        Self.expectRuns(
            try Self.run(
                """
                {"name":"C4","device":{"cores":3,"cpus":1,"refreshRate":1000},"tasks":[
                 {"id":"x","cost":1,"latency":3},{"id":"d","cost":2,"delay":1},{"id":"y","cost":4}]}
                """),
            [
                "x": [1, 0, 0, 2 * ms, 5 * ms], "d": [1, 1 * ms, 2 * ms, 6 * ms, 6 * ms],
                "y": [2, 0, 0, 7 * ms, 7 * ms],
            ])
        // The docs' example: x 1 ms + latency 5, y 6 ms.
        Self.expectRuns(
            try Self.run(
                """
                {"name":"C4b","device":{"cores":3,"cpus":1,"refreshRate":1000},"tasks":[
                 {"id":"x","cost":1,"latency":5},{"id":"y","cost":6}]}
                """),
            ["x": [1, 0, 0, 2 * ms, 7 * ms], "y": [2, 0, 0, 7 * ms, 7 * ms]])
    }

    /// C5: an item ending exactly at a visited instant of its own (a release).
    @Test func anEndOnAVisitedInstant() throws {
        let ms = Self.ms
        Self.expectRuns(
            try Self.run(
                """
                {"name":"C5","device":{"cores":3,"cpus":1,"refreshRate":1000},"tasks":[
                 {"id":"a","cost":2},{"id":"b","cost":3},{"id":"c","cost":1,"delay":4}]}
                """),
            [
                "a": [1, 0, 0, 4 * ms, 4 * ms], "b": [2, 0, 0, 6 * ms, 6 * ms],
                "c": [1, 4 * ms, 4 * ms, 6 * ms, 6 * ms],
            ])
    }

    /// C6, C7: progress is floored at every visited instant, ends rounded up.
    @Test func roundingIsFlooredProgressAndCeiledEnds() throws {
        let ms = Self.ms
        // Rate 2/3: a (1 µs) ends at 2, not 1.5; b and c lose 1 µs and end at 1001.
        Self.expectRuns(
            try Self.run(
                """
                {"name":"C6","device":{"cores":4,"cpus":2,"refreshRate":1000},"tasks":[
                 {"id":"a","cost":0.001},{"id":"b","cost":1},{"id":"c","cost":1}]}
                """),
            ["a": [1, 0, 0, 2], "b": [2, 0, 0, 1001], "c": [3, 0, 0, 1001]])
        // A visited instant that changes nothing still drops progress.
        let c7 = """
            {"name":"C7","device":{"cores":3,"cpus":1,"refreshRate":1000},"tasks":[
             {"id":"a","cost":3},{"id":"b","cost":3}Z]}
            """
        Self.expectRuns(
            try Self.run(c7.replacingOccurrences(of: "Z", with: ",{\"id\":\"z\",\"cost\":0,\"delay\":0.001}")),
            ["a": [1, 0, 0, 6001, 6001], "b": [2, 0, 0, 6001, 6001], "z": [1, 1, 6001, 6001, 6001]])
        Self.expectRuns(try Self.run(c7.replacingOccurrences(of: "Z", with: "")), ["a": [1, 0, 0, 6 * ms]])
        // The main thread's item is floored the same way.
        let c7m = try Self.run(
            """
            {"name":"C7m","device":{"cores":3,"cpus":2,"refreshRate":1000},"tasks":[
             {"id":"m","cost":1,"mainThreadOnly":true},{"id":"a","cost":0.001},{"id":"b","cost":1}]}
            """)
        Self.expectRuns(c7m, ["m": [0, 0, 0, 1001], "a": [1, 0, 0, 2], "b": [2, 0, 0, 1001]])
        #expect(Self.commits(c7m) == [[0, 0, 0], [1001, 1001, 2 * ms]])
        #expect(c7m.metrics.mainThreadBusy == 1001)
    }

    /// C8: the first frame's presentation is a visited instant only in a
    /// scenario with an `after` task.
    @Test func firstFramePresentationIsVisitedOnlyWithAfterTasks() throws {
        let ms = Self.ms
        let c8 = """
            {"name":"C8","device":{"cores":4,"cpus":1,"refreshRate":1000,"renderTime":0.5},"tasks":[
             {"id":"a","cost":1},{"id":"b","cost":1},{"id":"c","cost":1},{"id":"u","cost":1AFTER}]}
            """
        let visited = try Self.run(c8.replacingOccurrences(of: "AFTER", with: ",\"after\":\"firstFrame\""))
        Self.expectRuns(
            visited,
            ["a": [1, 0, 0, 3001], "b": [2, 0, 0, 3001], "c": [3, 0, 0, 3001], "u": [1, 1 * ms, 3001, 4001]])
        #expect(visited.metrics.timeToFirstFrame == 1 * ms)
        Self.expectRuns(
            try Self.run(c8.replacingOccurrences(of: "AFTER", with: "")),
            ["a": [1, 0, 0, 3 * ms], "b": [2, 0, 0, 3 * ms], "c": [3, 0, 0, 3 * ms], "u": [1, 0, 3 * ms, 4 * ms]])
    }

    // MARK: §3.11 The main operation queue

    /// O1: one operation per iteration, the best-ranked first; the docs' example.
    @Test func oneOperationPerIteration() throws {
        let ms = Self.ms
        let o1 = """
            {"name":"O1","device":{"cores":2,"refreshRate":1000,"commitCost":1},"mainExecutor":"EXECUTOR","tasks":[
             {"id":"m1","cost":1,"mainThreadOnly":true},{"id":"m2","cost":1,"mainThreadOnly":true,"priority":1},
             {"id":"m0","cost":1,"mainThreadOnly":true}]}
            """
        let op = try Self.run(o1.replacingOccurrences(of: "EXECUTOR", with: "operationQueue"))
        Self.expectRuns(
            op, ["m1": [0, 0, 1 * ms, 2 * ms], "m2": [0, 0, 5 * ms, 6 * ms], "m0": [0, 0, 3 * ms, 4 * ms]])
        #expect(
            Self.commits(op).map { Array($0.prefix(2)) } == [
                [0, 1 * ms], [2 * ms, 3 * ms], [4 * ms, 5 * ms], [6 * ms, 7 * ms],
            ])
        #expect(op.metrics.frames == 4)
        #expect(op.metrics.launchComplete == 7 * ms)
        #expect(op.metrics.maxInputDelay == 2 * ms)
        let dispatch = try Self.run(o1.replacingOccurrences(of: "EXECUTOR", with: "dispatch"))
        Self.expectRuns(
            dispatch, ["m1": [0, 0, 1 * ms, 2 * ms], "m2": [0, 0, 3 * ms, 4 * ms], "m0": [0, 0, 2 * ms, 3 * ms]])
        #expect(dispatch.metrics.frames == 2)
    }

    /// O2: the operation is chosen when the queue becomes free, among the
    /// tasks waiting then; `readyMs` is the hand-over, not the admission.
    @Test func theOperationIsChosenWhenTheQueueIsFree() throws {
        let ms = Self.ms
        let o2 = """
            {"name":"O2","device":{"cores":2,"refreshRate":1000,"commitCost":2},"mainExecutor":"EXECUTOR","tasks":[
             {"id":"a","cost":1,"mainThreadOnly":true},{"id":"c","cost":1,"mainThreadOnly":true,"priority":5},
             {"id":"w","cost":3.5},{"id":"b","cost":1,"mainThreadOnly":true,"priority":1,"dependsOn":["w"]}]}
            """
        let op = try Self.run(o2.replacingOccurrences(of: "EXECUTOR", with: "operationQueue"))
        Self.expectRuns(
            op,
            [
                "a": [0, 0, 2 * ms, 3 * ms], "c": [0, 0, 5 * ms, 6 * ms], "w": [1, 0, 0, 3500],
                "b": [0, 3500, 8 * ms, 9 * ms],
            ])
        #expect(
            Self.commits(op).map { Array($0.prefix(2)) } == [
                [0, 2 * ms], [3 * ms, 5 * ms], [6 * ms, 8 * ms], [9 * ms, 11 * ms],
            ])
        let dispatch = try Self.run(o2.replacingOccurrences(of: "EXECUTOR", with: "dispatch"))
        Self.expectRuns(
            dispatch,
            [
                "a": [0, 0, 2 * ms, 3 * ms], "c": [0, 0, 3 * ms, 4 * ms], "w": [1, 0, 0, 3500],
                "b": [0, 3500, 6 * ms, 7 * ms],
            ])
        #expect(
            Self.commits(dispatch).map { Array($0.prefix(2)) } == [[0, 2 * ms], [4 * ms, 6 * ms], [7 * ms, 9 * ms]])
    }

    /// O3: the best-ranked among the waiting tasks.
    @Test func theBestRankedWaitingTaskIsAdmitted() throws {
        let ms = Self.ms
        let o3 = try Self.run(
            """
            {"name":"O3","device":{"cores":2,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
             {"id":"c","cost":1,"mainThreadOnly":true,"priority":5},{"id":"w","cost":2},
             {"id":"b","cost":1,"mainThreadOnly":true,"dependsOn":["w"]},
             {"id":"x","cost":1,"mainThreadOnly":true,"priority":3}]}
            """)
        Self.expectRuns(
            o3,
            [
                "c": [0, 0, 1 * ms, 2 * ms], "w": [1, 0, 0, 2 * ms], "b": [0, 2 * ms, 2 * ms, 3 * ms],
                "x": [0, 0, 0, 1 * ms],
            ])
        #expect(
            Self.commits(o3) == [
                [0, 0, 0], [1 * ms, 1 * ms, 1 * ms], [2 * ms, 2 * ms, 2 * ms], [3 * ms, 3 * ms, 3 * ms],
            ])
    }

    /// O4: the main operation queue admits after every `queue`; O5: a task's
    /// own queue admits it first, and it keeps that queue while it waits.
    @Test func theMainOperationQueueAdmitsLast() throws {
        let ms = Self.ms
        Self.expectRuns(
            try Self.run(
                """
                {"name":"O4","device":{"cores":2,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
                 {"id":"z","cost":2,"queue":"q"},{"id":"B","cost":1,"mainThreadOnly":true,"queue":"q"},
                 {"id":"A","cost":1,"mainThreadOnly":true,"priority":5},{"id":"K","cost":2,"mainThreadOnly":true}]}
                """),
            [
                "z": [1, 0, 0, 2 * ms], "B": [0, 2 * ms, 2 * ms, 3 * ms], "A": [0, 0, 3 * ms, 4 * ms],
                "K": [0, 0, 0, 2 * ms],
            ])
        let o5 = try Self.run(
            """
            {"name":"O5","device":{"cores":2,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
             {"id":"m1","cost":1,"mainThreadOnly":true},{"id":"m2","cost":1,"mainThreadOnly":true,"queue":"q"},
             {"id":"w","cost":1,"queue":"q","priority":1}]}
            """)
        Self.expectRuns(
            o5, ["m1": [0, 0, 0, 1 * ms], "m2": [0, 0, 1 * ms, 2 * ms], "w": [1, 2 * ms, 2 * ms, 3 * ms]])
        #expect(Self.commits(o5).map { $0[1] } == [0, 1 * ms, 2 * ms])
    }

    /// O6: idle tasks and `after` tasks with the main operation queue: the idle
    /// step runs while operations wait (they are not in the main queue).
    @Test func idleAndAfterTasksWithTheOperationQueue() throws {
        let ms = Self.ms
        let o6 = """
            {"name":"O6","device":{"cores":2,"refreshRate":1000},"mainExecutor":"EXECUTOR","tasks":[
             {"id":"f","cost":1,"mainThreadOnly":true,"firstFrame":true},
             {"id":"g","cost":1,"mainThreadOnly":true,"latency":3},{"id":"h","cost":1,"mainThreadOnly":true},
             {"id":"i","cost":1,"mainThreadOnly":true,"idle":true},
             {"id":"a","cost":1,"mainThreadOnly":true,"after":"firstFrame"}]}
            """
        let op = try Self.run(o6.replacingOccurrences(of: "EXECUTOR", with: "operationQueue"))
        Self.expectRuns(
            op,
            [
                "f": [0, 0, 0, 1 * ms, 1 * ms], "g": [0, 0, 1 * ms, 2 * ms, 5 * ms],
                "h": [0, 0, 5 * ms, 6 * ms, 6 * ms],
                "i": [0, 0, 2 * ms, 3 * ms, 3 * ms], "a": [0, 1 * ms, 6 * ms, 7 * ms, 7 * ms],
            ])
        #expect(Self.commits(op).map { $0[1] } == [0, 1 * ms, 3 * ms, 6 * ms, 7 * ms])
        #expect(op.metrics.timeToFirstFrame == 1 * ms)
        #expect(op.metrics.launchComplete == 7 * ms)
        #expect(op.metrics.frames == 5)
        let dispatch = try Self.run(o6.replacingOccurrences(of: "EXECUTOR", with: "dispatch"))
        Self.expectRuns(
            dispatch,
            [
                "f": [0, 0, 0, 1 * ms, 1 * ms], "g": [0, 0, 1 * ms, 2 * ms, 5 * ms],
                "h": [0, 0, 2 * ms, 3 * ms, 3 * ms],
                "i": [0, 0, 3 * ms, 4 * ms, 4 * ms], "a": [0, 4 * ms, 4 * ms, 5 * ms, 5 * ms],
            ])
        #expect(dispatch.metrics.timeToFirstFrame == 4 * ms)
        #expect(dispatch.metrics.launchComplete == 5 * ms)
        #expect(dispatch.metrics.frames == 3)
    }

    /// O7: the anchor closure's tasks go to the main queue (dFL runs them);
    /// `serial` and `priority` ignore the key.
    @Test func closureTasksGoToTheMainQueueAndSerialAndPriorityIgnoreTheKey() throws {
        let ms = Self.ms
        let o7 = """
            {"name":"O7","device":{"cores":2,"refreshRate":1000,"commitCost":1},"mainExecutor":"EXECUTOR","tasks":[
             {"id":"d","cost":1,"mainThreadOnly":true},{"id":"k","cost":2,"anchor":true,"dependsOn":["d"]},
             {"id":"home","cost":1,"mainThreadOnly":true,"firstFrame":true},{"id":"t","cost":1,"mainThreadOnly":true}]}
            """
        let op = o7.replacingOccurrences(of: "EXECUTOR", with: "operationQueue")
        let dispatch = o7.replacingOccurrences(of: "EXECUTOR", with: "dispatch")
        let dagOp = try Self.run(op)
        Self.expectRuns(
            dagOp,
            [
                "d": [0, 0, 0, 1 * ms], "k": [1, 1 * ms, 1 * ms, 3 * ms], "home": [0, 0, 4 * ms, 5 * ms],
                "t": [0, 0, 6 * ms, 7 * ms],
            ])
        #expect(dagOp.metrics.timeToFirstFrame == 6 * ms)
        #expect(dagOp.metrics.mainThreadBlocked == 2 * ms)
        #expect(dagOp.metrics.frames == 3)
        #expect(dagOp.metrics.launchComplete == 8 * ms)
        let dagDispatch = try Self.run(dispatch)
        Self.expectRuns(
            dagDispatch,
            [
                "d": [0, 0, 0, 1 * ms], "k": [1, 1 * ms, 1 * ms, 3 * ms], "home": [0, 0, 4 * ms, 5 * ms],
                "t": [0, 0, 5 * ms, 6 * ms],
            ])
        #expect(dagDispatch.metrics.timeToFirstFrame == 7 * ms)
        #expect(dagDispatch.metrics.frames == 2)
        let anchored: [String: [Int]] = [
            "d": [0, 0, 0, 1 * ms], "k": [1, 1 * ms, 1 * ms, 3 * ms], "home": [0, 0, 1 * ms, 2 * ms],
            "t": [0, 0, 4 * ms, 5 * ms],
        ]
        let anchoredOp = try Self.run(op, .anchored)
        Self.expectRuns(anchoredOp, anchored)
        #expect(anchoredOp.metrics.timeToFirstFrame == 4 * ms)
        #expect(anchoredOp.metrics.mainThreadBlocked == 1 * ms)
        #expect(anchoredOp.metrics.frames == 2)
        Self.expectRuns(try Self.run(dispatch, .anchored), anchored)
        for strategy in [Strategy.serial, .priority] {
            #expect(Self.json(try scenario(op), strategy) == Self.json(try scenario(dispatch), strategy))
        }
    }

    /// O8: a closure task ready only after dFL returned still goes to the main
    /// queue, and shares an iteration with an operation.
    @Test func aClosureTaskReadyAfterDidFinishLaunchingSharesAnIteration() throws {
        let ms = Self.ms
        let o8 = try Self.run(
            """
            {"name":"O8","device":{"cores":2,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
             {"id":"k","cost":1,"anchor":true,"queue":"q"},{"id":"x","cost":2},
             {"id":"X","cost":1,"mainThreadOnly":true,"queue":"q","dependsOn":["x"]},
             {"id":"m","cost":1,"mainThreadOnly":true},{"id":"n","cost":1,"mainThreadOnly":true},
             {"id":"p","cost":1,"mainThreadOnly":true}]}
            """)
        Self.expectRuns(
            o8,
            [
                "k": [1, 0, 0, 1 * ms], "x": [1, 0, 1 * ms, 3 * ms], "X": [0, 3 * ms, 3 * ms, 4 * ms],
                "m": [0, 0, 1 * ms, 2 * ms], "n": [0, 0, 2 * ms, 3 * ms], "p": [0, 0, 4 * ms, 5 * ms],
            ])
        #expect(Self.commits(o8).map { $0[1] } == [1 * ms, 2 * ms, 3 * ms, 5 * ms])
        #expect(o8.metrics.mainThreadBlocked == 1 * ms)
        #expect(o8.metrics.frames == 4)
        #expect(o8.metrics.launchComplete == 5 * ms)
    }

    /// Contention and the operation queue together, with `--max-concurrent`.
    @Test func bothKeysTogether() throws {
        let ms = Self.ms
        // cores 3, cpus 1: m1 and m2 (main, 2 ms each) through the operation
        // queue, w (worker, 2 ms). Iteration 0 commits at 0; iteration 1 runs m1
        // beside w at 1/2 each: both end at 4. m2 is admitted at 4 (m1 done),
        // alone: 4–6.
        let both = try Self.run(
            """
            {"name":"both","device":{"cores":3,"cpus":1,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
             {"id":"m1","cost":2,"mainThreadOnly":true},{"id":"m2","cost":2,"mainThreadOnly":true},{"id":"w","cost":2}]}
            """)
        Self.expectRuns(both, ["m1": [0, 0, 0, 4 * ms], "m2": [0, 0, 4 * ms, 6 * ms], "w": [1, 0, 0, 4 * ms]])
        #expect(both.metrics.frames == 3)
        #expect(both.metrics.mainThreadBusy == 6 * ms)
    }

    // MARK: No effect without the keys

    /// `cpus` ≥ `cores`, `mainThreadPriority` without `cpus`, an explicit
    /// `"dispatch"`: the schedule is exactly the one without them; `serial` and
    /// `priority` ignore `mainExecutor`; `serial` never runs two items at once.
    @Test(arguments: [
        "article", "modules", "idle-work", "post-frame", "permission-alerts", "large-app-network",
    ])
    func withoutContentionOrOperationQueueNothingChanges(_ name: String) throws {
        let base = try ScenarioLoader.load(path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path)
        func variant(_ change: (inout Scenario) -> Void) -> Scenario {
            var copy = base
            change(&copy)
            return copy
        }
        let cores = base.device.cores
        let same = [
            variant { $0.device.cpus = cores },
            variant {
                $0.device.cpus = min(cores + 3, 1024)
                $0.device.mainThreadPriority = true
            },
            variant { $0.device.mainThreadPriority = true },
            variant { $0.mainExecutor = .dispatch },
        ]
        for strategy in Strategy.allCases {
            let maxConcurrent: [Int?] = strategy.definition.limitsConcurrency ? [nil, 1] : [nil]
            for limit in maxConcurrent {
                let want = Self.json(base, strategy, maxConcurrent: limit)
                for (k, scenario) in same.enumerated() {
                    #expect(Self.json(scenario, strategy, maxConcurrent: limit) == want, "variant \(k), \(strategy)")
                }
                if !strategy.definition.waitsForAnchors {
                    let op = variant { $0.mainExecutor = .operationQueue }
                    #expect(Self.json(op, strategy) == Self.json(base, strategy), "\(strategy) ignores mainExecutor")
                }
            }
        }
        let oneCPU = SimulationResult(variant { $0.device.cpus = 1 }, strategy: .serial).schedule
        let serial = SimulationResult(base, strategy: .serial).schedule
        #expect(oneCPU.tasks == serial.tasks)
        #expect(oneCPU.commits == serial.commits)
        #expect(oneCPU.inputs == serial.inputs)
    }

    /// Under contention no item takes less than its cost, and every run ends;
    /// with the operation queue no iteration runs two operations.
    @Test(arguments: 0..<60)
    func randomScenariosKeepTheRules(seed: Int) throws {
        var generator = RandomScenario(taskCount: 1 + seed % 30)
        generator.cores = 2...6
        generator.dependenciesPerTask = Double(seed % 4) * 0.6
        generator.mainThreadShare = seed % 3 == 0 ? 0.6 : 0.3
        generator.maxCostMs = 8
        generator.latencyShare = seed % 2 == 0 ? 0.3 : 0
        generator.delayShare = seed % 3 == 1 ? 0.2 : 0
        generator.queueShare = seed % 4 == 0 ? 0.4 : 0
        generator.idleShare = seed % 5 == 1 ? 0.3 : 0
        generator.anchorShare = seed % 4 == 1 ? 0.15 : 0
        generator.inputs = seed % 3
        generator.afterShare = seed % 2 == 1 ? 0.3 : 0
        var base = try generator.make(seed: UInt64(seed))
        base.device.cpus = 1 + seed % max(1, base.device.cores - 1)
        base.device.mainThreadPriority = seed % 3 == 2
        base.mainExecutor = seed % 2 == 0 ? .operationQueue : .dispatch
        for strategy in Strategy.allCases {
            let result = SimulationResult(base, strategy: strategy)
            let schedule = result.schedule
            for (i, run) in schedule.tasks.enumerated() {
                #expect(run.end - run.start >= schedule.costs[i], "seed \(seed) \(strategy): task \(i)")
                #expect(run.done == run.end + schedule.latencies[i])
            }
            if strategy.definition.waitsForAnchors {
                #expect(result.metrics.dependencyViolations == 0)
            }
            #expect(result.metrics.cpuUtilization <= 1 + 1e-12)
            guard base.mainExecutor == .operationQueue, let closure = AnchorClosure(of: base, strategy: strategy)
            else { continue }
            var perIteration: [Int32: Int] = [:]
            for (i, task) in base.tasks.enumerated() where task.mainThreadOnly && !task.idle && !closure.contains[i] {
                perIteration[schedule.tasks[i].iteration, default: 0] += 1
            }
            #expect(perIteration.values.allSatisfy { $0 <= 1 }, "seed \(seed) \(strategy): \(perIteration)")
        }
    }

    // MARK: Validation and writing

    @Test func badValuesAreRejected() {
        let cases: [(device: String, top: String, message: String)] = [
            (#""cpus":0"#, "", "device.cpus: must be an integer between 1 and 1024, found 0"),
            (#""cpus":1025"#, "", "device.cpus: must be an integer between 1 and 1024, found 1025"),
            (#""cpus":2.5"#, "", "device.cpus: must be an integer, found 2.5"),
            (#""cpus":"2""#, "", "device.cpus: expected an integer, found a string"),
            (#""mainThreadPriority":"yes""#, "", "device.mainThreadPriority: expected true or false, found a string"),
            (#""cpu":2"#, "", "device.cpu: unknown key 'cpu'; did you mean 'cpus'?"),
            ("", #""mainExecutor":"foo","#, "mainExecutor: must be 'dispatch' or 'operationQueue', found 'foo'"),
            (
                "", #""mainExecutor":"operationqueue","#,
                "mainExecutor: must be 'dispatch' or 'operationQueue', found 'operationqueue'; did you mean 'operationQueue'?"
            ),
            ("", #""mainExecutor":3,"#, "mainExecutor: expected a string"),
        ]
        for (device, top, message) in cases {
            let found = problems(#"{"name":"x",\#(top)"device":{\#(device)},"tasks":[{"id":"a","cost":1}]}"#)
            #expect(found.contains { $0.contains(message) }, "\(message) not in \(found)")
        }
        // Built in code, the same rules.
        #expect(throws: ScenarioError.self) {
            try Scenario(name: "x", device: Device(cores: 2, cpus: 0), tasks: [LaunchTask(id: "a", cost: 1)])
        }
    }

    @Test func validValuesAreAccepted() throws {
        let ok = try scenario(
            """
            {"name":"ok","mainExecutor":null,"device":{"cpus":1024.0,"mainThreadPriority":null},
             "tasks":[{"id":"a","cost":1}]}
            """)
        #expect(ok.device.cpus == 1024)
        #expect(ok.device.mainThreadPriority == false)
        #expect(ok.mainExecutor == .dispatch)
        let set = try scenario(
            """
            {"name":"ok","mainExecutor":"operationQueue","device":{"cpus":1,"mainThreadPriority":true},
             "tasks":[{"id":"a","cost":1}]}
            """)
        #expect(set.device.cpus == 1)
        #expect(set.device.mainThreadPriority)
        #expect(set.mainExecutor == .operationQueue)
        // mainThreadPriority without cpus, and mainExecutor with serial: valid, no effect.
        _ = try scenario(#"{"name":"ok","device":{"mainThreadPriority":true},"tasks":[{"id":"a","cost":1}]}"#)
        let serialOnly = try scenario(
            #"{"name":"ok","mainExecutor":"operationQueue","tasks":[{"id":"a","cost":1,"mainThreadOnly":true}]}"#)
        #expect(SimulationResult(serialOnly, strategy: .serial).metrics.frames == 1)
    }

    /// The writer writes the keys when set and only then, and reads back the same scenario.
    @Test func theKeysAreWrittenOnlyWhenSet() throws {
        let plain = try scenario(#"{"name":"p","tasks":[{"id":"a","cost":1}]}"#)
        let plainText = String(decoding: plain.jsonBytes(), as: UTF8.self)
        #expect(!plainText.contains("cpus") && !plainText.contains("mainThreadPriority"))
        #expect(!plainText.contains("mainExecutor"))
        let set = try scenario(
            """
            {"name":"s","mainExecutor":"operationQueue","device":{"cores":3,"cpus":2,"mainThreadPriority":true},
             "tasks":[{"id":"a","cost":1}]}
            """)
        let again = try ScenarioLoader.decode(set.jsonBytes(), file: "again.json")
        #expect(again.device == set.device)
        #expect(again.mainExecutor == .operationQueue)
    }
}

/// `compare` says when the main executor or shared CPUs change the numbers, and only then.
@Test func compareSaysHowTheWorkReachesTheCPUs() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let tasks = #"[{"id": "a", "cost": 2}, {"id": "m", "cost": 1, "mainThreadOnly": true}]"#
    let plain = try folder.write("plain.json", #"{"name": "p", "device": {"cores": 3}, "tasks": \#(tasks)}"#)
    let both = try folder.write(
        "both.json",
        #"{"name": "p", "device": {"cores": 3, "cpus": 1}, "mainExecutor": "operationQueue", "tasks": \#(tasks)}"#)
    let quiet = Launchflow.runInProcess(["compare", plain])
    #expect(quiet.status == 0)
    #expect(!quiet.stdout.contains("Main executor") && !quiet.stdout.contains("CPUs:"))
    let noted = Launchflow.runInProcess(["compare", both])
    #expect(noted.stdout.contains("Main executor operationQueue: under dag and anchored"), "\(noted.stdout)")
    #expect(noted.stdout.contains("CPUs: 3 threads share 1 CPU (device.cpus)"), "\(noted.stdout)")
    let serialOnly = Launchflow.runInProcess(["compare", both, "--strategies", "serial,priority"])
    #expect(!serialOnly.stdout.contains("Main executor"))
}
