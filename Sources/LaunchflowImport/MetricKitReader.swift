import LaunchflowCore

/// Reads MetricKit payloads (`MXMetricPayload.jsonRepresentation()`, one
/// object, or an array of them as apps usually upload them): the duration
/// histogram of each interval signpost (`signpostMetrics[]`) and the
/// time-to-first-draw histogram of `applicationLaunchMetrics`.
///
/// The JSON names (Apple, MetricKit's encoder): `signpostName`,
/// `signpostIntervalData.histogrammedSignpostDurations`, and
/// `applicationLaunchMetrics.histogrammedTimeToFirstDrawKey` (resume and
/// prewarmed "optimized" launches are other keys, not cold launches). A
/// histogram is `histogramValue`: buckets keyed `"0"`, `"1"`, … (in any
/// order) or an array, each `{bucketStart, bucketEnd, bucketCount}` with
/// measurements written `"5 ms"`, `"1,000 ms"`, `"1.5 sec"`.
enum MetricKitReader {
    struct Payload {
        /// Signposts with intervals, in file order (payloads merged by name).
        var signposts: [(name: String, histogram: Histogram)] = []
        /// Cold launches' time to first draw, all payloads merged.
        var timeToFirstDraw: Histogram?
        /// How many payloads were read.
        var payloads = 0
    }

    /// Whether the root of `bytes` is (or holds) a MetricKit payload; cheap: looks for its keys.
    static func looksLikeMetricKit(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(1 << 20)
        return ["\"signpostMetrics\"", "\"applicationLaunchMetrics\"", "\"histogrammedTimeToFirstDraw"].contains {
            AtraceReader.contains(head, $0)
        } && !AtraceReader.contains(head, "\"traceEvents\"")
    }

    /// The payload(s) in `bytes`, or nil after recording errors in `log`.
    static func read(_ bytes: [UInt8], file: String, log: inout ImportLog) -> Payload? {
        guard let root = parseJSON(bytes, file: file, log: &log) else { return nil }
        return read(root, file: file, log: &log)
    }

    /// The payload(s) in a parsed document, or nil after recording errors in `log`.
    static func read(_ root: JSONValue, file: String, log: inout ImportLog) -> Payload? {
        var payload = Payload()
        var order: [String] = []
        var histograms: [String: Histogram] = [:]
        let errorsBefore = log.errorCount
        func readPayload(_ value: JSONValue, path: String) {
            guard case .object = value else {
                log.error(file, "expected a MetricKit payload (an object), found \(value.noun)", at: path)
                return
            }
            guard value["signpostMetrics"] != nil || value["applicationLaunchMetrics"] != nil else {
                if let kinds = diagnosticKinds(value) {
                    diagnostics.append((path, kinds))
                    return
                }
                log.error(
                    file, "not a MetricKit payload: it has neither 'signpostMetrics' nor 'applicationLaunchMetrics'",
                    at: path.isEmpty ? nil : path)
                return
            }
            payload.payloads += 1
            if case .array(let signposts)? = value["signpostMetrics"] {
                for (k, signpost) in signposts.enumerated() {
                    let at = "\(path.isEmpty ? "" : path + ".")signpostMetrics[\(k)]"
                    guard let name = signpost["signpostName"]?.string, !name.isEmpty else {
                        log.error(file, "a signpost without 'signpostName'", at: at)
                        continue
                    }
                    guard let durations = signpost["signpostIntervalData"]?["histogrammedSignpostDurations"] else {
                        log.warning(
                            file,
                            "signpost '\(name)' has no signpostIntervalData (an event signpost, not an interval): it has no duration and is skipped",
                            at: at)
                        continue
                    }
                    guard
                        let histogram = Histogram(
                            durations, file: file, at: at + ".signpostIntervalData.histogrammedSignpostDurations",
                            log: &log)
                    else {
                        continue
                    }
                    if histograms[name] == nil { order.append(name) }
                    histograms[name, default: Histogram()].merge(histogram)
                }
            }
            if let launch = value["applicationLaunchMetrics"] {
                let key = ["histogrammedTimeToFirstDrawKey", "histogrammedTimeToFirstDraw"].first { launch[$0] != nil }
                if let key,
                    let histogram = Histogram(
                        launch[key]!, file: file,
                        at: "\(path.isEmpty ? "" : path + ".")applicationLaunchMetrics.\(key)", log: &log)
                {
                    payload.timeToFirstDraw = (payload.timeToFirstDraw ?? Histogram()).merging(histogram)
                }
            }
        }
        var diagnostics: [(path: String, kinds: String)] = []
        switch root {
        case .array(let list):
            for (k, item) in list.enumerated() { readPayload(item, path: "[\(k)]") }
        default:
            readPayload(root, path: "")
        }
        if !diagnostics.isEmpty {
            let what = "a MetricKit diagnostic payload (\(diagnostics[0].kinds)): crashes and hangs, no launch metrics"
            if payload.payloads == 0 {
                log.error(
                    file,
                    "\(diagnostics.count == 1 ? what : "\(diagnostics.count) MetricKit diagnostic payloads (\(diagnostics[0].kinds), …): crashes and hangs, no launch metrics") — import reads metric payloads (MXMetricPayload) with applicationLaunchMetrics or signpostMetrics; nothing to import",
                    at: diagnostics.count == 1 && !diagnostics[0].path.isEmpty ? diagnostics[0].path : nil)
            } else {
                log.note(
                    file,
                    "\(plural(diagnostics.count, "MetricKit diagnostic payload")) beside the metric payloads (\(diagnostics.map(\.path).prefix(6).joined(separator: ", "))) \(diagnostics.count == 1 ? "is" : "are") not read: \(what)"
                )
            }
        }
        guard log.errorCount == errorsBefore else { return nil }
        payload.signposts = order.map { ($0, histograms[$0]!) }
        return payload
    }
}

