import Foundation

/// `launchflow check`: the regression gate. A scenario's metrics, under each
/// strategy checked, are held against budgets (hard limits) and against a
/// baseline (a saved run, with a tolerance).
///
/// Rules:
/// - A **budget** is a limit in the metric's bad direction: an upper limit for
///   every metric except `cpuUtilization` (higher is better), where it is a
///   lower limit. Metrics whose direction is `neither` (`frames`,
///   `criticalPathMs`, `lowerBoundMs`) fail a budget only when above it. The
///   tolerance does not apply to budgets.
/// - Against a **baseline**, a **gated** metric regresses when it moves in
///   its bad direction by more than the tolerance; improving never fails. By
///   default the gated metrics are those that measure the launch's quality
///   (``gatedByDefault(_:)``): the times where lower is better (first frame,
///   launch complete, main thread busy and blocked, input delay) and the
///   dependency violations. The others — `cpuUtilization`, `frames`,
///   `criticalPathMs`, `lowerBoundMs` — are context: reported (`changed` or
///   `same`) but never failing, unless a request gates them (`--gate`; a
///   metric without a better direction is then gated as lower-is-better). So
///   a uniform speed-up passes, although it lowers the CPU utilisation. A metric missing from the baseline (recorded by
///   an older launchflow) is reported as `not in baseline` and does not fail.
/// - Time values are whole microseconds, so limits on times are rounded down
///   to the microsecond (`v > 136.00272` and `v > 136.002` agree for every
///   whole-µs `v`); other values compare with a tolerance of 1e-9.
public enum Check {
    /// Simulates `scenario` under `request.strategies` and checks every budget
    /// and baseline metric.
    ///
    /// Throws when the baseline has no result for a strategy being checked.
    /// - Complexity: one simulation per strategy, plus O(rows).
    public static func run(_ scenario: Scenario, file: String, request: CheckRequest) throws(BaselineError)
        -> CheckReport
    {
        if let baseline = request.baseline {
            let missing = request.strategies.filter { baseline.result(for: $0) == nil }
            if !missing.isEmpty {
                let has = baseline.results.map(\.strategy.rawValue)
                var message = "the baseline has no result for "
                message += missing.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                message += has.isEmpty ? " (it has none)" : " (it has \(has.joined(separator: ", ")))"
                message += "; record it again with 'launchflow baseline \(file)'"
                if !has.isEmpty { message += " or pass --strategies \(has.joined(separator: ","))" }
                throw BaselineError(Diagnostic(file: baseline.file, message: message))
            }
        }
        let results = SimulationResult.compare(scenario, strategies: request.strategies, options: request.options)
        var rows: [CheckRow] = []
        for budget in request.budgets {
            for result in results {
                rows.append(budgetRow(budget, result.metrics.value(budget.metric), strategy: result.schedule.strategy))
            }
        }
        if let baseline = request.baseline {
            for metric in Metric.allCases {
                for result in results {
                    let strategy = result.schedule.strategy
                    let saved = baseline.result(for: strategy)?.metrics[metric]
                    rows.append(
                        baselineRow(
                            metric, strategy: strategy, value: result.metrics.value(metric), baseline: saved,
                            tolerance: request.tolerance,
                            gated: request.gates.contains(metric) || gatedByDefault(metric)))
                }
            }
        }
        return CheckReport(
            scenario: scenario.name, file: file, strategies: request.strategies, budgets: request.budgets,
            baselineFile: request.baseline?.file, baselineScenario: request.baseline?.scenario,
            tolerance: request.tolerance, rows: rows,
            changes: request.baseline.map { changesSince($0, scenario) } ?? [])
    }

    /// The budgets that apply: the scenario's, with those given as options
    /// replacing the scenario's for the same metric; in metric order.
    public static func budgets(scenario: [Budget], options: [CheckBudget]) -> [CheckBudget] {
        var byMetric: [Metric: CheckBudget] = [:]
        for budget in scenario {
            let metric = budget.metric
            byMetric[metric] = CheckBudget(metric: metric, limit: budget.limit, source: .scenario)
        }
        for budget in options { byMetric[budget.metric] = budget }
        return Metric.allCases.compactMap { byMetric[$0] }
    }

