/// The lint rule about deferring work until the first frame (v2.1):
/// ``LintWarning/Rule/couldRunAfterFirstFrame``. A main-thread task that
/// neither the first frame nor `didFinishLaunching` waits for (no
/// `firstFrame` or `anchor` task depends on it, directly or through other
/// tasks) and that the app does not pin (no task with `before` is or needs
/// it), that runs before the first-frame commit under `dag`, delays the
/// first frame for nothing: marked `after: "firstFrame"`, it would run once
/// the frame is on screen. The gain is measured, not guessed: the scenario is
/// simulated again under `dag` (the app's strategy when the file names one;
/// none under `serial`, which ignores `after`) with only that task deferred, and the task is
/// reported only when the first frame (before vsync rounding) comes sooner.
///
/// - Complexity: one simulation, plus one per candidate, at most
///   ``couldRunAfterFirstFrameLimit`` (the costliest candidates first).
extension Lint {
    /// At most this many candidates are re-simulated (the costliest first).
    static let couldRunAfterFirstFrameLimit = 32

    static func deferralRule(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        // Under the app's strategy when the file names it (serial ignores `after`), else dag.
        let strategy = scenario.strategy ?? .dag
        guard strategy != .serial else { return }
        let base = simulate(scenario, strategy: strategy)
        let metrics = base.metrics()
        let frameCommit = base.commits[metrics.firstFrameIteration]
        // What the first frame and didFinishLaunching wait for, and what the app
        // pins before a point (`before`: never to be deferred).
        let needed = TaskGraph(tasks: tasks).dependencyClosure(
            of: tasks.indices.filter { tasks[$0].firstFrame || tasks[$0].anchor || tasks[$0].before != nil })
        let candidates = tasks.indices.filter { i in
            let task = tasks[i]
            return !needed[i] && task.mainThreadOnly && task.after == nil && !task.idle && !task.fullyDrawn
                && task.cost > 0 && base.tasks[i].isOnMain && base.tasks[i].end <= frameCommit.start
        }
        .sorted { (tasks[$1].cost, $0) < (tasks[$0].cost, $1) }
        .prefix(couldRunAfterFirstFrameLimit)
        for i in candidates.sorted() {
            var deferred = scenario
            deferred.tasks[i].after = .firstFrame
            let trial = simulate(deferred, strategy: strategy).metrics()
            let ready = metrics.firstFrameReady - trial.firstFrameReady
            guard ready > 0 else { continue }
            let frame = metrics.timeToFirstFrame - trial.timeToFirstFrame
            var gain = "the first frame would be ready \(formatMillis(ready)) ms sooner"
            gain += frame > 0 ? " (on screen \(formatMillis(frame)) ms sooner)" : " (on screen at the same vsync)"
            warn(
                .couldRunAfterFirstFrame, i, tasks[i].dependsOn.count, 3, "tasks[\(i)]",
                "runs on the main thread before the first frame under \(strategy.rawValue), but neither the first frame nor "
                    + "didFinishLaunching waits for it: with \"after\": \"firstFrame\" (iOS: a CATransaction completion; Android: a post-frame callback) "
                    + gain + ", measured by simulating again")
        }
    }
}
