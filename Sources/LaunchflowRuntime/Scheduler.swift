import Dispatch
import Foundation
import LaunchflowModel

/// Runs one launch on the real main run loop and the worker pool: the
/// ``SchedulerState`` under one lock decides, this class carries out its
/// effects outside the lock (posting to the main queue and the workers,
/// timers for delays and the watchdog, waking the run loop or a blocked
/// `didFinishLaunching`), and keeps the launch's life: created → launching
/// → complete or failed (``Launch/State``).
///
/// Threads: `didFinishLaunching`, main-queue blocks and the observers run
/// on the main thread; task bodies on the main thread or a pool worker;
/// completions and timers on any thread. Every shared mutable value is in
/// a lock (`state`; `life`, for the lifecycle, the record and the handlers;
/// the two are never held together) or, for the observers, on the main
/// actor.
final class Scheduler: Sendable {
    let resolved: ResolvedLaunch
    let ids: [String]
    let configuration: LaunchConfiguration
    let clock: LaunchClock
    let idleMode: IdleMode
    private let hooks: LaunchTestHooks
    private let state: Locked<SchedulerState>
    private let pool: WorkerPool
    private let launchWake = DispatchSemaphore(value: 0)
    private let timers = DispatchQueue(label: "launchflow.timers")
    @MainActor private var observers: [RunLoopObserver] = []
    private let life = Locked(Life())
    /// The launch phases the app marked (on the main thread; read by the record at the end).
    private let phases = Locked(PhaseMarks())
    /// Signalled once the launch has ended (each waiter signals it again for the next).
    private let ended = DispatchSemaphore(value: 0)

    /// The lifecycle, the record once the launch has ended, and the handlers waiting for it.
    private struct Life: Sendable {
        var state = Launch.State.created
        var record: LaunchRecord?
        var handlers: [@Sendable (LaunchRecord) -> Void] = []
    }

    init(
        _ resolved: ResolvedLaunch, configuration: LaunchConfiguration, clock: LaunchClock,
        hooks: LaunchTestHooks = LaunchTestHooks()
    ) {
        self.resolved = resolved
        self.configuration = configuration
        self.clock = clock
        self.hooks = hooks
        let scenario = resolved.scenario
        ids = scenario.tasks.map(\.id)
        idleMode = configuration.idleMode ?? scenario.idleMode
        let inputs = StrategyInputs(scenario)
        var state = SchedulerState(
            scenario: scenario, plan: hooks.plan?(inputs) ?? resolved.strategy.definition.plan(inputs),
            inputs: inputs, workers: configuration.workers, maxConcurrent: configuration.maxConcurrent,
            idleMode: idleMode, failurePolicy: configuration.failurePolicy)
        state.setIDs(ids)
        self.state = Locked(state)
        pool = WorkerPool(count: configuration.workers, threadEnded: hooks.workerThreadEnded)
    }

    // MARK: didFinishLaunching

