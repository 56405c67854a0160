/// The keys `advise` may change, for every task.
struct AdviseSettings: Sendable, Equatable {
    var after: [Bool]
    var priority: [Int]
    var idle: [Bool]
    var anchor: [Bool]
    /// (§3.13) Each task's QoS (only worker tasks' change, only with clusters).
    var qos: [QualityOfService]
}

/// A plan's rank in the search, compared lexicographically: constraint
/// excess, tasks with `before` done after their point, objective, first frame
/// before vsync, full display, launch completion, number of changes.
struct AdviseKey: Sendable, Comparable {
    var values: [Int]

    static func < (a: AdviseKey, b: AdviseKey) -> Bool { a.values.lexicographicallyPrecedes(b.values) }

    /// The same key without the count of changes.
    var withoutChanges: ArraySlice<Int> { values.dropLast() }
}

/// A simulated plan.
struct AdviseEvaluation: Sendable {
    var settings: AdviseSettings
    var metrics: Metrics
    var key: AdviseKey
    var excess: Int { key.values[0] }
    /// Tasks with `before` done after their point.
    var late: Int { key.values[1] }
}

/// One step of the local search.
enum AdviseMove: Sendable {
    case toggleAfter(Int)
    case toggleIdle(Int)
    case toggleAnchor(Int)
    case setQoS(Int, QualityOfService)
    case setPriority(Int, Int)
    case swapPriority(Int, Int)
    /// A task first among those on its kind of thread: the new priorities.
    case promote(Int, [Int])
    /// Every change of one key back as written.
    case revert(AdviseChange.Key)

    /// Whether the move only takes changes back (the moves tried once the bound is reached).
    func isReversion(_ current: AdviseSettings, _ original: AdviseSettings) -> Bool {
        switch self {
        case .toggleAfter(let i): current.after[i] != original.after[i]
        case .toggleIdle(let i): current.idle[i] != original.idle[i]
        case .toggleAnchor(let i): current.anchor[i] != original.anchor[i]
        case .setQoS(let i, let q): q == original.qos[i]
        case .setPriority(let i, let p): p == original.priority[i]
        case .swapPriority, .promote: false
        case .revert: true
        }
    }

    func applied(to s: AdviseSettings, original: AdviseSettings) -> AdviseSettings {
        var s = s
        switch self {
        case .toggleAfter(let i): s.after[i].toggle()
        case .toggleIdle(let i): s.idle[i].toggle()
        case .toggleAnchor(let i): s.anchor[i].toggle()
        case .setQoS(let i, let q): s.qos[i] = q
        case .setPriority(let i, let p): s.priority[i] = p
        case .swapPriority(let i, let j): s.priority.swapAt(i, j)
        case .promote(_, let priorities): s.priority = priorities
        case .revert(let key):
            switch key {
            case .after: s.after = original.after
            case .priority: s.priority = original.priority
            case .idle: s.idle = original.idle
            case .anchor: s.anchor = original.anchor
            case .qos: s.qos = original.qos
            }
        }
        return s
    }
}

struct AdviseSearch {
    let written: Scenario
    let configuration: AdviseConfiguration
    let n: Int
    /// The first frame, an anchor or a task with `before` waits for the task
    /// (directly or not): it is never deferred nor made idle.
    let needed: [Bool]
    /// What the launch waits for under the strategy: `needed`, or under a
    /// strategy that ignores anchors what the first frame waits for — the
    /// tasks critical-path ranks put first.
    let ranked: [Bool]
    let canAfter: [Bool]
    let canIdle: [Bool]
    let canPriority: [Bool]
    let canAnchor: [Bool]
    /// (§3.13) The QoS each worker task may be given (``AdviseSearch/qosTargets``); empty without clusters.
    let qosTargets: [[QualityOfService]]
    let original: AdviseSettings
    /// The strategy the scenario as written runs under (the baseline's): the
    /// app's; the search's own (``AdviseConfiguration/strategy``) may be another.
    let writtenStrategy: Strategy
    let baseline: Metrics
    /// The tasks with `before` done after their point as written: a plan may
    /// leave them late, but makes no other task with `before` late.
    let lateAsWritten: [Bool]
    /// Whether any task has `before`.
    let pinned: Bool
    /// (metric, largest value allowed in µs).
    let limits: [(Metric, Micros)]
    /// Under dag without anchors: how early any plan can present the first frame (``DagFloor``).
    let floor: Micros?
    /// Moves simulated together; fixed, so that the plan does not depend on `jobs`.
    static let batchSize = 8
    private(set) var evaluations = 0

