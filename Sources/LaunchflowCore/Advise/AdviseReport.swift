/// `advise`'s output: text, markdown and JSON.
public enum AdviseReport {
    /// The rows of the side-by-side table.
    public static let tableMetrics: [Metric] = [
        .timeToFirstFrameMs, .firstFrameReadyMs, .timeToFullDisplayMs, .launchCompleteMs, .mainThreadBlockedMs,
    ]

    /// The rows after ``tableMetrics``: max input delay, and input latency when the scenario has inputs.
    public static func inputMetrics(_ plan: AdvicePlan) -> [Metric] {
        plan.written.inputs.isEmpty ? [.maxInputDelayMs] : [.maxInputDelayMs, .inputLatencyMaxMs]
    }

    /// `−17 ms` for a gain of 17 ms (the objective comes 17 ms earlier with the change).
    public static func gainText(_ gain: Micros) -> String {
        if gain == 0 { return "±0 ms" }
        return (gain > 0 ? "−" : "+") + formatMillis(abs(gain)) + " ms"
    }

    /// Every effect of a change (or a group) beside its effect on the objective, µs, in the order shown.
    struct Effects {
        var objective: Micros
        var firstFrame: Micros
        var ready: Micros
        var full: Micros
        var launch: Micros
        var blocked: Micros
        var inputDelay: Micros
        var inputLatency: Micros
        var margin: Micros
    }

    /// What moves beside the objective, only what moves: when the objective
    /// does not move, the first frame before vsync (with the margin to the
    /// vsync, which moves by as much the other way while the frame stays at
    /// its vsync) and full display; when the first frame moves by a whole
    /// frame while its work moves by less than a frame, that in words; then
    /// the costs — launch complete, main thread blocked (but for an anchor,
    /// which says it in words), max input delay, input latency:
    /// `(launch complete −2.5 ms, max input delay +8.2 ms)`.
    static func secondary(_ e: Effects, plan: AdvicePlan, blocked: Bool = true) -> String {
        var parts: [String] = []
        let frame = plan.written.device.frameInterval
        if e.objective == 0 {
            if e.ready != 0 {
                parts.append("first frame before vsync \(gainText(e.ready))")
                if e.firstFrame == 0 { parts.append("margin to the vsync \(signedText(e.margin))") }
            }
            if e.full != 0 { parts.append("full display \(gainText(e.full))") }
        }
        var lead = ""
        if e.firstFrame != 0 && abs(e.ready) < frame {
            // The frame's own work moves by less than a frame: it crosses the vsync only because the plan is near it.
            lead =
                e.firstFrame > 0
                ? "the frame's work only \(formatMillis(e.ready)) ms sooner, less than a frame: the plan's frame is ready \(formatMillis(plan.margin)) ms before its vsync"
                : "the frame's work only \(formatMillis(-e.ready)) ms later, less than a frame: enough to slip past the vsync"
        }
        if e.launch != 0 { parts.append("launch complete \(gainText(e.launch))") }
        if blocked && e.blocked != 0 { parts.append("main thread blocked \(signedText(e.blocked))") }
        if e.inputDelay != 0 { parts.append("max input delay \(gainText(e.inputDelay))") }
        if e.inputLatency != 0 { parts.append("input latency \(gainText(e.inputLatency))") }
        let all = ([lead].filter { !$0.isEmpty } + [parts.joined(separator: ", ")].filter { !$0.isEmpty })
        return all.isEmpty ? "" : " (" + all.joined(separator: "; ") + ")"
    }

    /// `+2 ms` for a growth of 2 ms, `−2 ms` for a fall.
    static func signedText(_ delta: Micros) -> String {
        if delta == 0 { return "±0 ms" }
        return (delta > 0 ? "+" : "−") + formatMillis(abs(delta)) + " ms"
    }

    static func effects(_ c: AdviseChange) -> Effects {
        Effects(
            objective: c.gain, firstFrame: c.firstFrameGain, ready: c.readyGain, full: c.fullDisplayGain,
            launch: c.launchGain, blocked: c.blocked, inputDelay: c.inputDelayGain, inputLatency: c.inputLatencyGain,
            margin: c.marginGain)
    }

