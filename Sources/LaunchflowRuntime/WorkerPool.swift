import Dispatch
import Foundation
import LaunchflowModel

/// The launch's own worker threads, `worker-1` … `worker-k`: the scheduler
/// chooses the worker (lowest free index, as the model does), so each thread
/// has a mailbox of its own rather than a shared queue. A thread sleeps on
/// its semaphore until the scheduler posts a job, and ends once the pool is
/// shut down and its mailbox is empty.
///
/// Like swift-nio's `NIOThreadPool`, threads are started once, named, and
/// can be joined; work posted after the pool was shut down is not dropped:
/// it runs at once on the posting thread as ``Work/cancelled`` (its job
/// records that it did not run), and the pool counts it. Unlike it, work is
/// never stolen: the schedule is the scheduler's.
final class WorkerPool: Sendable {
    /// How a job is run: on its worker, or refused because the pool was shut down.
    enum Work: Sendable {
        case run
        case cancelled
    }

    typealias Job = @Sendable (Work) -> Void

    private struct Mailbox: Sendable {
        var jobs: [Job] = []
        var stopping = false
    }

    private final class Worker: Sendable {
        let wake = DispatchSemaphore(value: 0)
        let mailbox = Locked(Mailbox())
        let finished = DispatchSemaphore(value: 0)
    }

    private struct Counts: Sendable {
        var running: Int
        var cancelled = 0
        var shutDown = false
        /// The pool's threads, once each has started.
        var threads: [pthread_t] = []
    }

    private let workers: [Worker]
    private let counts: Locked<Counts>

    /// Starts `count` threads named `worker-1` … `worker-<count>`;
    /// `threadEnded` is told when each ends (the runtime's tests).
    init(count: Int, threadEnded: (@Sendable (Int) -> Void)? = nil) {
        workers = (0..<count).map { _ in Worker() }
        let counts = Locked(Counts(running: count))
        self.counts = counts
        for (k, worker) in workers.enumerated() {
            let name = "worker-\(k + 1)"
            let started = DispatchSemaphore(value: 0)
            let thread = Thread {
                // Named from the thread itself, once `start()` has returned: swift-corelibs-foundation
                // names the system thread only when the name is set on the running thread and the Thread
                // knows it (which it does once `start()` returns); set before, the name stays the object's,
                // and the system thread keeps its creator's.
                started.wait()
                Thread.current.name = name
                counts.withLock { $0.threads.append(pthread_self()) }
                while true {
                    worker.wake.wait()
                    let (jobs, stopping) = worker.mailbox.withLock { box in
                        defer { box.jobs.removeAll() }
                        return (box.jobs, box.stopping)
                    }
                    for job in jobs { job(.run) }
                    if jobs.isEmpty && stopping { break }
                }
                counts.withLock { $0.running -= 1 }
                threadEnded?(k + 1)
                worker.finished.signal()
            }
            thread.name = name
            // The workers' own level, which a task's `qos` changes for its body (ThreadQoS).
            thread.qualityOfService = .default
            thread.start()
            started.signal()
        }
    }

    /// Ends the threads when the pool goes (nothing can post to it any
    /// more), and waits for them — unless the pool goes on one of them.
    deinit {
        shutDown()
        let onOwnThread = counts.withLock { $0.threads.contains { pthread_equal($0, pthread_self()) != 0 } }
        if !onOwnThread { join() }
    }

    /// Runs `job` on worker `index` (1-based) with ``Work/run`` — or, once
    /// the pool is shut down, at once on this thread with ``Work/cancelled``.
    func post(to index: Int, _ job: @escaping Job) {
        let worker = workers[index - 1]
        let accepted = worker.mailbox.withLock { box in
            guard !box.stopping else { return false }
            box.jobs.append(job)
            return true
        }
        if accepted {
            worker.wake.signal()
        } else {
            counts.withLock { $0.cancelled += 1 }
            job(.cancelled)
        }
    }

    /// Whether worker `index` (1-based) still takes work: a job ``post(to:_:)``
    /// would run rather than cancel (the pool is not shutting down).
    func isOpen(_ index: Int) -> Bool {
        workers[index - 1].mailbox.withLock { !$0.stopping }
    }

    /// Tells every thread to end once its mailbox is empty; from now on
    /// ``post(to:_:)`` cancels. Returns at once (any thread may call it, a
    /// worker too); ``join()`` waits for the threads.
    func shutDown() {
        let first = counts.withLock { counts in
            defer { counts.shutDown = true }
            return !counts.shutDown
        }
        guard first else { return }
        for worker in workers {
            worker.mailbox.withLock { $0.stopping = true }
            worker.wake.signal()
        }
    }

    /// Waits until every thread has ended (after ``shutDown()``; never from a
    /// worker of this pool, which would wait for itself).
    func join() {
        for worker in workers {
            worker.finished.wait()
            worker.finished.signal()
        }
    }

    /// Threads still running their loop.
    var runningThreads: Int { counts.withLock { $0.running } }

    /// Jobs posted after the pool was shut down (run as cancelled).
    var cancelledJobs: Int { counts.withLock { $0.cancelled } }
}