    init(_ scenario: Scenario, _ configuration: AdviseConfiguration, writtenUnder: Strategy? = nil)
        throws(AdviseError)
    {
        written = scenario
        self.configuration = configuration
        writtenStrategy = writtenUnder ?? configuration.strategy
        let tasks = scenario.tasks
        n = tasks.count
        let ids = tasks.map(\.id)
        var kept = [Bool](repeating: false, count: n)
        let index = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for id in configuration.keep {
            guard let i = index[id] else {
                throw AdviseError("unknown task '\(id)' in '--keep'\(didYouMean(id, in: ids))")
            }
            kept[i] = true
        }
        let graph = TaskGraph(tasks: tasks)
        // What the app knows (`before`) stays before its point: neither the
        // task nor what it needs may wait for the first frame or the idle step.
        let needed = graph.dependencyClosure(
            of: (0..<n).filter { tasks[$0].firstFrame || tasks[$0].anchor || tasks[$0].before != nil })
        self.needed = needed
        ranked =
            configuration.strategy.definition.waitsForAnchors
            ? needed
            : graph.dependencyClosure(of: (0..<n).filter { tasks[$0].firstFrame || tasks[$0].before != nil })
        let knobs = Set(configuration.knobs)
        canAfter = (0..<n).map { knobs.contains(.after) && !kept[$0] && !needed[$0] }
        canIdle = (0..<n).map { knobs.contains(.idle) && !kept[$0] && !needed[$0] && tasks[$0].mainThreadOnly }
        canPriority = (0..<n).map { knobs.contains(.priority) && !kept[$0] }
        // An anchor only where the first frame already waits: nothing it needs can have `after`.
        // Only added: an anchor the file sets is what the app knows (issue 26), never taken away.
        canAnchor = (0..<n).map {
            knobs.contains(.anchor) && !kept[$0] && needed[$0] && tasks[$0].after == nil && !tasks[$0].anchor
        }
        qosTargets = Self.qosTargets(scenario, graph: graph, needed: needed, kept: kept, knobs: knobs)
        original = AdviseSettings(
            after: tasks.map { $0.after != nil }, priority: tasks.map(\.priority), idle: tasks.map(\.idle),
            anchor: tasks.map(\.anchor), qos: tasks.map(\.qos))
        let asWritten = LaunchEngine(scenario).result(writtenStrategy, options: configuration.options)
        baseline = asWritten.metrics
        lateAsWritten = asWritten.schedule.lateTasks(firstFrameIteration: baseline.firstFrameIteration)
        pinned = tasks.contains { $0.before != nil }
        var limits: [(Metric, Micros)] = []
        if let maxBlocked = configuration.maxBlocked { limits.append((.mainThreadBlockedMs, maxBlocked)) }
        for limit in configuration.maxRegressions {
            guard case .time(let path) = limit.metric.info.value else { continue }
            limits.append((limit.metric, limit.limit(written: baseline[keyPath: path])))
        }
        self.limits = limits
        floor =
            configuration.strategy == .dag && !knobs.contains(.anchor)
            ? DagFloor.firstFrame(
                scenario, graph: graph, options: configuration.options, bound: baseline.firstFrameBound) : nil
    }

    // MARK: Plans and their simulation

    func scenario(_ s: AdviseSettings) -> Scenario {
        var plan = written
        for i in 0..<n {
            plan.tasks[i].after = s.after[i] ? (written.tasks[i].after ?? .firstFrame) : nil
            plan.tasks[i].priority = s.priority[i]
            plan.tasks[i].idle = s.idle[i]
            plan.tasks[i].anchor = s.anchor[i]
            plan.tasks[i].qos = s.qos[i]
        }
        return plan
    }

