// launchflow-runtime-probe: the runtime's concurrency and lifecycle cases,
// each on a real main run loop in a process of its own (the test runner owns
// its main thread), driven by the runtime's test hooks rather than by time.
// Tests/LaunchflowRuntimeTests/LifecycleTests.swift starts it and reads what
// it prints: one JSON object on standard output, then exit status 0 — or a
// trap, for the misuse it checks.
//
//   launchflow-runtime-probe race | finish-twice | wait-on-main | wait-off-main
//                            | deadlock | late-work | drop-unstarted | reenter-lock | qos
//                            | life-cycle KIND STRATEGY [TRACE]  (LifeCycles.swift)
//                            | concurrency STRATEGY  (Concurrency.swift)

import CoreFoundation
import Dispatch
import Foundation
import LaunchflowModel  // the test hooks' policy types (LaunchPolicy, LaunchStep)
import LaunchflowRuntime

/// What a case found, printed by `finish` (read and written on the main thread).
@MainActor enum Found {
    static var result: [String: Any] = [:]
}

/// Writes `object` as JSON on standard output and exits 0.
func finish(_ object: [String: Any]) -> Never {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
    exit(0)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("launchflow-runtime-probe: error: \(message)\n".utf8))
    exit(2)
}

/// Runs `body` on the main thread from the run loop's first iteration (as
/// UIApplicationMain calls didFinishLaunching), then the run loop; the
/// process ends in `finish`, a trap, or after 30 s (exit 3).
func runOnMain(_ body: @escaping @MainActor () -> Void) -> Never {
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(30)) {
        fail("no end within 30 s")
    }
    DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    CFRunLoopRun()
    fail("the run loop returned")
}

func outcome(_ outcome: TaskOutcome) -> String {
    switch outcome {
    case .notRun: "notRun"
    case .waiting: "waiting"
    case .succeeded: "succeeded"
    case .failed(let reason): "failed: \(reason)"
    case .skipped(let because): "skipped: \(because)"
    case .cancelled: "cancelled"
    }
}

func stateName(_ state: Launch.State) -> String {
    switch state {
    case .created: "created"
    case .launching: "launching"
    case .complete: "complete"
    case .failed: "failed"
    }
}

/// Each task's outcome, thread, ready and start time (µs), by id.
func tasks(_ record: LaunchRecord) -> [String: [String: Any]] {
    var tasks: [String: [String: Any]] = [:]
    for (i, task) in record.schedule.scenario.tasks.enumerated() {
        let run = record.schedule.tasks[i]
        tasks[task.id] = [
            "outcome": outcome(record.outcomes[i]), "thread": Int(run.thread), "ready": run.ready,
            "start": run.start,
        ]
    }
    return tasks
}

/// Signals and flags shared by the race's bodies and hooks.
final class Race: Sendable {
    /// The update that handed `m1` over has left the lock (its effects not carried out yet).
    let m1Decided = DispatchSemaphore(value: 0)
    /// The update that handed `m2` over has carried out its effects.
    let m2Posted = DispatchSemaphore(value: 0)
    /// The threads that ran `w1` and `w2`, once their bodies have returned, and whether each hook has acted.
    let w1Thread = Locked<pthread_t?>(nil)
    let w2Thread = Locked<pthread_t?>(nil)
    let held = Locked(false)
    let released = Locked(false)

    static func isCurrent(_ thread: Locked<pthread_t?>) -> Bool {
        thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// True the first time it is called.
    static func once(_ flag: Locked<Bool>) -> Bool {
        flag.withLock { flag in
            defer { flag = true }
            return !flag
        }
    }
}

/// Issue 39's first point: two workers finish at t1 < t2, each handing a
/// main-thread task over; the first worker is held between the state's lock
/// and carrying out its effects until the second has carried out its own.
/// The main-thread tasks must still run in the order the state handed them
/// over (their ready times).
func race() -> Never {
    let race = Race()
    var graph = LaunchGraph()
    graph.task("w1") { race.w1Thread.withLock { $0 = pthread_self() } }
    graph.task("w2") {
        race.m1Decided.wait()
        race.w2Thread.withLock { $0 = pthread_self() }
    }
    graph.mainTask("m1", dependsOn: ["w1"]) {}
    graph.mainTask("m2", dependsOn: ["w2"]) {}
    var hooks = LaunchTestHooks()
    hooks.afterUnlock = {
        // w1's update after its body returned: m1 is handed over; hold this thread here.
        if Race.isCurrent(race.w1Thread) && Race.once(race.held) {
            race.m1Decided.signal()
            race.m2Posted.wait()
        }
    }
    hooks.afterEffects = {
        if Race.isCurrent(race.w2Thread) && Race.once(race.released) { race.m2Posted.signal() }
    }
    let launch: Launch
    do {
        launch = try Launch(graph, configuration: LaunchConfiguration(strategy: .dag, workers: 2), hooks: hooks)
    } catch {
        fail("\(error)")
    }
    launch.whenComplete { record in finish(["tasks": tasks(record)]) }
    runOnMain { try! launch.didFinishLaunching() }
}

/// A launch of a few tasks, main-thread and worker ones.
func smallGraph() -> LaunchGraph {
    var graph = LaunchGraph()
    graph.task("config") {}
    graph.mainTask("window") {}
    graph.mainTask("root", dependsOn: ["config", "window"], firstFrame: true) {}
    graph.task("analytics", afterFirstFrame: true) {}
    return graph
}

/// A second call of didFinishLaunching (while launching, and once complete) throws and changes nothing.
func finishTwice() -> Never {
    let launch = try! Launch(smallGraph(), configuration: LaunchConfiguration(strategy: .dag, workers: 1))
    let before = stateName(launch.state)
    runOnMain {
        Found.result["before"] = before
        try! launch.didFinishLaunching()
        Found.result["afterFirst"] = stateName(launch.state)
        do {
            try launch.didFinishLaunching()
            Found.result["second"] = "returned"
        } catch {
            Found.result["second"] = "\(error)"
        }
        launch.whenComplete { record in
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    do {
                        try launch.didFinishLaunching()
                        Found.result["third"] = "returned"
                    } catch {
                        Found.result["third"] = "\(error)"
                    }
                    Found.result["end"] = stateName(launch.state)
                    Found.result["tasks"] = tasks(record)
                    finish(Found.result)
                }
            }
        }
    }
}

