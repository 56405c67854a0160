/// Warnings about a valid scenario that will not launch the way its author
/// probably meant (`launchflow validate`; `--strict` makes them errors).
///
/// Rules, each reported at the key to change:
/// - ``LintWarning/Rule/laterTierDependency``: a task depends on a task in a
///   later priority tier. A later tier opens only when the earlier one is
///   done, so under `priority` the task always starts before its dependency
///   ends: a guaranteed violation.
/// - ``LintWarning/Rule/sameTierDependency``: a dependency inside one tier
///   that `priority` does not order. Between two worker tasks, or a worker and
///   a main-thread task, both may run at once: a possible violation. Between
///   two main-thread tasks the tier runs them in file order, so a dependency
///   that comes later in the file is a guaranteed violation (one that comes
///   earlier is fine and not reported).
/// - ``LintWarning/Rule/firstFrameNeedsLaterTier``: a `firstFrame` task needs,
///   directly or through other tasks, a task in a later tier: under `priority`
///   the first frame is drawn before that task ends. Reported once per such
///   task, at the first-frame task's dependency that leads to it (and instead
///   of a `laterTierDependency` for the first-frame task's own edges).
/// - ``LintWarning/Rule/blocksFirstFrameUnderSerial``: a task nothing depends
///   on, which the first frame does not need, that `serial` runs before its
///   last `firstFrame` task — time the first frame waits for nothing. Tasks
///   of zero cost are not reported.
///
/// Only what matters for the scenario at hand is linted: a scenario whose
/// tasks all share one priority has no tiers to get wrong (the priority
/// strategy then simply ignores its dependencies, which `compare` shows), so
/// the three tier rules are skipped; a scenario that declares no dependencies
/// does not say what the first frame needs, so the serial rule is skipped.
/// A scenario that names the app's strategy (top-level `"strategy"`) is
/// linted for that strategy only: the tier rules only under `priority`, the
/// serial rule only under `serial`, and the rules that simulate (idle, delay,
/// anchors, deferral, `before`) under it alone — an app tiered like
/// `priority` is not warned about what `dag` or `serial` would do to it.
///
/// - (v2) ``LintWarning/Rule/idleTaskDelaysFirstFrame``,
///   ``LintWarning/Rule/delayOnFirstFramePath``,
///   ``LintWarning/Rule/anchorClosureBlocksLaunch``: see `LintWaits.swift`.
/// - (v2.1) ``LintWarning/Rule/couldRunAfterFirstFrame``: see `LintDeferral.swift`.
/// - ``LintWarning/Rule/pinnedTaskRunsLate``: see `LintDeadline.swift`.
///
/// - Complexity: O((n + e) log n): one pass over the edges, one reverse
///   topological pass, one `serial` simulation (and up to two with anchors).
public enum Lint {
    /// Every warning for `scenario`, ordered by task index, then dependency position.
    public static func warnings(_ scenario: Scenario, file: String) -> [LintWarning] {
        let tasks = scenario.tasks
        let tiered = Set(tasks.map(\.priority)).count > 1
        let hasDependencies = tasks.contains { !$0.dependsOn.isEmpty }
        var found: [(task: Int, position: Int, hops: Int, warning: LintWarning)] = []
        /// `hops`: how far the task concerned is from `task` (orders several warnings at one key).
        func warn(_ rule: LintWarning.Rule, task: Int, position: Int, hops: Int = 0, path: String, _ message: String) {
            let problem = Diagnostic(.warning, file: file, path: path, taskID: tasks[task].id, message: message)
            found.append((task, position, hops, LintWarning(rule: rule, problem: problem)))
        }

        for (i, task) in tasks.enumerated() where tiered && applies(scenario, to: .priority) {
            for (k, d) in task.dependsOn.enumerated() {
                let dependency = tasks[d]
                let path = "tasks[\(i)].dependsOn[\(k)]"
                if dependency.priority > task.priority {
                    guard !task.firstFrame else { continue }  // reported by firstFrameNeedsLaterTier
                    warn(
                        .laterTierDependency, task: i, position: k, path: path,
                        "depends on '\(dependency.id)' in a later priority tier (priority \(dependency.priority) > \(task.priority)): "
                            + "under the priority strategy it always starts before '\(dependency.id)' ends (a guaranteed dependency violation)"
                    )
                } else if dependency.priority == task.priority {
                    let tier = "the same priority tier (priority \(task.priority))"
                    switch (task.mainThreadOnly, dependency.mainThreadOnly) {
                    case (false, false):
                        warn(
                            .sameTierDependency, task: i, position: k, path: path,
                            "depends on '\(dependency.id)' in \(tier), both worker tasks: under the priority strategy "
                                + "they may run at the same time (a possible dependency violation)")
                    case (true, false), (false, true):
                        let (main, worker) = task.mainThreadOnly ? (task.id, dependency.id) : (dependency.id, task.id)
                        warn(
                            .sameTierDependency, task: i, position: k, path: path,
                            "depends on '\(dependency.id)' in \(tier): under the priority strategy '\(main)' runs on the main thread "
                                + "while '\(worker)' runs on a worker, possibly at the same time (a possible dependency violation)"
                        )
                    case (true, true):
                        guard d > i else { continue }
                        warn(
                            .sameTierDependency, task: i, position: k, path: path,
                            "depends on '\(dependency.id)', a main-thread task later in the file in \(tier): the priority "
                                + "strategy runs a tier's main-thread tasks in file order (a guaranteed dependency violation)"
                        )
                    }
                }
            }
        }

        if tiered && applies(scenario, to: .priority) { firstFrameRule(scenario, warn) }
        if hasDependencies && applies(scenario, to: .serial) { serialRule(scenario, warn) }
        waitRules(scenario, warn)
        if hasDependencies { deferralRule(scenario, warn) }
        deadlineRule(scenario, warn)
        let order = found.indices.sorted {
            (found[$0].task, found[$0].position, found[$0].hops, $0) < (
                found[$1].task, found[$1].position, found[$1].hops, $1
            )
        }
        return order.map { found[$0].warning }
    }