    func changeCount(_ s: AdviseSettings) -> Int {
        var count = 0
        for i in 0..<n {
            if s.after[i] != original.after[i] { count += 1 }
            if s.priority[i] != original.priority[i] { count += 1 }
            if s.idle[i] != original.idle[i] { count += 1 }
            if s.anchor[i] != original.anchor[i] { count += 1 }
            if s.qos[i] != original.qos[i] { count += 1 }
        }
        return count
    }

    func excess(_ m: Metrics, newlyLate: Int = 0) -> Int {
        // A task with `before` that the plan makes late: as bad as a broken dependency.
        var total = newlyLate * 1_000_000_000
        for (metric, limit) in limits {
            guard case .time(let path) = metric.info.value else { continue }
            total += max(0, m[keyPath: path] - limit)
        }
        // Never break more dependencies than as written (`priority` can).
        total += max(0, m.dependencyViolations - baseline.dependencyViolations) * 1_000_000_000
        return total
    }

    /// The plan's metrics, how many tasks with `before` it makes late that
    /// are in time as written, and how many are late in all.
    func metrics(_ s: AdviseSettings) -> (Metrics, newlyLate: Int, late: Int) {
        let result = LaunchEngine(scenario(s)).result(configuration.strategy, options: configuration.options)
        guard pinned else { return (result.metrics, 0, 0) }
        let late = result.schedule.lateTasks(firstFrameIteration: result.metrics.firstFrameIteration)
        var newlyLate = 0
        var count = 0
        for i in 0..<n where late[i] {
            count += 1
            if !lateAsWritten[i] { newlyLate += 1 }
        }
        return (result.metrics, newlyLate, count)
    }

    func evaluate(_ s: AdviseSettings) -> AdviseEvaluation {
        let (m, newlyLate, late) = metrics(s)
        // A plan that brings a late task with `before` back in time wins over
        // any that does not, whatever the objective: it is what the app needs.
        let key = AdviseKey(values: [
            excess(m, newlyLate: newlyLate), late, configuration.objective.value(m), m.firstFrameReady,
            m.timeToFullDisplay, m.launchComplete,
            changeCount(s),
        ])
        return AdviseEvaluation(settings: s, metrics: m, key: key)
    }

    /// Simulates every plan, in parallel; results in order.
    mutating func evaluateAll(_ plans: [AdviseSettings]) -> [AdviseEvaluation] {
        evaluations += plans.count
        let search = self
        return Parallel.mapChunks(count: plans.count, chunkSize: 1, jobs: configuration.jobs) { range in
            range.map { search.evaluate(plans[$0]) }
        }.flatMap { $0 }
    }

    // MARK: Constructive plans

    /// `after` on every task that may have it (or, without that knob, `idle` on every main-thread task that may).
    func deferAll(_ s: AdviseSettings) -> AdviseSettings {
        var s = s
        for i in 0..<n where canAfter[i] { s.after[i] = true }
        if !configuration.knobs.contains(.after) {
            for i in 0..<n where canIdle[i] { s.idle[i] = true }
        }
        return s
    }

    /// Each task's longest path (cost + latency) to a first-frame task through
    /// tasks the first frame needs; 0 for the others.
    /// With `mainWeight` 0 the main-thread tasks count for nothing (the work
    /// they unlock on the workers ranks them); with `summing`, every needed
    /// task after it counts (the work it unlocks), not only the longest path.
    func tailLengths(mainWeight: Int = 1, summing: Bool = false) -> [Micros] {
        let tasks = written.tasks
        var dependents = [[Int]](repeating: [], count: n)
        var remaining = [Int](repeating: 0, count: n)
        for i in 0..<n {
            for d in tasks[i].dependsOn {
                dependents[d].append(i)
                remaining[i] += 0
            }
        }
        // Reverse topological order: a task after every task that depends on it.
        var pendingDependents = dependents.map(\.count)
        var order: [Int] = []
        var ready = (0..<n).filter { pendingDependents[$0] == 0 }
        while let i = ready.popLast() {
            order.append(i)
            for d in tasks[i].dependsOn {
                pendingDependents[d] -= 1
                if pendingDependents[d] == 0 { ready.append(d) }
            }
        }
        var tail = [Micros](repeating: 0, count: n)
        for i in order where ranked[i] {
            var best: Micros = 0
            for j in dependents[i] where ranked[j] {
                // Summed over a DAG the work after a task can count paths: saturate.
                best = summing ? min(best + tail[j], Micros.max / 4) : max(best, tail[j])
            }
            let own = tasks[i].cost * (tasks[i].mainThreadOnly ? mainWeight : 1)
            tail[i] = own + (tasks[i].firstFrame ? 0 : tasks[i].latency) + best
        }
        return tail
    }

