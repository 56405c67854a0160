/// `launchflow advise`: a plan that changes only how the app schedules its
/// work — `after`, `priority`, `idle` and (when allowed) `anchor` — so that the
/// first frame (or full display) comes as early as the model allows.
///
/// The search starts from constructive plans (the scenario as written; defer
/// everything the first frame does not need; critical-path-first ranks; both),
/// then improves the best by local search with the engine: each move changes
/// one key of one task (or reverts a group of changes), is simulated on the
/// modified scenario, and is kept when it improves the lexicographic key
/// (constraint excess, objective, first frame before vsync, full display,
/// launch completion, number of changes). Moves are tried in batches of a
/// fixed size, simulated in parallel; the best of a batch wins (lowest move
/// index on ties), so the plan is the same for any number of threads.
public enum Advise {
    /// The plan for `scenario`: see ``Advise``. With the `strategy` knob the
    /// search runs under the app's strategy (`configuration.strategy`) and under
    /// each other strategy a plan may switch to (``AdviseConfiguration/searchStrategies``),
    /// and the best plan of all by the same key wins, a switch counting as one
    /// more change (so that a tie keeps the app's strategy).
    ///
    /// - Throws: ``AdviseError`` for an unknown id in `keep` or a constraint
    ///   that no plan found meets.
    public static func plan(
        _ scenario: Scenario, _ configuration: AdviseConfiguration,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(AdviseError) -> AdvicePlan {
        let strategies = configuration.searchStrategies
        let budget = configuration.evaluationBudget(taskCount: scenario.tasks.count)
        let total = budget * strategies.count
        var searches: [AdviseSearch] = []
        var found: [(best: AdviseEvaluation, constructed: [AdviseEvaluation])] = []
        for (k, strategy) in strategies.enumerated() {
            var c = configuration
            c.strategy = strategy
            var search = try AdviseSearch(scenario, c, writtenUnder: configuration.strategy)
            var step: (@Sendable (Int, Int) -> Void)? = nil
            if let progress {
                let offset = k * budget
                step = { done, _ in progress(offset + done, total) }
            }
            found.append(search.search(progress: step))
            searches.append(search)
        }
        // A switch is one change more: the app's strategy wins a tie.
        func key(_ k: Int) -> AdviseKey {
            var key = found[k].best.key
            if k > 0 { key.values[key.values.count - 1] += 1 }
            return key
        }
        // A switch must earn its code change and whatever it costs (a blocked
        // main thread, more commits): it has to meet a constraint the app's
        // strategy cannot, or move the objective itself (the frame on screen),
        // not only a tie-break below it (the frame before vsync, launch complete).
        let objective = configuration.objective
        func earnsSwitch(_ k: Int) -> Bool {
            let (candidate, keeping) = (found[k].best, found[0].best)
            if candidate.excess != keeping.excess { return candidate.excess < keeping.excess }
            return objective.value(candidate.metrics) < objective.value(keeping.metrics)
        }
        var w = 0
        for k in found.indices.dropFirst() where earnsSwitch(k) && key(k) < key(w) { w = k }
        let others = searches.indices.filter { $0 != w }.reduce(0) { $0 + searches[$1].evaluations }
        var plan = searches[w].finish(found[w].best, constructed: found[w].constructed, otherEvaluations: others)
        guard plan.excess == 0 else { throw plan.infeasibility(searched: strategies) }
        if w > 0 {
            let keeping = found[0].best
            plan.strategyChange = AdviseStrategyChange(
                from: configuration.strategy, to: strategies[w], written: plan.baseline,
                switched: found[w].constructed[0].metrics, objective: configuration.objective,
                keeping: keeping.excess == 0
                    ? AdviseAlternative(
                        scenario: searches[0].scenario(keeping.settings), metrics: keeping.metrics,
                        changeCount: searches[0].changeCount(keeping.settings)) : nil)
        }
        if let app = scenario.strategy, app != configuration.strategy {
            plan.underAppStrategy = AdviseUnderAppStrategy(plan, app: app)
        }
        return plan
    }
}

/// What `advise` may change.
public enum AdviseKnob: String, CaseIterable, Sendable, Comparable {
    case after, priority, idle, anchor
    /// (§3.13) A worker task's `qos`: only with `device.clusters`.
    case qos
    /// The strategy itself (the file's `"strategy"`): to another that keeps every dependency.
    case strategy

