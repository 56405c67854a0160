import Foundation

/// A saved run that `launchflow check --baseline` compares against: the output
/// of `launchflow baseline` (the same as `compare --format json`, MODEL.md §6),
/// or of `simulate --format json` (one strategy).
///
/// Only what `check` needs is kept: each strategy's metrics and, when present,
/// its task and pre-main timings (for "what changed since the baseline").
/// Metric names this version does not know (from a newer launchflow) and
/// results of unknown strategies are ignored; anything else that is not the
/// expected shape is a ``BaselineError``.
public struct Baseline: Sendable {
    /// The file as the user named it.
    public var file: String
    /// The `scenario` name recorded in the file.
    public var scenario: String?
    public var results: [Result]

    /// One strategy's saved run.
    public struct Result: Sendable {
        public var strategy: Strategy
        /// Metric values as written: milliseconds for times.
        public var metrics: [Metric: Double]
        /// Each task's id and how long it ran (µs), in file order; nil when absent or unreadable.
        public var taskCosts: [(id: String, cost: Micros)]?
        /// Each pre-main phase's name and duration (µs); nil when absent or unreadable.
        public var preMainCosts: [(name: String, cost: Micros)]?
    }

    public init(file: String, scenario: String?, results: [Result]) {
        self.file = file
        self.scenario = scenario
        self.results = results
    }

    /// The saved run of `strategy`, if the file has one.
    public func result(for strategy: Strategy) -> Result? {
        results.first { $0.strategy == strategy }
    }

    /// Reads and parses the baseline at `path`.
    public static func load(path: String) throws(BaselineError) -> Baseline {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BaselineError(
                file: path,
                message: closestExistingFile(to: path).map { "no such file; did you mean '\($0)'?" }
                    ?? "no such file (record one with 'launchflow baseline SCENARIO > \(path)')")
        }
        guard !isDirectory.boolValue else {
            throw BaselineError(file: path, message: "is a directory, expected a baseline file (.json)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BaselineError(file: path, message: "cannot be read (permission denied?)")
        }
        return try parse([UInt8](data), file: path)
    }

    /// Parses baseline JSON; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(BaselineError) -> Baseline {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw BaselineError(file: file, line: line, column: column, message: "invalid JSON: \(error.message)")
        }
        guard case .object = root else {
            throw BaselineError(
                file: file, message: "expected a JSON object (the output of 'launchflow baseline'), found \(root.noun)")
        }
        let scenario = root["scenario"]?.string
        var results: [Result] = []
        if let list = root["results"] {
            guard case .array(let items) = list else {
                throw BaselineError(file: file, path: "results", message: "expected an array, found \(list.noun)")
            }
            for (k, item) in items.enumerated() {
                guard let result = try parseResult(item, path: "results[\(k)]", file: file) else { continue }
                if results.contains(where: { $0.strategy == result.strategy }) {
                    throw BaselineError(
                        file: file, path: "results[\(k)].strategy",
                        message: "strategy '\(result.strategy.rawValue)' appears twice")
                }
                results.append(result)
            }
        } else if root["metrics"] != nil && root["strategy"] != nil {
            // One run of `simulate --format json`.
            if let result = try parseResult(root, path: "", file: file) { results.append(result) }
        } else {
            throw BaselineError(
                file: file,
                message:
                    "not a baseline: expected an object with 'results' (the output of 'launchflow baseline' or 'compare --format json')"
            )
        }
        return Baseline(file: file, scenario: scenario, results: results)
    }

    /// One result object; nil for a strategy this version does not know.
    private static func parseResult(_ value: JSONValue, path: String, file: String) throws(BaselineError) -> Result? {
        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        guard case .object = value else {
            throw BaselineError(file: file, path: path, message: "expected an object, found \(value.noun)")
        }
        guard let strategyValue = value["strategy"] else {
            throw BaselineError(file: file, path: path, message: "missing key 'strategy'")
        }
        guard let name = strategyValue.string else {
            throw BaselineError(
                file: file, path: at("strategy"), message: "expected a string, found \(strategyValue.noun)")
        }
        guard let strategy = Strategy(rawValue: name) else { return nil }
        guard let metricsValue = value["metrics"] else {
            throw BaselineError(file: file, path: path, message: "missing key 'metrics'")
        }
        guard case .object(let members) = metricsValue else {
            throw BaselineError(
                file: file, path: at("metrics"), message: "expected an object, found \(metricsValue.noun)")
        }
        var metrics: [Metric: Double] = [:]
        for (key, metricValue) in members {
            guard let metric = Metric(rawValue: key) else { continue }
            guard case .number(let number) = metricValue else {
                throw BaselineError(
                    file: file, path: at("metrics.\(key)"), message: "expected a number, found \(metricValue.noun)")
            }
            guard number.isFinite, abs(number) <= Budget.maximum else {
                throw BaselineError(
                    file: file, path: at("metrics.\(key)"),
                    message:
                        "expected a number from 0 to \(formatNumber(Budget.maximum)), found \(formatNumber(number))")
            }
            metrics[metric] = number
        }
        if metrics.isEmpty {
            // Nothing to compare with would pass every check: not a baseline.
            throw BaselineError(file: file, path: at("metrics"), message: "has none of launchflow's metrics")
        }
        return Result(
            strategy: strategy, metrics: metrics,
            taskCosts: spans(value["tasks"], name: "id"), preMainCosts: spans(value["preMain"], name: "name"))
    }

    /// The largest |time| a baseline's spans may hold, in ms (about 31 years): µs of it fit a `Micros`.
    static let maximumSpanMs = 1e12

    /// `[{name: …, startMs, endMs}]` as (name, end − start in µs); nil if the shape is off
    /// (or a time lies beyond ±``maximumSpanMs``: a number is range-checked before it is converted).
    private static func spans(_ value: JSONValue?, name: String) -> [(String, Micros)]? {
        guard case .array(let items)? = value else { return nil }
        var out: [(String, Micros)] = []
        for item in items {
            guard let id = item[name]?.string, case .number(let start)? = item["startMs"],
                case .number(let end)? = item["endMs"], abs(start) <= maximumSpanMs, abs(end) <= maximumSpanMs
            else { return nil }
            out.append((id, microseconds(fromMilliseconds: end) - microseconds(fromMilliseconds: start)))
        }
        return out
    }
}

/// A baseline file that cannot be used: where and why.
public struct BaselineError: Error, Sendable, CustomStringConvertible {
    public var diagnostic: Diagnostic

    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }

    /// A problem in the baseline's content: `error: FILE: baseline results[1].metrics: …`.
    init(file: String, path: String = "", line: Int? = nil, column: Int? = nil, message: String) {
        diagnostic = Diagnostic(
            file: file, subject: "baseline", path: path, line: line, column: column, message: message)
    }

    /// `error: FILE: baseline results[1].metrics: expected an object, found an array`.
    public var description: String { diagnostic.description }
}
