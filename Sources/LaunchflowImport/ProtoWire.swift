import LaunchflowCore

/// The protobuf wire format (protobuf.dev, "Encoding"), read without a
/// schema: a message is a run of fields, each a key — `field number << 3 |
/// wire type`, a varint — then its value. Just enough for
/// ``PerfettoReader``: varints, fixed 32- and 64-bit values, length-delimited
/// bytes (strings, nested messages, packed repeated fields); groups are
/// skipped.
///
/// Every read is bounds-checked against the end of the enclosing message, so
/// a truncated or corrupt buffer gives a ``ProtoError`` with its byte offset —
/// never a trap, and never a read past the end. Offsets are from the start of
/// the whole buffer.
struct ProtoReader {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5

        var name: String {
            switch self {
            case .varint: "varint"
            case .fixed64: "64-bit"
            case .lengthDelimited: "length-delimited"
            case .startGroup: "start-group"
            case .endGroup: "end-group"
            case .fixed32: "32-bit"
            }
        }
    }

    /// The whole buffer; it must outlive the reader.
    let base: UnsafePointer<UInt8>
    /// The next byte to read.
    private(set) var position: Int
    /// One past the last byte of this message.
    let end: Int

    init(base: UnsafePointer<UInt8>, range: Range<Int>) {
        self.base = base
        position = range.lowerBound
        end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func nextField() throws(ProtoError) -> (number: Int, type: WireType)? {
        guard position < end else { return nil }
        let start = position
        let key = try varint()
        let number = key >> 3
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtoError(offset: start, "a field key with the unknown wire type \(key & 7)")
        }
        guard number > 0, number < 1 << 29 else {
            throw ProtoError(offset: start, "a field key with the invalid field number \(number)")
        }
        return (Int(number), type)
    }

    mutating func varint() throws(ProtoError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else {
                throw ProtoError(offset: start, "a varint runs past the end of its message (at byte \(end))")
            }
            let byte = base[position]
            position += 1
            if shift == 63 && byte > 1 {
                throw ProtoError(offset: start, "a varint longer than 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func fixed64() throws(ProtoError) -> UInt64 {
        guard end - position >= 8 else {
            throw ProtoError(offset: position, "a 64-bit value runs past the end of its message (at byte \(end))")
        }
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(base[position + k]) << (8 * UInt64(k)) }
        position += 8
        return value
    }

    mutating func fixed32() throws(ProtoError) -> UInt32 {
        guard end - position >= 4 else {
            throw ProtoError(offset: position, "a 32-bit value runs past the end of its message (at byte \(end))")
        }
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(base[position + k]) << (8 * UInt32(k)) }
        position += 4
        return value
    }

    /// The byte range of a length-delimited value (its length read and checked).
    mutating func lengthDelimited() throws(ProtoError) -> Range<Int> {
        let start = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw ProtoError(
                offset: start,
                "a length of \(length) bytes runs past the end of its message (\(end - position) bytes are left)")
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// A nested message: a reader over its bytes.
    mutating func message() throws(ProtoError) -> ProtoReader {
        ProtoReader(base: base, range: try lengthDelimited())
    }

    /// A string (invalid UTF-8 is repaired, as the trace viewers do).
    mutating func string() throws(ProtoError) -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// The bytes of a length-delimited value.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Skips a value of `type` (a group with everything in it, to a bounded depth).
    mutating func skip(_ type: WireType, number: Int) throws(ProtoError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        case .startGroup:
            var open = [number]
            let start = position
            while let last = open.last {
                guard let field = try nextField() else {
                    throw ProtoError(offset: start, "group \(last) never ends (no end-group before the end)")
                }
                switch field.type {
                case .startGroup:
                    open.append(field.number)
                    if open.count > 64 { throw ProtoError(offset: position, "groups nested more than 64 deep") }
                case .endGroup:
                    guard field.number == last else {
                        throw ProtoError(offset: position, "end-group \(field.number) closes group \(last)")
                    }
                    open.removeLast()
                default: try skip(field.type, number: field.number)
                }
            }
        case .endGroup:
            throw ProtoError(offset: position, "an end-group (field \(number)) with no group open")
        }
    }

    // MARK: Typed values

    /// A field's value as an unsigned integer: a varint, or a fixed-width value.
    mutating func unsigned(_ type: WireType, field: Int, of message: String) throws(ProtoError) -> UInt64 {
        switch type {
        case .varint: return try varint()
        case .fixed64: return try fixed64()
        case .fixed32: return UInt64(try fixed32())
        default: throw wrongType(type, field: field, of: message, expected: "an integer")
        }
    }

    /// An `int32`/`int64` field (two's complement in a varint).
    mutating func signed(_ type: WireType, field: Int, of message: String) throws(ProtoError) -> Int64 {
        Int64(bitPattern: try unsigned(type, field: field, of: message))
    }

    /// A length-delimited field, checked to be one.
    mutating func delimited(_ type: WireType, field: Int, of message: String) throws(ProtoError) -> Range<Int> {
        guard type == .lengthDelimited else {
            throw wrongType(type, field: field, of: message, expected: "length-delimited")
        }
        return try lengthDelimited()
    }

    mutating func message(_ type: WireType, field: Int, of message: String) throws(ProtoError) -> ProtoReader {
        ProtoReader(base: base, range: try delimited(type, field: field, of: message))
    }

    mutating func string(_ type: WireType, field: Int, of message: String) throws(ProtoError) -> String {
        let range = try delimited(type, field: field, of: message)
        return String(decoding: bytes(range), as: UTF8.self)
    }

    /// A repeated integer field, one value (unpacked) or a packed run of varints.
    mutating func repeatedVarints(_ type: WireType, field: Int, of message: String, into values: inout [UInt64])
        throws(ProtoError)
    {
        if type == .lengthDelimited {
            var packed = ProtoReader(base: base, range: try lengthDelimited())
            while !packed.isAtEnd { values.append(try packed.varint()) }
        } else {
            values.append(try unsigned(type, field: field, of: message))
        }
    }

    /// A repeated `fixed64` field, one value or a packed run.
    mutating func repeatedFixed64(_ type: WireType, field: Int, of message: String, into values: inout [UInt64])
        throws(ProtoError)
    {
        if type == .lengthDelimited {
            let range = try lengthDelimited()
            guard range.count % 8 == 0 else {
                throw ProtoError(
                    offset: range.lowerBound,
                    "packed field \(field) of \(message) holds \(range.count) bytes, not a whole number of 64-bit values"
                )
            }
            var packed = ProtoReader(base: base, range: range)
            while !packed.isAtEnd { values.append(try packed.fixed64()) }
        } else {
            values.append(try unsigned(type, field: field, of: message))
        }
    }

    func wrongType(_ type: WireType, field: Int, of message: String, expected: String) -> ProtoError {
        ProtoError(
            offset: position, "field \(field) of \(message) has the wire type \(type.name), expected \(expected)")
    }
}

/// A protobuf buffer that cannot be read: what is wrong, at which byte.
struct ProtoError: Error {
    var offset: Int
    var message: String

    init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }
}
