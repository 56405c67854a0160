import Foundation
import Testing

/// Swift concurrency's bodies under each strategy on a real main run loop,
/// in the probe's child process (Tests/RuntimeProbe/Concurrency.swift;
/// docs/runtime.md, "Swift concurrency"): an `async` body starts on a worker
/// and runs on the cooperative pool, the worker free at once; a main-actor
/// `async` body runs on the main thread; a `Task` a callback body starts
/// runs on the pool; a main-actor body on the main thread; a dependent
/// starts once they are done. Under `serial` the main-actor `async` body
/// waits for the main thread `didFinishLaunching` holds: its completion times
/// out. Structure only.
@Suite(.serialized)
struct ConcurrencyTests {
    @Test(arguments: ["serial", "priority", "dag", "anchored"])
    func eachBodyKind(_ strategy: String) throws {
        let output = try Host.run(Host.binary("launchflow-runtime-probe"), ["concurrency", strategy])
        let found = try #require(
            output.status == 0
                ? try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] : nil,
            "\(output.status) \(output.stderr)")
        let seen = try #require(found["seen"] as? [String: String])
        let tasks = try #require(found["tasks"] as? [String: [String: Any]])
        func time(_ id: String, _ key: String) throws -> Int { try #require(tasks[id]?[key] as? Int) }
        let context = "\(strategy): \(found)"
        let serial = strategy == "serial"
        // Where each body ran.
        #expect(seen["main-actor"] == "main", "\(context)")
        #expect(seen["async.start"] == "pool" && seen["async.resumed"] == "pool", "\(context)")
        #expect(seen["async-main-actor"] == "main", "\(context)")
        #expect(seen["from-task.body"] == (serial ? "main" : "worker"), "\(context)")
        #expect(seen["from-task.task"] == "pool", "\(context)")
        // Started on a worker (serial: by didFinishLaunching, on the main thread); done when the function returned.
        for id in ["async", "async-main-actor", "from-task"] {
            #expect(tasks[id]?["thread"] as? Int == (serial ? 0 : 1), "\(id): \(context)")
            #expect(try time(id, "end") <= time(id, "done"), "\(id): \(context)")
        }
        if serial {
            // didFinishLaunching holds the main thread while it waits for the main actor's body: a timeout.
            #expect(
                (tasks["async-main-actor"]?["outcome"] as? String)?.contains("not called within") == true, "\(context)")
            #expect((tasks["after"]?["outcome"] as? String)?.hasPrefix("skipped") == true, "\(context)")
            #expect((found["problems"] as? [String])?.contains("completionTimedOut") == true, "\(context)")
        } else {
            #expect(tasks.values.allSatisfy { $0["outcome"] as? String == "succeeded" }, "\(context)")
            // The worker was free at once: it started the next task while the async body slept on the pool.
            #expect(try time("from-task", "start") < time("async", "done"), "\(context)")
            // The dependent started once every body it depends on was done, on a worker.
            for id in ["async", "async-main-actor", "from-task"] {
                #expect(try time("after", "start") >= time(id, "done"), "\(id): \(context)")
            }
            #expect(seen["after"] == "worker", "\(context)")
        }
    }
}