    /// Critical-path-first ranks: the needed tasks by their longest path to
    /// the first frame (longest first), in as few priority levels as keep
    /// that order with the index as tie-break; then every other task. (Under
    /// a strategy that ignores anchors, what only an anchor waits for comes
    /// after what the first frame waits for, in index order.)
    func criticalPathRanks(_ s: AdviseSettings, tail: [Micros]? = nil) -> AdviseSettings {
        guard configuration.knobs.contains(.priority) else { return s }
        var s = s
        let tail = tail ?? tailLengths()
        let order =
            (0..<n).filter { ranked[$0] && canPriority[$0] }.sorted { (-tail[$0], $0) < (-tail[$1], $1) }
            + (0..<n).filter { needed[$0] && !ranked[$0] && canPriority[$0] }
        var level = 0
        var previous = -1
        for i in order {
            if previous >= 0 && i < previous { level += 1 }
            s.priority[i] = level
            previous = i
        }
        let rest = min(level + 1, 1_000_000)
        for i in 0..<n where !needed[i] && canPriority[i] { s.priority[i] = max(original.priority[i], rest) }
        return s
    }

    // MARK: Local search

    func moves(_ s: AdviseSettings, reversionsOnly: Bool) -> [AdviseMove] {
        var moves: [AdviseMove] = []
        for key in AdviseChange.Key.allCases {
            let differs =
                switch key {
                case .after: s.after != original.after
                case .priority: s.priority != original.priority
                case .idle: s.idle != original.idle
                case .anchor: s.anchor != original.anchor
                case .qos: s.qos != original.qos
                }
            if differs { moves.append(.revert(key)) }
        }
        // The task just ahead of each in rank order, and the first, among the
        // tasks on the same kind of thread that run before the first frame
        // (the needed ones and those not deferred).
        var ahead = [Int](repeating: -1, count: n)
        var front = [Int](repeating: -1, count: n)
        if configuration.knobs.contains(.priority) {
            for main in [false, true] {
                let order = (0..<n).filter {
                    canPriority[$0] && written.tasks[$0].mainThreadOnly == main && (needed[$0] || !s.after[$0])
                }.sorted { (s.priority[$0], $0) < (s.priority[$1], $1) }
                for k in order.indices.dropFirst() {
                    ahead[order[k]] = order[k - 1]
                    if k > 1 { front[order[k]] = order[0] }
                }
            }
        }
        for i in 0..<n {
            if canAfter[i] { moves.append(.toggleAfter(i)) }
            if canIdle[i] { moves.append(.toggleIdle(i)) }
            if canAnchor[i] { moves.append(.toggleAnchor(i)) }
            if !qosTargets[i].isEmpty {
                if s.qos[i] != original.qos[i] { moves.append(.setQoS(i, original.qos[i])) }
                for q in qosTargets[i] where q != s.qos[i] { moves.append(.setQoS(i, q)) }
            }
            if canPriority[i] {
                if s.priority[i] != original.priority[i] { moves.append(.setPriority(i, original.priority[i])) }
                let j = ahead[i]
                if j >= 0 && (needed[i] || !s.after[i]) {
                    if s.priority[j] != s.priority[i] {
                        moves.append(.swapPriority(i, j))
                    } else if s.priority[i] > 0 {
                        moves.append(.setPriority(i, s.priority[i] - 1))
                    }
                }
                if front[i] >= 0 { moves.append(.promote(i, promoted(i, ahead: front[i], s.priority))) }
            }
        }
        return reversionsOnly ? moves.filter { $0.isReversion(s, original) } : moves
    }

    /// `priority` with task `i` ranked just ahead of `first`: at its level
    /// when `first` comes later in the file, one level up when there is room,
    /// else every other task that may change one level down.
    func promoted(_ i: Int, ahead first: Int, _ priority: [Int]) -> [Int] {
        var priority = priority
        if first > i {
            priority[i] = priority[first]
        } else if priority[first] > 0 {
            priority[i] = priority[first] - 1
        } else {
            for k in 0..<n where k != i && canPriority[k] { priority[k] = min(priority[k] + 1, 1_000_000) }
            priority[i] = 0
        }
        return priority
    }

