/// A small, fast JSON emitter into bytes, so that the key order is fixed
/// (byte-identical on every run) and times print as exact decimal
/// milliseconds.
///
/// Objects and arrays are scopes: ``object(_:_:)`` and ``array(_:_:)`` open
/// one, run their body and close it, and inside it ``key(_:)`` (or a
/// `field`) and every value place the commas, colons and line breaks the
/// scope's ``JSONLayout`` calls for — callers never write punctuation.
///
/// ```swift
/// var w = JSONWriter()
/// w.object(.lines) { w in
///     w.field("scenario", "Article app")
///     w.field("runs", 3)
///     w.field("strategies", array: .compact) { w in for name in ["dag", "serial"] { w.string(name) } }
/// }
/// // {
/// //   "scenario": "Article app",
/// //   "runs": 3,
/// //   "strategies": ["dag", "serial"]
/// // }
/// ```
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// The innermost open object or array (`.topLevel` when none is open): kept
    /// apart from the others, so that a member's separator reads and counts it
    /// without touching an array.
    private var scope = Scope.topLevel
    /// The open objects and arrays around ``scope``, outermost first.
    private var outerScopes: [Scope] = []
    /// The indentation (spaces) of the line the innermost scope's members start on.
    private var indentation = 0

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Text as it is, outside any scope's punctuation: a line feed after the
    /// top-level value, or a value a caller has already written as JSON.
    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Bytes of JSON as they are (a value written by another writer).
    public mutating func raw(_ utf8: [UInt8]) { bytes.append(contentsOf: utf8) }

    /// The line feed after the top-level value.
    public mutating func newline() { bytes.append(0x0A) }

    /// A JSON string literal, escaped: `"` and `\\`, every C0 control
    /// (`\n`, `\r`, `\t` or `\u00XX`), DEL and the C1 controls (`\u007f`,
    /// `\u0080`…`\u009f`), so the output holds no raw control byte a
    /// terminal would act on.
    public mutating func string(_ text: String) {
        beforeValue()
        escaped(text)
    }

    private mutating func escaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        // C1 controls are U+0080…U+009F: in UTF-8, 0xC2 followed by 0x80…0x9F.
        let clean = text.withUTF8 { utf8 in
            for byte in utf8
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
                || byte == 0xC2
            {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if clean {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        func unicodeEscape(_ value: UInt32) {
            bytes.append(contentsOf: [
                0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(value >> 4 & 15)], hex[Int(value & 15)],
            ])
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: backslashed(0x22)
            case 0x5C: backslashed(0x5C)
            case 0x0A: backslashed(UInt8(ascii: "n"))
            case 0x0D: backslashed(UInt8(ascii: "r"))
            case 0x09: backslashed(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F...0x9F: unicodeEscape(scalar.value)
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A backslash and `byte`: an escape.
    private mutating func backslashed(_ byte: UInt8) {
        bytes.append(0x5C)
        bytes.append(byte)
    }

    /// `"key": ` with the key escaped, after the separator of the object it is in.
    public mutating func key(_ name: String) {
        separate()
        escaped(name)
        colon()
    }

    /// `"key": ` on a line of its own, `extra` spaces deeper than the
    /// object's members, whatever the object's layout.
    public mutating func key(_ name: String, onNewLineIndentedBy extra: Int) {
        separate(onNewLineIndentedBy: extra)
        escaped(name)
        colon()
    }

    /// `"key": ` after `, ` on the line of the member before it, whatever the object's layout (a
    /// group of short members on one line of an object written one member a line).
    public mutating func key(_ name: String, sameLine: Bool) {
        guard sameLine, scope.members > 0 else { return key(name) }
        scope.members += 1
        bytes.append(UInt8(ascii: ","))
        bytes.append(0x20)
        escaped(name)
        colon()
    }

    /// A key that needs no escaping, after the separator of the object it is in.
    public mutating func key(_ key: JSONKey) {
        separate()
        key.append(to: &bytes)
    }

    /// `: ` after a key.
    @inline(__always)
    private mutating func colon() {
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
    }

    public mutating func integer(_ value: Int) {
        beforeValue()
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt(value))
        }
    }

    /// Microseconds as exact decimal milliseconds (`133336` → `133.336`).
    public mutating func millis(_ micros: Micros) {
        beforeValue()
        // Written backwards into a small buffer, then appended at once.
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { buffer in
            var i = buffer.count
            var fraction = micros.magnitude % 1000
            if fraction != 0 {
                var places = 3
                while fraction % 10 == 0 {
                    fraction /= 10
                    places -= 1
                }
                for _ in 0..<places {
                    i -= 1
                    buffer[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
                    fraction /= 10
                }
                i -= 1
                buffer[i] = UInt8(ascii: ".")
            }
            i = Self.digits(of: micros.magnitude / 1000, before: i, in: buffer)
            if micros < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    /// A double in Swift's shortest round-trip form (valid JSON for finite values).
    public mutating func double(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            integer(Int(value))
        } else if value.isFinite {
            number(value.description)
        } else {
            null()
        }
    }

    public mutating func bool(_ value: Bool) {
        beforeValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// A number already written as JSON (a `UInt64` seed, a percentage formatted elsewhere).
    public mutating func number(_ text: String) { json(text) }

    /// A value already written as JSON text (a scenario key's value as its writer spells it).
    public mutating func json(_ text: String) {
        beforeValue()
        bytes.append(contentsOf: text.utf8)
    }

    /// A whole number beyond `Int`'s range (a seed up to 2⁶⁴ − 1).
    public mutating func integer(_ value: UInt64) { number(String(value)) }

    private mutating func unsigned(_ value: UInt) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { buffer in
            let first = Self.digits(of: value, before: buffer.count, in: buffer)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[first...]))
        }
    }

    /// Writes `value`'s decimal digits (at least one) backwards into `buffer`,
    /// ending just before `end`; returns the index of the first digit.
    @inline(__always)
    private static func digits(of value: UInt, before end: Int, in buffer: UnsafeMutableRawBufferPointer) -> Int {
        var i = end
        var v = value
        repeat {
            i -= 1
            buffer[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        } while v > 0
        return i
    }
}

/// A key written once as `"name": `, for the writers of many small objects
/// (the trace's events, a schedule's tasks): the same output as
/// ``JSONWriter/key(_:)`` with the name, appended in one piece from inline
/// storage — no escaping each time, no reference count. The name is a
/// literal of printable ASCII without a quote or a backslash, at most 28
/// bytes.
public struct JSONKey: Sendable {
    /// `"name": `, in the first `count` bytes.
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private let count: Int

    public init(_ name: StaticString) {
        let utf8 = name.withUTF8Buffer { Array($0) }
        precondition(
            utf8.count <= 28 && utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C },
            "a JSONKey is at most 28 bytes of printable ASCII without a quote or a backslash")
        let key = [UInt8(ascii: "\"")] + utf8 + [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20]
        count = key.count
        withUnsafeMutableBytes(of: &storage) { buffer in
            for (k, byte) in key.enumerated() { buffer[k] = byte }
        }
    }

    /// Appends `"name": ` to `bytes`.
    @inline(__always)
    func append(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: storage) { buffer in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

/// Where an object's or array's members go: on the line that opens it, or
/// each on a line of its own.
public struct JSONLayout: Sendable {
    /// Nil: the members on the opening line, after `, `; a number: each
    /// member on a line of its own, that many spaces deeper than the line
    /// that opens the scope.
    var lineIndent: Int?
    /// Inline members padded inside the brackets: `{ "a": 1 }`.
    var padded = false
    /// The first member stays on the opening line (`{"traceEvents": [`).
    var firstMemberInline = false
    /// The closing bracket on a line of its own (when there are members).
    var closesOnOwnLine = true
    /// …and when there are none: `[` and `]` on two lines.
    var breaksWhenEmpty = false

    /// `{"a": 1, "b": 2}`
    public static let compact = JSONLayout(lineIndent: nil)
    /// `{ "a": 1, "b": 2 }`
    public static let spaced = JSONLayout(lineIndent: nil, padded: true)
    /// Each member on a line of its own, two spaces deeper; `[]` or `{}` when empty.
    public static let lines = JSONLayout(lineIndent: 2)
    /// Each member on a line of its own, not indented (the trace's one event a line).
    public static let unindented = JSONLayout(lineIndent: 0)
    /// `lines`, whose closing bracket has a line of its own even when empty.
    public static let linesEvenWhenEmpty = JSONLayout(lineIndent: 2, breaksWhenEmpty: true)

    /// Members on lines of their own, `indent` spaces deeper; the first one
    /// on the opening line when `firstMemberInline`, the closing bracket
    /// after the last member when not `closesOnOwnLine`.
    public static func lines(indent: Int, firstMemberInline: Bool = false, closesOnOwnLine: Bool = true)
        -> JSONLayout
    {
        JSONLayout(lineIndent: indent, firstMemberInline: firstMemberInline, closesOnOwnLine: closesOnOwnLine)
    }
}

extension JSONWriter {
    /// An open object or array.
    fileprivate struct Scope {
        var layout: JSONLayout
        var isArray: Bool
        /// Outside every object and array: values need no separator.
        var isTopLevel = false
        var members = 0
        /// The indentation of the line that opened it.
        var outerIndentation: Int

        static let topLevel = Scope(layout: .compact, isArray: false, isTopLevel: true, outerIndentation: 0)
    }

    /// An object: `body` writes its members (``key(_:)`` or a `field`, then the value).
    @inlinable
    public mutating func object(_ layout: JSONLayout = .compact, _ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"), layout, isArray: false)
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// An array: `body` writes its elements, each a value.
    @inlinable
    public mutating func array(_ layout: JSONLayout = .compact, _ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["), layout, isArray: true)
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// An array of `elements`, each written by `element`.
    public mutating func array<S: Sequence>(
        _ layout: JSONLayout = .compact, _ elements: S, _ element: (inout JSONWriter, S.Element) -> Void
    ) {
        open(UInt8(ascii: "["), layout, isArray: true)
        for value in elements { element(&self, value) }
        close(UInt8(ascii: "]"))
    }

    /// `["a", "b"]`.
    public mutating func strings<S: Sequence<String>>(_ values: S, _ layout: JSONLayout = .compact) {
        array(layout, values) { w, value in w.string(value) }
    }

    // MARK: Fields: a key and its value.

    public mutating func field(_ key: JSONKey, _ value: String) {
        self.key(key)
        escaped(value)
    }

    public mutating func field(_ key: JSONKey, _ value: Int) {
        self.key(key)
        integer(value)
    }

    public mutating func field(_ key: JSONKey, millis micros: Micros) {
        self.key(key)
        millis(micros)
    }

    public mutating func field(_ key: JSONKey, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    public mutating func field(_ name: String, _ value: String) {
        key(name)
        escaped(value)
    }

    /// The string, or null.
    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { escaped(value) } else { null() }
    }

    public mutating func field(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    public mutating func field(_ name: String, _ value: Double) {
        key(name)
        double(value)
    }

    /// Microseconds as exact decimal milliseconds.
    public mutating func field(_ name: String, millis micros: Micros) {
        key(name)
        millis(micros)
    }

    /// Milliseconds, or null.
    public mutating func field(_ name: String, millis micros: Micros?) {
        key(name)
        if let micros { millis(micros) } else { null() }
    }

    /// `"name": ["a", "b"]`.
    public mutating func field<S: Sequence<String>>(_ name: String, strings values: S) {
        key(name)
        strings(values)
    }

    @inlinable
    public mutating func field(
        _ name: String, object layout: JSONLayout = .compact, _ body: (inout JSONWriter) -> Void
    ) {
        key(name)
        object(layout, body)
    }

    @inlinable
    public mutating func field(
        _ name: String, array layout: JSONLayout = .compact, _ body: (inout JSONWriter) -> Void
    ) {
        key(name)
        array(layout, body)
    }

    // MARK: Punctuation, placed by the scopes alone.

    @usableFromInline
    mutating func open(_ bracket: UInt8, _ layout: JSONLayout, isArray: Bool) {
        beforeValue()
        bytes.append(bracket)
        outerScopes.append(scope)
        scope = Scope(layout: layout, isArray: isArray, outerIndentation: indentation)
        if let step = layout.lineIndent { indentation += step }
    }

    @usableFromInline
    mutating func close(_ bracket: UInt8) {
        let scope = self.scope
        self.scope = outerScopes.removeLast()
        indentation = scope.outerIndentation
        if scope.members > 0 || scope.layout.breaksWhenEmpty {
            if scope.layout.lineIndent != nil {
                if scope.layout.closesOnOwnLine { newLine(indentation) }
            } else if scope.layout.padded {
                bytes.append(0x20)
            }
        }
        bytes.append(bracket)
    }

    /// Before a member of the innermost scope: its comma and its place.
    @inline(__always)
    private mutating func separate() {
        guard !scope.isTopLevel else { return }
        let first = scope.members == 0
        scope.members &+= 1
        if !first { bytes.append(UInt8(ascii: ",")) }
        if scope.layout.lineIndent == nil || (first && scope.layout.firstMemberInline) {
            if !first || scope.layout.padded { bytes.append(0x20) }
        } else {
            newLine(indentation)
        }
    }

    private mutating func separate(onNewLineIndentedBy extra: Int) {
        guard !scope.isTopLevel else { return }
        if scope.members > 0 { bytes.append(UInt8(ascii: ",")) }
        scope.members += 1
        newLine(indentation + extra)
    }

    /// A value: in an array, an element (its separator first); in an object, the value of the key just written.
    @inline(__always)
    private mutating func beforeValue() {
        if scope.isArray { separate() }
    }

    private mutating func newLine(_ spaces: Int) {
        bytes.append(0x0A)
        for _ in 0..<spaces { bytes.append(0x20) }
    }
}

extension JSONWriter {
    /// A metric's value as JSON: exact milliseconds for times.
    public mutating func metricValue(_ metric: Metric, of metrics: Metrics) {
        switch metric.info.value {
        case .time(let path): millis(metrics[keyPath: path])
        case .count(let path): integer(metrics[keyPath: path])
        case .ratio(let path): double(metrics[keyPath: path])
        }
    }
}
