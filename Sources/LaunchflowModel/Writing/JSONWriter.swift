/// A small, fast JSON emitter into bytes: the output is built by hand so that
/// the key order is fixed (byte-identical on every run) and times print as
/// exact decimal milliseconds.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    public mutating func raw(_ byte: UInt8) { bytes.append(byte) }

    /// Bytes as they are (UTF-8 prepared once for a loop).
    public mutating func raw(_ utf8: [UInt8]) { bytes.append(contentsOf: utf8) }

    /// A JSON string literal, escaped: `"` and `\\`, every C0 control
    /// (`\n`, `\r`, `\t` or `\u00XX`), DEL and the C1 controls (`\u007f`,
    /// `\u0080`…`\u009f`), so the output holds no raw control byte a
    /// terminal would act on.
    public mutating func string(_ text: String) {
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
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F...0x9F: unicodeEscape(scalar.value)
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"key": ` with the key escaped.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(contentsOf: [UInt8(ascii: ":"), 0x20])
    }

    public mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt(value))
        }
    }

    /// Microseconds as exact decimal milliseconds (`133336` → `133.336`).
    public mutating func millis(_ micros: Micros) {
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
            raw(value.description)
        } else {
            raw("null")
        }
    }

    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

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