    /// Runs `didFinishLaunching`'s part of the launch on the main thread and
    /// returns when the strategy lets it (under `dag` and `anchored`, once the
    /// anchors are done). Throws when called a second time, and when it would
    /// wait forever — the launch has then failed and stopped.
    @MainActor
    func didFinishLaunching() throws(LaunchError) {
        let earlier = life.withLock { life -> Launch.State? in
            guard case .created = life.state else { return life.state }
            life.state = .launching
            return nil
        }
        if let earlier {
            throw LaunchError.misuse(
                "didFinishLaunching() was called a second time (the launch is \(earlier.name) already): call it "
                    + "once, from application(_:didFinishLaunchingWithOptions:)")
        }
        phases.withLock { $0.launchPhase = $0.open }
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
                let error = LaunchError.misuse(
                    "didFinishLaunching would wait forever under \(resolved.strategy.rawValue): "
                        + "nothing in flight can finish the tasks it waits for (not started: \(names))")
                end(failure: error)
                // Nothing runs on the workers (that is why it would wait forever): they end at once.
                pool.join()
                throw error
            }
        }
    }

    // MARK: Launch phases

    /// The app's callback `name` begins; in the `startsIn` phase, the launch starts.
    @MainActor
    func phaseBegan(_ name: String) {
        let now = clock.now
        phases.withLock { $0.began(name, at: now) }
        guard name == resolved.startsIn, case .created = lifecycle else { return }
        // A failure to start (it would wait forever) has ended the launch: its state and record say why.
        try? didFinishLaunching()
    }

    @MainActor
    func phaseEnded(_ name: String) {
        let now = clock.now
        phases.withLock { $0.ended(name, at: now) }
    }

    // MARK: Running tasks

    /// The drain block: the main queue's tasks, in the state's order.
    @MainActor
    private func drainMainQueue() {
        let count = note { state, _ in state.beginMainDrain() }
        for _ in 0..<count {
            let (task, run) = note { state, now in state.mainTaskStarts(at: now) }
            execute(task, onMain: true, skipped: !run)
        }
    }

    private func runOnWorker(_ task: Int, worker: Int) {
        var next: Int? = task
        while let task = next {
            let run = note { state, now in state.workerTaskStarts(task, at: now) }
            next = execute(task, onMain: false, skipped: !run, worker: worker)
        }
    }

    /// Runs `task`'s body on this thread (started already) and reports its end.
    /// Returns the task the state hands to this same worker at that end, to
    /// run here at once (``update(onMain:worker:_:)``); nil on the main thread.
    @discardableResult
    private func execute(_ task: Int, onMain: Bool, skipped: Bool, worker: Int = 0) -> Int? {
        if skipped {
            return update(onMain: onMain, worker: worker) { state, now in
                state.ended(task, at: now, latencyPending: false)
            }
        }
        let requested = resolved.scenario.tasks[task].qos
        let (applied, level) = takeQoS(requested, of: task, onMain: onMain)
        let sink = configuration.traceSink
        sink?.taskBegan(ids[task], thread: worker)
        var latencyPending = false
        var failure: String?
        let cpuStart = configuration.recordsCPUTime ? threadCPUTime() : 0
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
                Task.detached(priority: requested == .default ? nil : requested.taskPriority.priority) { [self] in
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
        let cpuTime = configuration.recordsCPUTime ? threadCPUTime() - cpuStart : 0
        sink?.taskEnded(ids[task], thread: worker)
        let qos = TaskQoS(
            requested: Foundation.QualityOfService(requested), applied: applied,
            notRestored: level.flatMap(ThreadQoS.leave))
        return update(onMain: onMain, worker: worker) { state, now in
            state.ended(task, at: now, latencyPending: latencyPending, failure: failure, cpuTime: cpuTime, qos: qos)
        }
    }

    /// The task's QoS for its body on this thread (docs/runtime.md, "Quality
    /// of service"): a worker takes it; the main thread keeps its own; an
    /// `async` body gets it as its `Task`'s priority.
    private func takeQoS(_ qos: LaunchflowModel.QualityOfService, of task: Int, onMain: Bool) -> (
        TaskQoS.Applied, ThreadLevel?
    ) {
        if qos == .default { return (.unchanged, nil) }
        if onMain { return (.notApplied("the main thread keeps its own QoS (userInteractive)"), nil) }
        if case .async = resolved.bodies[task] {
            return (.taskPriority(Foundation.QualityOfService(qos.taskPriority.qos)), nil)
        }
        return ThreadQoS.enter(qos)
    }

    private func completion(for task: Int) -> TaskCompletion {
        TaskCompletion(
            finish: { [self] in
                update { state, now in
                    if !state.completed(task, at: now) {
                        state.report(
                            LaunchProblem(
                                task: ids[task], kind: .completionCalledTwice,
                                message: "task '\(ids[task])': its completion was called after it timed out (ignored)"))
                    }
                }
            },
            calledTwice: { [self] in
                update { state, _ in
                    state.report(
                        LaunchProblem(
                            task: ids[task], kind: .completionCalledTwice,
                            message: "task '\(ids[task])': its completion was called twice (the second call is ignored)"
                        ))
                }
            })
    }

    /// A job the pool refused (posted after it was shut down): the task did
    /// not run; the state and, once the launch has ended, its record say so.
    private func cancelled(_ task: Int, worker: Int) {
        let problem = update { state, now in state.cancelledOnWorker(task, worker: worker, at: now) }
        life.withLock { life in life.record?.cancelled(task, problem) }
    }

    // MARK: The run loop

    @MainActor
    private func installObservers() {
        let idle = RunLoopObserver(order: 1_000_000) { [self] in
            let tasks = update { state, now in state.idleStep(at: now) }
            for task in tasks {
                let run = note { state, now in state.idleTaskStarts(task, at: now) }
                execute(task, onMain: true, skipped: !run)
            }
        }
        // Just before and just after Core Animation's commit (order 2,000,000):
        // the commit's span, and the end of the iteration.
        let before = RunLoopObserver(order: 1_999_999) { [self] in
            note { state, now in state.commitBegins(at: now) }
        }
        let after = RunLoopObserver(order: 2_000_001) { [self] in
            update { state, now in state.commitEnded(at: now) }
        }
        observers = [idle, before, after]
    }

    @MainActor
    private func removeObservers() {
        for observer in observers { observer.remove() }
        observers = []
    }

    // MARK: Effects

    /// Changes the state under the lock — the change, then the end of the
    /// update (``SchedulerState/settle(at:)``) — then carries out its effects.
    /// `onMain`: whether this is the main thread, when the caller knows
    /// (`Thread.isMainThread` is two system calls on Linux: `getpid` and `gettid`).
    @discardableResult
    private func update<T>(onMain: Bool? = nil, _ body: (inout SchedulerState, Micros) -> T) -> T {
        let (value, effects) = settled(onMain: onMain, body)
        hooks.afterUnlock?()
        if !effects.isEmpty { perform(effects) }
        hooks.afterEffects?()
        return value
    }

    /// A task's end on worker `worker` (0: the main thread): as
    /// ``update(onMain:_:)``, except that a task the state hands to this same
    /// worker is returned, for the worker to run at once, instead of posted
    /// to its own mailbox (a closure, a lock and a semaphore's wake per task,
    /// a third of the runtime's own time per worker task). The worker is free
    /// in the state from this update on, so nothing else is in its mailbox.
    private func update(onMain: Bool, worker: Int, _ body: (inout SchedulerState, Micros) -> Void) -> Int? {
        let ((), effects) = settled(onMain: onMain, body)
        hooks.afterUnlock?()
        let next = effects.isEmpty ? nil : perform(effects, worker: worker)
        hooks.afterEffects?()
        return next
    }

    /// The change and the end of the update under the lock; the effects to carry out.
    private func settled<T>(onMain: Bool?, _ body: (inout SchedulerState, Micros) -> T) -> (T, [Effect]) {
        let offMain = !(onMain ?? Thread.isMainThread)
        return state.withLock { state in
            let now = clock.now
            let value = body(&state, now)
            state.settle(at: now)
            if offMain { state.finishIfDone() }
            let effects = state.effects
            state.effects.removeAll()
            return (value, effects)
        }
    }

    /// Notes what only records (a task starting, a drain taking the main
    /// queue, a commit beginning) under the lock: nothing to settle — no task
    /// made ready, no queue or worker freed — and no effect.
    private func note<T>(_ body: (inout SchedulerState, Micros) -> T) -> T {
        let value = state.withLock { state in
            let value = body(&state, clock.now)
            assert(state.effects.isEmpty, "launchflow: a note had effects")
            return value
        }
        hooks.afterUnlock?()
        hooks.afterEffects?()
        return value
    }

    /// Carries out `effects`; on worker `worker` (0: none) returns the first
    /// task handed to that worker itself instead of posting it, unless the
    /// pool is shutting down (then it is posted, and so run as cancelled).
    @discardableResult
    private func perform(_ effects: [Effect], worker current: Int = 0) -> Int? {
        var handedToSelf: Int?
        for effect in effects {
            switch effect {
            case .startOnWorker(let worker, let task)
            where worker == current && handedToSelf == nil && pool.isOpen(worker):
                handedToSelf = task
            case .startOnWorker(let worker, let task):
                pool.post(to: worker) { [self] work in
                    switch work {
                    case .run: runOnWorker(task, worker: worker)
                    case .cancelled: cancelled(task, worker: worker)
                    }
                }
            case .postToMain:
                // One block drains the state's main queue: it runs the tasks handed over before it started,
                // in the state's order (MODEL.md §3's snapshot), however late this thread, preempted here,
                // posts it; a task handed over while it runs gets the next block, in the next iteration.
                DispatchQueue.main.async { [self] in MainActor.assumeIsolated { drainMainQueue() } }
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
                // An event of its own, even when the frame is on screen already (the model's presentation
                // is a further step at its instant): what the main thread is about to run comes first.
                let wait = Swift.max(0, time - clock.now)
                timers.asyncAfter(deadline: .now() + .microseconds(wait)) { [self] in
                    update { state, now in state.releaseHeldForFirstFrame(at: now) }
                }
            case .complete:
                end(failure: nil)
            }
        }
        return handedToSelf
    }

    // MARK: The end

    /// The launch has ended — complete (every task done and committed), or
    /// failed: the record, the lifecycle, the observers removed, the workers
    /// told to stop, the handlers called, the waiters woken.
    private func end(failure: LaunchError?) {
        let marks = phases.withLock { $0 }
        let record = state.withLock { state in
            if failure != nil { state.stop(at: clock.now) }
            return LaunchRecord(
                resolved: resolved, strategy: resolved.strategy, workers: configuration.workers,
                idleMode: idleMode, state: state, phases: marks, recordsCPUTime: configuration.recordsCPUTime,
                failure: failure)
        }
        let handlers = life.withLock { life in
            life.state = failure.map { .failed($0) } ?? .complete
            life.record = record
            defer { life.handlers.removeAll() }
            return life.handlers
        }
        if Thread.isMainThread {
            MainActor.assumeIsolated { removeObservers() }
        } else {
            DispatchQueue.main.async { [self] in MainActor.assumeIsolated { removeObservers() } }
        }
        pool.shutDown()
        for handler in handlers { handler(record) }
        ended.signal()
    }

    var lifecycle: Launch.State { life.withLock { $0.state } }

    /// The record, once the launch has ended.
    var record: LaunchRecord? { life.withLock { $0.record } }

    func whenComplete(_ handler: @escaping @Sendable (LaunchRecord) -> Void) {
        let record: LaunchRecord? = life.withLock { life in
            if let record = life.record { return record }
            life.handlers.append(handler)
            return nil
        }
        if let record { handler(record) }
    }

    /// Blocks this thread (not the main one) until the launch has ended or `timeout` passes.
    func waitUntilComplete(timeout: Duration) -> LaunchRecord? {
        if let record { return record }
        if Thread.isMainThread {
            fatalError(
                "launchflow: waitUntilComplete(timeout:) was called on the main thread, which the launch needs "
                    + "to run its main-thread tasks, idle work and commits: it cannot end while the main thread "
                    + "waits for it. Call it from another thread, or use whenComplete(_:).")
        }
        guard ended.wait(timeout: .now() + .nanoseconds(Int(nanoseconds(timeout)))) == .success else {
            return record
        }
        ended.signal()
        return record
    }

    // MARK: For the runtime's tests

    /// Whether the run loop's observers are installed.
    @MainActor var observersInstalled: Bool { !observers.isEmpty }

    var runningWorkerThreads: Int { pool.runningThreads }

    /// Waits until every worker thread has ended.
    func joinWorkers() { pool.join() }

    /// Carries out a `startOnWorker` the state never decided: what a late effect would do.
    func startLate(_ task: Int, onWorker worker: Int) { perform([.startOnWorker(worker: worker, task: task)]) }
}

/// What a test may change in a launch (the runtime's own tests; never an app).
package struct LaunchTestHooks: Sendable {
    /// Called on the updating thread after the state's lock is released, before the update's effects are carried out.
    package var afterUnlock: (@Sendable () -> Void)?
    /// Called on the updating thread once they are.
    package var afterEffects: (@Sendable () -> Void)?
    /// The strategy's plan, instead of the configured strategy's.
    package var plan: (@Sendable (StrategyInputs) -> StrategyPlan)?
    /// Called on worker thread k (1-based) when it ends.
    package var workerThreadEnded: (@Sendable (Int) -> Void)?

    package init() {}
}

extension Launch.State {
    /// `created`, `launching`, `complete` or `failed`.
    var name: String {
        switch self {
        case .created: "created"
        case .launching: "launching"
        case .complete: "complete"
        case .failed: "failed"
        }
    }
}

extension LaunchError {
    /// A launch used in a way it cannot run: one problem, no file.
    static func misuse(_ message: String) -> LaunchError { LaunchError([Diagnostic(file: "", message: message)]) }
}

/// A duration in whole nanoseconds (saturating).
func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : product + attoseconds / 1_000_000_000
}