    static func budgetRow(_ budget: CheckBudget, _ value: Double, strategy: Strategy) -> CheckRow {
        let lower = budget.metric.direction == .higherIsBetter
        let limit = snap(budget.limit, budget.metric, roundUp: lower)
        let fails = lower ? below(value, limit) : above(value, limit)
        return CheckRow(
            metric: budget.metric, strategy: strategy, kind: .budget(budget.source), reference: budget.limit,
            limit: limit, bound: lower ? .atLeast : .atMost, value: value, verdict: fails ? .overBudget : .ok)
    }

    /// Whether `check` gates `metric` against a baseline without being asked:
    /// a time where lower is better, or the dependency violations.
    public static func gatedByDefault(_ metric: Metric) -> Bool {
        (metric.isTime && metric.direction == .lowerIsBetter) || metric == .dependencyViolations
    }

    static func baselineRow(
        _ metric: Metric, strategy: Strategy, value: Double, baseline: Double?, tolerance: Tolerance,
        gated: Bool? = nil
    )
        -> CheckRow
    {
        let gated = gated ?? gatedByDefault(metric)
        guard let baseline else {
            return CheckRow(
                metric: metric, strategy: strategy, kind: .baseline, reference: nil, limit: nil, bound: nil,
                value: value, verdict: .notInBaseline)
        }
        let same = !above(value, baseline) && !below(value, baseline)
        let allowance = tolerance.allowance(metric, baseline: baseline)
        var row = CheckRow(
            metric: metric, strategy: strategy, kind: .baseline, reference: baseline, limit: nil, bound: nil,
            value: value, verdict: same ? .same : .changed)
        switch gated ? metric.direction : .neither {
        case .neither where !gated:
            break
        case .lowerIsBetter, .neither:
            let limit = snap(baseline + allowance, metric, roundUp: false)
            row.limit = limit
            row.bound = .atMost
            if !same {
                row.verdict = above(value, limit) ? .regressed : value < baseline ? .improved : .withinTolerance
            }
        case .higherIsBetter:
            let limit = snap(baseline - allowance, metric, roundUp: true)
            row.limit = limit
            row.bound = .atLeast
            if !same {
                row.verdict = below(value, limit) ? .regressed : value > baseline ? .improved : .withinTolerance
            }
        }
        return row
    }

    /// A limit on whole-µs times or integer counts, moved to the nearest value
    /// a metric can take without changing which values pass.
    static func snap(_ limit: Double, _ metric: Metric, roundUp: Bool) -> Double {
        if metric.isRatio { return limit }
        let scale: Double = metric.isCount ? 1 : 1000
        let scaled = limit * scale
        let nearest = scaled.rounded()
        if abs(scaled - nearest) < 1e-6 { return nearest / scale }
        return (roundUp ? scaled.rounded(.up) : scaled.rounded(.down)) / scale
    }

    static func above(_ value: Double, _ limit: Double) -> Bool { value - limit > 1e-9 * max(1, abs(limit)) }
    static func below(_ value: Double, _ limit: Double) -> Bool { limit - value > 1e-9 * max(1, abs(limit)) }

    /// Tasks added, removed or changed in cost, and pre-main phase changes,
    /// read from the baseline's recorded schedule (dependencies are not
    /// recorded there: `launchflow diff` shows them).
    static func changesSince(_ baseline: Baseline, _ scenario: Scenario) -> [String] {
        var out: [String] = []
        if let saved = baseline.results.lazy.compactMap(\.preMainCosts).first {
            let now = scenario.preMain.map { ($0.name, $0.cost) }
            if saved.map(\.name) == now.map(\.0) {
                for (old, new) in zip(saved, now) where old.cost != new.1 {
                    out.append(
                        "pre-main '\(new.0)': \(formatMillis(old.cost)) → \(formatMillis(new.1)) ms (\(signedMillis(new.1 - old.cost)))"
                    )
                }
            } else {
                let old = saved.reduce(0) { $0 + $1.cost }
                out.append(
                    "pre-main phases changed: \(saved.count) → \(now.count) phases, \(formatMillis(old)) → \(formatMillis(scenario.preMainTotal)) ms"
                )
            }
        }
        guard let saved = baseline.results.lazy.compactMap(\.taskCosts).first else { return out }
        var oldCost: [String: Micros] = [:]
        for (id, cost) in saved where oldCost[id] == nil { oldCost[id] = cost }
        let current = Set(scenario.tasks.map(\.id))
        for task in scenario.tasks {
            if let old = oldCost[task.id] {
                if old != task.cost {
                    out.append(
                        "'\(task.id)': cost \(formatMillis(old)) → \(formatMillis(task.cost)) ms (\(signedMillis(task.cost - old)))"
                    )
                }
            } else {
                out.append("added '\(task.id)' (\(formatMillis(task.cost)) ms)")
            }
        }
        for (id, cost) in saved where !current.contains(id) {
            out.append("removed '\(id)' (\(formatMillis(cost)) ms)")
        }
        return out
    }

