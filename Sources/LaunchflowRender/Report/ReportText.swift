import LaunchflowCore

/// Escaping for the report page: every string that came from a scenario goes
/// through one of these before it is written into HTML or the page's JSON.
enum ReportText {
    /// Text content or a double-quoted attribute value: `& < > " '` as
    /// entities, control characters as visible escapes (``displayEscaped(_:keepingLineFeeds:)``).
    static func html(_ text: String) -> String {
        let text = displayEscaped(text)
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JSON string literal that is also safe inside a `<script>` element:
    /// `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, so no `</script>`
    /// or `<!--` can appear (and U+FFFE, U+FFFF, which XML cannot hold). The string itself is kept exactly (control
    /// characters as JSON escapes; the page shows them escaped).
    static func json(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{FFFE}", "\u{FFFF}":
                out += unicodeEscape(scalar.value)
            default:
                if scalar.value < 0x20 { out += unicodeEscape(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Milliseconds as the tables print them: `formatMillis`.
    static func ms(_ micros: Micros) -> String { formatMillis(micros) }

    /// "+16.667", "−2", "±0" (milliseconds).
    static func signedMs(_ micros: Micros) -> String {
        (micros > 0 ? "+" : micros < 0 ? "−" : "±") + formatMillis(abs(micros))
    }
}
