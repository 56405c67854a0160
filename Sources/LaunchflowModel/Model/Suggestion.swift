import Foundation

/// "Did you mean" suggestions for misspelt keys, ids, options and commands.

/// The candidate closest to `word`, if one is close enough to be a likely typo:
/// the same text in another case, or an edit distance of at most
/// `max(1, min(3, word.count / 3))`. Ties go to the earlier candidate.
///
/// - Complexity: O(c × k) for c candidates and a word of length k (the
///   distance is computed in a band of width 7); candidates whose length
///   differs too much are skipped at once.
public func closestMatch(to word: String, in candidates: some Sequence<String>) -> String? {
    let target = Array(word.unicodeScalars)
    let limit = max(1, min(3, target.count / 3))
    let lowered = word.lowercased()
    var best: (name: String, distance: Int)?
    for candidate in candidates {
        if candidate == word { continue }
        if candidate.lowercased() == lowered { return candidate }
        let other = Array(candidate.unicodeScalars)
        if abs(other.count - target.count) > limit { continue }
        let d = editDistance(target, other, limit: limit)
        if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
    }
    return best?.name
}

/// The optimal-string-alignment distance (Levenshtein plus swaps of two
/// neighbours, so `cots` → `cost` is one edit), or `limit + 1` once it must
/// exceed `limit`.
///
/// Only the cells within `limit` of the diagonal are computed (a path that
/// leaves that band costs more than `limit`), so two ids of 100,000
/// characters compare in a moment.
///
/// - Complexity: O(n × limit) for strings of length n.
package func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let beyond = limit + 1
    // Rows i-2, i-1 and i; a cell outside the band holds `beyond`.
    var beforePrevious = [Int](repeating: beyond, count: b.count + 1)
    var previous = [Int](repeating: beyond, count: b.count + 1)
    var current = [Int](repeating: beyond, count: b.count + 1)
    for j in 0...min(b.count, limit) { previous[j] = j }
    for i in 1...a.count {
        let low = max(1, i - limit)
        let high = min(b.count, i + limit)
        current[0] = i <= limit ? i : beyond
        if low > 1 { current[low - 1] = beyond }  // left of the band: stale from row i-3
        var rowMin = current[0]
        if low <= high {
            for j in low...high {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var best = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, beforePrevious[j - 2] + 1)
                }
                best = min(best, beyond)
                current[j] = best
                rowMin = min(rowMin, best)
            }
        }
        if rowMin > limit { return beyond }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return min(previous[b.count], beyond)
}

/// The one form of every suggestion: `"; did you mean 'x'?"` for a match, the
/// empty string for none.
public func didYouMean(_ match: String?) -> String {
    guard let match else { return "" }
    return "; did you mean '\(match)'?"
}

/// The suggestion suffix for the candidate closest to `word` (see ``closestMatch(to:in:)``).
public func didYouMean(_ word: String, in candidates: some Sequence<String>) -> String {
    didYouMean(closestMatch(to: word, in: candidates))
}

/// For a file that does not exist: the closest name in its folder (the folder
/// as written, with the name in it), e.g. `scenarios/article.json` for
/// `scenarios/articel.json`; nil when none is close or the folder cannot be read.
///
/// - Complexity: one listing of the folder; names of other lengths are skipped at once.
public func closestExistingFile(to path: String) -> String? {
    let slash = path.lastIndex(of: "/")
    var folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard !name.isEmpty else { return nil }
    func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
    if folder.count > 1 && !isFolder(folder) {
        // A typo in a folder's name: scenario/article.json → scenarios/article.json.
        guard let fixed = closestExistingFile(to: String(folder.dropLast())), isFolder(fixed) else { return nil }
        folder = fixed + "/"
        if FileManager.default.fileExists(atPath: folder + name) { return folder + name }
    }
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)
    else { return nil }
    // The name's stem and extension are compared apart, so that a long
    // extension does not make short, unrelated names look close.
    func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }
    let (stem, ext) = split(name)
    let sorted = entries.sorted()
    // A typo in the stem, same extension: articel.json → article.json.
    let sameExtension = sorted.filter { split($0).ext == ext }
    if let match = closestMatch(to: stem, in: sameExtension.map { split($0).stem }) {
        return folder + match + ext
    }
    // A typo in the extension, same stem: modules.jsn → modules.json.
    return closestMatch(to: name, in: sorted.filter { split($0).stem == stem }).map { folder + $0 }
}