    public static func < (a: AdviseKnob, b: AdviseKnob) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The default `--allow` when the strategy is pinned (`--strategy`, or a
    /// library caller's ``AdviseConfiguration/strategy``): the task keys but `anchor`.
    public static let defaults: [AdviseKnob] = [.after, .priority, .idle, .qos]

    /// The default `--allow`: ``defaults``, and `strategy` unless `--strategy` pins it.
    public static func defaults(strategyPinned: Bool) -> [AdviseKnob] {
        strategyPinned ? defaults : defaults + [.strategy]
    }
}

/// What `advise` minimises first.
public enum AdviseObjective: String, CaseIterable, Sendable {
    case firstFrame, fullDisplay

    func value(_ m: Metrics) -> Micros { self == .firstFrame ? m.timeToFirstFrame : m.timeToFullDisplay }

    /// How reports name it.
    public var label: String { self == .firstFrame ? "time to first frame" : "time to full display" }
}

/// A limit on how much a metric may grow against the scenario as written:
/// `launchComplete=10%`, `timeToFullDisplay=0ms`.
public struct AdviseRegressionLimit: Sendable, Equatable {
    public enum Allowance: Sendable, Equatable {
        /// A share of the written value (0.1 for 10%).
        case share(Double)
        /// Microseconds.
        case micros(Micros)
    }

    public var metric: Metric
    public var allowance: Allowance

    public init(metric: Metric, allowance: Allowance) {
        self.metric = metric
        self.allowance = allowance
    }

    /// The time metrics a limit may name.
    public static var metrics: [Metric] {
        Metric.allCases.filter {
            if case .time = $0.info.value, $0.info.direction == .lowerIsBetter { return true }
            return false
        }
    }

    /// The largest value allowed, µs, given the written one.
    func limit(written: Micros) -> Micros {
        switch allowance {
        case .share(let share): written + Micros((Double(written) * share).rounded())
        case .micros(let micros): written + micros
        }
    }

    /// `launchComplete ≤ +10%`.
    var text: String {
        let name = metric.rawValue.hasSuffix("Ms") ? String(metric.rawValue.dropLast(2)) : metric.rawValue
        switch allowance {
        case .share(let share): return "\(name) within +\(formatShare(share))% of as written"
        case .micros(let micros): return "\(name) within +\(formatMillis(micros)) ms of as written"
        }
    }
}

func formatShare(_ share: Double) -> String {
    let percent = share * 100
    return percent == percent.rounded() ? String(Int(percent)) : String(percent)
}

/// The settings of one `advise` run.
public struct AdviseConfiguration: Sendable {
    public var strategy: Strategy = .dag
    /// `--platform`: the words each change's mechanism is named in (nil: the scenario's `"platform"`, else both).
    public var platform: Platform? = nil
    public var knobs: [AdviseKnob] = AdviseKnob.defaults
    /// Task ids left exactly as written.
    public var keep: [String] = []
    public var objective: AdviseObjective = .firstFrame
    /// The most time the main thread may be blocked in didFinishLaunching, µs.
    public var maxBlocked: Micros? = nil
    public var maxRegressions: [AdviseRegressionLimit] = []
    /// Sampled launches to check the plan under uncertainty (0: none).
    public var runs: Int = 0
    public var seed: UInt64 = 1
    public var jobs: Int = Parallel.availableCores
    public var options: SimulationOptions = .init()
    /// The most simulations the local search may run (after the constructive plans).
    public var maxEvaluations: Int? = nil
    /// A plan that presents its first frame earlier than as written with less
    /// than this between its first frame's ready time and that vsync is
    /// fragile (µs; issue 26; `--min-margin`).
    public var minMargin: Micros = AdviseConfiguration.defaultMinMargin

    /// The one default of ``minMargin`` (and of `--min-margin`): 1 ms.
    public static let defaultMinMargin: Micros = 1_000

    public init() {}

    /// The most simulations the local search runs on `taskCount` tasks, under one strategy.
    public func evaluationBudget(taskCount: Int) -> Int { maxEvaluations ?? max(600, 12 * taskCount) }

    /// The strategies the plan may run under, ``strategy`` (the app's) first:
    /// with the `strategy` knob also `dag` and `anchored`, the other
    /// strategies that keep every dependency and run `after`, `idle` and
    /// anchors (`serial` runs everything in didFinishLaunching; `priority`'s
    /// tiers break dependencies, so it is searched only as the app's own).
    public var searchStrategies: [Strategy] {
        guard knobs.contains(.strategy) else { return [strategy] }
        return [strategy] + [Strategy.dag, .anchored].filter { $0 != strategy }
    }

