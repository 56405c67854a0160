import Foundation
import Testing

@testable import LaunchflowRuntime

/// The runtime's concurrency and lifecycle on a real main run loop, each
/// case in a child process (`launchflow-runtime-probe`, Tests/RuntimeProbe:
/// the test runner owns this process's main thread), driven by the
/// runtime's test hooks and semaphores, never by time: the assertions are on
/// order and state.
@Suite(.serialized)
struct LifecycleTests {
    /// Runs the probe's `name` case; its JSON output when it exits 0.
    static func probe(_ name: String) throws -> (output: Host.Output, found: [String: Any]?) {
        let output = try Host.run(Host.binary("launchflow-runtime-probe"), [name])
        guard output.status == 0 else { return (output, nil) }
        let found = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        return (output, found)
    }

    /// Issue 39's first point. Two workers finish at t1 < t2 and each hands
    /// a main-thread task over (m1, then m2); the hooks hold the first
    /// worker between the state's lock and carrying out its effects until
    /// the second has carried out its own — the preemption that let the
    /// second post reach the main queue first and run m2 before m1 (before
    /// the fix, this test failed with m2 started first). The main-thread tasks
    /// start in the order the state handed them over.
    @Test func mainThreadHandOversKeepTheStatesOrder() throws {
        let (output, found) = try Self.probe("race")
        let tasks = try #require(found?["tasks"] as? [String: [String: Any]], "\(output.stderr)")
        let m1 = try #require(tasks["m1"])
        let m2 = try #require(tasks["m2"])
        let ready = (try #require(m1["ready"] as? Int), try #require(m2["ready"] as? Int))
        let start = (try #require(m1["start"] as? Int), try #require(m2["start"] as? Int))
        #expect(ready.0 < ready.1, "m1 handed over first (the case as set up): ready \(ready)")
        #expect(start.0 < start.1, "m2 started before m1, though handed over after it: ready \(ready), start \(start)")
        #expect(tasks.values.allSatisfy { $0["outcome"] as? String == "succeeded" }, "\(tasks)")
    }

    /// A second `didFinishLaunching()` — while launching, and once complete —
    /// throws, saying so, and changes nothing: the launch completes as if it
    /// had been called once.
    @Test func aSecondDidFinishLaunchingThrows() throws {
        let (output, found) = try Self.probe("finish-twice")
        let result = try #require(found, "\(output.status): \(output.stderr)")
        #expect(result["before"] as? String == "created")
        #expect(result["afterFirst"] as? String == "launching")
        #expect(
            result["second"] as? String
                == "error: didFinishLaunching() was called a second time (the launch is launching already): call it "
                + "once, from application(_:didFinishLaunchingWithOptions:)")
        #expect((result["third"] as? String)?.contains("(the launch is complete already)") == true, "\(result)")
        #expect(result["end"] as? String == "complete")
        let tasks = try #require(result["tasks"] as? [String: [String: Any]])
        #expect(tasks.count == 4)
        #expect(tasks.values.allSatisfy { $0["outcome"] as? String == "succeeded" }, "\(tasks)")
    }

    /// `waitUntilComplete` on the main thread, which the launch needs, before
    /// it has ended: a trap with a message saying why; on another thread it
    /// returns the record, and on the main thread once the launch has ended.
    @Test func waitUntilCompleteOnTheMainThreadTraps() throws {
        let (trapped, found) = try Self.probe("wait-on-main")
        #expect(found == nil && trapped.status != 0 && trapped.status != 2, "status \(trapped.status)")
        #expect(
            trapped.stderr.contains(
                "launchflow: waitUntilComplete(timeout:) was called on the main thread, which the launch needs"),
            "\(trapped.stderr)")
        let (output, waited) = try Self.probe("wait-off-main")
        let result = try #require(waited, "\(output.status): \(output.stderr)")
        #expect(result["offMain"] as? Int == 4)
        #expect(result["onMainAfterwards"] as? Bool == true)
        #expect(result["end"] as? String == "complete")
    }

