/// What `didFinishLaunching` does next on the main thread (MODEL.md §4).
@usableFromInline package enum LaunchStep: Equatable {
    /// Run this task on the main thread, inside `didFinishLaunching`.
    case run(Int)
    /// Release this task into its queue; `didFinishLaunching` runs it itself
    /// once the queue admits it (priority's inline T0 tasks with a `queue`).
    case release(Int)
    /// Nothing of its own to run now: take out a task that keeps a queue busy
    /// (or of the anchor closure), or block until something changes.
    case wait
    /// Return from `didFinishLaunching`.
    case finish
}

/// A strategy, as seen by the engine: what `didFinishLaunching` does, and
/// which tasks become ready when. Tasks a policy makes *ready* are released
/// (after their `delay`), admitted by their queue and handed over by the
/// engine (MODEL.md §3, "A task's way to a thread").
@usableFromInline package protocol LaunchPolicy {
    /// `didFinishLaunching` has started: the tasks it makes ready, in order.
    mutating func launchBegan(ready: inout [Int32])
    /// The next step of `didFinishLaunching`; asked again after every change.
    mutating func nextLaunchStep() -> LaunchStep
    /// `didFinishLaunching` has returned: the tasks that become ready now.
    mutating func launchReturned(ready: inout [Int32])
    /// A task has ended (it may still be in its latency).
    mutating func taskEnded(_ task: Int)
    /// A task is done: the tasks that become ready now, in order.
    mutating func taskDone(_ task: Int, ready: inout [Int32])
    /// A task released by ``LaunchStep/release(_:)`` has been admitted.
    mutating func inlineAdmitted(_ task: Int)
}

extension LaunchPolicy {
    package mutating func launchReturned(ready: inout [Int32]) {}
    package mutating func taskEnded(_ task: Int) {}
    package mutating func inlineAdmitted(_ task: Int) {}
}

/// Where an admitted task is handed over (MODEL.md §3).
@usableFromInline package enum Route: UInt8, Sendable {
    /// The main queue: `mainThreadOnly`, not idle (or idle in the anchor closure).
    case main
    /// The idle queue: run when the run loop is about to sleep.
    case idle
    /// The workers' ready set.
    case worker
}

/// What the engine needs of a strategy besides its policy, fixed for one
/// scenario: the rank order, where each task is handed over, and which
/// tasks `didFinishLaunching` may take out of the main and idle queues while
/// it waits.
@usableFromInline package struct StrategyPlan: Sendable {
    @usableFromInline package let ranking: Ranking
    @usableFromInline package let route: [Route]
    /// Tasks `didFinishLaunching` takes out of the main/idle queue while it waits:
    /// priority's tasks with a `queue`, the anchor closure under dag and anchored.
    @usableFromInline package let takeOut: [Bool]
    /// Whether any task may be taken out (skips the bookkeeping when not).
    @usableFromInline package let hasTakeOut: Bool
    /// `--max-concurrent` applies (dag and anchored).
    package let limitsConcurrency: Bool
    /// The anchor closure (dag and anchored).
    package let closure: AnchorClosure?
    /// The strategy's policy before a run, built once (its tiers or graph
    /// counters do not depend on costs); each run starts from a copy. Boxed
    /// without its type so that the plan stays one type; ``policy(as:)``
    /// unboxes it without a dynamic cast (a run-time conformance lookup per
    /// run showed in the sweep's profile).
    private var policyBox: (AnyObject & Sendable)?

    package init(ranking: Ranking, route: [Route], takeOut: [Bool], limitsConcurrency: Bool, closure: AnchorClosure?) {
        self.ranking = ranking
        self.route = route
        self.takeOut = takeOut
        hasTakeOut = takeOut.contains(true)
        self.limitsConcurrency = limitsConcurrency
        self.closure = closure
    }

    /// This plan with `policy` as its prototype.
    package func with<P: LaunchPolicy & Sendable>(policy: P) -> StrategyPlan {
        var plan = self
        plan.policyBox = PolicyBox(policy)
        return plan
    }

    /// The prototype, as the type its strategy stored (``with(policy:)``).
    /// Asking for another type (a plan made by one strategy, run as
    /// another's) traps with a message, in release builds too: one compare
    /// of the box's type, no dynamic cast (no conformance lookup per run).
    package func policy<P: LaunchPolicy & Sendable>(as type: P.Type) -> P {
        guard let box = policyBox else {
            preconditionFailure("launchflow: the plan has no policy (StrategyPlan.with(policy:) was not called)")
        }
        precondition(
            ObjectIdentifier(Swift.type(of: box)) == ObjectIdentifier(PolicyBox<P>.self),
            "launchflow: the plan's policy is \(Swift.type(of: box)), not \(PolicyBox<P>.self): a plan run by another strategy"
        )
        return unsafeDowncast(box, to: PolicyBox<P>.self).policy
    }

    /// The prototype without its type, for an executor that runs one launch
    /// (the runtime's scheduler): a copy to mutate.
    package func makePolicy() -> any LaunchPolicy & Sendable {
        (policyBox as! any ErasedPolicyBox).erasedPolicy
    }
}

/// A policy prototype kept by a plan. A class for the type-erased reference;
/// immutable, hence sendable.
package final class PolicyBox<P: LaunchPolicy & Sendable>: Sendable, ErasedPolicyBox {
    package let policy: P
    var erasedPolicy: any LaunchPolicy & Sendable { policy }
    package init(_ policy: P) { self.policy = policy }
}

/// A policy box whose policy's type is not known statically.
protocol ErasedPolicyBox {
    var erasedPolicy: any LaunchPolicy & Sendable { get }
}
