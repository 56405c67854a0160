/// The strategies' results side by side, judged honestly: a strategy that
/// breaks dependencies (starts a task before one it needs is done) is never
/// crowned best for a value it reaches by breaking them.
///
/// - A result is **correct** when its schedule has no dependency violation.
/// - The best value of a metric is the best among the correct results only;
///   a violating result whose value is better than that is marked
///   (``beatsOnlyByBreaking(_:_:)``) instead.
/// - (v2.1) Like is compared with like: when the scenario defers work
///   (`delay`, `idle`, `after`), a strategy that runs it inline (`serial`)
///   does other work at other moments, so it is left out of the metrics that
///   count deferred work — launch completion, CPU utilisation, frames
///   (``exclusion(_:_:)`` says why).
/// - The **best correct strategy** is the correct result with the smallest
///   time to first frame, then time to full display, then launch completion
///   (where compared), then the first in the given order.
///
/// ```swift
/// let judged = HonestComparison(SimulationResult.compare(scenario, strategies: Strategy.allCases))
/// judged.bestCorrect.map { judged.results[$0].schedule.strategy }   // .dag
/// ```
public struct HonestComparison: Sendable {
    public let results: [SimulationResult]
    /// Per result: its schedule breaks no dependency.
    public let isCorrect: [Bool]

    /// (v2.1) The scenario defers work that some strategies run inline.
    public let defersWork: Bool

    public init(_ results: [SimulationResult]) {
        self.results = results
        isCorrect = results.map { $0.metrics.dependencyViolations == 0 }
        defersWork = results.first?.schedule.scenario.defersWork ?? false
    }

    /// Why result `k` is left out of the comparison of `metric`, or nil: it
    /// breaks dependencies, or it runs deferred work inline (v2.1).
    public func exclusion(_ k: Int, _ metric: Metric) -> String? {
        if !isCorrect[k] { return Self.breaks(results[k].metrics.dependencyViolations) }
        if defersWork && metric.info.countsDeferredWork
            && results[k].schedule.strategy.definition.runsDeferredWorkInline
        {
            return "runs the delayed, idle and after-first-frame work inline"
        }
        return nil
    }

    /// The index of the best correct result (see the type's summary); nil when every result breaks dependencies.
    public var bestCorrect: Int? {
        func key(_ k: Int) -> (Micros, Micros, Micros, Int) {
            let m = results[k].metrics
            let launch = exclusion(k, .launchCompleteMs) == nil ? m.launchComplete : .max
            return (m.timeToFirstFrame, m.timeToFullDisplay, launch, k)
        }
        return results.indices.filter { isCorrect[$0] }.min { key($0) < key($1) }
    }

    /// The index of the result that holds the best value of `metric` (the
    /// first in the given order when several do); nil when the metric has no
    /// better direction, nobody is compared, or every result has the same value.
    public func best(_ metric: Metric) -> Int? { results.indices.first { isBest($0, metric) } }

    /// The strategy gains are taken against: the app's own (the scenario's
    /// `"strategy"`) when it is among the results, else `serial`.
    public var baselineStrategy: Strategy {
        if let app = appStrategy, results.contains(where: { $0.schedule.strategy == app }) { return app }
        return StrategyDefinition.baseline
    }

    /// The strategy the app uses today (the scenario's `"strategy"`), nil when the file does not say.
    public var appStrategy: Strategy? { results.first?.schedule.scenario.strategy }

    /// The index of the baseline result (``baselineStrategy``), the reference for gains.
    public var serial: Int? { results.firstIndex { $0.schedule.strategy == baselineStrategy } }

    /// A strategy's name in tables and sentences: "priority (the app's)" for the app's own strategy.
    public func label(_ strategy: Strategy) -> String {
        strategy == appStrategy ? "\(strategy.rawValue) (the app's)" : strategy.rawValue
    }

    /// The best value of `metric` among the correct results; nil when the
    /// metric has no better direction or no result is correct.
    public func bestCorrectValue(_ metric: Metric) -> Double? {
        let values = results.indices.filter { exclusion($0, metric) == nil }.map { results[$0].metrics.value(metric) }
        switch metric.direction {
        case .lowerIsBetter: return values.min()
        case .higherIsBetter: return values.max()
        case .neither: return nil
        }
    }

    /// Whether result `k` holds the best correct value of `metric` (and the
    /// results do not all have the same value, which would make nobody best).
    public func isBest(_ k: Int, _ metric: Metric) -> Bool {
        guard exclusion(k, metric) == nil, let best = bestCorrectValue(metric) else { return false }
        let values = results.map { $0.metrics.value(metric) }
        return values[k] == best && Set(values).count > 1
    }