/// waitUntilComplete on the main thread before the launch has ended: traps.
func waitOnMain() -> Never {
    let launch = try! Launch(smallGraph(), configuration: LaunchConfiguration(strategy: .dag, workers: 1))
    runOnMain {
        try! launch.didFinishLaunching()
        _ = launch.waitUntilComplete(timeout: .seconds(5))
        fail("waitUntilComplete returned on the main thread")
    }
}

/// waitUntilComplete on another thread returns the record; on the main
/// thread once the launch has ended, too.
func waitOffMain() -> Never {
    let launch = try! Launch(smallGraph(), configuration: LaunchConfiguration(strategy: .dag, workers: 1))
    DispatchQueue.global().async {
        let record = launch.waitUntilComplete(timeout: .seconds(20))
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                let again = launch.waitUntilComplete(timeout: .seconds(1))
                finish([
                    "offMain": record.map { tasks($0).count } ?? -1, "onMainAfterwards": again != nil,
                    "end": stateName(launch.state),
                ])
            }
        }
    }
    runOnMain { try! launch.didFinishLaunching() }
}

/// A policy that makes `main` and `worker` ready and then waits for ever: a
/// strategy whose didFinishLaunching waits for what nothing can finish.
struct WaitsForever: LaunchPolicy, Sendable {
    let ready: [Int32]
    mutating func launchBegan(ready: inout [Int32]) { ready.append(contentsOf: self.ready) }
    mutating func nextLaunchStep() -> LaunchStep { .wait }
    mutating func taskDone(_ task: Int, ready: inout [Int32]) {}
}

/// didFinishLaunching would wait forever: it throws, the launch has failed,
/// its observers are removed and its workers have ended, what waited in the
/// main queue is cancelled, and the record says so.
func deadlock() -> Never {
    var graph = LaunchGraph()
    graph.task("worker") {}
    graph.mainTask("main") {}
    graph.task("never") {}
    let updates = Locked(0)
    var hooks = LaunchTestHooks()
    hooks.afterEffects = { updates.withLock { $0 += 1 } }
    hooks.plan = { inputs in Strategy.dag.definition.plan(inputs).with(policy: WaitsForever(ready: [1, 0])) }
    let launch = try! Launch(graph, configuration: LaunchConfiguration(strategy: .dag, workers: 2), hooks: hooks)
    let handed = Locked<LaunchRecord?>(nil)
    launch.whenComplete { record in handed.withLock { $0 = record } }
    runOnMain {
        Found.result["threadsBefore"] = launch.runningWorkerThreads
        do {
            try launch.didFinishLaunching()
            fail("didFinishLaunching returned")
        } catch {
            Found.result["error"] = "\(error)"
        }
        Found.result["state"] = stateName(launch.state)
        Found.result["observersInstalled"] = launch.observersInstalled
        Found.result["threadsAfter"] = launch.runningWorkerThreads
        let record = launch.record
        Found.result["failure"] = record?.failure?.description ?? ""
        Found.result["handlerRecord"] = handed.withLock { $0 != nil }
        let before = updates.withLock { $0 }
        // Three more passes of the run loop: no observer of the launch runs in them (each
        // would update the state); only the block posted for the cancelled main-thread task.
        @MainActor func pass(_ left: Int) {
            guard left > 0 else {
                Found.result["updatesAfter"] = updates.withLock { $0 } - before
                Found.result["tasks"] = record.map(tasks) ?? [:]
                finish(Found.result)
            }
            DispatchQueue.main.async { MainActor.assumeIsolated { pass(left - 1) } }
        }
        pass(3)
    }
}

