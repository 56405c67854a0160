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