    /// Whether a rule about `strategies` applies to `scenario`: always, unless the file names the app's
    /// strategy and it is none of them.
    static func applies(_ scenario: Scenario, to strategies: Strategy...) -> Bool {
        scenario.strategy.map(strategies.contains) ?? true
    }

    /// The strategies of `candidates` the rules that simulate look at: the app's alone when the file names
    /// it, else all of them.
    static func linted(_ candidates: [Strategy], _ scenario: Scenario) -> [Strategy] {
        candidates.filter { applies(scenario, to: $0) }
    }

    /// For every task, the most urgent first-frame task that needs it (the
    /// lowest priority, then the lowest index) and the next task towards it;
    /// then one warning per task in a later tier than that first-frame task.
    private static func firstFrameRule(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        guard tasks.contains(where: \.firstFrame) else { return }
        // (priority of the first-frame task, its index, the next task towards it or −1)
        var need = [(priority: Int, frame: Int, next: Int)?](repeating: nil, count: tasks.count)
        for (i, task) in tasks.enumerated() where task.firstFrame { need[i] = (task.priority, i, -1) }
        for i in TaskGraph(tasks: tasks).topologicalOrder().reversed() {
            guard let mine = need[i] else { continue }
            for d in tasks[i].dependsOn {
                if let theirs = need[d], (theirs.priority, theirs.frame) <= (mine.priority, mine.frame) { continue }
                need[d] = (mine.priority, mine.frame, i)
            }
        }
        for (a, task) in tasks.enumerated() {
            guard let (priority, frame, next) = need[a], next >= 0, task.priority > priority else { continue }
            var chain: [Int] = []
            var hop = next
            while hop != frame, hop >= 0 {
                chain.append(hop)
                hop = need[hop]?.next ?? -1
            }
            let direct = chain.last ?? a
            guard let k = tasks[frame].dependsOn.firstIndex(of: direct) else { continue }
            var through = ""
            if !chain.isEmpty {
                let names = chain.reversed().map { "'\(tasks[$0].id)'" }
                through =
                    " (through "
                    + (names.count > 3
                        ? names.prefix(3).joined(separator: " → ") + " → …" : names.joined(separator: " → ")) + ")"
            }
            warn(
                .firstFrameNeedsLaterTier, frame, k, chain.count, "tasks[\(frame)].dependsOn[\(k)]",
                "the first frame needs '\(task.id)'\(through), which is in a later priority tier (priority \(task.priority) > \(priority)): "
                    + "under the priority strategy the first frame is drawn before '\(task.id)' ends")
        }
    }

