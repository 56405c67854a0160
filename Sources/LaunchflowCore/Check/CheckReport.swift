import Foundation

/// The outcome of `launchflow check`: every row, and the text and JSON reports.
public struct CheckReport: Sendable {
    public var scenario: String
    public var file: String
    public var strategies: [Strategy]
    public var budgets: [CheckBudget]
    public var baselineFile: String?
    /// The scenario name recorded in the baseline.
    public var baselineScenario: String?
    public var tolerance: Tolerance
    /// Budget rows (metric order, then strategy), then baseline rows (the same order).
    public var rows: [CheckRow]
    /// What changed since the baseline, as far as its recorded schedule shows.
    public var changes: [String]

    /// True when no row fails: `check` exits 0.
    public var passed: Bool { !rows.contains { $0.verdict.fails } }

    public var failures: [CheckRow] { rows.filter(\.verdict.fails) }

    // MARK: Text

    /// The readable report. When every check holds and not `verbose`: what
    /// was checked, against what, in a few lines. Otherwise: a budgets table,
    /// a baseline table, what changed, and a verdict line.
    public func text(verbose: Bool = true) -> String {
        if !verbose && passed { return shortText() }
        var out = "check: \(file) (\(scenario)) — \(strategies.map(\.rawValue).joined(separator: ", "))\n"
        out += "Times in ms; cpuUtilization as a fraction of all cores.\n"
        let budgetRows = rows.filter { $0.kind != .baseline }
        if !budgetRows.isEmpty {
            out += "\nBudgets\n"
            var table = [["metric", "strategy", "from", "budget", "now", "headroom", "verdict"]]
            for row in budgetRows {
                let source = row.kind == .budget(.option) ? "--budget" : "scenario"
                let headroom = row.limit.map { limit in
                    Self.format(
                        row.metric, row.bound == .atLeast ? row.value - limit : limit - row.value, signed: false)
                }
                table.append([
                    row.metric.rawValue, row.strategy.rawValue, source, Self.limitText(row),
                    Self.format(row.metric, row.value),
                    headroom ?? "", row.verdict.text,
                ])
            }
            out += TextReport.table(table, rightAligned: [false, false, false, true, true, true, false], indent: "  ")
        }
        if let baselineFile {
            out += "\nBaseline \(baselineFile), tolerance \(tolerance)"
            if let baselineScenario, baselineScenario != scenario {
                out += " (note: recorded for scenario '\(baselineScenario)')"
            }
            out += "\n"
            var table = [["metric", "strategy", "baseline", "limit", "now", "delta", "verdict"]]
            for row in rows where row.kind == .baseline {
                table.append([
                    row.metric.rawValue, row.strategy.rawValue,
                    row.reference.map { Self.format(row.metric, $0) } ?? "—",
                    Self.limitText(row), Self.format(row.metric, row.value), Self.deltaText(row), row.verdict.text,
                ])
            }
            out += TextReport.table(table, rightAligned: [false, false, true, true, true, true, false], indent: "  ")
            if rows.contains(where: { $0.verdict == .notInBaseline }) {
                out += "  Metrics not in the baseline are not checked: record it again with 'launchflow baseline'.\n"
            }
        }
        if !changes.isEmpty {
            out +=
                "\nChanged since the baseline (from its recorded schedule; 'launchflow diff OLD NEW' also shows dependencies)\n"
            for change in changes { out += "  \(change)\n" }
        }
        out += "\n" + summary() + "\n"
        return out
    }

    /// A passing check in a few lines: the budgets held (with the least
    /// headroom), the baseline compared (how many metrics gated, improved).
    func shortText() -> String {
        var out = "check: \(file) (\(scenario)) — \(strategies.map(\.rawValue).joined(separator: ", "))\n"
        let budgetRows = rows.filter { $0.kind != .baseline }
        if !budgetRows.isEmpty {
            let metrics = Set(budgetRows.map(\.metric)).count
            out += "budgets: \(metrics) metric\(metrics == 1 ? "" : "s") × \(strategies.count) "
            out += "strateg\(strategies.count == 1 ? "y" : "ies") within their limits"
            let tightest = budgetRows.compactMap { row -> (CheckRow, Double)? in
                guard let limit = row.limit, limit != 0 else { return nil }
                let headroom = row.bound == .atLeast ? row.value - limit : limit - row.value
                return (row, headroom / abs(limit))
            }.min { $0.1 < $1.1 }
            if let (row, _) = tightest, let limit = row.limit {
                let headroom = row.bound == .atLeast ? row.value - limit : limit - row.value
                out += "; least headroom: \(row.metric.rawValue) under \(row.strategy.rawValue), "
                let unit = row.metric.isTime ? " ms" : ""
                out += "\(Self.format(row.metric, row.value))\(unit) against \(Self.limitText(row))\(unit)"
                out += " (\(Self.format(row.metric, headroom))\(unit) left)"
            }
            out += "\n"
        }
        if let baselineFile {
            let baselineRows = rows.filter { $0.kind == .baseline }
            let gated = baselineRows.filter { $0.limit != nil }.count
            let improved = baselineRows.filter { $0.verdict == .improved }.map {
                "\($0.metric.rawValue) (\($0.strategy.rawValue))"
            }
            out += "baseline \(baselineFile), tolerance \(tolerance): \(gated) gated metric checks hold"
            if !improved.isEmpty { out += "; improved: " + improved.joined(separator: ", ") }
            let context = baselineRows.filter { $0.verdict == .changed }.count
            if context > 0 { out += "; \(context) context metric\(context == 1 ? "" : "s") changed (not gated)" }
            out += "\n"
        }
        out += summary().dropLast() + " (--verbose shows every check).\n"
        return out
    }