    static func effects(_ g: AdviseChangeGroup) -> Effects {
        Effects(
            objective: g.gain, firstFrame: g.firstFrameGain, ready: g.readyGain, full: g.fullDisplayGain,
            launch: g.launchGain, blocked: g.blocked, inputDelay: g.inputDelayGain, inputLatency: g.inputLatencyGain,
            margin: g.marginGain)
    }

    public static func secondaryText(_ c: AdviseChange, _ plan: AdvicePlan) -> String {
        secondary(effects(c), plan: plan, blocked: c.key != .anchor)
    }

    static func secondary(_ g: AdviseChangeGroup, _ plan: AdvicePlan) -> String {
        secondary(effects(g), plan: plan)
    }

    /// One line a group (and its tasks) or a priority change; first, the
    /// switch of strategy when the plan makes one.
    public static func changeList(_ plan: AdvicePlan) -> [(line: String, details: [String])] {
        let tasks = plan.written.tasks
        var lines: [(String, [String])] = []
        if let change = plan.strategyChange { lines.append((change.line(plan), change.details(plan))) }
        for group in plan.groups {
            let changes = group.changes.map { plan.changes[$0] }
            func list(_ changes: [AdviseChange]) -> [String] {
                changes.map { c in
                    let more = secondaryText(c, plan)
                    guard c.gain != 0 else { return tasks[c.task].id + more }
                    return tasks[c.task].id + " (\(gainText(c.gain))" + (more.isEmpty ? ")" : "; " + more.dropFirst(2))
                }
            }
            switch group.key {
            case .after:
                let added = changes.filter { $0.to != "null" }
                let removed = changes.filter { $0.to == "null" }
                var parts: [String] = []
                if !added.isEmpty {
                    parts.append(
                        "defer \(count(added.count, "task")) until after the first frame"
                    )
                }
                if !removed.isEmpty { parts.append("stop deferring \(count(removed.count, "task")) (remove 'after')") }
                lines.append(
                    (
                        parts.joined(separator: "; ") + ": " + gainText(group.gain) + secondary(group, plan),
                        list(added) + list(removed)
                    ))
            case .idle:
                let added = changes.filter { $0.to == "true" }
                let removed = changes.filter { $0.to != "true" }
                var parts: [String] = []
                if !added.isEmpty {
                    parts.append(
                        "run \(count(added.count, "main-thread task")) in the idle step, when the run loop is about to sleep"
                    )
                }
                if !removed.isEmpty { parts.append("take \(count(removed.count, "task")) out of the idle step") }
                lines.append(
                    (
                        parts.joined(separator: "; ") + ": " + gainText(group.gain) + secondary(group, plan),
                        list(added) + list(removed)
                    ))
            case .priority:
                let graph = TaskGraph(tasks: tasks)
                let details = changes.map { c in
                    "\(priorityText(c.task, plan, graph: graph, from: c.from, to: c.to)): \(gainText(c.gain))\(secondaryText(c, plan))"
                }
                lines.append(
                    (
                        "change the rank of \(count(changes.count, "task")): \(gainText(group.gain))\(secondary(group, plan))",
                        details
                    ))
            case .anchor:
                let details = changes.map { c in
                    var why: [String] = []
                    if c.blocked > 0 { why.append("blocks the main thread \(formatMillis(c.blocked)) ms") }
                    if c.to == "true" && tasks[c.task].before == .launch {
                        why.append("keeps didFinishLaunching waiting for it: \"before\": \"launch\"")
                    }
                    return
                        (c.to == "true"
                        ? "make \(tasks[c.task].id) an anchor" : "\(tasks[c.task].id) no longer an anchor")
                        + ": \(gainText(c.gain))" + merged(secondaryText(c, plan), why)
                }
                lines.append(
                    (
                        "change \(count(changes.count, "anchor")): \(gainText(group.gain))\(secondary(group, plan))",
                        details
                    ))
            case .qos:
                lines.append((qosLine(group, plan), changes.map { qosText($0, plan) }))
            }
            let how = "how — " + AdviseMechanism.text(group.key, AdviseMechanism.platform(plan))
            lines[lines.count - 1].1.insert(how, at: 0)
        }
        return lines
    }

