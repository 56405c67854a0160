import LaunchflowModel

/// How a change of advise's plan is written in code, in the platform's words
/// (issue 26 item 6): the scenario's `"platform"`, or `--platform`, or both
/// platforms briefly when neither says. The runtime's names are
/// LaunchflowRuntime's (docs/runtime.md): `afterFirstFrame:`, `idle:`,
/// `priority:`, `anchor:` on `graph.task` / `graph.mainTask`.
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
        }
    }
}
