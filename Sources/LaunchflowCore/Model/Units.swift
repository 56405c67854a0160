/// Microseconds as milliseconds in decimal, exactly: 133336 → "133.336",
/// 130000 → "130", 5 → "0.005". No floating point is involved.
public func formatMillis(_ micros: Micros) -> String {
    var text = ""
    appendMillis(micros, to: &text)
    return text
}

/// Appends `micros` as exact decimal milliseconds.
public func appendMillis(_ micros: Micros, to text: inout String) {
    let negative = micros < 0
    let magnitude = micros.magnitude
    if negative { text += "-" }
    text += String(magnitude / 1000)
    var fraction = magnitude % 1000
    guard fraction != 0 else { return }
    text += "."
    var divisor: UInt = 100
    while fraction != 0 {
        text += String(fraction / divisor)
        fraction %= divisor
        divisor /= 10
    }
}