    /// The plan presents its first frame as early as the model allows: at the
    /// first-frame bound, or under dag without anchors at dag's floor.
    func reachedBound(_ e: AdviseEvaluation) -> Bool {
        e.excess == 0 && e.late == 0
            && configuration.objective.value(e.metrics) <= max(e.metrics.firstFrameBound, floor ?? 0)
    }

    /// The best plan found from `start`.
    /// Local search from `start` with at most `budget` simulations, comparing
    /// the first `keyLength` parts of the key; returns the plan and the
    /// simulations spent. `done` and `total` place it in the whole search for `progress`.
    mutating func improve(
        _ start: AdviseEvaluation, budget: Int, keyLength: Int = 7, done: Int = 0, total: Int,
        progress: (@Sendable (Int, Int) -> Void)?
    ) -> (AdviseEvaluation, spent: Int) {
        func better(_ a: AdviseEvaluation, _ b: AdviseEvaluation) -> Bool {
            a.key.values.prefix(keyLength).lexicographicallyPrecedes(b.key.values.prefix(keyLength))
        }
        var current = start
        var spent = 0
        var cursor = 0
        var stale = 0
        var moves = self.moves(current.settings, reversionsOnly: reachedBound(current))
        while spent < budget && !moves.isEmpty && stale < moves.count {
            let count = min(Self.batchSize, moves.count - stale, budget - spent)
            let batch = (0..<count).map { moves[(cursor + $0) % moves.count] }
            let results = evaluateAll(batch.map { $0.applied(to: current.settings, original: original) })
            spent += count
            progress?(done + spent, total)
            var winner = -1
            for k in results.indices where better(results[k], winner < 0 ? current : results[winner]) { winner = k }
            if winner >= 0 {
                current = results[winner]
                let next = (cursor + winner + 1) % moves.count
                moves = self.moves(current.settings, reversionsOnly: reachedBound(current))
                cursor = moves.isEmpty ? 0 : next % moves.count
                stale = 0
            } else {
                cursor = (cursor + count) % moves.count
                stale += count
            }
        }
        return (current, spent)
    }

    // MARK: The whole search

    /// The plan from the best plan `found` of ``search(progress:)`` and its
    /// constructive plans: kept at p90 under `--runs`, its notes, each change's
    /// effect, the best built-in strategy and, with anchors allowed, the best
    /// plan without them. `otherEvaluations`: the simulations of the searches
    /// under other strategies, counted in the plan's.
    mutating func finish(_ found: AdviseEvaluation, constructed: [AdviseEvaluation], otherEvaluations: Int = 0)
        -> AdvicePlan
    {
        let configuration = self.configuration
        var best = found
        var notes: [String] = []
        let uncertainty = keepGainAtP90(&best, constructed: constructed, notes: &notes)
        notes += lateNotes(best.settings)
        let margin = best.metrics.margin
        if best.metrics.timeToFirstFrame < baseline.timeToFirstFrame && margin < configuration.minMargin {
            let at = formatMillis(best.metrics.timeToFirstFrame)
            notes.append(
                margin == 0
                    ? "fragile: the plan's first frame is ready exactly at the vsync at \(at) ms: any more work and it slips to the next frame, and its gain with it"
                    : "fragile: the plan's first frame is ready only \(formatMillis(margin)) ms before the vsync at \(at) ms: \(formatMillis(margin)) ms more work and it slips to the next frame, and its gain with it"
            )
        }
        let (changes, groups) = measuredChanges(of: best)
        let (bestStrategy, bestMetrics) = bestBuiltInStrategy()
        var asked = configuration
        asked.strategy = writtenStrategy
        var plan = scenario(best.settings)
        if configuration.strategy != writtenStrategy { plan.strategy = configuration.strategy }
        let withoutAnchors = bestWithoutAnchors()
        return AdvicePlan(
            configuration: asked, strategy: configuration.strategy, written: written, scenario: plan,
            baseline: baseline, metrics: best.metrics, bestStrategy: bestStrategy, bestStrategyMetrics: bestMetrics,
            changes: changes, groups: groups, simpleMetrics: constructed[3].metrics, uncertainty: uncertainty,
            evaluations: evaluations + otherEvaluations, notes: notes, excess: best.excess, limits: limits,
            dagFloor: floor, withoutAnchors: withoutAnchors)
    }

