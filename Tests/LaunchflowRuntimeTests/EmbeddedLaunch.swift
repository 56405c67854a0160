import LaunchflowCore

@testable import LaunchflowRuntime

/// One launch of the runtime's ``SchedulerState`` on a virtual clock, as
/// swift-nio's `EmbeddedEventLoop` runs a channel: no thread, no run loop,
/// no timer — the state is told what happened at which microsecond, and
/// its effects are carried out here the way ``Scheduler`` carries them out
/// on the real main run loop and worker pool. Each task's body takes its
/// cost on the thread the state put it on, a latency is a completion that
/// many µs after the body returned, a delay a timer; the main thread runs
/// passes of a run loop as swift-corelibs CoreFoundation does: the blocks
/// on the main dispatch queue when the pass began (`didFinishLaunching`'s,
/// and the drain blocks of `postToMain`), then the BeforeWaiting observers — the idle step
/// (1,000,000), the commit's start (1,999,999), Core Animation's commit
/// (2,000,000: the device's `commitCost`, only when a task ran on the main
/// thread since the last commit, as the replay host does), its end
/// (2,000,001) — then sleeps until a block is posted or the loop is woken.
/// The frame clock is ``VsyncFrameClock`` on the scenario's device.
///
/// The events of one instant reach the state as one update (one
/// `Scheduler.update`: on a real clock no two events share an instant, and
/// each is an update of its own), in the engine's order (MODEL.md §3's step
/// 1: the main thread's item ending, the workers' ends by worker index, the
/// timers — the first frame's presentation, then by task, a release before a
/// completion); then the main thread moves (step 2), each of its steps an
/// update, as on the real main thread; then the next instant. A presentation
/// at or before `now` is a timer of this instant, as the scheduler's timer
/// queue makes it.
struct EmbeddedLaunch {
    /// What the main dispatch queue holds: `didFinishLaunching` (posted
    /// before the run loop starts, as `UIApplicationMain` calls it), or the
    /// block that drains the state's main queue.
    private enum Block {
        case launch
        case drain
    }

    /// One step of a run-loop pass on the main thread.
    private enum Step {
        case launch
        case drain
        case mainQueueTask
        case idleObserver
        case idleTask(Int)
        case commit
    }

    /// A thing that happens at a time (step 1): the main thread's item
    /// ending (kind 0), a worker's task ending (kind 1, `key` the worker),
    /// a timer (kind 2, `key` −1 for the first frame's presentation,
    /// `task × 2` for a release after a delay, `task × 2 + 1` for a completion).
    private struct Event: Comparable {
        var time: Micros
        var kind: Int
        var key: Int
        var task: Int

        static func < (a: Self, b: Self) -> Bool { (a.time, a.kind, a.key) < (b.time, b.kind, b.key) }
    }

    enum Failure: Error, CustomStringConvertible {
        case deadlock([Int])
        case unfinished(String)

        var description: String {
            switch self {
            case .deadlock(let tasks): "didFinishLaunching would wait forever (not started: \(tasks))"
            case .unfinished(let why): "the launch did not finish: \(why)"
            }
        }
    }

    private var state: SchedulerState
    private let cost: [Micros]
    private let latency: [Micros]
    private let commitCost: Micros
    private let frameClock: VsyncFrameClock
    private var now: Micros
    private var events = MinHeap<Event>()
    private var finished = false

    // The main thread.
    private var mainQueue: [Block] = [.launch]
    private var steps: [Step] = []
    private var nextStep = 0
    private var busy = false
    private var launching = false
    private var launchBlocked = false
    /// A body ran on the main thread since the last commit (Core Animation has something to commit).
    private var ranWork = false
    /// `CFRunLoopWakeUp` was called: the loop does not sleep at the end of this pass.
    private var wakePending = false
    private var failure: Failure?

    /// The state of `scenario` under `strategy` with `workers` threads (the
    /// device's, as the engine has them), ready to run from the end of pre-main.
    init(_ scenario: Scenario, strategy: Strategy, options: SimulationOptions = .init()) {
        let inputs = StrategyInputs(scenario)
        state = SchedulerState(
            scenario: scenario, plan: strategy.definition.plan(inputs), inputs: inputs,
            workers: scenario.device.workerCount, maxConcurrent: options.maxConcurrent,
            idleMode: options.idleMode ?? scenario.idleMode, failurePolicy: .skipDependents)
        state.setIDs(scenario.tasks.map(\.id))
        cost = scenario.tasks.map(\.cost)
        latency = scenario.tasks.map(\.latency)
        commitCost = scenario.device.commitCost
        frameClock = VsyncFrameClock(
            refreshRate: scenario.device.refreshRate, renderTimeMs: Double(scenario.device.renderTime) / 1000)
        now = scenario.preMainTotal
    }

    /// Runs the launch to its end and returns what the state recorded.
    mutating func run() throws(Failure) -> (runs: [TaskRun], commits: [Commit], blocked: [TimeSpan], launch: TimeSpan) {
        while true {
            advanceMain()
            if let failure { throw failure }
            guard let next = events.min?.time else { break }
            now = next
            var instant: [Event] = []
            while let event = events.min, event.time == now {
                events.popMin()
                instant.append(event)
            }
            happen(instant)
        }
        guard finished else {
            throw .unfinished("no event left, the state not complete (outcomes \(state.outcomes))")
        }
        return (state.runs, state.commits, state.blocked, state.launch)
    }

    // MARK: Step 1: what happens at `now`