    /// Sinks that `serial` runs before the last first-frame task.
    private static func serialRule(
        _ scenario: Scenario, _ warn: (LintWarning.Rule, Int, Int, Int, String, String) -> Void
    ) {
        let tasks = scenario.tasks
        guard tasks.contains(where: \.firstFrame) else { return }
        let schedule = simulate(scenario, strategy: .serial)
        var last = -1
        for (i, task) in tasks.enumerated() where task.firstFrame {
            if last < 0 || schedule.tasks[i].start > schedule.tasks[last].start { last = i }
        }
        let graph = TaskGraph(tasks: tasks)
        for (i, task) in tasks.enumerated()
        where !task.firstFrame && task.after == nil && task.cost > 0 && graph.dependents(of: i).isEmpty
            && schedule.tasks[i].start < schedule.tasks[last].start
        {
            warn(
                .blocksFirstFrameUnderSerial, i, task.dependsOn.count, 0, "tasks[\(i)].priority",
                "nothing depends on '\(task.id)' and the first frame does not need it, yet the serial strategy runs it "
                    + "before '\(tasks[last].id)' (the last first-frame task), delaying the first frame by \(formatMillis(task.cost)) ms; "
                    + "a larger priority value moves it later")
        }
    }
}

/// One lint finding: which rule, and where, in the form of a scenario problem.
public struct LintWarning: Sendable, CustomStringConvertible {
    public enum Rule: String, Sendable, CaseIterable {
        case laterTierDependency, sameTierDependency, firstFrameNeedsLaterTier, blocksFirstFrameUnderSerial
        case idleTaskDelaysFirstFrame, delayOnFirstFramePath, anchorClosureBlocksLaunch
        /// (v2.1) See `LintDeferral.swift`.
        case couldRunAfterFirstFrame
        /// See `LintDeadline.swift`.
        case pinnedTaskRunsLate

        /// What the rule finds, in the plural, for `validate`'s grouped output.
        public var title: String {
            switch self {
            case .laterTierDependency: "dependencies on a task in a later priority tier"
            case .sameTierDependency: "dependencies inside one priority tier that priority may break"
            case .firstFrameNeedsLaterTier: "first-frame tasks that need a task in a later tier"
            case .blocksFirstFrameUnderSerial: "tasks serial runs before the first frame though nothing needs them"
            case .idleTaskDelaysFirstFrame: "idle tasks the first frame needs"
            case .delayOnFirstFramePath: "delayed tasks the first frame needs"
            case .anchorClosureBlocksLaunch: "anchors that keep didFinishLaunching blocked"
            case .couldRunAfterFirstFrame: "main-thread tasks that could run after the first frame"
            case .pinnedTaskRunsLate: "tasks with 'before' that a strategy runs too late"
            }
        }
    }

    public var rule: Rule
    /// File, key path, task and message, as for errors (severity `warning`).
    public var problem: Diagnostic

    public init(rule: Rule, problem: Diagnostic) {
        self.rule = rule
        self.problem = problem
    }

    /// `warning: FILE: tasks[2].dependsOn[0] (task 'x'): …`.
    public var description: String { problem.description }
}