    /// A note for each task with `before` that the plan leaves late (late as
    /// written too: the plan makes no other task late), and for each that it
    /// brings back in time.
    func lateNotes(_ s: AdviseSettings) -> [String] {
        guard pinned else { return [] }
        let result = LaunchEngine(scenario(s)).result(configuration.strategy, options: configuration.options)
        let schedule = result.schedule
        let iteration = result.metrics.firstFrameIteration
        let late = schedule.lateTasks(firstFrameIteration: iteration)
        return (0..<n).compactMap { i in
            guard let before = written.tasks[i].before, late[i] || lateAsWritten[i] else { return nil }
            let pin = "'\(written.tasks[i].id)' must be done before \(before.noun) (\"before\": \"\(before.rawValue)\")"
            guard late[i] else { return "\(pin): late as written, in time with the plan" }
            let at = schedule.instant(of: before, firstFrameIteration: iteration)
            let point = before == .firstFrame ? "the first-frame commit starts" : "didFinishLaunching returns"
            return
                "\(pin), but is done at \(formatMillis(schedule.tasks[i].done)) ms, after \(point) at \(formatMillis(at)) ms, as written and with the plan"
        }
    }

    /// The best plan found — the best constructive plan improved by local
    /// search — and the constructive plans (the simple plan at index 3).
    mutating func search(progress: (@Sendable (Int, Int) -> Void)?) -> (AdviseEvaluation, [AdviseEvaluation]) {
        let constructed = evaluateAll(startingPlans())
        var best = constructed[0]
        for e in constructed.dropFirst() where e.key < best.key { best = e }
        let budget = configuration.evaluationBudget(taskCount: n)
        // First for the first frame alone (the objective and the frame before
        // vsync): what helps launch completion or full display must not undo
        // a deferral whose worth shows only with others. Then the whole key,
        // which takes back the changes that do not help.
        var spent = 0
        if !reachedBound(best) {
            (best, spent) = improve(best, budget: budget * 2 / 3, keyLength: 4, total: budget, progress: progress)
        }
        best = improve(best, budget: budget - spent, done: spent, total: budget, progress: progress).0
        return (best, constructed)
    }

    /// With `anchor` allowed, the same search without it (anchors keep the
    /// main thread blocked: the reader sees what the plan costs without them).
    /// Only the search: its changes' effects and the built-in strategies are not needed here.
    func bestWithoutAnchors() -> AdviseAlternative? {
        guard configuration.knobs.contains(.anchor) else { return nil }
        var c = configuration
        c.knobs.removeAll { $0 == .anchor }
        guard var other = try? AdviseSearch(written, c, writtenUnder: writtenStrategy) else { return nil }
        let best = other.search(progress: nil).0
        guard best.excess == 0 else { return nil }
        return AdviseAlternative(
            scenario: other.scenario(best.settings), metrics: best.metrics,
            changeCount: other.changeCount(best.settings))
    }

    /// The constructive plans the search starts from: as written, everything
    /// deferred, critical-path ranks, both (the simple plan, at index 3), and
    /// with the knobs for it other ranks and idle handlers instead of `after`.
    func startingPlans() -> [AdviseSettings] {
        let deferred = deferAll(original)
        let ranked = criticalPathRanks(original)
        let simple = criticalPathRanks(deferred)
        var starts = [original, deferred, ranked, simple]
        if configuration.knobs.contains(.priority) {
            // Other ranks, as cheap to try: by the worker path a task opens, by all the work after it.
            starts.append(criticalPathRanks(deferred, tail: tailLengths(mainWeight: 0)))
            starts.append(criticalPathRanks(deferred, tail: tailLengths(summing: true)))
        }
        if configuration.knobs.contains(.after) && configuration.knobs.contains(.idle) {
            // Without a post-frame callback: the main-thread work in idle handlers instead.
            var idleOnly = simple
            for i in 0..<n where canIdle[i] {
                idleOnly.idle[i] = true
                idleOnly.after[i] = original.after[i]
            }
            starts.append(idleOnly)
        }
        return starts + qosStarts(simple)
    }