    /// `change the QoS of 2 worker tasks: −8.333 ms (…)`.
    static func qosLine(_ group: AdviseChangeGroup, _ plan: AdvicePlan) -> String {
        "change the QoS of \(count(group.changes.count, "worker task")): \(gainText(group.gain))\(secondary(group, plan))"
    }

    /// `raise image-cache-warm to userInitiated (was utility): ±0 ms (full display −8.333 ms)`;
    /// `lower crash-reporter to utility (was userInitiated), off the performance cores the first frame's work needs: …`.
    static func qosText(_ c: AdviseChange, _ plan: AdvicePlan) -> String {
        let from = plain(c.from)
        let to = plain(c.to)
        let raised = (QualityOfService(rawValue: to) ?? .default) < (QualityOfService(rawValue: from) ?? .default)
        return
            "\(raised ? "raise" : "lower") \(plan.written.tasks[c.task].id) to \(to) (was \(from)): \(gainText(c.gain))\(secondaryText(c, plan))"
    }

    /// A JSON string's text without its quotes (`"utility"` → `utility`).
    static func plain(_ json: String) -> String {
        json.count >= 2 && json.hasPrefix("\"") && json.hasSuffix("\"") ? String(json.dropFirst().dropLast()) : json
    }

    /// `" (launch complete +2 ms; blocks the main thread 2 ms)"`: the effects and the reasons in one bracket.
    static func merged(_ effects: String, _ why: [String]) -> String {
        guard !why.isEmpty else { return effects }
        let reasons = why.joined(separator: "; ")
        return effects.isEmpty ? " (" + reasons + ")" : String(effects.dropLast()) + "; " + reasons + ")"
    }

    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// What a priority change does, as a whole sentence about the tasks it
    /// can be ready together with — the same kind of thread, neither depending
    /// on the other, directly or not (a rank orders only tasks that are
    /// ready at once; a dependency orders the others whatever the ranks):
    /// "run db-open before feed-cache on the workers when both are ready
    /// (priority of feed-cache 0 → 1)", the task it overtakes (the nearest
    /// ahead of it as written) or the one that overtakes it; when it changes
    /// the order of no such task, "give feed priority 2 (was 0): …".
    static func priorityText(_ task: Int, _ plan: AdvicePlan, graph: TaskGraph, from: String, to: String) -> String {
        let written = plan.written.tasks
        let planned = plan.scenario.tasks
        let main = written[task].mainThreadOnly
        let place = main ? "on the main thread" : "on the workers"
        // The tasks this one depends on, and those that depend on it, directly or not.
        let ancestors = graph.dependencyClosure(of: [task])
        var descendants = [Bool](repeating: false, count: written.count)
        var stack = [task]
        while let k = stack.popLast() {
            for d in graph.dependents(of: k) where !descendants[Int(d)] {
                descendants[Int(d)] = true
                stack.append(Int(d))
            }
        }
        var overtaken: [Int] = []
        var fallenBehind: [Int] = []
        for j in written.indices where j != task && written[j].mainThreadOnly == main {
            guard !ancestors[j] && !descendants[j] else { continue }
            let before = (written[j].priority, j) < (written[task].priority, task)
            let after = (planned[j].priority, j) < (planned[task].priority, task)
            if before && !after { overtaken.append(j) }
            if !before && after { fallenBehind.append(j) }
        }
        let id = written[task].id
        let value = "(priority of \(id) \(from) → \(to))"
        func others(_ list: [Int]) -> String { list.count > 1 ? " (and \(count(list.count - 1, "other")))" : "" }
        if let j = overtaken.max(by: { (written[$0].priority, $0) < (written[$1].priority, $1) }) {
            let both = overtaken.count > 1 ? "they are" : "both are"
            return "run \(id) before \(written[j].id)\(others(overtaken)) \(place) when \(both) ready \(value)"
        }
        if let j = fallenBehind.min(by: { (written[$0].priority, $0) < (written[$1].priority, $1) }) {
            let both = fallenBehind.count > 1 ? "they are" : "both are"
            return "run \(written[j].id)\(others(fallenBehind)) before \(id) \(place) when \(both) ready \(value)"
        }
        return
            "give \(id) priority \(to) (was \(from)); no task it can be ready with \(place) changes places with it"
    }

