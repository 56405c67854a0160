/// Every task's `dependsOn` entries as the decoder read them, in one flat
/// list: an id without an escape is kept as its place in the document (ASCII
/// ids are then resolved from their bytes, without making a string), any other
/// id as its text, and an element that was not a string as a gap that keeps
/// the positions of the others.
package struct DependencyEntries {
    package enum Entry {
        /// An ASCII id without an escape: `document[range]`.
        case ascii(Range<Int>)
        /// Any other id, decoded.
        case text(String)
        /// An element that was not a string (already reported).
        case notAString
    }

    /// The document the `.ascii` ranges point into.
    package let document: [UInt8]
    private(set) var entries: [Entry] = []
    /// Task k's entries are `entries[starts[k]..<starts[k + 1]]`.
    private var starts: [Int] = [0]

    package init(document: [UInt8]) { self.document = document }

    package mutating func append(_ id: JSONReader.Key) {
        if id.isASCII {
            entries.append(.ascii(id.range))
        } else {
            entries.append(.text(id.unescaped ?? String(decoding: document[id.range], as: UTF8.self)))
        }
    }

    package mutating func appendNotAString() { entries.append(.notAString) }

    /// Closes the current task's list (every task has one, maybe empty).
    package mutating func endTask() { starts.append(entries.count) }

    /// The positions of task `task`'s entries in ``entries``.
    package func range(of task: Int) -> Range<Int> {
        task + 1 < starts.count ? starts[task]..<starts[task + 1] : 0..<0
    }

    /// Task `task`'s ids as strings (nil for an element that was not a string).
    package func names(of task: Int) -> [String?] {
        entries[range(of: task)].map { entry in
            switch entry {
            case .ascii(let range): String(decoding: document[range], as: UTF8.self)
            case .text(let text): text
            case .notAString: nil
            }
        }
    }
}