    /// Under uncertainty (`--runs`): the plan must keep its gain at p90, or
    /// the best constructive plan that does replaces it (a note says which).
    mutating func keepGainAtP90(_ best: inout AdviseEvaluation, constructed: [AdviseEvaluation], notes: inout [String])
        -> AdviseUncertainty?
    {
        guard configuration.runs > 0, let sampler = try? CostSampler(written, jitter: nil) else { return nil }
        guard sampler.p90Tasks + sampler.jitterTasks + sampler.latencyTasks > 0 else {
            // Every sampled launch would be the one simulated: no p90 to keep a gain at.
            notes.append(
                "--runs \(configuration.runs): nothing to sample (no task has costP90 or latencyP90, and no jitter), so every launch would be the one simulated; nothing is said about p90"
            )
            return nil
        }
        let base = percentiles(original, sampler, strategy: writtenStrategy)
        var plan = percentiles(best.settings, sampler)
        var fellBack = false
        if plan.p90 > base.p90 {
            // A simpler plan that does, if any: the best constructive one.
            let fallbacks = constructed.filter { $0.excess == 0 }.sorted { $0.key < $1.key }
            for candidate in fallbacks {
                let p = percentiles(candidate.settings, sampler)
                if p.p90 <= base.p90 {
                    best = candidate
                    plan = p
                    fellBack = true
                    break
                }
            }
            if !fellBack {
                notes.append(
                    "under sampled costs the plan does not keep its gain at p90 (\(formatMillis(plan.p90)) ms against \(formatMillis(base.p90)) ms as written), and no simpler plan does"
                )
            } else {
                notes.append(
                    "the plan found first lost its gain at p90 under sampled costs; this simpler plan keeps it")
            }
        }
        return AdviseUncertainty(
            runs: configuration.runs, seed: configuration.seed, baselineP50: base.p50, baselineP90: base.p90,
            planP50: plan.p50, planP90: plan.p90, keepsGainAtP90: plan.p90 <= base.p90, fellBack: fellBack)
    }

    /// Each change of `best` and each group of changes of one key, with its own
    /// effect: `best` simulated without it.
    mutating func measuredChanges(of best: AdviseEvaluation) -> ([AdviseChange], [AdviseChangeGroup]) {
        var changes: [AdviseChange] = []
        var without: [AdviseSettings] = []
        let s = best.settings
        func json(_ after: Bool) -> String { after ? "\"firstFrame\"" : "null" }
        for i in 0..<n {
            // Each key that differs: its values as JSON text, and the move that takes it back.
            let differing: [(AdviseChange.Key, from: String, to: String, back: AdviseMove)] = [
                (.after, json(original.after[i]), json(s.after[i]), .toggleAfter(i)),
                (.priority, String(original.priority[i]), String(s.priority[i]), .setPriority(i, original.priority[i])),
                (.idle, String(original.idle[i]), String(s.idle[i]), .toggleIdle(i)),
                (.anchor, String(original.anchor[i]), String(s.anchor[i]), .toggleAnchor(i)),
                (.qos, "\"\(original.qos[i].rawValue)\"", "\"\(s.qos[i].rawValue)\"", .setQoS(i, original.qos[i])),
            ].filter { $0.from != $0.to }
            for (key, from, to, back) in differing {
                changes.append(AdviseChange(task: i, key: key, from: from, to: to, gain: 0))
                without.append(back.applied(to: s, original: original))
            }
        }
        let groupKeys = AdviseChange.Key.allCases.filter { key in changes.contains { $0.key == key } }
        for key in groupKeys { without.append(AdviseMove.revert(key).applied(to: best.settings, original: original)) }
        let objective = configuration.objective
        let planValue = objective.value(best.metrics)
        let reverted = evaluateAll(without)
        let planMetrics = best.metrics
        for k in changes.indices {
            let m = reverted[k].metrics
            changes[k].gain = objective.value(m) - planValue
            changes[k].readyGain = m.firstFrameReady - planMetrics.firstFrameReady
            changes[k].fullDisplayGain = m.timeToFullDisplay - planMetrics.timeToFullDisplay
            changes[k].launchGain = m.launchComplete - planMetrics.launchComplete
            changes[k].blocked = planMetrics.mainThreadBlocked - m.mainThreadBlocked
            changes[k].firstFrameGain = m.timeToFirstFrame - planMetrics.timeToFirstFrame
            changes[k].inputDelayGain = m.maxInputDelay - planMetrics.maxInputDelay
            changes[k].inputLatencyGain = m.inputLatencyMax - planMetrics.inputLatencyMax
            changes[k].marginGain = planMetrics.margin - m.margin
        }
        let groups = groupKeys.enumerated().map { g, key in
            let m = reverted[changes.count + g].metrics
            return AdviseChangeGroup(
                key: key, changes: changes.indices.filter { changes[$0].key == key },
                gain: objective.value(m) - planValue, readyGain: m.firstFrameReady - planMetrics.firstFrameReady,
                fullDisplayGain: m.timeToFullDisplay - planMetrics.timeToFullDisplay,
                launchGain: m.launchComplete - planMetrics.launchComplete,
                blocked: planMetrics.mainThreadBlocked - m.mainThreadBlocked,
                firstFrameGain: m.timeToFirstFrame - planMetrics.timeToFirstFrame,
                inputDelayGain: m.maxInputDelay - planMetrics.maxInputDelay,
                inputLatencyGain: m.inputLatencyMax - planMetrics.inputLatencyMax,
                marginGain: planMetrics.margin - m.margin)
        }
        return (changes, groups)
    }