    public static func boundLine(_ plan: AdvicePlan) -> String {
        let bound = plan.firstFrameBound
        func relation(_ m: Metrics) -> String {
            let gap = m.timeToFirstFrame - bound
            if gap > 0 { return "\(formatMillis(gap)) ms above it" }
            return gap == 0 ? "at it" : "\(formatMillis(-gap)) ms before it"
        }
        var out = "first-frame bound \(formatMillis(bound)) ms: "
        let gap = plan.metrics.timeToFirstFrame - bound
        out += gap <= 0 ? "the plan reaches it" : "the plan is \(formatMillis(gap)) ms above it"
        out += " (as written: \(relation(plan.baseline)))"
        if plan.metrics.timeToFirstFrame < bound || plan.baseline.timeToFirstFrame < bound {
            // Only a schedule that breaks dependencies presents before the bound (priority ignores dependsOn).
            out +=
                "\nonly by breaking dependencies: the plan breaks \(plan.metrics.dependencyViolations) (as written \(plan.baseline.dependencyViolations)); no dependency-respecting schedule presents before the bound"
        }
        if let floor = plan.dagFloor, floor > bound {
            let above = plan.metrics.timeToFirstFrame - floor
            out +=
                "\nunder dag no plan of these changes presents before \(formatMillis(floor)) ms (each main-thread task waits for a commit: iteration 0's, or the one after a main-thread task it depends on): "
            out += above <= 0 ? "the plan does" : "the plan is \(formatMillis(above)) ms later"
        }
        return out
    }

    /// The table's columns: as written, the plan, the plan without anchors
    /// (when anchors were allowed; "without added anchors" when the file has
    /// some, which both plans keep), the best built-in strategy. A plan that
    /// switches the strategy names each column's ("as written (serial)",
    /// "plan (dag)") and shows the best plan that keeps the app's when it has changes.
    public static func columns(_ plan: AdvicePlan) -> [(title: String, metrics: Metrics)] {
        var columns = [("as written", plan.baseline), ("plan", plan.metrics)]
        if let change = plan.strategyChange {
            // Each column under its own strategy; the best plan that keeps the app's beside them.
            columns = [
                ("as written (\(change.from.rawValue))", plan.baseline), ("plan (\(change.to.rawValue))", plan.metrics),
            ]
            if let keeping = change.keeping, keeping.changeCount > 0 {
                columns.append(("plan keeping \(change.from.rawValue)", keeping.metrics))
            }
        }
        if let other = plan.withoutAnchors {
            // The file's own anchors stay in both plans: only the added ones are left out.
            let title =
                plan.written.tasks.contains(where: \.anchor) ? "plan without added anchors" : "plan without anchors"
            columns.append((title, other.metrics))
        }
        columns.append(("best built-in: \(plan.bestStrategy.rawValue)", plan.bestStrategyMetrics))
        return columns
    }

    /// The side-by-side table: a header row, then one row a metric.
    static func rows(_ plan: AdvicePlan) -> [[String]] {
        let columns = columns(plan)
        var rows = [[""] + columns.map(\.title)]
        for metric in tableMetrics {
            rows.append([metric.label + " (ms)"] + columns.map { TextReport.fixed(time(metric, $0.metrics)) })
            if metric == .firstFrameReadyMs {
                rows.append(["margin to the vsync (ms)"] + columns.map { TextReport.fixed($0.metrics.margin) })
            }
        }
        // What waiting for the main thread costs a tap: every scenario has a longest iteration
        // after the first frame; the input latency only with inputs.
        for metric in inputMetrics(plan) {
            rows.append([metric.label + " (ms)"] + columns.map { TextReport.fixed(time(metric, $0.metrics)) })
        }
        let violations = columns.map(\.metrics.dependencyViolations)
        if violations.contains(where: { $0 > 0 }) { rows.append(["dependencies broken"] + violations.map(String.init)) }
        return rows
    }

    /// The plan's notes, then, for a plan for another strategy than the app's, how it fares under the app's.
    static func notes(_ plan: AdvicePlan) -> [String] {
        guard let app = plan.underAppStrategy else { return plan.notes }
        return plan.notes + [app.note(tasks: plan.written.tasks, planStrategy: plan.configuration.strategy)]
    }

