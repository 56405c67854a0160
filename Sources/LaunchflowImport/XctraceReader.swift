import Foundation

#if canImport(FoundationXML)
    import FoundationXML  // swift-corelibs-foundation's XMLParser; on Darwin it is in Foundation
#endif

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
            notUTF8(at: bad, line: line, file: file, log: &log)
            return nil
        }
        return bytes.withUnsafeBufferPointer { buffer -> XctraceExport? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return parse(nil, file: file, log: &log) }
            // No copy: the stream reads the bytes in place while the parser runs.
            let data = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none)
            return parse(InputStream(data: data), file: file, log: &log)
        }
    }

    /// Whether the file at `path` is to be read by ``read(path:log:)``: not
    /// gzip'd, and XML (or `--from xctrace`). False when it cannot be opened
    /// (the ordinary read then says why).
    static func streams(_ path: String, format: ImportFormat?) -> Bool {
        guard format == nil || format == .xctrace, let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 4096).map(Array.init) else { return false }
        if Gzip.isGzip(head) { return false }
        return format == .xctrace
            || (!PerfettoReader.looksLikePerfetto(head) && !AtraceContainer.looksLikeHTML(head) && looksLikeXML(head))
    }

    /// The export in the file at `path`, read in pieces of 1 MiB while it is
    /// parsed (a 400 MB export is never in memory at once), its UTF-8 checked
    /// on the way; nil after recording errors in `log`.
    static func read(path: String, log: inout ImportLog) -> XctraceExport? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            log.error(path, "cannot be read: \(String(cString: strerror(errno)))")
            return nil
        }
        defer { close(descriptor) }
        let stream = CheckedFileStream(descriptor)
        let export = parse(
            stream, file: path, log: &log,
            failure: { log in
                if let bad = stream.invalidAt {
                    notUTF8(at: bad, line: stream.invalidLine, file: path, log: &log)
                    return true
                }
                if let problem = stream.readError {
                    log.error(path, "cannot be read: \(problem)")
                    return true
                }
                return false
            })
        return export
    }

    private static func notUTF8(at offset: Int, line: Int, file: String, log: inout ImportLog) {
        log.error(
            file, "not well-formed XML: byte \(offset) is not UTF-8 (a corrupt export?); nothing was imported",
            line: line)
    }

    /// Parses the document `stream` gives; `failure` may explain a parse that
    /// failed (the stream's own error) and returns whether it did.
    private static func parse(
        _ stream: InputStream?, file: String, log: inout ImportLog,
        failure: (inout ImportLog) -> Bool = { _ in false }
    ) -> XctraceExport? {
        let reader = XMLDocumentReader(file: file)
        var ok = false
        if let stream {
            let parser = XMLParser(stream: stream)
            parser.shouldResolveExternalEntities = false
            parser.delegate = reader
            ok = parser.parse()
        }
        if !ok || reader.syntaxError != nil, failure(&log) { return nil }
        log.append(contentsOf: reader.log)
        // The reader stopped the parse itself (not an export): its one error says why.
        if reader.stopped { return nil }
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

/// `text` without leading and trailing white space (as `trimmingCharacters(in:
/// .whitespacesAndNewlines)`, which is called only when an end is not a
/// printable ASCII character: a cell's text almost never needs it).
func trimmedWhitespace(_ text: String) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
    return plain(first) && plain(last) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The offset of the first byte that is not part of valid UTF-8, or nil.
///
/// - Complexity: O(n), no allocation.
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { b -> Int? in
        switch utf8Check(b) {
        case .valid: nil
        case .invalid(let i), .incomplete(let i): i
        }
    }
}

enum UTF8Check: Equatable {
    case valid
    /// The byte at this offset starts no valid sequence.
    case invalid(Int)
    /// A sequence begun at this offset is cut by the end of the bytes (valid so far).
    case incomplete(Int)
}

/// Where `b` stops being valid UTF-8.
///
/// - Complexity: O(n), no allocation.
func utf8Check(_ b: UnsafeBufferPointer<UInt8>) -> UTF8Check {
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
        default: return .invalid(i)
        }
        let available = min(length, n - i)
        guard available < 2 || (b[i + 1] >= low && b[i + 1] <= high) else { return .invalid(i) }
        if available > 2 {
            for k in 2..<available where b[i + k] & 0xC0 != 0x80 { return .invalid(i) }
        }
        if available < length { return .incomplete(i) }
        i += length
    }
    return .valid
}