    /// `PASS: all 33 checks hold (2 improved)` or `FAIL: 3 of 33 checks failed: …`.
    public func summary() -> String {
        let failures = self.failures
        guard !failures.isEmpty else {
            let improved = rows.filter { $0.verdict == .improved }.count
            return "PASS: all \(rows.count) checks hold" + (improved > 0 ? " (\(improved) improved)" : "") + "."
        }
        var groups: [(metric: Metric, verdict: CheckVerdict, strategies: [String])] = []
        for row in failures {
            if let k = groups.firstIndex(where: { $0.metric == row.metric && $0.verdict == row.verdict }) {
                groups[k].strategies.append(row.strategy.rawValue)
            } else {
                groups.append((row.metric, row.verdict, [row.strategy.rawValue]))
            }
        }
        let parts = groups.map {
            "\($0.metric.rawValue) \($0.verdict.text) under \($0.strategies.joined(separator: ", "))"
        }
        return "FAIL: \(failures.count) of \(rows.count) checks failed: " + parts.joined(separator: "; ") + "."
    }

    static func limitText(_ row: CheckRow) -> String {
        guard let limit = row.limit, let bound = row.bound else { return "—" }
        return (bound == .atMost ? "≤ " : "≥ ") + format(row.metric, limit)
    }

    static func deltaText(_ row: CheckRow) -> String {
        guard let reference = row.reference else { return "—" }
        var text = format(row.metric, row.value - reference, signed: true)
        if reference != 0, Check.above(row.value, reference) || Check.below(row.value, reference) {
            let percent = (row.value - reference) / abs(reference) * 100
            text += " (" + (percent >= 0 ? "+" : "−") + decimal(abs(percent), places: 1) + "%)"
        }
        return text
    }

    /// A value in its metric's unit: ms for times (3 decimals in columns, as
    /// few as needed when `signed`), a fraction for `cpuUtilization` (up to 4
    /// decimals), whole numbers for counts. `signed` adds `+`, and `±0` for zero.
    static func format(_ metric: Metric, _ value: Double, signed: Bool = false) -> String {
        let text: String
        let isZero: Bool
        if metric.isTime {
            let micros = Micros((abs(value) * 1000).rounded())
            text = signed ? formatMillis(micros) : TextReport.fixed(micros)
            isZero = micros == 0
        } else if metric.isRatio {
            text = decimal(abs(value), places: 4)
            isZero = (abs(value) * 10_000).rounded() == 0
        } else {
            text = formatNumber(abs(value).rounded())
            isZero = abs(value).rounded() == 0
        }
        if isZero { return signed ? "±0" : text }
        if value < 0 { return "−" + text }
        return signed ? "+" + text : text
    }

    /// `value` with at most `places` decimals, trailing zeros dropped.
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    // MARK: JSON

    /// The machine-readable report (`check --format json`), with a newline.
    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256 * rows.count + 1024)
        w.object(.lines) { w in
            w.field("scenario", scenario)
            w.field("file", file)
            w.field("passed", passed)
            w.field("failures", failures.count)
            w.field("strategies", strings: strategies.map(\.rawValue))
            w.field("baseline", baselineFile)
            w.field("tolerance", object: .compact) { w in
                switch tolerance {
                case .percent(let p): w.field("percent", p)
                case .milliseconds(let micros): w.field("ms", millis: micros)
                case .either(let p, let micros):
                    w.field("percent", p)
                    w.field("ms", millis: micros)
                }
            }
            w.field("checks", array: .lines) { w in
                for row in rows { Self.check(row, &w) }
            }
            w.field("changesSinceBaseline", array: .lines) { w in
                for change in changes { w.string(change) }
            }
        }
        w.newline()
        return w.bytes
    }

    /// One check: the metric, the strategy, what it is held against, the value and the verdict.
    private static func check(_ row: CheckRow, _ w: inout JSONWriter) {
        w.object { w in
            w.field("metric", row.metric.rawValue)
            w.field("strategy", row.strategy.rawValue)
            switch row.kind {
            case .baseline:
                w.field("kind", "baseline")
            case .budget(let source):
                w.field("kind", "budget")
                w.field("source", source.rawValue)
            }
            w.key(row.kind == .baseline ? "baseline" : "budget")
            value(row.reference, row.metric, &w)
            w.key("limit")
            value(row.limit, row.metric, &w)
            switch row.bound {
            case .atMost?: w.field("bound", "atMost")
            case .atLeast?: w.field("bound", "atLeast")
            case nil: w.field("bound", nil as String?)
            }
            w.key("value")
            value(row.value, row.metric, &w)
            w.key("delta")
            value(row.delta, row.metric, &w)
            w.field("verdict", row.verdict.rawValue)
            w.field("fails", row.verdict.fails)
        }
    }

    /// Times as exact milliseconds (they are whole µs), other values as doubles, nil as null.
    private static func value(_ value: Double?, _ metric: Metric, _ w: inout JSONWriter) {
        guard let value else {
            w.null()
            return
        }
        if metric.isTime, abs(value * 1000 - (value * 1000).rounded()) < 1e-6 {
            w.millis(Micros((value * 1000).rounded()))
        } else {
            w.double(value)
        }
    }
}
