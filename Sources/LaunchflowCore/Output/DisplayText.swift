/// Text that came from a scenario (ids, names, descriptions), made safe to
/// print on a terminal or in a report: every control character is written as
/// a visible escape, so a file cannot rewrite the user's terminal (`ESC [ …`)
/// or split an error line.
///
/// `\t`, `\n`, `\r` and `\f` keep their short forms; every other C0 or C1
/// control character and DEL becomes `\u{XX}` (hex, upper case), as Swift
/// writes it: `"a\u{1B}[2Jb"` → `a\u{1B}[2Jb`.
///
/// - Complexity: O(n); returns `text` itself when there is nothing to escape.
public func displayEscaped(_ text: String, keepingLineFeeds: Bool = false) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingLineFeeds && $0 == "\n") }) else {
        return text
    }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        guard isControl(scalar), !(keepingLineFeeds && scalar == "\n") else {
            out.unicodeScalars.append(scalar)
            continue
        }
        switch scalar {
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\u{0C}": out += "\\f"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
        }
    }
    return out
}