    /// `+8`, `−2.5`, `±0` (milliseconds).
    static func signedMillis(_ micros: Micros) -> String {
        (micros > 0 ? "+" : micros < 0 ? "−" : "±") + formatMillis(abs(micros))
    }
}

/// What to check: budgets, a baseline and its tolerance, the strategies.
public struct CheckRequest: Sendable {
    public var budgets: [CheckBudget]
    public var baseline: Baseline?
    public var tolerance: Tolerance
    public var strategies: [Strategy]
    public var options: SimulationOptions
    /// Metrics gated against the baseline besides ``Check/gatedByDefault(_:)``'s (`--gate`).
    public var gates: Set<Metric>

    public init(
        budgets: [CheckBudget], baseline: Baseline? = nil, tolerance: Tolerance = .zero,
        strategies: [Strategy] = Strategy.allCases, options: SimulationOptions = .init(), gates: Set<Metric> = []
    ) {
        self.budgets = budgets
        self.baseline = baseline
        self.tolerance = tolerance
        self.strategies = strategies
        self.options = options
        self.gates = gates
    }
}

/// A limit on one metric, applied to every strategy checked.
public struct CheckBudget: Sendable, Equatable {
    public enum Source: String, Sendable { case scenario, option }

    public var metric: Metric
    /// In the metric's unit: milliseconds for times, a fraction for `cpuUtilization`.
    public var limit: Double
    public var source: Source

    public init(metric: Metric, limit: Double, source: Source) {
        self.metric = metric
        self.limit = limit
        self.source = source
    }

    /// Parses `--budget METRIC=VALUE`: VALUE is a number ≥ 0 in the metric's
    /// unit; times may end in `ms`, `cpuUtilization` may be a percentage (`45%`).
    public static func parse(_ text: String) -> Result<CheckBudget, CheckError> {
        guard let equals = text.firstIndex(of: "=") else {
            return .failure(
                CheckError(message: "invalid budget '\(text)': expected METRIC=VALUE, e.g. timeToFirstFrameMs=400"))
        }
        let name = text[..<equals].trimmingCharacters(in: .whitespaces)
        var number = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard let metric = Metric(rawValue: name) else {
            let names = Metric.allCases.map(\.rawValue)
            var message = "unknown metric '\(name)' in budget '\(text)'"
            if let match = closestMatch(to: name, in: names) {
                message += didYouMean(match)
            } else {
                message += "; metrics: \(names.joined(separator: ", "))"
            }
            return .failure(CheckError(message: message))
        }
        var scale = 1.0
        if metric.isTime, number.hasSuffix("ms") {
            number = String(number.dropLast(2)).trimmingCharacters(in: .whitespaces)
        } else if metric.isRatio, number.hasSuffix("%") {
            number = String(number.dropLast())
            scale = 0.01
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= Budget.maximum else {
            let unit =
                metric.isTime ? " (milliseconds)" : metric.isRatio ? " (a fraction such as 0.4, or 40%)" : ""
            return .failure(
                CheckError(
                    message:
                        "invalid budget '\(text)': expected a number from 0 to \(formatNumber(Budget.maximum))\(unit) after '='"
                ))
        }
        return .success(CheckBudget(metric: metric, limit: value * scale, source: .option))
    }
}

/// How far a metric may move in its bad direction from the baseline before
/// `check` calls it a regression.
public enum Tolerance: Sendable, Equatable, CustomStringConvertible {
    /// A percentage of the baseline value, for every metric.
    case percent(Double)
    /// An absolute allowance for time metrics; other metrics get none.
    case milliseconds(Micros)
    /// Both (`2%,1ms`): the larger of the two allowances, so that a time
    /// near zero may move by the milliseconds and a large one by the percentage.
    case either(percent: Double, milliseconds: Micros)

