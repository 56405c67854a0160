import Foundation
import FoundationXML

/// Reads an Xcode Instruments export (`xctrace export --input X.trace --xpath …`)
/// with Foundation's `XMLParser` (libxml2), streaming: the rows are
/// interpreted one at a time as they close, and only the values that carry an
/// `id` (which later rows may reference) are kept.
///
/// The document (docs/import.md, "Recording on iOS"): `<trace-query-result>`
/// holds one `<node>` per exported table; a node's `<schema name=…>` lists its
/// `<col>`s (a node without one continues the previous node's table), then
/// `<row>`s whose k-th child is the value of the k-th column (`<sentinel/>`:
/// none). A value's first appearance carries `id="N"` and its content, at any
/// depth; later copies are `<tag ref="N"/>`. Times and durations are integer
/// nanoseconds from the start of the recording; `fmt` is a display string,
/// never parsed for numbers.
///
/// - Complexity: O(n) in the file size; memory O(values with an id) — the
///   rows themselves are not kept.
enum XctraceReader {
    /// Whether `bytes` start like XML (`<?xml`, a comment, or an element):
    /// the reader then says whether it is an Instruments export.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "<") else { return false }
        let next = bytes[i + 1]
        return next == UInt8(ascii: "?") || next == UInt8(ascii: "!") || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)
    }

    /// The export in `bytes`, or nil after recording errors in `log`.
    static func read(_ bytes: [UInt8], file: String, log: inout ImportLog) -> XctraceExport? {
        // xctrace writes UTF-8; Foundation's parser traps on names that are not
        // (libxml2 passes them on), so the bytes are checked first.
        if let bad = firstInvalidUTF8(bytes) {
            let line = bytes[..<bad].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            log.error(
                file,
                "not well-formed XML: byte \(bad) is not UTF-8 (a corrupt export?); nothing was imported", line: line)
            return nil
        }
        let reader = XMLDocumentReader(file: file)
        let ok = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            // No copy: the stream reads the bytes in place while the parser runs.
            let data = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none)
            let parser = XMLParser(stream: InputStream(data: data))
            parser.shouldResolveExternalEntities = false
            parser.delegate = reader
            return parser.parse()
        }
        log.append(contentsOf: reader.log)
        if !ok || reader.syntaxError != nil {
            let (line, column, message) = reader.syntaxError ?? (nil, nil, "the document ends too early")
            log.add(
                ImportDiagnostic(
                    .error, file: file, line: line, column: column,
                    message:
                        "not well-formed XML: \(message) (a truncated or corrupt export?); nothing was imported"))
            return nil
        }
        guard reader.sawRoot else {
            log.error(file, "not an Instruments export: the document has no element")
            return nil
        }
        guard !reader.log.hasErrors else { return nil }
        reader.tables.finishFile()
        return reader.tables.export
    }
}

/// The offset of the first byte that is not part of valid UTF-8, or nil.
///
/// - Complexity: O(n), no allocation.
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { b -> Int? in
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return i
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return i }
            for k in 2..<max(length, 2) where b[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}

/// The parser's delegate: the document's values (those a ref can reach),
/// the row being read, and the tables' interpretation of each row.
///
/// A class: `XMLParser` calls back a delegate object.
final class XMLDocumentReader: NSObject, XMLParserDelegate {
    let file: String
    var log = ImportLog()
    var tables: XctraceTables
    var syntaxError: (line: Int?, column: Int?, message: String)?
    var sawRoot = false

    /// Values of the document, in document order; a value's descendants follow
    /// it, up to ``XMLValue/end``.
    private(set) var values: [XMLValue] = []
    /// `id` → index into ``values`` (ids are small integers in practice: an array).
    private var idIndex: [Int32] = []
    private var otherIDs: [String: Int32] = [:]
    private var tags: [String: Int32] = [:]
    private(set) var tagNames: [String] = []
    /// Indices into ``values`` of the open elements of the current row.
    private var open: [Int32] = []
    private var text = ""
    private var depth = 0
    private var rowStart: Int32 = -1
    private var idsInRow = false
    /// Children of the row begun so far.
    private var cells = 0
    private var rowLine = 0
    /// The schema being read: its columns, the column open, the field open.
    private var schema: (name: String, columns: [XctraceColumn])? = nil
    private var column: XctraceColumn? = nil
    private var field: String? = nil
    private var failed = false

    init(file: String) {
        self.file = file
        tables = XctraceTables(file: file)
    }

    func tag(_ name: String) -> Int32 {
        if let number = tags[name] { return number }
        let number = Int32(tagNames.count)
        tagNames.append(name)
        tags[name] = number
        return number
    }

