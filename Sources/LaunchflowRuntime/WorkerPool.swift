import Dispatch
import Foundation
import Synchronization

/// The launch's own worker threads, `worker-1` … `worker-k`: the scheduler
/// chooses the worker (lowest free index, as the model does), so each thread
/// has a mailbox of its own rather than a shared queue. A thread sleeps on
/// its semaphore until the scheduler posts a job, and ends when the pool is
/// shut down (after the launch is complete).
///
/// Like swift-nio's `NIOThreadPool`, threads are started once, named, and
/// joined on shut-down; unlike it, work is never stolen: the schedule is
/// the scheduler's.
final class WorkerPool: Sendable {
    private final class Worker: Sendable {
        let wake = DispatchSemaphore(value: 0)
        let mailbox = Locked<[@Sendable () -> Void]>([])
        let finished = DispatchSemaphore(value: 0)
        let stopping = Atomic<Bool>(false)
    }

    private let workers: [Worker]
    private let stopping = Atomic<Bool>(false)

    /// Starts `count` threads named `worker-1` … `worker-<count>`.
    init(count: Int) {
        workers = (0..<count).map { _ in Worker() }
        for (k, worker) in workers.enumerated() {
            let thread = Thread {
                while true {
                    worker.wake.wait()
                    let jobs = worker.mailbox.withLock { box in
                        let jobs = box
                        box.removeAll()
                        return jobs
                    }
                    for job in jobs { job() }
                    if jobs.isEmpty && worker.stopping.load(ordering: .acquiring) { break }
                }
                worker.finished.signal()
            }
            thread.name = "worker-\(k + 1)"
            thread.start()
        }
    }

    /// Runs `job` on worker `index` (1-based).
    func post(to index: Int, _ job: @escaping @Sendable () -> Void) {
        let worker = workers[index - 1]
        worker.mailbox.withLock { $0.append(job) }
        worker.wake.signal()
    }

    /// Ends every thread once its mailbox is empty and waits for them.
    func shutDown() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for worker in workers {
            worker.stopping.store(true, ordering: .releasing)
            worker.wake.signal()
        }
        for worker in workers { worker.finished.wait() }
    }
}
