import Dispatch
import Foundation
import Synchronization

/// Runs one launch on the real main run loop and the worker pool: the
/// ``SchedulerState`` under one lock decides, this class carries out its
/// effects outside the lock (posting to the main queue and the workers,
/// timers for delays and the watchdog, waking the run loop or a blocked
/// `didFinishLaunching`).
///
/// Threads: `didFinishLaunching`, main-queue blocks and the observers run
/// on the main thread; task bodies on the main thread or a pool worker;
/// completions and timers on any thread. Every shared mutable value is in
/// the lock (`state`, `finishedRecord`) or atomic.
final class Scheduler: Sendable {
    let resolved: ResolvedLaunch
    let ids: [String]
    let configuration: LaunchConfiguration
    let clock: LaunchClock
    let idleMode: IdleMode
    private let state: Locked<SchedulerState>
    private let pool: WorkerPool
    private let launchWake = DispatchSemaphore(value: 0)
    private let timers = DispatchQueue(label: "launchflow.timers")
    private let observers = Locked<[RunLoopObserver]>([])
    private let finishedRecord = Locked<LaunchRecord?>(nil)
    private let onComplete = Locked<[@Sendable (LaunchRecord) -> Void]>([])
    private let completeSignal = DispatchSemaphore(value: 0)

    init(_ resolved: ResolvedLaunch, configuration: LaunchConfiguration, clock: LaunchClock) {
        self.resolved = resolved
        self.configuration = configuration
        self.clock = clock
        let scenario = resolved.scenario
        ids = scenario.tasks.map(\.id)
        idleMode = configuration.idleMode ?? scenario.idleMode
        let inputs = StrategyInputs(scenario)
        var state = SchedulerState(
            scenario: scenario, plan: configuration.strategy.definition.plan(inputs), inputs: inputs,
            workers: configuration.workers, maxConcurrent: configuration.maxConcurrent, idleMode: idleMode,
            failurePolicy: configuration.failurePolicy)
        state.setIDs(ids)
        self.state = Locked(state)
        pool = WorkerPool(count: configuration.workers)
    }

    // MARK: didFinishLaunching

    /// Runs `didFinishLaunching`'s part of the launch on the main thread and
    /// returns when the strategy lets it (under `dag` and `anchored`, once the
    /// anchors are done).
    @MainActor
    func didFinishLaunching() throws(LaunchError) {
        installObservers()
        update { state, now in state.beginLaunch(at: now) }
        while true {
            let action = update { state, now in state.nextLaunchAction(at: now) }
            switch action {
            case .run(let task, let skipped):
                execute(task, onMain: true, skipped: skipped)
            case .block:
                launchWake.wait()
            case .finish:
                return
            case .deadlock(let waiting):
                let names = waiting.map { "'\(ids[$0])'" }.joined(separator: ", ")
                throw LaunchError([
                    Diagnostic(
                        file: "", path: "",
                        message:
                            "didFinishLaunching would wait forever under \(configuration.strategy.rawValue): "
                            + "nothing in flight can finish the tasks it waits for (not started: \(names))")
                ])
            }
        }
    }

    // MARK: Running tasks

    /// A task posted to the main queue starts.
    @MainActor
    private func runOnMain(_ task: Int) {
        let run = update { state, now in state.mainTaskStarts(task, at: now) }
        execute(task, onMain: true, skipped: !run)
    }

    private func runOnWorker(_ task: Int, worker: Int) {
        let run = update { state, now in state.workerTaskStarts(task, at: now) }
        execute(task, onMain: false, skipped: !run, worker: worker)
    }

    /// Runs `task`'s body on this thread (started already) and reports its end.
    private func execute(_ task: Int, onMain: Bool, skipped: Bool, worker: Int = 0) {
        if skipped {
            update { state, now in state.ended(task, at: now, latencyPending: false) }
            return
        }
        let sink = configuration.traceSink
        sink?.taskBegan(ids[task], thread: worker)
        var latencyPending = false
        var failure: String?
        do {
            switch resolved.bodies[task] {
            case .sync(let body):
                try body()
            case .mainActor(let body):
                try MainActor.assumeIsolated { try body() }
            case .completion(_, let body):
                latencyPending = true
                try body(completion(for: task))
            case .async(let body):
                latencyPending = true
                Task.detached { [self] in
                    do {
                        try await body()
                        update { state, now in state.completed(task, at: now) }
                    } catch {
                        let reason = String(describing: error)
                        update { state, now in state.failedLater(task, reason, at: now) }
                    }
                }
            }
        } catch {
            failure = String(describing: error)
        }
        sink?.taskEnded(ids[task], thread: worker)
        update { state, now in state.ended(task, at: now, latencyPending: latencyPending, failure: failure) }
    }