    public static let zero = Tolerance.milliseconds(0)

    /// The largest percentage (1,000%: ten times the baseline): with a metric
    /// of at most ``Budget/maximum`` the allowance stays printable.
    public static let maximumPercent = 1000.0

    /// `5%`, `2.5%` (at most ``maximumPercent``), `3ms`, `0.5ms`, `0`, or a
    /// percentage and milliseconds together (`2%,1ms`, either order); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let a = Tolerance(parsing: String(parts[0])), let b = Tolerance(parsing: String(parts[1]))
        {
            switch (a, b) {
            case (.percent(let p), .milliseconds(let m)), (.milliseconds(let m), .percent(let p)):
                self = .either(percent: p, milliseconds: m)
                return
            default: return nil
            }
        }
        let text = text.trimmingCharacters(in: .whitespaces)
        if text == "0" {
            self = .zero
        } else if text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite, value >= 0,
            value <= Self.maximumPercent
        {
            self = .percent(value)
        } else if text.hasSuffix("ms"), let value = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces)),
            value.isFinite, value >= 0, value <= 3_600_000
        {
            self = .milliseconds(microseconds(fromMilliseconds: value))
        } else {
            return nil
        }
    }

    /// The allowance for `metric` at `baseline`, in the metric's unit.
    public func allowance(_ metric: Metric, baseline: Double) -> Double {
        switch self {
        case .percent(let p): abs(baseline) * p / 100
        case .milliseconds(let micros): metric.isTime ? Double(micros) / 1000 : 0
        case .either(let p, let micros):
            max(
                Tolerance.percent(p).allowance(metric, baseline: baseline),
                Tolerance.milliseconds(micros).allowance(metric, baseline: baseline))
        }
    }

    /// `2%`, `3 ms`, `0`.
    public var description: String {
        switch self {
        case .percent(let p): "\(formatNumber(p))%"
        case .milliseconds(0): "0"
        case .milliseconds(let micros): "\(formatMillis(micros)) ms"
        case .either(let p, let micros): "\(formatNumber(p))% or \(formatMillis(micros)) ms, whichever is larger"
        }
    }
}

/// The verdict of one check.
public enum CheckVerdict: String, Sendable {
    /// Within the budget.
    case ok
    case overBudget
    /// Equal to the baseline.
    case same
    /// Better than the baseline.
    case improved
    /// Worse than the baseline, but by no more than the tolerance.
    case withinTolerance
    /// Worse than the baseline by more than the tolerance.
    case regressed
    /// A metric that is not gated moved; reported, never a failure.
    case changed
    /// The baseline has no value for this metric; reported, never a failure.
    case notInBaseline

    /// Whether this verdict makes `check` exit 1.
    public var fails: Bool { self == .overBudget || self == .regressed }

    /// As printed in the table: failures in capitals.
    public var text: String {
        switch self {
        case .ok: "ok"
        case .overBudget: "OVER BUDGET"
        case .same: "same"
        case .improved: "improved"
        case .withinTolerance: "within tolerance"
        case .regressed: "REGRESSED"
        case .changed: "changed (not gated)"
        case .notInBaseline: "not in baseline"
        }
    }
}

/// One metric of one strategy held against a budget or the baseline.
public struct CheckRow: Sendable {
    public enum Kind: Sendable, Equatable {
        case budget(CheckBudget.Source)
        case baseline
    }

    /// Which side of the limit passes.
    public enum Bound: Sendable { case atMost, atLeast }

    public var metric: Metric
    public var strategy: Strategy
    public var kind: Kind
    /// The budget as given, or the baseline value (nil when the baseline lacks the metric).
    public var reference: Double?
    /// The value the metric may not pass (nil: nothing to pass).
    public var limit: Double?
    public var bound: Bound?
    /// The value now, in the metric's unit (milliseconds for times).
    public var value: Double
    public var verdict: CheckVerdict

    /// `value − reference`, in the metric's unit.
    public var delta: Double? { reference.map { value - $0 } }
}

/// A `check` input that cannot be used (exit status 2); the message has no `error: ` prefix.
public struct CheckError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}
