/// The hover text of the SVG Graphviz writes: a browser shows an element's
/// `<title>`, and Graphviz fills it with the node's name — an internal id
/// (`lf-dag-commit-time-3`, `cluster_tier0`, `a->b`) for everything but the
/// tasks. After rendering, each node's, edge's and cluster's `<title>` becomes
/// its tooltip (the task's id and times, a commit's times…) or is removed
/// when it has none — except a task's whose tooltip was left out (its link
/// id would be another task's id): its title stays its name. The graph's own
/// title (the scenario's name) stays.
enum SVGHoverText {
    /// `svg` with its titles rewritten; bytes are unchanged when there is nothing to rewrite.
    ///
    /// - Complexity: O(n) in the size of the SVG.
    static func rewrite(_ svg: [UInt8]) -> [UInt8] {
        let lines = svg.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var out: [UInt8] = []
        out.reserveCapacity(svg.count)
        var seenGraphTitle = false
        for (k, line) in lines.enumerated() {
            if k > 0 { out.append(UInt8(ascii: "\n")) }
            guard line.starts(with: titleOpen), line.last == UInt8(ascii: ">") else {
                out.append(contentsOf: line)
                continue
            }
            if !seenGraphTitle {
                // The first title is the graph's: the picture's name.
                seenGraphTitle = true
                out.append(contentsOf: line)
                continue
            }
            if let tooltip = tooltip(after: k, in: lines) {
                out.append(contentsOf: titleOpen)
                out.append(contentsOf: tooltip)
                out.append(contentsOf: titleClose)
            } else if k > 0 && isTask(lines[k - 1]) {
                out.append(contentsOf: line)
            } else if k > 0 {
                out.removeLast()  // the line feed before the removed line
            }
        }
        return out
    }

    private static let titleOpen = Array("<title>".utf8)
    private static let titleClose = Array("</title>".utf8)
    private static let linkTitle = Array("<a xlink:title=\"".utf8)

    /// The `xlink:title` of the link that follows the title at line `k`, within the same element.
    private static func tooltip(after k: Int, in lines: [ArraySlice<UInt8>]) -> ArraySlice<UInt8>? {
        guard k + 1 < lines.count else { return nil }
        let next = lines[k + 1]
        // Graphviz writes `<g id="a_…"><a xlink:title="…">` on the line after the title.
        guard let start = firstRange(of: linkTitle, in: next) else { return nil }
        let value = next[start...]
        guard let end = value.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return next[start..<end]
    }

    private static let taskClass = Array("class=\"node task".utf8)

    /// Whether `line` opens a task's element.
    private static func isTask(_ line: ArraySlice<UInt8>) -> Bool { firstRange(of: taskClass, in: line) != nil }

    /// The index just after the first occurrence of `needle` in `haystack`.
    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i <= haystack.endIndex - needle.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) {
                return i + needle.count
            }
            i += 1
        }
        return nil
    }
}