    public static func title(_ plan: AdvicePlan) -> String {
        let c = plan.configuration
        var out =
            "\(plan.written.name) — advice under \(c.strategy.rawValue)\(c.strategy == plan.written.strategy ? ", the app's strategy ('strategy' in the file)" : ""), objective \(c.objective.label); may change \(knobsText(plan))"
        if !c.keep.isEmpty { out += "; keeps \(c.keep.joined(separator: ", ")) as written" }
        let pinned = plan.written.tasks.filter { $0.before != nil }.count
        if pinned > 0 { out += "; \(count(pinned, "task")) pinned by 'before'" }
        return out
    }

    /// The knobs the plan may change, `qos` only where it can change something (with `device.clusters`).
    static func knobsText(_ plan: AdvicePlan) -> String {
        let knobs = plan.configuration.knobs.sorted().filter { $0 != .qos || plan.written.device.hasClusters }
        return knobs.map(\.rawValue).joined(separator: ", ")
    }

    public static func constraintsLine(_ plan: AdvicePlan) -> String? {
        let c = plan.configuration
        var parts: [String] = []
        if let blocked = c.maxBlocked { parts.append("main thread blocked ≤ \(formatMillis(blocked)) ms") }
        parts += c.maxRegressions.map(\.text)
        return parts.isEmpty ? nil : "constraints: " + parts.joined(separator: "; ") + " — met"
    }

    /// The text report.
    public static func text(_ plan: AdvicePlan) -> String {
        var out = title(plan) + "\n\n"
        let rows = rows(plan)
        out += TextReport.table(rows, rightAligned: [false] + rows[0].dropFirst().map { _ in true }, indent: "  ")
        out += "\n" + boundLine(plan) + "\n"
        if let constraints = constraintsLine(plan) { out += constraintsLine(plan) == nil ? "" : constraints + "\n" }
        if let u = plan.uncertainty {
            out +=
                "under sampled costs (\(u.runs) runs, seed \(u.seed)): p50 \(formatMillis(u.baselineP50)) → \(formatMillis(u.planP50)) ms, p90 \(formatMillis(u.baselineP90)) → \(formatMillis(u.planP90)) ms"
            out +=
                u.keepsGainAtP90 ? " — the plan keeps its gain at p90\n" : " — the plan does NOT keep its gain at p90\n"
        }
        for note in notes(plan) { out += "note: \(note)\n" }
        out += "\n"
        if plan.changeCount == 0 {
            out += "no change improves on the scenario as written\n"
            return out
        }
        out +=
            "changes (\(plan.changeCount); each effect on the \(plan.configuration.objective.label) measured by taking it out of the plan):\n"
        for (line, details) in changeList(plan) {
            out += "  " + line + "\n"
            for detail in details { out += "      " + detail + "\n" }
        }
        return out
    }

    /// The markdown report.
    public static func markdown(_ plan: AdvicePlan) -> String {
        var out = "## " + title(plan) + "\n\n"
        var rows = rows(plan)
        rows[0][0] = "metric"
        for (k, row) in rows.enumerated() {
            out += "| " + row.joined(separator: " | ") + " |\n"
            if k == 0 { out += "|---" + String(repeating: "|---:", count: row.count - 1) + "|\n" }
        }
        out += "\n" + boundLine(plan).split(separator: "\n").joined(separator: ".\n") + ".\n"
        if let constraints = constraintsLine(plan) { out += "\n" + constraints + ".\n" }
        if let u = plan.uncertainty {
            out +=
                "\nUnder sampled costs (\(u.runs) runs, seed \(u.seed)): p50 \(formatMillis(u.baselineP50)) → \(formatMillis(u.planP50)) ms, p90 \(formatMillis(u.baselineP90)) → \(formatMillis(u.planP90)) ms"
            out +=
                u.keepsGainAtP90
                ? " — the plan keeps its gain at p90.\n" : " — the plan does **not** keep its gain at p90.\n"
        }
        for note in notes(plan) { out += "\n> \(note)\n" }
        out += "\n### Changes\n\n"
        if plan.changeCount == 0 { return out + "No change improves on the scenario as written.\n" }
        for (line, details) in changeList(plan) {
            out += "- " + line + "\n"
            for detail in details { out += "  - " + detail + "\n" }
        }
        return out
    }

