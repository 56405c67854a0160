/// A pull parser over the bytes of a JSON document (RFC 8259).
///
/// The scenario decoder walks the document with it and decodes values
/// straight into the model, so no intermediate tree is built: a 100 MB
/// scenario costs one pass over its bytes. Syntax errors throw
/// ``JSONSyntaxError`` with the byte offset; line and column are worked out
/// only when an error is reported.
///
/// At `package` access: LaunchflowImport's trace and measurement readers use
/// it too.
///
/// - Complexity: O(n) in the document size.
package struct JSONReader {
    package enum ValueKind: Equatable {
        case object, array, string, number, bool, null

        package var noun: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    /// A number as written: its value and whether it was an integral value.
    package struct Number {
        package var value: Double
        /// The value is finite and has no fractional part (`4` and `4.0` both are).
        package var isIntegral: Bool { value.isFinite && value.rounded(.towardZero) == value }
    }

    /// Objects and arrays nested deeper than this are rejected: parsing
    /// recurses, and a hostile file must not exhaust the stack.
    package static let maxDepth = 512

    /// 10⁰ … 10¹⁵, each exact in a double.
    private static let powersOfTen: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    package let bytes: [UInt8]
    package private(set) var offset: Int = 0
    private var depth = 0

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is tolerated, as most editors may write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    }

    // MARK: Structure

    /// The kind of the next value, after skipping white space.
    package mutating func peekKind() throws(JSONSyntaxError) -> ValueKind {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("unexpected character \(describe(bytes[offset])), expected a value")
        }
    }

    /// The byte offset of the next value (after white space).
    package mutating func valueOffset() -> Int {
        skipWhitespace()
        return offset
    }

    /// An object member's key (or a string value) as read: where it is, and its
    /// text only when it had to be decoded (an escape). Most keys are matched by
    /// their bytes (``withBytes(of:_:)``) without making a string.
    package struct Key {
        /// The offset of the key's opening quote.
        package var offset: Int
        /// The key's UTF-8 in the document (between the quotes) when it has no escape.
        package var range: Range<Int>
        /// Whether the key is written without an escape and all ASCII: its bytes
        /// are then its text, and equal (as Swift compares strings) only to itself.
        package var isASCII: Bool
        /// The decoded key, when it had an escape.
        package var unescaped: String?
    }

    /// Calls `body` with the bytes of an ASCII `key` (``Key/isASCII``), in place.
    package func withBytes<Result>(of key: Key, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        precondition(key.isASCII, "only an ASCII key is matched by its bytes")
        return bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[key.range])) }
    }

    /// `key` as a string.
    package func text(of key: Key) -> String {
        key.unescaped ?? String(decoding: bytes[key.range], as: UTF8.self)
    }

    /// Iterates over an object's members; `body` must consume each member's value.
    package mutating func readObject(
        _ body: (inout JSONReader, _ key: String, _ keyOffset: Int) throws -> Void
    ) throws {
        try readMembers { r, key in try body(&r, r.text(of: key), key.offset) }
    }

    /// Iterates over an object's members, giving each key as a ``Key``; `body`
    /// must consume each member's value.
    package mutating func readMembers(_ body: (inout JSONReader, _ key: Key) throws -> Void) throws {
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw atCurrent("expected a string key")
            }
            let key = try readKey()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                throw atCurrent("expected ':' after key \"\(text(of: key))\"")
            }
            offset += 1
            try body(&self, key)
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return
            }
            throw atCurrent("expected ',' or '}' after an object member")
        }
    }

    /// Iterates over an array's elements; `body` gets the element index and must consume it.
    package mutating func readArray(_ body: (inout JSONReader, _ index: Int) throws -> Void) throws {
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return
        }
        var index = 0
        while true {
            try body(&self, index)
            index += 1
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return
            }
            throw atCurrent("expected ',' or ']' after an array element")
        }
    }

    /// Reads and discards any value, checking its syntax.
    package mutating func skipValue() throws {
        switch try peekKind() {
        case .object: try readObject { reader, _, _ in try reader.skipValue() }
        case .array: try readArray { reader, _ in try reader.skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    /// Checks that nothing but white space follows the top-level value.
    package mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if offset < bytes.count { throw atCurrent("unexpected \(describe(bytes[offset])) after the top-level value") }
    }

    // MARK: Scalars

    package mutating func readBool() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw atCurrent("invalid literal, expected true or false")
    }

    package mutating func readNull() throws(JSONSyntaxError) {
        skipWhitespace()
        if !matchLiteral("null") { throw atCurrent("invalid literal, expected null") }
    }

    package mutating func readNumber() throws(JSONSyntaxError) -> Number {
        skipWhitespace()
        let start = offset
        var i = offset
        let n = bytes.count
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < n, isDigit(bytes[i]) else { throw error("invalid number: expected a digit", at: i) }
        var mantissa: UInt64 = 0
        var digits = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < n, isDigit(bytes[i]) { throw error("invalid number: leading zero", at: start) }
            digits = 1
        } else {
            while i < n, isDigit(bytes[i]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48) }
                digits += 1
                i += 1
            }
        }
        var simple = true
        var fractionDigits = 0
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, isDigit(bytes[i]) else { throw error("invalid number: expected a digit after '.'", at: i) }
            while i < n, isDigit(bytes[i]) {
                if digits + fractionDigits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48) }
                fractionDigits += 1
                i += 1
            }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            simple = false
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, isDigit(bytes[i]) else {
                throw error("invalid number: expected a digit in the exponent", at: i)
            }
            while i < n, isDigit(bytes[i]) { i += 1 }
        }
        offset = i
        // Up to 15 significant digits without an exponent: the digits and the
        // power of ten are exact doubles, so one division is correctly rounded,
        // as strtod is (Clinger's fast path) — no need for a string.
        if simple, digits + fractionDigits <= 15 {
            let magnitude = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return Number(value: negative ? -magnitude : magnitude)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        // Swift's parser is correctly rounded and gives ±infinity beyond the double range.
        return Number(value: Double(text) ?? .nan)
    }

    /// A string value as read, like a key (``Key``): its bytes in the document
    /// when it has no escape, else its decoded text.
    package mutating func readRawString() throws(JSONSyntaxError) -> Key {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw atCurrent("expected a string") }
        return try readKey()
    }

    /// A key at the current offset (an opening quote): scanned in place, with
    /// the checks ``readString()`` makes; decoded by it when it has an escape.
    private mutating func readKey() throws(JSONSyntaxError) -> Key {
        let keyOffset = offset
        let start = offset + 1
        var i = start
        var ascii = true
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                if !ascii { _ = try makeString(start..<i, at: start) }  // validates the UTF-8
                offset = i + 1
                return Key(offset: keyOffset, range: start..<i, isASCII: ascii, unescaped: nil)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character in string (escape it)", at: i) }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        let text = try readString()
        return Key(offset: keyOffset, range: start..<start, isASCII: false, unescaped: text)
    }

    package mutating func readString() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw atCurrent("expected a string") }
        let start = offset + 1
        var i = start
        let n = bytes.count
        // Fast path: no escapes.
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                offset = i + 1
                return try makeString(start..<i, at: start)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("control character in string (escape it)", at: i) }
            i += 1
        }
        guard i < n else { throw error("unterminated string", at: start - 1) }
        var buffer = Array(bytes[start..<i])
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                offset = i + 1
                return try buffer.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                    try makeString(buffer, at: start)
                }
            }
            if b < 0x20 { throw error("control character in string (escape it)", at: i) }
            if b != UInt8(ascii: "\\") {
                buffer.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < n else { break }
            switch bytes[i] {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4(at: i + 1)
                i += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 2 < n, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape", at: i - 5)
                    }
                    let low = try readHex4(at: i + 3)
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("unpaired surrogate in \\u escape", at: i - 5)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape", at: i - 5)
                }
                buffer.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
            default:
                throw error("invalid escape \\\(String(decoding: [bytes[i]], as: UTF8.self))", at: i - 1)
            }
            i += 1
        }
        throw error("unterminated string", at: start - 1)
    }

    // MARK: Helpers

    private mutating func enter() throws(JSONSyntaxError) {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        depth += 1
    }

    /// The string of UTF-8 `bytes[range]`.
    private func makeString(_ range: Range<Int>, at start: Int) throws(JSONSyntaxError) -> String {
        // Through a buffer pointer: a slice of `bytes` would retain and release the document.
        try bytes.withUnsafeBufferPointer { all throws(JSONSyntaxError) in
            try makeString(UnsafeBufferPointer(rebasing: all[range]), at: start)
        }
    }

    /// The string of UTF-8 `buffer`; ASCII (the common case) needs no validation.
    private func makeString(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONSyntaxError) -> String {
        var ascii = true
        for byte in buffer where byte >= 0x80 {
            ascii = false
            break
        }
        let text = ascii ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
        guard let text else { throw error("invalid UTF-8 in string", at: start) }
        return text
    }

    private func readHex4(at position: Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("invalid \\u escape", at: position - 2) }
        var value: UInt32 = 0
        for k in 0..<4 {
            let b = bytes[position + k]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - 55)
            default: throw error("invalid \\u escape", at: position - 2)
            }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == byte else {
            throw atCurrent("expected '\(String(decoding: [byte], as: UTF8.self))'")
        }
        offset += 1
    }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<count where bytes[offset + k] != p[k] { return false }
        offset += count
        return true
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(String(decoding: [byte], as: UTF8.self))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func atCurrent(_ message: String) -> JSONSyntaxError {
        if offset >= bytes.count { return error("unexpected end of input, \(message)") }
        return error(message)
    }

    private func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: min(position ?? offset, bytes.count), message: message)
    }
}

/// A JSON syntax error at a byte offset.
package struct JSONSyntaxError: Error {
    package var offset: Int
    package var message: String

    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// 1-based line and column (in characters) of `offset` in `bytes`.
    package func location(in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }
}