/// A file given to `XMLParser` piece by piece, checked to be UTF-8 on the way:
/// the parser only ever sees valid UTF-8 (Foundation's traps on names that
/// are not); at the first invalid byte the stream fails, and says where.
///
/// A class: `XMLParser(stream:)` takes an `InputStream`.
final class CheckedFileStream: InputStream {
    private let descriptor: Int32
    /// Bytes handed to the parser so far, and the lines they end.
    private var passed = 0
    private var lines = 1
    /// The start of a sequence cut by the end of the last read, held for the next.
    private var held: [UInt8] = []
    private var ended = false
    private(set) var invalidAt: Int? = nil
    private(set) var invalidLine = 1
    private(set) var readError: String? = nil

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !ended }
    override var streamStatus: Stream.Status {
        invalidAt != nil || readError != nil ? .error : ended ? .atEnd : .open
    }
    /// Asked for by `XMLParser` when a read fails (the base class's would trap: it has no stream of its own).
    override var streamError: Error? {
        guard invalidAt != nil || readError != nil else { return nil }
        return NSError(
            domain: "launchflow.xctrace", code: 1,
            userInfo: [NSLocalizedDescriptionKey: readError ?? "not UTF-8 at byte \(invalidAt ?? 0)"])
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if invalidAt != nil || readError != nil { return -1 }
        if ended || length < 8 { return 0 }
        let chunk = min(length, 1 << 20)
        var count = held.count
        for (k, byte) in held.enumerated() { buffer[k] = byte }
        held.removeAll()
        var atEnd = false
        while count < chunk {
            let n = Foundation.read(descriptor, buffer + count, chunk - count)
            if n < 0 {
                if errno == EINTR { continue }
                readError = String(cString: strerror(errno))
                return -1
            }
            if n == 0 {
                atEnd = true
                break
            }
            count += n
            if count >= 4 { break }
        }
        var valid = count
        switch utf8Check(UnsafeBufferPointer(start: buffer, count: count)) {
        case .valid: break
        case .incomplete(let i) where !atEnd:
            valid = i
            held = Array(UnsafeBufferPointer(start: buffer + i, count: count - i))
        case .invalid(let i), .incomplete(let i):
            invalidAt = passed + i
            invalidLine = lines + UnsafeBufferPointer(start: buffer, count: i).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            // The valid bytes before it go to the parser first; the next read fails.
            valid = i
        }
        if atEnd && valid == count { ended = true }
        passed += valid
        lines += UnsafeBufferPointer(start: buffer, count: valid).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if valid == 0 { return invalidAt != nil ? -1 : (ended ? 0 : read(buffer, maxLength: length)) }
        return valid
    }
}

/// The parser's delegate: the document's values (those a ref can reach),
/// the row being read, and the tables' interpretation of each row.
///
/// A class: `XMLParser` calls back a delegate object.
final class XMLDocumentReader: NSObject, XMLParserDelegate {
    let file: String
    @exclusivity(unchecked) var log = ImportLog()
    @exclusivity(unchecked) var tables: XctraceTables
    @exclusivity(unchecked) var syntaxError: (line: Int?, column: Int?, message: String)?
    @exclusivity(unchecked) var sawRoot = false

    /// Values of the document, in document order; a value's descendants follow
    /// it, up to ``XMLValue/end``.
    @exclusivity(unchecked) private(set) var values: [XMLValue] = []
    /// `id` → index into ``values`` (ids are small integers in practice: an array).
    @exclusivity(unchecked) private var idIndex: [Int32] = []
    @exclusivity(unchecked) private var numberIDs: [Int: Int32] = [:]
    @exclusivity(unchecked) private var otherIDs: [String: Int32] = [:]
    @exclusivity(unchecked) private var tags: [String: Int32] = [:]
    @exclusivity(unchecked) private(set) var tagNames: [String] = []
    /// Indices into ``values`` of the open elements of the current row.
    @exclusivity(unchecked) private var open: [Int32] = []
    @exclusivity(unchecked) private var text = ""
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var rowStart: Int32 = -1
    @exclusivity(unchecked) private var idsInRow = false
    /// The ids defined in the row being read.
    @exclusivity(unchecked) private var rowDefinitions: [(id: String, index: Int32)] = []
    /// Scratch for ``keepDefinitions()``: each value of the row's new index (-1: dropped).
    @exclusivity(unchecked) private var moved: [Int32] = []
    /// Children of the row begun so far.
    @exclusivity(unchecked) private var cells = 0
    @exclusivity(unchecked) private var rowLine = 0
    /// The schema being read: its columns, the column open, the field open.
    @exclusivity(unchecked) private var schema: (name: String, columns: [XctraceColumn])? = nil
    @exclusivity(unchecked) private var column: XctraceColumn? = nil
    @exclusivity(unchecked) private var field: String? = nil
    @exclusivity(unchecked) private var failed = false
    /// The parse was stopped on purpose (the document is not an export): no syntax error follows.
    var stopped: Bool { failed }