    // MARK: Parser callbacks

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        text = ""
        if failed { return }
        if depth == 1 {
            sawRoot = true
            if name != "trace-query-result" {
                let hint =
                    name == "trace-toc"
                    ? ": this is a table of contents (xctrace export --toc); export the tables with --xpath (docs/import.md, Recording on iOS)"
                    : ", expected <trace-query-result> (xctrace export --xpath …)"
                log.error(
                    file, "not an Instruments export: the root element is <\(name)>\(hint)", line: parser.lineNumber)
                failed = true
                parser.abortParsing()
            }
            return
        }
        if rowStart >= 0 {
            startValue(name, attributes, parser: parser)
            return
        }
        switch name {
        case "node":
            tables.startNode(line: parser.lineNumber)
        case "schema":
            schema = (attributes["name"] ?? "", [])
        case "col" where schema != nil:
            column = XctraceColumn()
        case "mnemonic", "engineering-type",
            "name" where column != nil:
            field = name
        case "row":
            rowStart = Int32(values.count)
            idsInRow = false
            cells = 0
            rowLine = parser.lineNumber
            values.append(XMLValue(tag: tag("row")))
            open = [rowStart]
        default:
            break
        }
    }

    private func startValue(_ name: String, _ attributes: [String: String], parser: XMLParser) {
        if open.count == 1 { cells += 1 }
        let index = Int32(values.count)
        var value = XMLValue(tag: tag(name))
        if let ref = attributes["ref"] {
            if let target = lookup(ref), values[Int(target)].end > target {
                value.ref = target
            } else {
                let known = lookup(ref) != nil
                value.ref = -2
                tables.cellProblem(
                    known
                        ? "<\(name) ref=\"\(ref)\"/> refers to an element that is not closed yet (an id inside itself)"
                        : "<\(name) ref=\"\(ref)\"/> refers to id \(ref), which no earlier element defines",
                    cell: cellIndex(), line: parser.lineNumber, log: &log)
            }
        }
        value.fmt = attributes["fmt"]
        if let id = attributes["id"] {
            define(id, index)
            idsInRow = true
        }
        values.append(value)
        open.append(index)
    }

    /// The 0-based cell (child of the row) being read.
    private func cellIndex() -> Int { cells - 1 }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if rowStart >= 0 || field != nil { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            depth -= 1
            text = ""
        }
        if failed { return }
        if rowStart >= 0 {
            guard let index = open.popLast() else { return }
            values[Int(index)].end = Int32(values.count)
            if index != rowStart {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { values[Int(index)].text = trimmed }
                return
            }
            tables.row(rowStart, in: self, line: rowLine, log: &log)
            if !idsInRow { values.removeSubrange(Int(rowStart)...) }
            rowStart = -1
            open = []
            return
        }
        switch name {
        case "mnemonic", "engineering-type",
            "name" where field == name:
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "mnemonic" { column?.mnemonic = value }
            if name == "engineering-type" { column?.engineeringType = value }
            if name == "name" { column?.name = value }
            field = nil
        case "col":
            if let column { schema?.columns.append(column) }
            column = nil
        case "schema":
            if let schema { tables.schema(schema.name, schema.columns, line: parser.lineNumber, log: &log) }
            schema = nil
        case "node":
            tables.endNode()
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard syntaxError == nil, !failed else { return }
        let code = (parseError as NSError).code
        syntaxError = (parser.lineNumber, parser.columnNumber, "libxml2 error \(code)\(Self.describe(code))")
    }

    /// A few of libxml2's error codes (`xmlParserErrors`) in words.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 4: ": the document is empty or not XML"
        case 5: ": the document ends too early"
        case 9: ": an invalid character"
        case 23, 26, 27: ": an entity that is not defined"
        case 38, 39, 40, 41: ": a malformed attribute"
        case 73, 76: ": an element is closed with the wrong tag, or not at all"
        case 77: ": the document ends inside an element"
        default: ""
        }
    }

    // MARK: Values

    private func define(_ id: String, _ index: Int32) {
        if let number = Int(id), number >= 0, number < 1 << 26 {
            if number >= idIndex.count {
                idIndex.append(contentsOf: repeatElement(-1, count: max(number + 1 - idIndex.count, idIndex.count)))
            }
            idIndex[number] = index  // a later definition replaces an earlier one
        } else {
            otherIDs[id] = index
        }
    }

    private func lookup(_ id: String) -> Int32? {
        if let number = Int(id), number >= 0, number < 1 << 26 {
            return number < idIndex.count && idIndex[number] >= 0 ? idIndex[number] : nil
        }
        return otherIDs[id]
    }

    /// The element `index` stands for: its definition when it is a ref.
    func resolved(_ index: Int32) -> Int32 {
        let ref = values[Int(index)].ref
        return ref >= 0 ? ref : index
    }

    /// The children of `index` (its definition's, when it is a ref), in order.
    func children(_ index: Int32) -> [Int32] {
        let node = resolved(index)
        var list: [Int32] = []
        var c = node + 1
        let end = values[Int(node)].end
        while c < end {
            list.append(c)
            c = max(values[Int(c)].end, c + 1)
        }
        return list
    }

    /// The first child of `index` with tag `name`, resolved.
    func child(_ index: Int32, _ name: String) -> Int32? {
        guard let number = tags[name] else { return nil }
        for c in children(index) where values[Int(c)].tag == number { return resolved(c) }
        return nil
    }

    func tagName(_ index: Int32) -> String { tagNames[Int(values[Int(index)].tag)] }
}

/// One element kept for refs (or of the row being read).
struct XMLValue {
    var tag: Int32
    /// Index past the element's last descendant in ``XMLDocumentReader/values``
    /// (equal to its own index while it is open).
    var end: Int32 = -1
    /// The element it stands for (`ref="N"`): -1 when none, -2 for an unknown id.
    var ref: Int32 = -1
    var text: String = ""
    var fmt: String? = nil
}

/// A `<col>` of a `<schema>`.
struct XctraceColumn: Equatable {
    var mnemonic = ""
    var name = ""
    var engineeringType = ""
}
