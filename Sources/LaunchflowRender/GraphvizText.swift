/// Escaping for the strings Graphviz 2.42 post-processes, so that any task id
/// (any characters) comes out of the SVG exactly as written.
///
/// What Graphviz does to each attribute, found by trying (see the tests):
///
/// | attribute | Graphviz's processing | our escaping |
/// |---|---|---|
/// | `id` | `\N`, `\G`… substituted, `\\` → `\`; written to XML leaving `&…;` as is | ``id(_:)`` |
/// | `label` (plain) | `\N`… substituted; `&…;` entities decoded; `\n` `\l` `\r` break lines, `\x` → `x` | ``label(_:)`` |
/// | `tooltip` | entities decoded; `\n` `\l` → newline, `\x` → `x`; then `\N`… substituted, `\\` → `\` | ``tooltip(_:)`` |
/// | node name (SVG `<title>`) | written to XML leaving `&…;` as is | ``name(_:)`` |
/// | HTML-like label text | XML entities decoded; `\N`… substituted, `\\` → `\` | ``html(_:)`` |
///
/// Characters XML 1.0 cannot hold (C0 controls other than tab, line feed and
/// carriage return) are replaced by U+FFFD everywhere: an id containing one
/// cannot appear verbatim in an SVG.
public enum GraphvizText {
    /// An element `id`: the SVG element's id attribute will read `text`.
    public static func id(_ text: String) -> String {
        escapedForXML(text, doublingBackslashes: true)
    }

    /// A plain label line: shown exactly as `text` (a line feed in `text`
    /// starts a new line). Join lines with ``lineBreak``.
    public static func label(_ text: String) -> String {
        if isPlain(text) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "&": out += "&amp;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// A plain label from several lines, each shown exactly, centred.
    public static func label(lines: [String]) -> String {
        lines.map(label).joined(separator: lineBreak)
    }

    /// Line separators in a plain label: centred, left-aligned, right-aligned.
    public static let lineBreak = "\\n"
    public static let leftAlignedLineEnd = "\\l"
    public static let rightAlignedLineEnd = "\\r"

    /// A tooltip: shown exactly as `text`, line feeds included.
    public static func tooltip(_ text: String) -> String {
        if isPlain(text) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\\\\\"
            case "&": out += "&amp;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// A Graphviz node name (cgraph interns it as given; the SVG shows it as
    /// the element's `<title>`): `&` is written as `&amp;` so the title reads
    /// `text` and the SVG stays well-formed.
    public static func name(_ text: String) -> String {
        escapedForXML(text, doublingBackslashes: false)
    }

    /// `&` and line breaks and tabs as XML character references (so the SVG
    /// attribute or title reads `text`); backslashes doubled where Graphviz
    /// would otherwise expand `\N` and friends.
    private static func escapedForXML(_ text: String, doublingBackslashes: Bool) -> String {
        if isPlain(text) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where doublingBackslashes: out += "\\\\"
            case "&": out += "&amp;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// Text inside an HTML-like label: XML-escaped, backslashes doubled
    /// (Graphviz substitutes `\N`… there too), a line feed becomes `<BR/>`.
    public static func html(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "<BR/>"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// The string as XML 1.0 can hold it: forbidden control characters → U+FFFD.
    public static func xmlSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// No byte that any escaping above changes: backslash, `&`, control
    /// characters, or 0xEF (which starts U+FFFE and U+FFFF).
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x5C && $0 != 0x26 && $0 != 0xEF }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        out.unicodeScalars.append(isForbidden(scalar) ? "\u{FFFD}" : scalar)
    }
}