    static func time(_ metric: Metric, _ m: Metrics) -> Micros {
        guard case .time(let path) = metric.info.value else { return 0 }
        return m[keyPath: path]
    }
}

extension JSONWriter {
    /// `advise --format json`: what advise was asked, the metrics as written and of the plan, the
    /// bounds and margins, the changes and their groups, the sampled check, the notes and the app's strategy.
    public mutating func advice(_ plan: AdvicePlan) {
        let c = plan.configuration
        object(.lines) { w in
            w.field("scenario", plan.written.name)
            // The plan's strategy; the scenario as written's (baseline) beside it.
            w.field("strategy", plan.strategy.rawValue)
            w.field("baselineStrategy", c.strategy.rawValue)
            w.field("objective", c.objective.rawValue)
            w.field("allow", strings: c.knobs.sorted().map(\.rawValue))
            w.field("keep", strings: c.keep)
            w.field("pinned", array: .compact) { w in
                for task in plan.written.tasks where task.before != nil {
                    w.object(.spaced) { w in
                        w.field("task", task.id)
                        w.field("before", task.before!.rawValue)
                    }
                }
            }
            w.field("baseline", metrics: plan.baseline)
            w.field("plan", metrics: plan.metrics)
            if let other = plan.withoutAnchors { w.field("withoutAnchors", metrics: other.metrics) }
            w.field("bestBuiltIn", object: .spaced) { w in
                w.field("strategy", plan.bestStrategy.rawValue)
                w.metrics(plan.bestStrategyMetrics)
            }
            w.bounds(plan)
            w.key("strategyChange")
            if let change = plan.strategyChange { w.strategyChange(change, plan) } else { w.null() }
            w.changes(plan)
            if let u = plan.uncertainty {
                w.field("uncertainty", object: .spaced) { w in
                    w.field("runs", u.runs)
                    w.key("seed")
                    w.integer(u.seed)
                    w.field("baselineP50Ms", millis: u.baselineP50)
                    w.field("baselineP90Ms", millis: u.baselineP90)
                    w.field("planP50Ms", millis: u.planP50)
                    w.field("planP90Ms", millis: u.planP90)
                    w.field("keepsGainAtP90", u.keepsGainAtP90)
                    w.field("fellBack", u.fellBack)
                }
            }
            w.field("notes", strings: AdviseReport.notes(plan))
            w.appStrategy(plan)
            w.field("evaluations", plan.evaluations)
        }
        newline()
    }

    /// The first-frame bound, the margins to the vsync (on one line) and dag's floor.
    private mutating func bounds(_ plan: AdvicePlan) {
        field("firstFrameBoundMs", millis: plan.firstFrameBound)
        field("reachesBound", plan.metrics.timeToFirstFrame <= plan.firstFrameBound)
        field("marginMs", millis: plan.margin)
        key("fragile", sameLine: true)
        bool(plan.fragile)
        key("minMarginMs", sameLine: true)
        millis(plan.configuration.minMargin)
        key("margins", sameLine: true)
        object(.spaced) { w in
            w.field("baseline", millis: plan.baseline.margin)
            w.field("plan", millis: plan.metrics.margin)
            if let other = plan.withoutAnchors { w.field("withoutAnchors", millis: other.metrics.margin) }
            w.field("bestBuiltIn", millis: plan.bestStrategyMetrics.margin)
        }
        field("dagFloorMs", millis: plan.dagFloor)
        field("reachesFloor", plan.metrics.timeToFirstFrame <= plan.dagFloor ?? plan.firstFrameBound)
    }

    /// The changes one a line, then their groups one a line.
    private mutating func changes(_ plan: AdvicePlan) {
        field("changes", array: .lines) { w in
            for change in plan.changes {
                w.object(.spaced) { w in
                    w.field("task", plan.written.tasks[change.task].id)
                    w.field("key", change.key.rawValue)
                    w.key("from")
                    w.json(change.from)
                    w.key("to")
                    w.json(change.to)
                    w.gains(change.gain, change.readyGain, change.fullDisplayGain, change.launchGain)
                    w.field("blockedMs", millis: change.blocked)
                    w.costs(AdviseReport.effects(change), plan)
                }
            }
        }
        field("groups", array: .lines) { w in
            for group in plan.groups {
                w.object(.spaced) { w in
                    w.field("key", group.key.rawValue)
                    w.field("mechanism", AdviseMechanism.text(group.key, AdviseMechanism.platform(plan)))
                    w.field("count", group.changes.count)
                    w.gains(group.gain, group.readyGain, group.fullDisplayGain, group.launchGain)
                    w.field("blockedMs", millis: group.blocked)
                    w.costs(AdviseReport.effects(group), plan)
                }
            }
        }
    }

