/// The lint rules about what makes the first frame or the launch wait (idle tasks, delays, anchors):
/// - ``LintWarning/Rule/idleTaskDelaysFirstFrame``: the first frame needs an
///   `idle` task (directly or through other tasks). Outside the anchor
///   closure an idle task runs only when the run loop is about to sleep, so
///   the frame waits for an iteration with nothing else to do.
/// - ``LintWarning/Rule/delayOnFirstFramePath``: the first frame needs a task
///   with a `delay`: under `priority`, `dag` and `anchored` the frame comes at
///   least that much later than it could.
/// - ``LintWarning/Rule/anchorClosureBlocksLaunch``: in a scenario with
///   `anchor` tasks, under `anchored` or `dag` `didFinishLaunching` is blocked for at least
///   a frame interval waiting for its anchor closure: no input, no other
///   main-thread work meanwhile. The warning says how long, measured by
///   simulation.
extension Lint {
    static func waitRules(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        let frames = tasks.indices.filter { tasks[$0].firstFrame }
        if !frames.isEmpty, tasks.contains(where: { $0.idle || $0.delay > 0 }) {
            // Which tasks the first frame needs, and through which first-frame task.
            var neededBy = [Int](repeating: -1, count: tasks.count)
            var stack: [Int] = []
            for frame in frames where neededBy[frame] < 0 {
                neededBy[frame] = frame
                stack.append(frame)
                while let task = stack.popLast() {
                    for d in tasks[task].dependsOn where neededBy[d] < 0 {
                        neededBy[d] = frame
                        stack.append(d)
                    }
                }
            }
            for (i, task) in tasks.enumerated() where neededBy[i] >= 0 {
                let frame = tasks[neededBy[i]].id
                let who =
                    neededBy[i] == i
                    ? "the first-frame task '\(frame)' is idle"
                    : "the first frame ('\(frame)') needs idle task '\(task.id)'"
                if task.idle && applies(scenario, to: .priority, .dag) {
                    warn(
                        .idleTaskDelaysFirstFrame, i, task.dependsOn.count, 0, "tasks[\(i)].idle",
                        "\(who): under priority and dag it runs only when the run loop is about to sleep, "
                            + "so the first frame waits for an iteration with nothing else to do (anchored runs it at once)"
                    )
                }
                if task.delay > 0 && applies(scenario, to: .priority, .dag, .anchored) {
                    warn(
                        .delayOnFirstFramePath, i, task.dependsOn.count, 1, "tasks[\(i)].delay",
                        "the first frame ('\(frame)') needs '\(task.id)', which is released \(formatMillis(task.delay)) ms "
                            + "after it becomes ready: the first frame comes at least that much later under priority, dag and anchored"
                    )
                }
            }
        }
        anchorRule(scenario, warn)
    }

    /// Simulates `anchored` (and `dag` when there are `anchor` tasks) and
    /// reports a `didFinishLaunching` blocked for a frame interval or more.
    private static func anchorRule(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        // Only where the scenario anchors: every firstFrame task is an anchor of
        // `anchored`, and warning about that strategy on every scenario would be noise.
        guard let first = tasks.indices.first(where: { tasks[$0].anchor }) else { return }
        let prepared = PreparedScenario(scenario)
        var lines: [String] = []
        for strategy in linted([.anchored, .dag], scenario) {
            let plan = strategy.definition.plan(prepared.rules)
            guard let closure = plan.closure, !closure.isEmpty else { continue }
            let schedule = prepared.schedule(strategy, options: SimulationOptions(), plan: plan)
            let launch = schedule.didFinishLaunching
            let blocked = schedule.blocked.reduce(0) { $0 + ($1.start < launch.end ? $1.duration : 0) }
            guard blocked >= scenario.device.frameInterval else { continue }
            lines.append(
                "under \(strategy.rawValue), didFinishLaunching waits \(formatMillis(blocked)) ms (blocked, of "
                    + "\(formatMillis(launch.duration)) ms) for its anchor closure of \(closure.count) task\(closure.count == 1 ? "" : "s")"
            )
        }
        guard !lines.isEmpty else { return }
        warn(
            .anchorClosureBlocksLaunch, first, tasks[first].dependsOn.count, 2, "tasks[\(first)].anchor",
            lines.joined(separator: "; ")
                + ": no input is handled and no other main-thread work runs meanwhile; fewer or cheaper anchors, or "
                + "dependencies moved off the first frame's path, shorten it")
    }
}
