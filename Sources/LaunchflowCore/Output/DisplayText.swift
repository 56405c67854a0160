/// Text that came from a scenario (ids, names, descriptions), made safe to
/// print on a terminal or in a report: ``escapedForTerminal(_:)``, the one
/// escaping function, applied line by line when `keepingLineFeeds` (a
/// multi-line text report keeps its line breaks, each line escaped).
///
/// - Complexity: O(n); returns `text` itself when there is nothing to escape.
public func displayEscaped(_ text: String, keepingLineFeeds: Bool = false) -> String {
    guard keepingLineFeeds, text.contains("\n") else { return escapedForTerminal(text) }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { escapedForTerminal(String($0)) }
        .joined(separator: "\n")
}

/// Text from a scenario made safe inside Markdown (`compare --format
/// markdown`, `report.md`): on one line and terminal-safe
/// (``displayEscaped(_:keepingLineFeeds:)``), then `<`, `>` and `&` as HTML
/// entities (no raw HTML, no entity references) and every other character
/// Markdown gives a meaning inline — `\ ` * _ [ ] | ~ #` — escaped with a
/// backslash, so it reads as written wherever it stands (a heading, a table cell).
///
/// ```swift
/// markdownEscaped("App <img src=x onerror=alert(1)>")  // "App &lt;img src=x onerror=alert(1)&gt;"
/// markdownEscaped("*bold* | [link](x)")                 // "\\*bold\\* \\| \\[link\\](x)"
/// ```
///
/// - Complexity: O(n).
public func markdownEscaped(_ text: String) -> String {
    let text = displayEscaped(text)
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\\", "`", "*", "_", "[", "]", "|", "~", "#":
            out += "\\"
            out.unicodeScalars.append(scalar)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
