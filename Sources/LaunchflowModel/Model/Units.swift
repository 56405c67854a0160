/// Microseconds as milliseconds in decimal, exactly: 133336 → "133.336",
/// 130000 → "130", 5 → "0.005". No floating point is involved; the digits
/// are those ``JSONWriter/millis(_:)`` writes into the JSON output.
public func formatMillis(_ micros: Micros) -> String {
    var writer = JSONWriter(capacity: 24)
    writer.millis(micros)
    return String(decoding: writer.bytes, as: UTF8.self)
}