    /// `didFinishLaunching` would wait forever (a strategy waiting for what
    /// nothing can finish): it throws, and the launch has failed and stopped —
    /// its observers removed (three more passes of the run loop run none of
    /// them), its worker threads ended, the main-thread task that waited in the
    /// main queue cancelled, the others as far as they got; the record says
    /// why, and the handlers get it.
    @Test func aLaunchThatWouldWaitForeverFailsAndStops() throws {
        let (output, found) = try Self.probe("deadlock")
        let result = try #require(found, "\(output.status): \(output.stderr)")
        let message =
            "error: didFinishLaunching would wait forever under dag: nothing in flight can finish the tasks it waits "
            + "for (not started: 'main', 'never')"
        #expect(result["error"] as? String == message)
        #expect(result["failure"] as? String == message)
        #expect(result["state"] as? String == "failed")
        #expect(result["threadsBefore"] as? Int == 2)
        #expect(result["threadsAfter"] as? Int == 0)
        #expect(result["observersInstalled"] as? Bool == false)
        // The only update after the failure is the drain block posted for 'main' (it finds it cancelled).
        #expect(result["updatesAfter"] as? Int == 1, "\(result)")
        #expect(result["handlerRecord"] as? Bool == true)
        let tasks = try #require(result["tasks"] as? [String: [String: Any]])
        #expect(tasks["worker"]?["outcome"] as? String == "succeeded")
        #expect(tasks["main"]?["outcome"] as? String == "cancelled")
        #expect(tasks["never"]?["outcome"] as? String == "notRun")
    }

    /// A job handed to the pool after the launch has ended (its workers
    /// stopped) runs as cancelled: the task did not run, and the record says so.
    @Test func workAfterTheEndRunsAsCancelledAndIsRecorded() throws {
        let (output, found) = try Self.probe("late-work")
        let result = try #require(found, "\(output.status): \(output.stderr)")
        #expect(result["threadsAfterEnd"] as? Int == 0)
        #expect(result["outcome"] as? String == "cancelled")
        #expect(
            result["problems"] as? [String] == [
                "taskCancelled: task 'config' was handed to worker-1 after the launch had ended: it did not run"
            ])
    }

    /// A launch dropped before `didFinishLaunching()` ends its worker threads
    /// by the time the last reference to it is gone.
    @Test func aLaunchDroppedUnstartedEndsItsWorkers() throws {
        let (output, found) = try Self.probe("drop-unstarted")
        let result = try #require(found, "\(output.status): \(output.stderr)")
        #expect(result["state"] as? String == "created")
        #expect(result["runningBefore"] as? Int == 3)
        #expect(result["ended"] as? [Int] == [1, 2, 3])
    }

    /// `Locked.withLock` re-entered on the thread that holds the lock traps,
    /// naming EDEADLK (it used to run its body unlocked, then release the
    /// outer caller's lock).
    @Test func aReenteredLockTraps() throws {
        let (output, found) = try Self.probe("reenter-lock")
        #expect(found == nil && output.status != 0 && output.status != 2, "status \(output.status)")
        #expect(
            output.stderr.contains(
                "launchflow: pthread_mutex_lock failed: EDEADLK (the lock is already held by this thread"),
            "\(output.stderr)")
    }
}

/// The worker pool on its own (no main thread needed).
/// A task's QoS on its worker (docs/runtime.md, "Quality of service").
extension LifecycleTests {
    /// On a real run: one worker runs `bg` (background), `after` (default)
    /// and `ui` (userInteractive) one after the other; each body reads its
    /// thread's nice. `bg` runs at the worker's own + 10, `after` at its own
    /// again (restored), `ui` at −10 where the process may set it (else the
    /// record says why not, and it runs at its own); a main-thread task keeps
    /// the main thread's; an async body runs at its Task's priority. The
    /// record and the trace say what each asked for and what it ran at.
    @Test func aTaskRunsAtItsQoS() throws {
        let (output, found) = try Self.probe("qos")
        let result = try #require(found, "\(output.stderr)")
        let own = try #require(result["own"] as? Int)
        let nice = try #require(result["nice"] as? [String: Int])
        let applied = try #require(result["applied"] as? [String: String])
        let slices = try #require(result["slices"] as? [String: [String: String]])
        #expect(result["threads"] as? [String: Int] == ["bg": 1, "after": 1, "ui": 1, "later": 1, "m": 0])
        #if os(Linux)
            let background = min(19, own + 10)
            #expect(nice["bg"] == background)
            #expect(applied["bg"] == "nice(\(background))")
            #expect(slices["bg"] == ["qos": "background", "qosApplied": "nice \(background)"])
            #expect(nice["after"] == own, "the worker's own level after the background task")
            #expect(applied["after"] == "unchanged" && slices["after"] == [:])
            if applied["ui"] == "nice(\(max(-20, own - 10)))" {
                #expect(nice["ui"] == max(-20, own - 10))
            } else {
                #expect(applied["ui"]?.hasPrefix("notApplied") == true, "\(applied)")
                #expect(nice["ui"] == own)
            }
        #endif
        #expect(nice["m"] == own)
        #expect(applied["m"] == #"notApplied("the main thread keeps its own QoS (userInteractive)")"#)
        #expect(slices["m"]?["qos"] == "background")
        #expect(nice["laterPriority"] == Int(TaskPriority.utility.rawValue))
        #expect(slices["later"] == ["qos": "utility", "qosApplied": "Task priority utility"])
    }

