import Dispatch
import Foundation
import LaunchflowRuntime

// Swift concurrency's bodies under a strategy (docs/runtime.md, "Swift concurrency"): where each
// kind of body runs — an `async` body, an `async` body isolated to the main actor, a Task started
// from a callback body, a main-actor body — and that a task depending on them starts once they are
// done. Structure only: the threads (main, one of the runtime's workers, or another: Swift's
// cooperative pool), outcomes and order.
//
//   launchflow-runtime-probe concurrency STRATEGY

/// Where the calling code runs: `main`, `worker` (the runtime's pool: threads named worker-k) or `pool`.
func whereRunning() -> String {
    if Thread.isMainThread { return "main" }
    return (Thread.current.name ?? "").hasPrefix("worker-") ? "worker" : "pool"
}

func concurrency(_ arguments: [String]) -> Never {
    guard let name = arguments.first, let strategy = Strategy(rawValue: name) else {
        fail("usage: concurrency STRATEGY")
    }
    let seen = Locked<[String: String]>([:])
    let priority = Locked<Int>(-1)
    var graph = LaunchGraph()
    graph.mainTask("main-actor", firstFrame: true) { seen.withLock { $0["main-actor"] = whereRunning() } }
    graph.asyncTask("async") {
        seen.withLock { $0["async.start"] = whereRunning() }
        priority.withLock { $0 = Int(Task.currentPriority.rawValue) }
        try await Task.sleep(nanoseconds: 50_000_000)  // far longer than the worker takes to start the next task
        seen.withLock { $0["async.resumed"] = whereRunning() }
    }
    // Tier 1 under priority: its tier-0 wait would hold the main thread it needs (as serial's does).
    graph.asyncTask("async-main-actor", priority: 1) { @MainActor in
        seen.withLock { $0["async-main-actor"] = whereRunning() }
    }
    graph.callbackTask("from-task") { done in
        seen.withLock { $0["from-task.body"] = whereRunning() }
        Task {
            seen.withLock { $0["from-task.task"] = whereRunning() }
            done()
        }
    }
    graph.task("after", dependsOn: ["async", "async-main-actor", "from-task"], priority: 2) {
        seen.withLock { $0["after"] = whereRunning() }
    }
    let launch: Launch
    do {
        launch = try Launch(
            graph,
            configuration: LaunchConfiguration(strategy: strategy, workers: 1, completionTimeout: .seconds(1)))
    } catch {
        fail("\(error)")
    }
    launch.whenComplete { record in
        // The main actor's late body (serial: after its completion timed out) may still come: wait for it.
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(100)) {
            var runs: [String: [String: Any]] = [:]
            for (i, task) in record.schedule.scenario.tasks.enumerated() {
                let run = record.schedule.tasks[i]
                let outcome = record.outcome(of: task.id).map { "\($0)" } ?? "?"
                runs[task.id] = [
                    "thread": Int(run.thread), "start": run.start, "end": run.end, "done": run.done,
                    "outcome": outcome,
                ]
            }
            finish([
                "seen": seen.withLock { $0 }, "tasks": runs, "asyncPriority": priority.withLock { $0 },
                "problems": record.problems.map(\.kind.rawValue),
            ])
        }
    }
    runOnMain {
        do { try launch.didFinishLaunching() } catch { fail("\(error)") }
    }
}