    init(file: String) {
        self.file = file
        tables = XctraceTables(file: file)
    }

    func tag(_ name: String) -> Int32 {
        // An export has a dozen or two tags: compared in turn (short strings compare
        // without hashing), the dictionary past the first 32.
        for (number, known) in tagNames.prefix(32).enumerated() where known == name { return Int32(number) }
        if tagNames.count > 32, let number = tags[name] { return number }
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
            rowDefinitions.removeAll(keepingCapacity: true)
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
        // One pass over the attributes (one to three of them) rather than a hashed lookup of each.
        var ref: String? = nil
        var id: String? = nil
        for (key, text) in attributes {
            switch key {
            case "ref": ref = text
            case "id": id = text
            case "fmt": value.fmt = text
            default: break
            }
        }
        if let ref {
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
        if let id {
            define(id, index)
            rowDefinitions.append((id, index))
            value.hasID = true
            idsInRow = true
        }
        values.append(value)
        open.append(index)
    }

    /// The first element of the row being read (-1 between rows): the
    /// elements before it keep their place in ``values`` for good.
    var rowBegin: Int32 { rowStart }

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
                let trimmed = trimmedWhitespace(text)
                if !trimmed.isEmpty { values[Int(index)].text = trimmed }
                return
            }
            tables.row(rowStart, in: self, line: rowLine, log: &log)
            if idsInRow { keepDefinitions() } else { values.removeSubrange(Int(rowStart)...) }
            rowStart = -1
            open = []
            return
        }
        switch name {
        case "mnemonic", "engineering-type",
            "name" where field == name:
            let value = trimmedWhitespace(text)
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

    /// The row just read, reduced to what a later ref can reach: the elements
    /// that carry an id, each with its descendants; the row element, its other
    /// cells and their refs go (a row of 13 cells keeps its 2 or 3 new values).
    ///
    /// - Complexity: O(elements of the row).
    private func keepDefinitions() {
        let start = Int(rowStart)
        let count = values.count
        moved.removeAll(keepingCapacity: true)
        moved.append(contentsOf: repeatElement(-1, count: count - start))
        var write = start
        var keptEnd = start  // past the last descendant of the kept element around `read`
        for read in (start + 1)..<count {
            guard read < keptEnd || values[read].hasID else { continue }
            if read >= keptEnd { keptEnd = Int(values[read].end) }
            moved[read - start] = Int32(write)
            var value = values[read]
            let shift = Int32(read - write)
            value.end -= shift  // a kept element's descendants are all kept, in order
            if value.ref >= rowStart { value.ref = moved[Int(value.ref) - start] }
            values[write] = value
            write += 1
        }
        values.removeSubrange(write...)
        // The definitions still in force (a later one of the same id replaces an earlier one).
        for (id, index) in rowDefinitions where lookup(id) == index {
            define(id, moved[Int(index) - start])
        }
    }

    /// `Int(id)`, read digit by digit in the usual case (plain decimal digits).
    private static func number(_ id: String) -> Int? {
        var number = 0
        for byte in id.utf8 {
            guard byte >= 0x30, byte <= 0x39, number < 1 << 40 else { return Int(id) }
            number = number * 10 + Int(byte - 0x30)
        }
        return id.isEmpty ? nil : number
    }

    /// Ids are numbered from 1 up in practice: an array, grown at most to
    /// twice the ids so far (so that one huge id costs no memory); other
    /// numbers and strings in dictionaries.
    private func define(_ id: String, _ index: Int32) {
        guard let number = Self.number(id), number >= 0 else {
            otherIDs[id] = index
            return
        }
        if number >= idIndex.count, number < 2 * idIndex.count + 4096 {
            idIndex += [Int32](repeating: -1, count: 2 * idIndex.count + 4096 - idIndex.count)
        }
        if number < idIndex.count {
            idIndex[number] = index  // a later definition replaces an earlier one
            if !numberIDs.isEmpty { numberIDs[number] = nil }
        } else {
            numberIDs[number] = index
        }
    }

    private func lookup(_ id: String) -> Int32? {
        guard let number = Self.number(id), number >= 0 else { return otherIDs[id] }
        if number < idIndex.count, idIndex[number] >= 0 { return idIndex[number] }
        return numberIDs[number]
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
    /// It carries an `id` (kept after its row for the refs).
    var hasID = false
}

/// A `<col>` of a `<schema>`.
struct XctraceColumn: Equatable {
    var mnemonic = ""
    var name = ""
    var engineeringType = ""
}
