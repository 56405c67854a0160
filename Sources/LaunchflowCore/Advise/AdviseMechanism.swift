import LaunchflowModel

/// How a change of advise's plan is written in code, in the platform's words
/// (issue 26 item 6): the scenario's `"platform"`, or `--platform`, or both
/// platforms briefly when neither says. The runtime's names are
/// LaunchflowRuntime's (docs/runtime.md): `afterFirstFrame:`, `idle:`,
/// `priority:`, `anchor:` on `graph.task` / `graph.mainTask`, the strategy the
/// plan file's `"strategy"` (unless `LaunchConfiguration(strategy:)` pins one); it has no QoS key (its `TaskKeys`), so a
/// `qos` change is said in Dispatch's and Swift concurrency's words.
public enum AdviseMechanism {
    /// The platform advice speaks of: the configuration's (`--platform`), else the scenario's.
    public static func platform(_ plan: AdvicePlan) -> Platform? {
        plan.configuration.platform ?? plan.written.platform
    }

    /// One short sentence for a group of changes of `key`.
    public static func text(_ key: AdviseChange.Key, _ platform: Platform?) -> String {
        switch (key, platform) {
        case (.after, .ios?):
            "on iOS: the runtime's afterFirstFrame: true (the plan's \"after\": \"firstFrame\"); without it, a CATransaction completion block around the first commit, or work started after the first viewDidAppear"
        case (.after, .android?):
            "on Android: Choreographer.getInstance().postFrameCallback, or View.post after the first draw"
        case (.after, nil):
            "iOS: the runtime's afterFirstFrame (or a CATransaction completion block); Android: Choreographer.postFrameCallback / View.post"
        case (.idle, .ios?):
            "on iOS: a CFRunLoopObserver on .beforeWaiting (the runtime's idle: true)"
        case (.idle, .android?):
            "on Android: Looper.myQueue().addIdleHandler (an IdleHandler)"
        case (.idle, nil):
            "iOS: a CFRunLoopObserver on .beforeWaiting (the runtime's idle); Android: an IdleHandler"
        case (.priority, .ios?):
            "on iOS: the order the tasks are handed to the queue (the runtime's priority:), or an OperationQueue's queuePriority or a QoS class"
        case (.priority, .android?):
            "on Android: the order the tasks are submitted to the executor"
        case (.priority, nil):
            "iOS: the order the tasks are handed to the queue (the runtime's priority:); Android: the order they are submitted to the executor"
        case (.anchor, .ios?):
            "on iOS: done inside application(_:didFinishLaunchingWithOptions:), which waits for it (the runtime's anchor: true)"
        case (.anchor, .android?):
            "on Android: done in Application.onCreate"
        case (.anchor, nil):
            "iOS: inside application(_:didFinishLaunchingWithOptions:) (the runtime's anchor); Android: in Application.onCreate"
        case (.qos, .ios?):
            "on iOS: dispatch the task at that QoS — DispatchQueue.global(qos: .userInitiated / .utility / .background), an Operation's qualityOfService, or Task(priority: .high / .utility / .background) in Swift concurrency (LaunchflowRuntime has no QoS key: its workers run every task at their own)"
        case (.qos, .android?):
            "on Android: the thread's priority — run the task on an executor whose ThreadFactory calls Process.setThreadPriority(THREAD_PRIORITY_FOREGROUND) to raise it, THREAD_PRIORITY_BACKGROUND to lower it"
        case (.qos, nil):
            "iOS: DispatchQueue.global(qos:) or Task(priority:) (LaunchflowRuntime has no QoS key); Android: an executor whose threads run at Process.THREAD_PRIORITY_FOREGROUND / THREAD_PRIORITY_BACKGROUND"
        }
    }

    /// One short sentence for a switch to `strategy`: what the app delegate
    /// becomes. LaunchflowRuntime runs the plan file's `"strategy"` unless its
    /// code pins one in `LaunchConfiguration(strategy:)` (a warning when they differ).
    public static func strategyText(to strategy: Strategy, _ platform: Platform?) -> String {
        let runtime =
            "LaunchflowRuntime: it runs the plan file's \"strategy\", no code change (LaunchConfiguration(strategy: .\(strategy.rawValue)) in the code would pin it instead)"
        switch (strategy, platform) {
        case (.dag, .ios?):
            return
                "on iOS: the tasks become operations with dependencies (an OperationQueue, addDependency) started in application(_:didFinishLaunchingWithOptions:), which returns at once; a main-thread task hops to the main queue (OperationQueue.main, or DispatchQueue.main.async) and runs in a later run-loop turn — \(runtime)"
        case (.anchored, .ios?):
            return
                "on iOS: as dag (operations with dependencies, main-thread tasks on the main queue), and application(_:didFinishLaunchingWithOptions:) waits (a DispatchGroup's wait()) for the anchors and everything the first frame needs, running the main-thread ones itself — \(runtime)"
        case (.dag, .android?):
            return
                "on Android: each task submitted to an executor when its dependencies complete (CompletableFuture.allOf(…).thenRunAsync(…, executor)), a main-thread task posted to the main Looper (Handler(Looper.getMainLooper()).post), Application.onCreate returning at once"
        case (.anchored, .android?):
            return
                "on Android: as dag (tasks on an executor when their dependencies complete, main-thread tasks posted to the main Looper), and Application.onCreate waits (a CountDownLatch's await()) for the anchors and everything the first frame needs"
        case (.dag, nil):
            return
                "iOS: operations with dependencies, main-thread tasks hopping to the main queue — \(runtime); Android: tasks on an executor when their dependencies complete, main-thread ones posted to the main Looper"
        case (.anchored, nil):
            return
                "iOS: operations with dependencies, main-thread tasks on the main queue, didFinishLaunching waiting for the anchors and what the first frame needs — \(runtime); Android: the same, Application.onCreate waiting on a CountDownLatch"
        case (.serial, _), (.priority, _):
            return "\(strategy.summary) — \(runtime)"
        }
    }
}
