import Testing

@testable import LaunchflowCore

/// ``LaunchQueues``, the machinery of a task's way from ready to handed over
/// that the engine and the runtime share (MODEL.md §3.6, §3.8, §3.11), on its
/// own: the first-frame hold and the delay, serial queues admitting before the
/// main operation queue, and the routes.
struct LaunchQueuesTests {
    /// `a` an anchor on the main thread; `m1`, `m2` main-thread tasks of one
    /// queue; `m3` a main-thread task; `w` a worker task with a delay; `i`
    /// idle; `late` held for the first frame.
    static let json = """
        {"name":"queues","device":{"cores":2,"refreshRate":1000},"mainExecutor":"operationQueue","tasks":[
         {"id":"a","cost":1,"mainThreadOnly":true,"anchor":true},
         {"id":"m1","cost":1,"mainThreadOnly":true,"queue":"q","priority":1},
         {"id":"m2","cost":1,"mainThreadOnly":true,"queue":"q"},
         {"id":"m3","cost":1,"mainThreadOnly":true,"priority":2},
         {"id":"w","cost":1,"delay":2},
         {"id":"i","cost":1,"mainThreadOnly":true,"idle":true},
         {"id":"late","cost":1,"after":"firstFrame","delay":3}]}
        """

    static func queues(_ strategy: Strategy = .dag, executor: MainExecutor = .operationQueue) throws -> LaunchQueues {
        var decoded = try scenario(json)
        decoded.mainExecutor = executor
        let inputs = StrategyInputs(decoded)
        return LaunchQueues(
            plan: strategy.definition.plan(inputs), queueOf: inputs.queueOf, queueCount: inputs.queueCount,
            delay: inputs.delays, deferred: decoded.tasks.map { $0.after != nil }, mainExecutor: executor)
    }

    /// The engine sent a main-thread task to the main operation queue when it
    /// could not be taken out, the runtime when it was outside the anchor
    /// closure: the same set, since under dag and anchored — the only
    /// strategies with the queue — the take-out set is the anchor closure,
    /// empty or not.
    @Test(arguments: [Strategy.dag, .anchored], [UInt64](0..<40))
    func theTakeOutSetIsTheAnchorClosure(_ strategy: Strategy, _ seed: UInt64) throws {
        let scenario = PropertyRunLoopTests.scenario(seed: seed)
        let plan = strategy.definition.plan(StrategyInputs(scenario))
        let closure = try #require(plan.closure)
        for task in scenario.tasks.indices {
            #expect((plan.hasTakeOut && plan.takeOut[task]) == closure.contains[task])
        }
    }

    @Test func theOperationQueueOnlyUnderTheStrategiesWithAnAnchorClosure() throws {
        for strategy in Strategy.allCases {
            #expect(try Self.queues(strategy).hasOperationQueue == strategy.definition.waitsForAnchors)
            #expect(try !Self.queues(strategy, executor: .dispatch).hasOperationQueue)
        }
    }

    static let ranking = StrategyDefinition.dag.plan(StrategyInputs(try! scenario(LaunchQueuesTests.json))).ranking

    /// Routes `task` at its rank.
    static func route(_ queues: inout LaunchQueues, _ task: Int, inLaunch: Bool) -> HandOverRoute {
        queues.route(task, rank: ranking.rank(of: task), inLaunch: inLaunch)
    }

    /// The admissions of one round, in order.
    static func round(_ queues: inout LaunchQueues) -> [Admission] {
        var admissions: [Admission] = []
        while let admission = queues.admitNext() { admissions.append(admission) }
        return admissions
    }

    @Test func routes() throws {
        var queues = try Self.queues()
        // a, m1, m2, m3, w, i, late.
        let anchorInLaunch = Self.route(&queues, 0, inLaunch: true)
        let anchorAfter = Self.route(&queues, 0, inLaunch: false)
        let worker = Self.route(&queues, 4, inLaunch: true)
        let idle = Self.route(&queues, 5, inLaunch: true)
        #expect([anchorInLaunch, anchorAfter, worker, idle] == [.takeOutMain, .mainQueue, .readySet, .idleQueue])
        #expect(!queues.mayAdmit)
        let m3 = Self.route(&queues, 3, inLaunch: true)
        #expect(m3 == .operationQueue)
        var dispatch = try Self.queues(executor: .dispatch)
        let m3Dispatched = Self.route(&dispatch, 3, inLaunch: true)
        #expect(m3Dispatched == .mainQueue)
        #expect(!dispatch.mayAdmit)
        // m3 waits for the main operation queue, which admits it, once.
        #expect(queues.mayAdmit)
        let admitted = Self.round(&queues)
        #expect(admitted == [.operation(task: 3, rank: Self.ranking.rank(of: 3))])
        #expect(!queues.mayAdmit)
    }

    /// A serial queue admits its best-ranked waiting task, and keeps it until
    /// that task is done; the free serial queues admit before the main
    /// operation queue, which admits one task while it is free.
    @Test func serialQueuesAdmitBeforeTheOperationQueue() throws {
        var queues = try Self.queues()
        #expect(queues.hasQueue(1) && !queues.hasQueue(3))
        let m3 = Self.route(&queues, 3, inLaunch: false)
        #expect(m3 == .operationQueue)
        let released = [queues.release(1), queues.release(2), queues.release(3)]
        #expect(released == [false, false, true])
        #expect(queues.hasTouchedQueues)
        // m2 (priority 0) before m1 (priority 1), then the operation queue's m3.
        let first = Self.round(&queues)
        #expect(first == [.queue(task: 2, inline: false), .operation(task: 3, rank: Self.ranking.rank(of: 3))])
        queues.taskDone(2)
        let second = Self.round(&queues)
        #expect(second == [.queue(task: 1, inline: false)])
        // m3 done: the operation queue is free again, with nothing waiting.
        queues.taskDone(3)
        #expect(!queues.mayAdmit)
    }

    @Test func aTaskReleasedInlineIsToldApart() throws {
        var queues = try Self.queues(.priority)
        queues.releaseInline(2)
        #expect(queues.releasedInline(2) && !queues.releasedInline(1))
        let admittedAtOnce = queues.release(2)
        #expect(!admittedAtOnce)
        let admitted = Self.round(&queues)
        #expect(admitted == [.queue(task: 2, inline: true)])
    }

    @Test func theFirstFrameHoldAndTheDelay() throws {
        var queues = try Self.queues()
        #expect(queues.holdsForFirstFrame && !queues.holdsTasks)
        let times = [
            queues.ready(6, firstFrameShown: false), queues.ready(4, firstFrameShown: false),
            queues.ready(3, firstFrameShown: false),
        ]
        #expect(times == [.heldForFirstFrame, .afterDelay(2000), .now])
        #expect(queues.holdsTasks)
        let held = queues.firstFrameShown()
        #expect(held == [6])
        #expect(!queues.holdsTasks)
        #expect(queues.releaseTime(afterHoldOf: 6) == .afterDelay(3000))
        let again = queues.ready(6, firstFrameShown: true)
        #expect(again == .afterDelay(3000))
    }
}