    /// The most simulations the whole search runs (every strategy of ``searchStrategies``).
    public func totalBudget(taskCount: Int) -> Int { evaluationBudget(taskCount: taskCount) * searchStrategies.count }
}

extension Metrics {
    /// The margin to the vsync (µs): the vsync the first frame is presented at
    /// (`timeToFirstFrame`) minus the instant its frame is ready (the
    /// first-frame commit's end + render time, `firstFrameReady`) — how much
    /// more work before it the frame absorbs before it slips to the next vsync.
    public var margin: Micros { timeToFirstFrame - firstFrameReady }
}

/// Bad input to `advise`: exit status 2, nothing written.
public struct AdviseError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One changed key of one task.
public struct AdviseChange: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case after, priority, idle, anchor, qos
    }

    /// The task's index.
    public var task: Int
    public var key: Key
    /// The values as JSON text (`null`, `"firstFrame"`, `20`, `true`).
    public var from: String
    public var to: String
    /// The objective with this change taken out of the plan, minus the plan's (µs; positive: the change helps).
    public var gain: Micros
    /// The same for the first frame before vsync, full display and launch completion.
    public var readyGain: Micros = 0
    public var fullDisplayGain: Micros = 0
    public var launchGain: Micros = 0
    /// How much longer the main thread is blocked with the change than without it (µs; an anchor's wait).
    public var blocked: Micros = 0
    /// The time to first frame, max input delay and input latency without the change minus the plan's (µs; positive: the change lowers it).
    public var firstFrameGain: Micros = 0
    public var inputDelayGain: Micros = 0
    public var inputLatencyGain: Micros = 0
    /// The plan's margin to the vsync minus the margin without the change (µs; positive: the change leaves more room).
    public var marginGain: Micros = 0
}

/// A group of changes of one kind, with the gain of taking the whole group out.
public struct AdviseChangeGroup: Sendable, Equatable {
    public var key: AdviseChange.Key
    /// Indices into ``AdvicePlan/changes``.
    public var changes: [Int]
    public var gain: Micros
    public var readyGain: Micros = 0
    public var fullDisplayGain: Micros = 0
    public var launchGain: Micros = 0
    public var blocked: Micros = 0
    public var firstFrameGain: Micros = 0
    public var inputDelayGain: Micros = 0
    public var inputLatencyGain: Micros = 0
    public var marginGain: Micros = 0
}

/// The best plan found with fewer knobs (without `anchor`), shown beside the plan.
public struct AdviseAlternative: Sendable {
    public let scenario: Scenario
    public let metrics: Metrics
    public let changeCount: Int
}

/// The plan under sampled costs: p50 and p90 of the objective.
public struct AdviseUncertainty: Sendable, Equatable {
    public var runs: Int
    public var seed: UInt64
    public var baselineP50: Micros
    public var baselineP90: Micros
    public var planP50: Micros
    public var planP90: Micros
    /// The plan's p90 is no worse than the written scenario's.
    public var keepsGainAtP90: Bool
    /// The first plan found did not keep its gain at p90, and this one (a simpler plan) replaced it.
    public var fellBack: Bool
}

/// What `advise` found.
public struct AdvicePlan: Sendable {
    /// The settings asked for: ``AdviseConfiguration/strategy`` is the
    /// strategy the scenario as written runs under (the app's, or `--strategy`).
    public let configuration: AdviseConfiguration
    /// The strategy the plan runs under: ``AdviseConfiguration/strategy``,
    /// unless the plan switches it (``strategyChange``).
    public let strategy: Strategy
    /// The scenario as written and the plan (the same scenario with only the changed keys changed).
    public let written: Scenario
    public let scenario: Scenario
    public let baseline: Metrics
    public let metrics: Metrics
    /// The best built-in strategy on the scenario as written, and its metrics.
    public let bestStrategy: Strategy
    public let bestStrategyMetrics: Metrics
    /// In task order, then key order.
    public let changes: [AdviseChange]
    public let groups: [AdviseChangeGroup]
    /// The simple plan (defer everything not needed, critical-path ranks) and its metrics.
    public let simpleMetrics: Metrics
    public let uncertainty: AdviseUncertainty?
    /// Simulations run.
    public let evaluations: Int
    /// Notes for the reader (a plan that loses its gain at p90…).
    public let notes: [String]
    /// How far the plan is beyond the constraints (0: it meets them).
    let excess: Int
    /// (metric, the largest value allowed in µs).
    let limits: [(Metric, Micros)]
    /// Under dag, when `anchor` may not change and no task is an anchor: the
    /// earliest any plan can present the first frame (µs), which may be later
    /// than ``firstFrameBound`` — see ``DagFloor``.
    public let dagFloor: Micros?
    /// With `anchor` allowed: the best plan without anchors (nil when none meets the constraints).
    public let withoutAnchors: AdviseAlternative?
    /// When the scenario names the app's strategy (`"strategy"`) and the plan
    /// is for another: the plan simulated under the app's strategy.
    public internal(set) var underAppStrategy: AdviseUnderAppStrategy? = nil
    /// The plan's first change when it runs under another strategy than the
    /// scenario as written: the switch, with its effect alone.
    public internal(set) var strategyChange: AdviseStrategyChange? = nil