    private func completion(for task: Int) -> TaskCompletion {
        TaskCompletion(
            finish: { [self] in
                update { state, now in
                    if !state.completed(task, at: now) {
                        state.report(
                            LaunchProblem(
                                task: task, kind: .completionCalledTwice,
                                message: "task '\(ids[task])': its completion was called after it timed out (ignored)"))
                    }
                }
            },
            calledTwice: { [self] in
                update { state, _ in
                    state.report(
                        LaunchProblem(
                            task: task, kind: .completionCalledTwice,
                            message: "task '\(ids[task])': its completion was called twice (the second call is ignored)"
                        ))
                }
            })
    }

    // MARK: The run loop

    @MainActor
    private func installObservers() {
        let idle = RunLoopObserver(order: 1_000_000) { [self] in
            let tasks = update { state, now in state.idleStep(at: now) }
            for task in tasks {
                let run = update { state, now in state.idleTaskStarts(task, at: now) }
                execute(task, onMain: true, skipped: !run)
            }
        }
        // Just before and just after Core Animation's commit (order 2,000,000):
        // the commit's span, and the end of the iteration.
        let before = RunLoopObserver(order: 1_999_999) { [self] in
            update { state, now in state.commitBegins(at: now) }
        }
        let after = RunLoopObserver(order: 2_000_001) { [self] in
            update { state, now in state.commitEnded(at: now) }
        }
        observers.withLock { $0 = [idle, before, after] }
    }

    // MARK: Effects

    /// Changes the state under the lock, then carries out its effects.
    @discardableResult
    private func update<T>(_ body: (inout SchedulerState, Micros) -> T) -> T {
        let (value, effects) = state.withLock { state in
            let value = body(&state, clock.now)
            if !Thread.isMainThread { state.finishIfDone() }
            let effects = state.effects
            state.effects.removeAll()
            return (value, effects)
        }
        if !effects.isEmpty { perform(effects) }
        return value
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .startOnWorker(let worker, let task):
                pool.post(to: worker) { [self] in runOnWorker(task, worker: worker) }
            case .postToMain(let tasks):
                // One block for the hand-overs of one instant, run in their order: as separate blocks, the
                // first wakes the main thread, which may take this thread's CPU and start the drain before
                // the others are enqueued, putting them in the next iteration (libdispatch drains what was
                // queued when the drain began) — an iteration the model does not have.
                DispatchQueue.main.async { [self] in
                    MainActor.assumeIsolated { for task in tasks { runOnMain(task) } }
                }
            case .releaseAfter(let task, let delay):
                timers.asyncAfter(deadline: .now() + .microseconds(delay)) { [self] in
                    update { state, now in state.delayPassed(task, at: now) }
                }
            case .wakeLaunch:
                launchWake.signal()
            case .wakeRunLoop:
                wakeMainRunLoop()
            case .watch(let task):
                guard let timeout = configuration.completionTimeout else { break }
                let text = "\(timeout)"
                timers.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds(timeout)))) { [self] in
                    update { state, now in state.watchdogFired(task, at: now, after: text) }
                }
            case .commitEnded(let index, let time):
                configuration.frameClock.commitEnded(at: time) { [self] presented in
                    update { state, _ in state.commitPresented(index, at: presented) }
                }
            case .releaseHeld(let time):
                let wait = time - clock.now
                if wait <= 0 {
                    update { state, now in state.releaseHeldForFirstFrame(at: now) }
                } else {
                    timers.asyncAfter(deadline: .now() + .microseconds(wait)) { [self] in
                        update { state, now in state.releaseHeldForFirstFrame(at: now) }
                    }
                }
            case .complete:
                complete()
            }
        }
    }

    /// Every task done and committed: the record, the handlers, the threads.
    private func complete() {
        let record = state.withLock { state in
            LaunchRecord(
                resolved: resolved, strategy: configuration.strategy, workers: configuration.workers,
                idleMode: idleMode, state: state)
        }
        finishedRecord.withLock { $0 = record }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                for observer in observers.withLock({ $0 }) { observer.remove() }
            }
        }
        DispatchQueue.global().async { [pool] in pool.shutDown() }
        let handlers = onComplete.withLock { handlers in
            let taken = handlers
            handlers.removeAll()
            return taken
        }
        for handler in handlers { handler(record) }
        completeSignal.signal()
    }

    /// The record, once the launch is complete.
    var record: LaunchRecord? { finishedRecord.withLock { $0 } }

    func whenComplete(_ handler: @escaping @Sendable (LaunchRecord) -> Void) {
        let record: LaunchRecord? = onComplete.withLock { handlers in
            if let record = finishedRecord.withLock({ $0 }) { return record }
            handlers.append(handler)
            return nil
        }
        if let record { handler(record) }
    }

    /// Blocks this thread (not the main one) until the launch is complete.
    func waitUntilComplete(timeout: Duration) -> LaunchRecord? {
        if let record { return record }
        guard completeSignal.wait(timeout: .now() + .nanoseconds(Int(nanoseconds(timeout)))) == .success else {
            return record
        }
        completeSignal.signal()
        return record
    }
}

/// A duration in whole nanoseconds (saturating).
func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : product + attoseconds / 1_000_000_000
}
