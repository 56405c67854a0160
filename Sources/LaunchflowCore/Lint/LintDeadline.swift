/// The lint rule about `before` (what the app knows):
/// ``LintWarning/Rule/pinnedTaskRunsLate``. A task that must be done before
/// the first frame (`"before": "firstFrame"`: before the first-frame commit
/// starts) or inside didFinishLaunching (`"launch"`: before it returns) but
/// that a built-in strategy finishes later: one warning per such task, at its
/// `before`, naming the first strategy (in registry order) that runs it late
/// and the others that do too — the app's strategy alone when the file names it.
///
/// - Complexity: one simulation per strategy, only when a task has `before`.
extension Lint {
    static func deadlineRule(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        guard tasks.contains(where: { $0.before != nil }) else { return }
        let results = SimulationResult.compare(scenario, strategies: linted(Strategy.allCases, scenario))
        let late = results.map { $0.schedule.lateTasks(firstFrameIteration: $0.metrics.firstFrameIteration) }
        for i in tasks.indices {
            guard let before = tasks[i].before else { continue }
            let lateUnder = results.indices.filter { late[$0][i] }
            guard let first = lateUnder.first else { continue }
            let result = results[first]
            let at = result.schedule.instant(of: before, firstFrameIteration: result.metrics.firstFrameIteration)
            let point = before == .firstFrame ? "the first-frame commit starts" : "didFinishLaunching returns"
            let others = lateUnder.dropFirst().map { results[$0].schedule.strategy.rawValue }
            let also = others.isEmpty ? "" : " (late under \(others.joined(separator: ", ")) too)"
            let hint =
                before == .firstFrame
                ? "a firstFrame task or an anchor that depends on it makes the first frame wait for it"
                : "under dag and anchored, an anchor (this task, or one that depends on it) keeps didFinishLaunching waiting for it"
            warn(
                .pinnedTaskRunsLate, i, tasks[i].dependsOn.count, 4, "tasks[\(i)].before",
                "must be done before \(before.noun) (\"before\": \"\(before.rawValue)\"), but under \(result.schedule.strategy.rawValue) "
                    + "it is done at \(formatMillis(result.schedule.tasks[i].done)) ms, after \(point) at \(formatMillis(at)) ms\(also); "
                    + hint)
        }
    }
}
