import LaunchflowCore

/// Measured times to first frame, for `launchflow calibrate`, from:
/// - Jetpack Macrobenchmark's `*-benchmarkData.json` (`benchmarks[].metrics.timeToInitialDisplayMs.runs`,
///   `StartupTimingMetric`; older versions call it `startupMs`);
/// - a MetricKit payload (`applicationLaunchMetrics.histogrammedTimeToFirstDrawKey`:
///   cold launches; resume and prewarmed launches are other keys);
/// - a plain `{"timeToFirstFrameMs": [412.4, 398.1, …]}`.
///
/// Statistics: for runs, percentiles interpolated between ranks
/// (``Percentile/interpolated(_:ofSorted:)``, as Macrobenchmark computes its
/// `median`); for a histogram, the midpoint of the bucket at rank ⌈p·N/100⌉
/// (``Histogram/percentile(_:)``).
public struct MeasuredLaunches: Sendable {
    public enum Source: String, Sendable {
        case macrobenchmark = "Macrobenchmark"
        case metricKit = "MetricKit"
        case list = "timeToFirstFrameMs list"
    }

    public var file: String
    public var source: Source
    /// What was read: `Macrobenchmark StartupBenchmark.startupCompilationNone, timeToInitialDisplayMs`.
    public var what: String
    /// The launches as (time in ms, how many): each run once, or each histogram bucket's midpoint.
    public var samples: [(ms: Double, count: Int)]
    public var count: Int
    public var median: Double
    public var p90: Double
    public var min: Double
    public var max: Double

    /// `Macrobenchmark StartupBenchmark.startupCompilationNone, timeToInitialDisplayMs`, `timeToFirstFrameMs`.
    public var description: String { source == .list ? what : "\(source.rawValue) \(what)" }

    /// Reads `path`; `benchmark` picks one of several Macrobenchmark benchmarks (name or class.name).
    public static func load(path: String, benchmark: String? = nil) throws(ImportError) -> MeasuredLaunches {
        let root = try readJSONFile(path, what: "measured launches (JSON)")
        if case .array(let values)? = root["timeToFirstFrameMs"] {
            return try list(values, file: path)
        }
        if case .array(let benchmarks)? = root["benchmarks"] {
            return try macrobenchmark(benchmarks, file: path, pick: benchmark)
        }
        var log = ImportLog()
        if let payload = MetricKitReader.read(root, file: path, log: &log) {
            guard let histogram = payload.timeToFirstDraw else {
                throw ImportError(
                    file: path,
                    "the MetricKit payload has no applicationLaunchMetrics.histogrammedTimeToFirstDrawKey (cold launches' time to first draw)"
                )
            }
            return MeasuredLaunches(histogram: histogram, file: path, payloads: payload.payloads)
        }
        if case .object = root, root["signpostMetrics"] == nil, root["applicationLaunchMetrics"] == nil {
            throw ImportError(
                file: path,
                "expected Macrobenchmark output ({\"benchmarks\": [...]}), a MetricKit payload or {\"timeToFirstFrameMs\": [...]}"
            )
        }
        throw ImportError(log)
    }

    private static func list(_ values: [JSONValue], file: String) throws(ImportError) -> MeasuredLaunches {
        var log = ImportLog()
        var runs: [Double] = []
        for (k, value) in values.enumerated() {
            guard let ms = measuredTime(value, file: file, at: "timeToFirstFrameMs[\(k)]", log: &log) else { continue }
            runs.append(ms)
        }
        if runs.isEmpty && !log.hasErrors {
            log.error(file, "no launches: the list is empty", at: "timeToFirstFrameMs")
        }
        if log.hasErrors { throw ImportError(log) }
        return MeasuredLaunches(runs: runs, file: file, source: .list, what: "timeToFirstFrameMs")
    }

    private static func macrobenchmark(_ benchmarks: [JSONValue], file: String, pick: String?) throws(ImportError)
        -> MeasuredLaunches
    {
        var found: [(name: String, metric: String, runs: [JSONValue], at: String)] = []
        for (k, benchmark) in benchmarks.enumerated() {
            let name = benchmark["name"]?.string ?? "benchmarks[\(k)]"
            let className = benchmark["className"]?.string
            let full = className.map { "\($0.split(separator: ".").last ?? "").\(name)" } ?? name
            for metric in ["timeToInitialDisplayMs", "startupMs"] {
                if case .array(let runs)? = benchmark["metrics"]?[metric]?["runs"] {
                    if let pick, pick != name, pick != full, pick != "\(className ?? "").\(name)" { break }
                    found.append((full, metric, runs, "benchmarks[\(k)].metrics.\(metric).runs"))
                    break
                }
            }
        }
        guard found.count == 1 else {
            if found.isEmpty {
                let which = pick.map { "named '\($0)' " } ?? ""
                throw ImportError(
                    file: file,
                    "no benchmark \(which)measures timeToInitialDisplayMs (StartupTimingMetric): nothing to calibrate against"
                )
            }
            throw ImportError(
                file: file,
                "several benchmarks measure the time to initial display: \(found.map { "'\($0.name)'" }.joined(separator: ", ")); pick one with --benchmark NAME"
            )
        }
        var log = ImportLog()
        var runs: [Double] = []
        for (k, value) in found[0].runs.enumerated() {
            guard let ms = measuredTime(value, file: file, at: "\(found[0].at)[\(k)]", log: &log) else { continue }
            runs.append(ms)
        }
        if runs.isEmpty && !log.hasErrors { log.error(file, "the benchmark has no runs", at: found[0].at) }
        if log.hasErrors { throw ImportError(log) }
        return MeasuredLaunches(
            runs: runs, file: file, source: .macrobenchmark, what: "\(found[0].name), \(found[0].metric)")
    }

    /// The longest launch a file may hold: an hour (3,600,000 ms), as a scenario's times.
    public static let maximumMs = 3_600_000.0

    /// A measured time in ms, range-checked where it is read: a number from 0
    /// to ``maximumMs``; otherwise nil after an error naming the file and place.
    private static func measuredTime(_ value: JSONValue, file: String, at place: String, log: inout ImportLog)
        -> Double?
    {
        guard case .number(let ms) = value else {
            log.error(file, "expected a time in ms (a number ≥ 0), found \(value.noun)", at: place)
            return nil
        }
        guard ms.isFinite, ms >= 0, ms <= maximumMs else {
            log.error(
                file,
                "expected a time in ms between 0 and \(formatNumber(maximumMs)) (an hour), found \(formatNumber(ms))",
                at: place)
            return nil
        }
        return ms
    }

    init(runs: [Double], file: String, source: Source, what: String) {
        let sorted = runs.sorted()
        self.file = file
        self.source = source
        self.what = what
        samples = runs.map { ($0, 1) }
        count = runs.count
        median = Percentile.interpolated(50.0, ofSorted: sorted)
        p90 = Percentile.interpolated(90.0, ofSorted: sorted)
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }

    init(histogram: Histogram, file: String, payloads: Int) {
        self.file = file
        source = .metricKit
        what = "histogrammedTimeToFirstDrawKey\(payloads > 1 ? " of \(payloads) payloads" : "")"
        let buckets = histogram.buckets.filter { $0.count > 0 }
        samples = buckets.map { (Double($0.midpoint) / 1e6, $0.count) }
        count = histogram.count
        median = Double(histogram.percentile(50)) / 1e6
        p90 = Double(histogram.percentile(90)) / 1e6
        min = Double(buckets.first?.start ?? 0) / 1e6
        max = Double(buckets.last?.end ?? 0) / 1e6
    }
}