    /// Whether result `k` breaks dependencies and its value of `metric` is
    /// better than every correct result's: a value it reaches only by breaking them.
    public func beatsOnlyByBreaking(_ k: Int, _ metric: Metric) -> Bool {
        guard !isCorrect[k], metric != .dependencyViolations else { return false }
        let value = results[k].metrics.value(metric)
        guard let best = bestCorrectValue(metric) else { return false }
        switch metric.direction {
        case .lowerIsBetter: return value < best
        case .higherIsBetter: return value > best
        case .neither: return false
        }
    }

    /// "breaks 7 dependencies", "breaks 1 dependency".
    public static func breaks(_ violations: Int) -> String {
        "breaks \(violations) \(violations == 1 ? "dependency" : "dependencies")"
    }

    /// One line naming the best correct strategy and what it gains against
    /// `serial`, e.g. "Best strategy that keeps every dependency: dag — first
    /// frame 166.67 ms (83.335 ms sooner than serial), launch complete 189 ms
    /// (45 ms sooner)."
    public var headline: String {
        guard let best = bestCorrect else {
            return "Every strategy compared breaks dependencies: none is a correct launch."
        }
        let metrics = results[best].metrics
        let name = label(results[best].schedule.strategy)
        var line =
            "Best strategy that keeps every dependency: \(name) — first frame "
            + formatMillis(metrics.timeToFirstFrame) + " ms"
        guard let serial, serial != best else {
            return line + ", launch complete \(formatMillis(metrics.launchComplete)) ms."
        }
        let base = results[serial].metrics
        let baseName = label(baselineStrategy)
        line += " (" + Self.gain(base.timeToFirstFrame - metrics.timeToFirstFrame, against: baseName) + ")"
        if results.contains(where: { $0.schedule.scenario.tasks.contains(where: \.fullyDrawn) }) {
            line += ", full display \(formatMillis(metrics.timeToFullDisplay)) ms"
            line += " (" + Self.gain(base.timeToFullDisplay - metrics.timeToFullDisplay, against: nil) + ")"
        }
        line += ", launch complete \(formatMillis(metrics.launchComplete)) ms"
        if exclusion(serial, .launchCompleteMs) != nil {
            return line + " (not compared with \(baseName), which runs the deferred work inline)."
        }
        line += " (" + Self.gain(base.launchComplete - metrics.launchComplete, against: nil) + ")."
        return line
    }

    /// (v2.1) The footnote for the strategies left out of the metrics that
    /// count deferred work, or nil when nobody is, e.g. "serial runs the
    /// delayed, idle and after-first-frame work inline: it is not compared on
    /// launch complete, CPU utilisation and frames."
    public var deferralNote: String? {
        let metrics = Metric.allCases.filter(\.info.countsDeferredWork)
        let left = results.indices.filter { k in isCorrect[k] && metrics.contains { exclusion(k, $0) != nil } }
        guard !left.isEmpty else { return nil }
        let names = left.map { results[$0].schedule.strategy.rawValue }.joined(separator: ", ")
        let labels = metrics.map(\.label)
        return "\(names) \(left.count == 1 ? "runs" : "run") the delayed, idle and after-first-frame work inline, "
            + "at other moments: not compared on \(labels.dropLast().joined(separator: ", ")) and \(labels.last!)."
    }

    /// "83.335 ms sooner than serial", "2 ms later", "the same as serial".
    static func gain(_ micros: Micros, against name: String?) -> String {
        let suffix = name.map { " than \($0)" } ?? ""
        if micros > 0 { return "\(formatMillis(micros)) ms sooner\(suffix)" }
        if micros < 0 { return "\(formatMillis(-micros)) ms later\(suffix)" }
        return name.map { "the same as \($0)" } ?? "the same"
    }

    /// For each result that breaks dependencies and looks better than the
    /// correct ones on a time, one line, e.g. "priority breaks 7 dependencies:
    /// its launch complete 127 ms is reached only by breaking them."
    public var warnings: [String] {
        results.indices.compactMap { k -> String? in
            let metrics = results[k].metrics
            let times = Metric.allCases.filter { $0.isTime && beatsOnlyByBreaking(k, $0) }
            guard !times.isEmpty else { return nil }
            let listed = times.map { metric in
                var text = "\(metric.label) \(TextReport.valueText(metric, metrics)) ms"
                if metric == .launchCompleteMs && metrics.launchComplete < metrics.lowerBound {
                    text += " (below the \(formatMillis(metrics.lowerBound)) ms lower bound of a correct launch)"
                }
                return text
            }
            let what =
                listed.count == 1
                ? "its \(listed[0]) is"
                : "its " + listed.dropLast().joined(separator: ", ") + " and \(listed.last!) are"
            return "\(results[k].schedule.strategy.rawValue) \(Self.breaks(metrics.dependencyViolations)): "
                + "\(what) reached only by breaking them."
        }
    }
}