/// Work handed to the pool after the launch has ended runs as cancelled:
/// the task did not run, the record says so.
func lateWork() -> Never {
    let launch = try! Launch(smallGraph(), configuration: LaunchConfiguration(strategy: .dag, workers: 1))
    DispatchQueue.global().async {
        guard launch.waitUntilComplete(timeout: .seconds(20)) != nil else { fail("no end") }
        launch.joinWorkers()
        let threads = launch.runningWorkerThreads
        let before = launch.record!.problems.count
        launch.startLate(0, onWorker: 1)
        let record = launch.record!
        finish([
            "threadsAfterEnd": threads, "outcome": outcome(record.outcomes[0]),
            "problems": record.problems.dropFirst(before).map { "\($0.kind.rawValue): \($0.message)" },
        ])
    }
    runOnMain { try! launch.didFinishLaunching() }
}

/// A launch dropped before it started ends its worker threads (they are
/// gone once the last reference is).
func dropUnstarted() -> Never {
    let ended = Locked<[Int]>([])
    var hooks = LaunchTestHooks()
    hooks.workerThreadEnded = { k in ended.withLock { $0.append(k) } }
    var launch: Launch? = try! Launch(
        smallGraph(), configuration: LaunchConfiguration(strategy: .dag, workers: 3), hooks: hooks)
    let running = launch!.runningWorkerThreads
    let state = stateName(launch!.state)
    launch = nil
    finish(["runningBefore": running, "state": state, "ended": ended.withLock { $0.sorted() }])
}

/// withLock called again inside its own body: traps, naming EDEADLK.
func reenterLock() -> Never {
    let lock = Locked(0)
    lock.withLock { _ in lock.withLock { $0 += 1 } }
    fail("the re-entered lock did not trap")
}

/// Each task at its QoS (docs/runtime.md, "Quality of service"), one
/// worker so that the tasks follow one another on the same thread: each body
/// reads its thread's nice (Linux: per thread) — `bg` (background) at the
/// mapped nice, `after` (default) at the worker's own again, `ui`
/// (userInteractive) below it where the process may set it, `m` on the main
/// thread at the main thread's own — and the async `later` its Task's priority.
func qos() -> Never {
    let seen = Locked<[String: Int]>([:])
    @Sendable func nice() -> Int {
        #if os(Linux)
            errno = 0
            return Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        #else
            return 0
        #endif
    }
    let own = nice()
    var graph = LaunchGraph()
    graph.task("bg", qos: .background) { seen.withLock { $0["bg"] = nice() } }
    graph.task("after", dependsOn: ["bg"]) { seen.withLock { $0["after"] = nice() } }
    graph.task("ui", dependsOn: ["after"], qos: .userInteractive) { seen.withLock { $0["ui"] = nice() } }
    graph.add(
        "m", keys: TaskKeys(dependsOn: ["ui"], qos: .background),
        body: .mainActor { seen.withLock { $0["m"] = nice() } })
    graph.asyncTask("later", dependsOn: ["ui"], qos: .utility) {
        let priority = Task.currentPriority.rawValue
        seen.withLock { $0["laterPriority"] = Int(priority) }
    }
    let launch = try! Launch(graph, configuration: LaunchConfiguration(strategy: .dag, workers: 1))
    launch.whenComplete { record in
        var applied: [String: String] = [:]
        for (i, task) in record.schedule.scenario.tasks.enumerated() {
            guard let qos = record.qos[i] else { continue }
            applied[task.id] = "\(qos.applied)" + (qos.notRestored.map { " not restored: \($0)" } ?? "")
        }
        // Each task slice's qos and qosApplied, as the trace has them.
        let trace = try! JSONSerialization.jsonObject(with: Data(record.traceJSON())) as! [String: Any]
        var slices: [String: [String: Any]] = [:]
        for case let event as [String: Any] in trace["traceEvents"] as! [Any] where event["cat"] as? String == "task" {
            let args = event["args"] as! [String: Any]
            slices[event["name"] as! String] = args.filter { $0.key.hasPrefix("qos") }
        }
        finish([
            "own": own, "nice": seen.withLock { $0 }, "applied": applied, "slices": slices,
            "threads": tasks(record).mapValues { $0["thread"]! },
        ])
    }
    runOnMain { try! launch.didFinishLaunching() }
}

switch CommandLine.arguments.dropFirst().first {
case "race": race()
case "finish-twice": finishTwice()
case "wait-on-main": waitOnMain()
case "wait-off-main": waitOffMain()
case "deadlock": deadlock()
case "late-work": lateWork()
case "drop-unstarted": dropUnstarted()
case "reenter-lock": reenterLock()
case "life-cycle": lifeCycle(Array(CommandLine.arguments.dropFirst(2)))
case "concurrency": concurrency(Array(CommandLine.arguments.dropFirst(2)))
case "qos": qos()
case let other: fail("unknown case \(other ?? "(none)")")
}