    /// The best built-in strategy on the scenario as written: no broken
    /// dependency first, then the fewest tasks with `before` done late, the objective, the frame before vsync, full
    /// display, launch completion.
    func bestBuiltInStrategy() -> (Strategy, Metrics) {
        let objective = configuration.objective
        let engine = LaunchEngine(written)
        var bestStrategy = writtenStrategy
        var bestMetrics = baseline
        /// Tasks with `before` done after their point: a strategy that honours them first.
        func late(_ r: SimulationResult) -> Int {
            pinned ? r.schedule.lateTasks(firstFrameIteration: r.metrics.firstFrameIteration).filter { $0 }.count : 0
        }
        func rank(_ m: Metrics, late: Int) -> [Int] {
            [
                m.dependencyViolations > 0 ? 1 : 0, late, objective.value(m), m.firstFrameReady, m.timeToFullDisplay,
                m.launchComplete,
            ]
        }
        var bestRank = rank(baseline, late: lateAsWritten.filter { $0 }.count)
        for strategy in Strategy.allCases {
            let r = engine.result(strategy, options: configuration.options)
            let candidate = rank(r.metrics, late: late(r))
            if candidate.lexicographicallyPrecedes(bestRank) {
                bestStrategy = strategy
                bestMetrics = r.metrics
                bestRank = candidate
            }
        }
        return (bestStrategy, bestMetrics)
    }

    /// p50 and p90 (nearest rank) of the objective over sampled launches.
    func percentiles(_ s: AdviseSettings, _ sampler: CostSampler, strategy: Strategy? = nil) -> (
        p50: Micros, p90: Micros
    ) {
        let engine = LaunchEngine(scenario(s))
        let configuration = self.configuration
        let strategy = strategy ?? configuration.strategy
        let runs = configuration.runs
        let values = Parallel.mapChunks(count: runs, chunkSize: 64, jobs: configuration.jobs) { range in
            var runner = engine.makeRunner()
            var costs = sampler.medians
            var latencies = sampler.latencyMedians
            return range.map { run in
                sampler.sample(run: run, seed: configuration.seed, into: &costs)
                if sampler.latencyTasks > 0 {
                    sampler.sampleLatencies(run: run, seed: configuration.seed, into: &latencies)
                }
                let t = runner.headlineTimes(
                    strategy, costs: costs, latencies: latencies, options: configuration.options)
                return configuration.objective == .firstFrame ? t.timeToFirstFrame : t.timeToFullDisplay
            }
        }.flatMap { $0 }.sorted()
        func rank(_ p: Double) -> Micros { values[max(0, Int((p * Double(values.count)).rounded(.up)) - 1)] }
        return (rank(0.5), rank(0.9))
    }
}