    /// Linux's nice for each QoS, and what a process that may not lower its
    /// nice (no CAP_SYS_NICE, RLIMIT_NICE 0: nothing below 20 − 0) does: a level it
    /// could not leave again is not taken.
    @Test func niceLevels() {
        #expect(NiceLevels.plan(own: 0, qos: .background, lowest: -20) == .set(10))
        #expect(NiceLevels.plan(own: 0, qos: .userInteractive, lowest: -20) == .set(-10))
        #expect(NiceLevels.plan(own: 15, qos: .background, lowest: -20) == .set(19))
        #expect(NiceLevels.plan(own: 19, qos: .background, lowest: -20) == .keep(19))
        #expect(NiceLevels.plan(own: 0, qos: .default, lowest: 20) == .keep(0))
        guard case .refused(let up) = NiceLevels.plan(own: 0, qos: .background, lowest: 20) else {
            Issue.record("background without CAP_SYS_NICE was taken")
            return
        }
        #expect(up.contains("could not be undone: back to 0 is below 20"), "\(up)")
        guard case .refused(let down) = NiceLevels.plan(own: 0, qos: .userInitiated, lowest: 0) else {
            Issue.record("userInitiated below the lowest allowed was taken")
            return
        }
        #expect(down.contains("nice -5 is below 0"), "\(down)")
        // RLIMIT_NICE 25 (lowest −5): background from 0 and back is allowed, userInteractive's −10 is not.
        #expect(NiceLevels.plan(own: 0, qos: .background, lowest: -5) == .set(10))
        #expect(NiceLevels.plan(own: 0, qos: .userInitiated, lowest: -5) == .set(-5))
    }
}

struct WorkerPoolTests {
    /// Jobs posted before the shut-down run on their worker; one posted after
    /// runs at once, on the posting thread, as cancelled, and is counted; the
    /// threads end and can be joined.
    @Test func workAfterShutDownRunsAsCancelled() throws {
        let pool = WorkerPool(count: 2)
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        for k in 1...2 {
            pool.post(to: k) { work in
                ran.withLock { $0.append("job \(k): \(work) on \(threadName())") }
                done.signal()
            }
        }
        done.wait()
        done.wait()
        #expect(pool.runningThreads == 2)
        pool.shutDown()
        pool.join()
        #expect(pool.runningThreads == 0)
        let poster = pthread_self()
        let late = Locked<(WorkerPool.Work, Bool)?>(nil)
        pool.post(to: 1) { work in late.withLock { $0 = (work, pthread_equal(pthread_self(), poster) != 0) } }
        #expect(ran.withLock { $0.sorted() } == ["job 1: run on worker-1", "job 2: run on worker-2"])
        let (work, onPoster) = try #require(late.withLock { $0 })
        #expect(work == .cancelled && onPoster)
        #expect(pool.cancelledJobs == 1)
    }
}

/// This thread's name as the system has it (what a debugger or a profiler shows).
private func threadName() -> String {
    #if os(Linux)
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return comm.trimmingCharacters(in: .newlines)
    #else
        return Thread.current.name ?? "?"
    #endif
}