    /// The events of one instant, in their order, as one update: what
    /// happens at one instant is settled together (``SchedulerState/settle(at:)``).
    private mutating func happen(_ instant: [Event]) {
        let latency = latency
        for event in instant where event.kind == 0 { busy = false }
        let onMain = instant.allSatisfy { $0.kind == 0 }
        update(onMain: onMain) { state, now in
            for event in instant {
                let task = event.task
                switch event.kind {
                case 0 where task < 0: state.commitEnded(at: now)
                case 0, 1: state.ended(task, at: now, latencyPending: latency[task] > 0)
                case _ where event.key < 0: state.releaseHeldForFirstFrame(at: now)
                case _ where event.key & 1 == 0: state.delayPassed(task, at: now)
                default: state.completed(task, at: now)
                }
            }
        }
        for event in instant where event.kind < 2 && event.task >= 0 { completionLater(event.task) }
    }

    /// `task`'s body returned at `now`: its completion comes `latency` later.
    private mutating func completionLater(_ task: Int) {
        if latency[task] > 0 { events.push(Event(time: now + latency[task], kind: 2, key: task * 2 + 1, task: task)) }
    }

    private mutating func bodyReturned(_ task: Int, onMain: Bool) {
        let pending = latency[task] > 0
        update(onMain: onMain) { state, now in state.ended(task, at: now, latencyPending: pending) }
        completionLater(task)
    }

    // MARK: Step 2: the main thread

    /// The main thread goes on until it runs something that takes time, is
    /// blocked in `didFinishLaunching`, or sleeps.
    private mutating func advanceMain() {
        while !busy && !launchBlocked && failure == nil {
            if launching {
                switch update(onMain: true, { state, now in state.nextLaunchAction(at: now) }) {
                case .run(let task, let skipped): runOnMain(task, skipped: skipped)
                case .block: launchBlocked = true
                case .finish: launching = false
                case .deadlock(let tasks): failure = .deadlock(tasks)
                }
            } else if nextStep < steps.count {
                let step = steps[nextStep]
                nextStep += 1
                take(step)
            } else if !mainQueue.isEmpty || wakePending {
                // A new pass: the blocks queued now (later ones wait for the next), then the observers.
                wakePending = false
                steps =
                    mainQueue.flatMap { block -> [Step] in
                        switch block {
                        case .launch: [.launch]
                        case .drain: [.drain]
                        }
                    } + [.idleObserver, .commit]
                nextStep = 0
                mainQueue.removeAll()
            } else {
                return
            }
        }
    }

    private mutating func take(_ step: Step) {
        switch step {
        case .launch:
            ranWork = true
            launching = true
            update(onMain: true) { state, now in state.beginLaunch(at: now) }
        case .drain:
            let count = update(onMain: true) { state, _ in state.beginMainDrain() }
            steps.insert(contentsOf: Array(repeating: .mainQueueTask, count: count), at: nextStep)
        case .mainQueueTask:
            let (task, run) = update(onMain: true) { state, now in state.mainTaskStarts(at: now) }
            runOnMain(task, skipped: !run)
        case .idleObserver:
            let tasks = update(onMain: true) { state, now in state.idleStep(at: now) }
            steps.insert(contentsOf: tasks.map { .idleTask($0) }, at: nextStep)
        case .idleTask(let task):
            let run = update(onMain: true) { state, now in state.idleTaskStarts(task, at: now) }
            runOnMain(task, skipped: !run)
        case .commit:
            update(onMain: true) { state, now in state.commitBegins(at: now) }
            let commits = ranWork
            ranWork = false
            if commits && commitCost > 0 {
                busy = true
                events.push(Event(time: now + commitCost, kind: 0, key: 0, task: -1))
            } else {
                update(onMain: true) { state, now in state.commitEnded(at: now) }
            }
        }
    }

    /// A task the state started on the main thread: its body for its cost.
    private mutating func runOnMain(_ task: Int, skipped: Bool) {
        if skipped {
            update(onMain: true) { state, now in state.ended(task, at: now, latencyPending: false) }
            return
        }
        ranWork = true
        if cost[task] > 0 {
            busy = true
            events.push(Event(time: now + cost[task], kind: 0, key: 0, task: task))
        } else {
            bodyReturned(task, onMain: true)
        }
    }

    // MARK: Effects

    /// One `Scheduler.update`: the change at `now`, then (off the main
    /// thread) whether the launch is complete, then the effects.
    @discardableResult
    private mutating func update<T>(onMain: Bool, _ body: (inout SchedulerState, Micros) -> T) -> T {
        let value = body(&state, now)
        state.settle(at: now)
        if !onMain { state.finishIfDone() }
        let effects = state.effects
        state.effects.removeAll()
        for effect in effects { perform(effect) }
        return value
    }

    private mutating func perform(_ effect: Effect) {
        switch effect {
        case .startOnWorker(let worker, let task):
            let run = update(onMain: false) { state, now in state.workerTaskStarts(task, at: now) }
            if !run {
                update(onMain: false) { state, now in state.ended(task, at: now, latencyPending: false) }
            } else {
                events.push(Event(time: now + cost[task], kind: 1, key: worker, task: task))
            }
        case .postToMain:
            mainQueue.append(.drain)
        case .releaseAfter(let task, let delay):
            events.push(Event(time: now + delay, kind: 2, key: task * 2, task: task))
        case .wakeLaunch:
            launchBlocked = false
        case .wakeRunLoop:
            wakePending = true
        case .watch:
            break
        case .commitEnded(let index, let time):
            let presented = frameClock.presentation(ofCommitEndingAt: time)
            update(onMain: true) { state, _ in state.commitPresented(index, at: presented) }
        case .releaseHeld(let time):
            events.push(Event(time: Swift.max(time, now), kind: 2, key: -1, task: -1))
        case .complete:
            finished = true
        }
    }
}