/// What a MetricKit diagnostic payload (`MXDiagnosticPayload.jsonRepresentation()`)
/// holds, as `2 crashDiagnostics, 1 hangDiagnostics`; nil when `value` is not one
/// (no `…Diagnostics` array, nor a lone diagnostic with a `callStackTree`).
func diagnosticKinds(_ value: JSONValue) -> String? {
    guard case .object(let members) = value else { return nil }
    var kinds: [String] = []
    for (key, member) in members.sorted(by: { $0.key < $1.key }) where key.hasSuffix("Diagnostics") {
        if case .array(let list) = member { kinds.append("\(list.count) \(key)") }
    }
    if kinds.isEmpty, value["callStackTree"] != nil || value["diagnosticMetaData"] != nil {
        kinds.append("one diagnostic with its call-stack tree")
    }
    return kinds.isEmpty ? nil : kinds.joined(separator: ", ")
}

/// A histogram of durations: buckets `[start, end)` with counts, sorted by start.
struct Histogram: Sendable, Equatable {
    struct Bucket: Sendable, Equatable {
        var start: Nanos
        var end: Nanos
        var count: Int

        var midpoint: Nanos { (start + end) / 2 }
    }

    private(set) var buckets: [Bucket] = []

    init() {}

    init(buckets: [Bucket]) {
        self.buckets = buckets.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// The number of values (held at `Int.max` rather than overflowing).
    var count: Int {
        buckets.reduce(0) { sum, bucket in
            let (total, overflow) = sum.addingReportingOverflow(bucket.count)
            return overflow ? .max : total
        }
    }

    /// The `p`-th percentile (0 < p ≤ 100): the midpoint of the bucket holding
    /// rank ⌈p·N/100⌉ of the N values (buckets in ascending order) — the
    /// bucket's middle, since where in it the value lies is unknown.
    func percentile(_ p: Int) -> Nanos {
        let n = count
        guard n > 0 else { return 0 }
        // ⌈p·n/100⌉ without forming p·n (n may be near Int.max).
        let rank = max(n / 100 * p + (n % 100 * p + 99) / 100, 1)
        var cumulative = 0
        for bucket in buckets {
            cumulative += bucket.count
            if cumulative >= rank { return bucket.midpoint }
        }
        return buckets.last!.midpoint
    }

    /// Adds another histogram's counts (buckets with the same bounds add up).
    mutating func merge(_ other: Histogram) { self = merging(other) }

    func merging(_ other: Histogram) -> Histogram {
        var list = buckets
        for bucket in other.buckets {
            if let k = list.firstIndex(where: { $0.start == bucket.start && $0.end == bucket.end }) {
                let (total, overflow) = list[k].count.addingReportingOverflow(bucket.count)
                list[k].count = overflow ? .max : total
            } else {
                list.append(bucket)
            }
        }
        return Histogram(buckets: list)
    }

    /// Reads a MetricKit histogram (`{histogramNumBuckets, histogramValue}`).
    init?(_ value: JSONValue, file: String, at path: String, log: inout ImportLog) {
        let entries: [(String, JSONValue)]
        switch value["histogramValue"] {
        case .object(let members)?: entries = members.map { ($0.key, $0.value) }
        case .array(let items)?: entries = items.enumerated().map { (String($0.offset), $0.element) }
        default:
            log.error(file, "a histogram needs 'histogramValue' (its buckets)", at: path)
            return nil
        }
        var buckets: [Bucket] = []
        var ok = true
        for (key, entry) in entries {
            let at = "\(path).histogramValue[\"\(key)\"]"
            guard case .number(let count)? = entry["bucketCount"], count >= 0, count.rounded() == count,
                count <= Double(Self.maximumBucketCount)
            else {
                let found = entry["bucketCount"].map { value -> String in
                    if case .number(let n) = value { return formatNumber(n) }
                    return value.noun
                }
                log.error(
                    file,
                    "'bucketCount' must be a whole number from 0 to \(formatNumber(Double(Self.maximumBucketCount))), found \(found ?? "nothing")",
                    at: at)
                ok = false
                continue
            }
            guard let start = entry["bucketStart"].flatMap(Self.duration),
                let end = entry["bucketEnd"].flatMap(Self.duration)
            else {
                log.error(
                    file,
                    "'bucketStart' and 'bucketEnd' must be durations such as \"5 ms\", at most an hour", at: at)
                ok = false
                continue
            }
            guard end >= start else {
                log.error(file, "the bucket ends before it starts", at: at)
                ok = false
                continue
            }
            buckets.append(Bucket(start: start, end: end, count: Int(count)))
        }
        guard ok else { return nil }
        guard buckets.contains(where: { $0.count > 0 }) else {
            log.warning(file, "the histogram is empty (no counts); skipped", at: path)
            return nil
        }
        self.init(buckets: buckets)
    }

    /// The most launches one bucket may count (10¹²): sums of many stay far from overflowing.
    static let maximumBucketCount = 1_000_000_000_000

    /// `"5 ms"`, `"1,000 ms"`, `"1.5 sec"`, `"250 µs"` (or a bare number of ms) → nanoseconds;
    /// nil beyond an hour (``maximumCostNanos``), the longest time a scenario holds.
    static func duration(_ value: JSONValue) -> Nanos? {
        guard let nanos = anyDuration(value), nanos <= maximumCostNanos else { return nil }
        return nanos
    }

    private static func anyDuration(_ value: JSONValue) -> Nanos? {
        if case .number(let ms) = value { return ms >= 0 ? nanos(fromMilliseconds: ms) : nil }
        guard let text = value.string else { return nil }
        var number = ""
        var unit = ""
        for character in text {
            if unit.isEmpty, character.isNumber || character == "." {
                number.append(character)
            } else if unit.isEmpty,
                character == "," || character == " " || character == "\u{202F}" || character == "\u{A0}"
            {
                continue
            } else {
                unit.append(character)
            }
        }
        guard let amount = Double(number), amount >= 0 else { return nil }
        let factor: Double
        switch unit.trimmingSpaces.lowercased() {
        case "ms", "": factor = 1
        case "s", "sec", "secs", "second", "seconds": factor = 1000
        case "µs", "μs", "us": factor = 0.001
        case "min": factor = 60_000
        case "ns": factor = 0.000_001
        default: return nil
        }
        return nanos(fromMilliseconds: amount * factor)
    }
}