    /// Every change: the switch of strategy (if any) and the task keys.
    public var changeCount: Int { changes.count + (strategyChange == nil ? 0 : 1) }

    public var firstFrameBound: Micros { baseline.firstFrameBound }

    /// How much later the plan's first frame may be ready before it slips to the next vsync (µs).
    public var margin: Micros { metrics.margin }

    /// The plan wins a frame over the scenario as written by less than ``AdviseConfiguration/minMargin``.
    public var fragile: Bool {
        metrics.timeToFirstFrame < baseline.timeToFirstFrame && margin < configuration.minMargin
    }
}

extension AdvicePlan {
    /// The error for a plan beyond its constraints: the first one it breaks,
    /// under the strategies searched (the best plan's first).
    func infeasibility(searched: [Strategy]) -> AdviseError {
        let names = [strategy] + searched.filter { $0 != strategy }
        let under =
            "under "
            + (names.count == 1
                ? names[0].rawValue
                : names.dropLast().map(\.rawValue).joined(separator: ", ")
                    + " or \(names.last!.rawValue)")
        for (metric, limit) in limits {
            guard case .time(let path) = metric.info.value, metrics[keyPath: path] > limit else { continue }
            if metric == .mainThreadBlockedMs, let maxBlocked = configuration.maxBlocked, limit == maxBlocked {
                return AdviseError(
                    "no plan keeps the main thread blocked ≤ \(formatMillis(maxBlocked)) ms \(under) (the best found blocks it \(formatMillis(metrics.mainThreadBlocked)) ms)"
                )
            }
            return AdviseError(
                "no plan keeps \(metric.rawValue) ≤ \(formatMillis(limit)) ms \(under) (as written \(formatMillis(baseline[keyPath: path])) ms; the best plan found \(formatMillis(metrics[keyPath: path])) ms)"
            )
        }
        return AdviseError("no plan breaks no more dependencies than the scenario as written \(under)")
    }
}

/// A plan for one strategy simulated under the strategy the app uses today
/// (the scenario's `"strategy"`): how its numbers compare there, and the
/// dependencies its changes break there — a `dag` plan's priorities, kept by
/// an app tiered like `priority`, may start a task before one it needs.
public struct AdviseUnderAppStrategy: Sendable {
    /// The app's strategy.
    public let strategy: Strategy
    /// The scenario as written and the plan, under the app's strategy.
    public let written: Metrics
    public let plan: Metrics
    /// The plan's broken dependencies under the app's strategy, in ``Schedule/violations()`` order.
    public let broken: [Violation]
    /// How many of them the scenario as written already breaks under the app's strategy.
    public let writtenBroken: Int

    init(_ advice: AdvicePlan, app: Strategy) {
        strategy = app
        let options = advice.configuration.options
        let before = SimulationResult(advice.written, strategy: app, options: options)
        let after = SimulationResult(advice.scenario, strategy: app, options: options)
        written = before.metrics
        plan = after.metrics
        broken = after.schedule.violations()
        writtenBroken = before.metrics.dependencyViolations
    }

    /// The note advise prints, e.g. "under priority, the app's strategy, this
    /// plan's changes break 1 dependency (b starts before its dependency a is
    /// done); its first frame 50 ms (as written 66.667 ms)".
    public func note(tasks: [LaunchTask], planStrategy: Strategy) -> String {
        var out = "under \(strategy.rawValue), the app's strategy, this plan (for \(planStrategy.rawValue)) "
        if broken.isEmpty {
            out += "breaks no dependency"
        } else {
            out += "breaks \(broken.count) \(broken.count == 1 ? "dependency" : "dependencies")"
            if writtenBroken > 0 { out += " (\(writtenBroken) as written)" }
            let shown = broken.prefix(3).map {
                "\(tasks[$0.task].id) starts before its dependency \(tasks[$0.dependency].id) is done"
            }
            out += ": " + shown.joined(separator: "; ") + (broken.count > 3 ? "; …" : "")
        }
        out +=
            "; first frame \(formatMillis(plan.timeToFirstFrame)) ms there (as written \(formatMillis(written.timeToFirstFrame)) ms)"
        return out
    }
}
