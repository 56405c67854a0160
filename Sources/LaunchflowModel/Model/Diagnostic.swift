/// One finding about an input — a scenario, a baseline, a lint warning — and
/// where it is: the file, a JSON path and/or line and column, the task.
///
/// Every error and warning launchflow prints about its inputs is one of these,
/// in one form (``description``):
///
/// ```
/// error: FILE:LINE:COL: PATH (task 'x'): message; did you mean 'y'?
/// warning: FILE: tasks[2].dependsOn[0] (task 'feed'): …
/// error: FILE: baseline results[0]: missing key 'metrics'
/// ```
///
/// Each part appears only when known. Text from the input (ids, keys, names,
/// the file name) is escaped with ``escapedForTerminal(_:)``, so a diagnostic
/// is always one line and cannot move the cursor or change colours.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error, warning
    }

    /// What the problem is, for code that acts on it (the message is for people):
    /// match the kind, never the message's text.
    public enum Kind: String, Sendable {
        /// Any problem the other kinds do not name.
        case other
        /// An id or name given to two tasks, launch phases or clusters.
        case duplicateID
        /// A dependency on an id no task has.
        case unknownTask
        /// The same dependency listed twice in one task's `dependsOn`.
        case repeatedDependency
        /// A task that depends on itself.
        case selfDependency
        /// Dependencies that go round in a cycle.
        case dependencyCycle
    }

    public var severity: Severity
    public var kind: Kind
    /// The file as the user named it; empty for a scenario built in code.
    public var file: String
    /// What the file is, when it is not a scenario (`baseline`): printed before the path.
    public var subject: String?
    /// Where in the document: `tasks[3].dependsOn[0]`, `device.cores`; empty for the whole file.
    public var path: String
    /// The id of the task the problem is in, when known.
    public var taskID: String?
    /// 1-based line and column, for syntax errors.
    public var line: Int?
    public var column: Int?
    public var message: String
    /// What was probably meant: printed as `; did you mean 'x'?`.
    public var suggestion: String?

    public init(
        _ severity: Severity = .error, file: String, subject: String? = nil, path: String = "", taskID: String? = nil,
        line: Int? = nil, column: Int? = nil, message: String, suggestion: String? = nil, kind: Kind = .other
    ) {
        self.severity = severity
        self.kind = kind
        self.file = file
        self.subject = subject
        self.path = path
        self.taskID = taskID
        self.line = line
        self.column = column
        self.message = message
        self.suggestion = suggestion
    }

    /// `error: FILE:LINE:COL: SUBJECT PATH (task 'x'): message; did you mean 'y'?`, escaped.
    public var description: String {
        var parts: [String] = []
        if !file.isEmpty {
            var place = file
            if let line, let column { place += ":\(line):\(column)" }
            parts.append(place)
        }
        var at = [subject, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: " ")
        if !at.isEmpty, let taskID, !taskID.isEmpty { at += " (task '\(taskID)')" }
        if !at.isEmpty { parts.append(at) }
        parts.append(message + didYouMean(suggestion))
        return "\(severity.rawValue): " + escapedForTerminal(elidedForDiagnostic(parts.joined(separator: ": ")))
    }

    /// The same finding with another severity (`validate --strict` makes warnings errors).
    public func with(_ severity: Severity) -> Diagnostic {
        var copy = self
        copy.severity = severity
        return copy
    }
}

/// A scenario that cannot be used, with every problem found in it, in a
/// stable order (by position in the file, then in the order found).
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var problems: [Diagnostic]

    public init(_ problems: [Diagnostic]) { self.problems = problems }

    /// One line per problem, each starting with `error: `.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// `text` cut to at most about ``diagnosticLength`` characters (Unicode
/// scalars) for one line of a diagnostic: a name from an input may be
/// 100,000 characters long, and 200 diagnostics naming it would print
/// hundreds of megabytes. The start and the end are kept, the middle is
/// replaced by ` … (N characters left out) … `.
///
/// - Complexity: O(n) to count, O(1) more when nothing is cut.
public func elidedForDiagnostic(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > diagnosticLength else { return text }
    let head = scalars.prefix(diagnosticLength * 2 / 3)
    let tail = scalars.suffix(diagnosticLength / 4)
    var out = String.UnicodeScalarView()
    for scalar in head { out.append(scalar) }
    for scalar in " … (\(scalars.count - head.count - tail.count) characters left out) … ".unicodeScalars {
        out.append(scalar)
    }
    for scalar in tail { out.append(scalar) }
    return String(out)
}

/// The longest diagnostic line ``elidedForDiagnostic(_:)`` leaves whole, in characters.
public let diagnosticLength = 1200

/// `text` made safe to print on a terminal, on one line: control characters
/// (C0, DEL, C1), line and paragraph separators and the bidirectional
/// marks, embedding, override and isolate controls, and the noncharacters
/// U+FFFE and U+FFFF (which XML cannot hold) print as escapes — `\t`, `\n`,
/// `\r`, `\f`, `\b`, `\v`, `\0`, otherwise `\u{1B}` — and everything else as
/// is. The one escaping function for diagnostics: ids, keys and names come
/// from input files and may hold anything.
public func escapedForTerminal(_ text: String) -> String {
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF:
            true
        default: false
        }
    }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        guard needsEscape(scalar) else {
            out.append(scalar)
            continue
        }
        let escape: String
        switch scalar {
        case "\t": escape = "\\t"
        case "\n": escape = "\\n"
        case "\r": escape = "\\r"
        case "\u{0C}": escape = "\\f"
        case "\u{08}": escape = "\\b"
        case "\u{0B}": escape = "\\v"
        case "\0": escape = "\\0"
        default: escape = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
        // Scalar by scalar: `append(contentsOf:)` copies the whole view each
        // time, which made a long name of bidi controls quadratic.
        for character in escape.unicodeScalars { out.append(character) }
    }
    return String(out)
}