    /// The app's own strategy: the plan under it (the dependencies it breaks) when it is not the
    /// plan's, or only its name.
    private mutating func appStrategy(_ plan: AdvicePlan) {
        if let app = plan.underAppStrategy {
            let tasks = plan.written.tasks
            field("appStrategy", object: .spaced) { w in
                w.field("strategy", app.strategy.rawValue)
                w.field("brokenDependencies", array: .compact) { w in
                    for v in app.broken {
                        w.object(.spaced) { w in
                            w.field("task", tasks[v.task].id)
                            w.field("dependency", tasks[v.dependency].id)
                        }
                    }
                }
                w.field("writtenBrokenDependencies", app.writtenBroken)
                w.field("baseline", metrics: app.written)
                w.field("plan", metrics: app.plan)
            }
        } else if let app = plan.written.strategy {
            field("appStrategy", object: .spaced) { w in w.field("strategy", app.rawValue) }
        }
    }

    /// `"name": { "metrics": { … } }`: every metric of `m`.
    private mutating func field(_ name: String, metrics m: Metrics) {
        field(name, object: .spaced) { w in w.metrics(m) }
    }

    /// `"metrics": { … }`: every metric of `m`, on one line.
    private mutating func metrics(_ m: Metrics) {
        field("metrics", object: .spaced) { w in
            for metric in Metric.allCases {
                w.key(metric.rawValue)
                w.metricValue(metric, of: m)
            }
        }
    }

    /// `"strategyChange"`: the switch, its effects as a change's (the switch
    /// alone, as written), the commits, how to write it, the scenario as
    /// written under the new strategy and the best plan keeping the old one.
    private mutating func strategyChange(_ change: AdviseStrategyChange, _ plan: AdvicePlan) {
        let e = change.effects
        object(.spaced) { w in
            w.field("from", change.from.rawValue)
            w.field("to", change.to.rawValue)
            w.gains(e.objective, e.ready, e.full, e.launch)
            w.field("blockedMs", millis: e.blocked)
            w.costs(e, plan)
            w.field("framesFrom", change.written.frames)
            w.field("framesTo", change.switched.frames)
            w.field("mechanism", AdviseMechanism.strategyText(to: change.to, AdviseMechanism.platform(plan)))
            w.key("switched", onNewLineIndentedBy: 2)
            w.object(.spaced) { w in w.metrics(change.switched) }
            w.key("keeping", onNewLineIndentedBy: 2)
            if let keeping = change.keeping {
                w.object(.spaced) { w in
                    w.field("strategy", change.from.rawValue)
                    w.field("changes", keeping.changeCount)
                    w.field("plan", metrics: keeping.metrics)
                }
            } else {
                w.null()
            }
        }
    }

    /// A change's or a group's other effects: on the time to first frame, max input delay, input
    /// latency and the margin to the vsync, and whether it moves the first frame by a whole frame
    /// while moving its work by less than one (`belowFrame`).
    private mutating func costs(_ e: AdviseReport.Effects, _ plan: AdvicePlan) {
        field("firstFrameGainMs", millis: e.firstFrame)
        field("inputDelayGainMs", millis: e.inputDelay)
        field("inputLatencyGainMs", millis: e.inputLatency)
        field("marginGainMs", millis: e.margin)
        field("belowFrame", e.firstFrame != 0 && abs(e.ready) < plan.written.device.frameInterval)
    }

    /// A change's or a group's effects: `"gainMs": …, "readyGainMs": …, …`.
    private mutating func gains(_ gain: Micros, _ ready: Micros, _ fullDisplay: Micros, _ launch: Micros) {
        field("gainMs", millis: gain)
        field("readyGainMs", millis: ready)
        field("fullDisplayGainMs", millis: fullDisplay)
        field("launchGainMs", millis: launch)
    }
}
