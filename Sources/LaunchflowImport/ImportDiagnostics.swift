import LaunchflowCore

/// Findings about the files `import` and `calibrate` read: errors (nothing is
/// written, exit 2), warnings and notes, each with the file and where in it.

/// One finding, printed as `error: FILE:LINE: WHERE: message`.
public struct ImportDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case error, warning, note

        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }
    }

    public var severity: Severity
    /// The file as the user named it.
    public var file: String
    /// 1-based line (and column, for JSON syntax errors); nil when it does not apply.
    public var line: Int?
    public var column: Int?
    /// Where beyond the line: `traceEvents[12] (ph 'E', tid 4123, ts 987350.5)`, `tasks[3].cost`.
    public var location: String?
    public var message: String

    public init(
        _ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, location: String? = nil,
        message: String
    ) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.location = location
        self.message = message
    }

    /// The line as printed; everything that came from an input file is
    /// escaped (``TerminalText/escape(_:)``), so a trace cannot drive the
    /// terminal, and a line longer than ``diagnosticLength`` characters loses
    /// its middle (``elidedForDiagnostic(_:)``).
    public var description: String {
        var text = "\(severity.rawValue): \(file)"
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let location { text += location + ": " }
        return TerminalText.escape(elidedForDiagnostic(text + message))
    }
}

/// Collects the findings of one command run, in the order found.
///
/// Keeps at most ``limit`` findings of each severity (a broken 200 MB trace
/// can have millions) and counts the rest.
public struct ImportLog: Sendable {
    public static let limit = 200
    public private(set) var diagnostics: [ImportDiagnostic] = []
    /// Findings beyond ``limit``, per severity.
    public private(set) var dropped: [ImportDiagnostic.Severity: Int] = [:]
    private var kept: [ImportDiagnostic.Severity: Int] = [:]

    public init() {}

    public var hasErrors: Bool { errorCount > 0 }
    public var errorCount: Int { kept[.error, default: 0] + dropped[.error, default: 0] }

    public mutating func add(_ diagnostic: ImportDiagnostic) {
        if kept[diagnostic.severity, default: 0] >= Self.limit {
            dropped[diagnostic.severity, default: 0] += 1
            return
        }
        kept[diagnostic.severity, default: 0] += 1
        diagnostics.append(diagnostic)
    }

    /// Counts `count` findings that were not kept.
    public mutating func countDropped(_ severity: ImportDiagnostic.Severity, _ count: Int) {
        dropped[severity, default: 0] += count
    }

    public mutating func error(_ file: String, _ message: String, line: Int? = nil, at location: String? = nil) {
        add(ImportDiagnostic(.error, file: file, line: line, location: location, message: message))
    }

    public mutating func warning(_ file: String, _ message: String, line: Int? = nil, at location: String? = nil) {
        add(ImportDiagnostic(.warning, file: file, line: line, location: location, message: message))
    }

    public mutating func note(_ file: String, _ message: String, line: Int? = nil, at location: String? = nil) {
        add(ImportDiagnostic(.note, file: file, line: line, location: location, message: message))
    }

    public mutating func append(contentsOf other: ImportLog) {
        for diagnostic in other.diagnostics { add(diagnostic) }
        for (severity, count) in other.dropped { dropped[severity, default: 0] += count }
    }

    /// Every finding, one line each (errors first, then warnings, then notes,
    /// each in the order found), then a count of those left out.
    public var text: String {
        var out = ""
        for severity in [ImportDiagnostic.Severity.error, .warning, .note] {
            for diagnostic in diagnostics where diagnostic.severity == severity { out += diagnostic.description + "\n" }
            if let more = dropped[severity], more > 0 {
                out += "\(severity.rawValue): … and \(more) more \(severity.rawValue)s like these\n"
            }
        }
        return out
    }
}

/// The input could not be used; ``log`` holds every finding (errors first).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var log: ImportLog

    public init(_ log: ImportLog) { self.log = log }

    public init(file: String, _ message: String, line: Int? = nil, at location: String? = nil) {
        var log = ImportLog()
        log.error(file, message, line: line, at: location)
        self.log = log
    }

    public var description: String { log.text }
}

/// Text from input files made safe to print on a terminal.
public enum TerminalText {
    /// `text` safe for a terminal: ``escapedForTerminal(_:)``, the one escaping
    /// function, so that a slice name cannot move the cursor, change colours
    /// or reorder the line.
    ///
    /// ```swift
    /// TerminalText.escape("a\u{1B}[31mb")   // "a\\u{1B}[31mb"
    /// ```
    public static func escape(_ text: String) -> String { escapedForTerminal(text) }
}

/// Nanoseconds: trace times keep fractional microseconds exactly (Chrome
/// traces write `5640.5` µs), and sums of them stay exact.
public typealias Nanos = Int64

/// Nanoseconds as exact decimal milliseconds: 5_640_500 → "5.6405".
public func formatMillis(nanos: Nanos) -> String {
    let negative = nanos < 0
    let magnitude = nanos.magnitude
    var text = (negative ? "-" : "") + String(magnitude / 1_000_000)
    var fraction = magnitude % 1_000_000
    if fraction != 0 {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        fraction = 0
        text += "." + digits
    }
    return text
}

/// Nanoseconds as exact decimal microseconds: 987_350_500 → "987350.5".
/// Any `Nanos` (no multiplication: a trace's largest times print too).
func formatMicros(nanos: Nanos) -> String {
    let negative = nanos < 0
    let magnitude = nanos.magnitude
    var text = (negative ? "-" : "") + String(magnitude / 1000)
    let fraction = magnitude % 1000
    if fraction != 0 {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
    }
    return text
}

/// The largest time or duration, in nanoseconds, read from a trace or a
/// measurement file: 4·10¹⁸ ns (about 127 years, so a trace's `ts` may count
/// from 1970). Two of them add or subtract without overflowing `Nanos`.
let maximumInputNanos: Nanos = 4_000_000_000_000_000_000
/// ``maximumInputNanos`` in µs, as messages print it.
let maximumInputMicrosText = "4e15"

/// A double in ms (or µs) to integer nanoseconds, nil when not finite or
/// beyond ±``maximumInputNanos``: the one conversion of input times.
func nanos(fromMilliseconds ms: Double) -> Nanos? {
    checkedNanos(ms * 1_000_000)
}

func nanos(fromMicroseconds us: Double) -> Nanos? {
    checkedNanos(us * 1000)
}

private func checkedNanos(_ value: Double) -> Nanos? {
    let value = value.rounded()
    guard value.isFinite, abs(value) <= Double(maximumInputNanos) else { return nil }
    return Nanos(value)
}

extension Nanos {
    /// `self + other`, held at `.max` (or `.min`) instead of overflowing: the
    /// sum of many long slices is then simply "too long" where it is checked.
    func addingSaturated(_ other: Nanos) -> Nanos {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

/// The largest cost a scenario accepts (MODEL.md §1): an hour.
let maximumCostNanos: Nanos = 3_600_000 * 1_000_000
