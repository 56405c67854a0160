import Foundation
import LaunchflowCore

/// What one Instruments export holds for an import, before it becomes a
/// ``Trace`` (several exports of one recording make one trace:
/// ``XctraceExport/trace(of:)``).
struct XctraceExport {
    var file: String
    /// The schemas of the tables read, in order (a table split over several nodes once).
    var tables: [String] = []
    var threads: [ThreadKey: XctraceThread] = [:]
    var processNames: [Int: String] = [:]
    /// `os-signpost-interval` rows.
    var intervals: [XctraceInterval] = []
    /// `os-signpost` Begin and End rows.
    var events: [XctraceSignpostEvent] = []
    var pointEvents = 0
    /// `life-cycle-period` rows.
    var phases: [XctracePhase] = []
    /// `thread-state` rows.
    var states: [XctraceState] = []
    var notes: [String] = []
}

struct XctraceThread {
    /// As Instruments shows it, without the tid and process (`Main Thread`,
    /// `com.example.worker`); nil for an unnamed thread (`Thread 0x…`).
    var name: String?
    /// Instruments names it the process's main thread.
    var isMain: Bool
}

struct XctraceInterval {
    var thread: ThreadKey
    var name: String
    var message: String
    var start: Nanos
    var end: Nanos
    /// 1-based row of its table, and the row's line.
    var row: Int32
    var line: Int
}

struct XctraceSignpostEvent {
    var thread: ThreadKey
    var isBegin: Bool
    var name: String
    var identifier: String
    var message: String
    var time: Nanos
    var row: Int32
    var line: Int
}

struct XctracePhase {
    var pid: Int
    var name: String
    var start: Nanos
    var end: Nanos
}

struct XctraceState {
    var tid: Int
    var state: SchedTimeline.State
    var start: Nanos
    var end: Nanos
}

/// The tables of one document: their schemas, and each row as it closes.
struct XctraceTables {
    enum Kind: String {
        case interval = "os-signpost-interval"
        case signpost = "os-signpost"
        case lifecycle = "life-cycle-period"
        case threadState = "thread-state"
        case timeProfile = "time-profile"
    }

    /// What is read from a table: a field and the column that holds it.
    enum Field: CaseIterable {
        case start, duration, name, thread, process, message, eventType, identifier, period, state
    }

    struct Table {
        var schema: String
        var kind: Kind?
        var columns: [XctraceColumn]
        var positions: [Field: Int] = [:]
        var rows: Int32 = 0
        var usable = true
    }

    let file: String
    var export: XctraceExport
    private var current: Table? = nil
    private var previous: Table? = nil
    private var node = 0
    private var rowFailed = false
    private var skipped: [String: Int] = [:]
    /// Threads already read, by the index of their definition (those of earlier rows, whose index is final).
    private var threadCache: [Int32: CellReader.FoundThread] = [:]
    private var continued: [String] = []
    /// Tables recognised by their columns rather than their schema's name (notes).
    private var recognised: [String] = []

    init(file: String) {
        self.file = file
        export = XctraceExport(file: file)
    }

    mutating func startNode(line: Int) {
        node += 1
        current = nil
    }

    mutating func endNode() {
        if current != nil { previous = current }
    }

    /// Which columns hold what: by mnemonic first, then by engineering type
    /// (cells are positional: a cell's tag is not always its type).
    static func wanted(_ kind: Kind) -> [(Field, mnemonics: [String], types: [String], required: Bool)] {
        switch kind {
        case .interval:
            [
                (.start, ["start"], ["start-time"], true), (.duration, ["duration"], ["duration"], true),
                (.name, ["name"], [], true), (.thread, ["start-thread", "thread"], ["thread"], true),
                (.process, ["process"], ["process"], false), (.message, ["start-message", "message"], [], false),
            ]
        case .signpost:
            [
                (.start, ["time", "event-time"], ["event-time", "sample-time"], true),
                (.thread, ["thread"], ["thread"], true), (.eventType, ["event-type"], ["event-type"], true),
                (.name, ["name"], [], true), (.identifier, ["identifier"], ["os-signpost-identifier"], true),
                (.message, ["message"], ["os-log-metadata"], false),
            ]
        case .lifecycle:
            [
                (.start, ["start"], ["start-time"], true), (.duration, ["duration"], ["duration"], true),
                (.process, ["process"], ["process"], true), (.period, ["period"], ["app-period"], true),
            ]
        case .threadState:
            [
                (.start, ["start"], ["start-time"], true), (.duration, ["duration"], ["duration"], true),
                (.thread, ["thread"], ["thread"], true), (.state, ["state"], ["thread-state"], true),
            ]
        case .timeProfile: []
        }
    }

    /// A table by its columns, whatever its schema is called (Xcode 27 names
    /// the signpost intervals `OSSignpostIntervals`, with engineering types of
    /// its own): the mnemonics decide, as they do for the cells.
    static func kind(of columns: [XctraceColumn]) -> Kind? {
        let mnemonics = Set(columns.map(\.mnemonic))
        let types = Set(columns.map(\.engineeringType))
        func has(_ mnemonic: String, _ type: String? = nil) -> Bool {
            mnemonics.contains(mnemonic) || type.map(types.contains) == true
        }
        let timed = has("start", "start-time") && has("duration")
        if timed, has("period", "app-period"), has("process") { return .lifecycle }
        if timed, has("state", "thread-state"), has("thread") { return .threadState }
        if has("event-type"), has("identifier", "os-signpost-identifier"), has("name"), has("thread") {
            return .signpost
        }
        let signpostLike =
            has("subsystem") || has("category") || has("identifier") || types.contains("signpost-name")
            || types.contains("os-signpost-identifier")
        if timed, has("name"), has("start-thread") || has("thread"), signpostLike { return .interval }
        if has("weight"), has("stack") || has("backtrace") || types.contains("backtrace") { return .timeProfile }
        return nil
    }

    mutating func schema(_ name: String, _ columns: [XctraceColumn], line: Int, log: inout ImportLog) {
        var table = Table(schema: name, kind: Kind(rawValue: name) ?? Self.kind(of: columns), columns: columns)
        if let kind = table.kind, kind.rawValue != name {
            recognised.append(
                "table '\(name)' is read as \(kind.rawValue): its columns (\(columns.map { "'\($0.mnemonic)'" }.joined(separator: ", "))) are that table's"
            )
        }
        if let kind = table.kind {
            var missing: [String] = []
            for (field, mnemonics, types, required) in Self.wanted(kind) {
                let position =
                    mnemonics.lazy.compactMap { m in columns.firstIndex { $0.mnemonic == m } }.first
                    ?? types.lazy.compactMap { t in columns.firstIndex { $0.engineeringType == t } }.first
                if let position {
                    table.positions[field] = position
                } else if required {
                    missing.append(mnemonics.first ?? types.first ?? "")
                }
            }
            if !missing.isEmpty {
                log.error(
                    file,
                    "table '\(name)' (node \(node)): its schema has no column \(missing.map { "'\($0)'" }.joined(separator: ", ")) (columns: \(columns.map { "'\($0.mnemonic)'" }.joined(separator: ", "))); its rows cannot be read",
                    line: line)
                table.usable = false
            }
        }
        let key = table.kind?.rawValue ?? name
        if !export.tables.contains(key) { export.tables.append(key) }
        current = table
    }

    // MARK: Rows

    /// A problem in a cell of the row being read (while it is parsed).
    mutating func cellProblem(_ message: String, cell: Int, line: Int, log: inout ImportLog) {
        rowFailed = true
        log.error(file, message, line: line, at: location(row: (current?.rows ?? 0) + 1, cell: cell))
    }

    private func location(row: Int32, cell: Int?) -> String {
        let table = current ?? previous
        var text = "table '\(table?.schema ?? "?")', row \(row)"
        if let cell {
            let column = table.flatMap { cell < $0.columns.count ? $0.columns[cell].mnemonic : nil }
            text += ", cell \(cell + 1)\(column.map { " ('\($0)')" } ?? "")"
        }
        return text
    }

    /// Row `row` of the document has closed: reads it into the export.
    mutating func row(_ row: Int32, in document: XMLDocumentReader, line: Int, log: inout ImportLog) {
        defer { rowFailed = false }
        if current == nil {
            guard let previous else {
                if skipped["(no schema)", default: 0] == 0 {
                    log.error(
                        file,
                        "a <row> in node \(node), which has no <schema>, and no earlier node does: its columns are unknown",
                        line: line)
                }
                skipped["(no schema)", default: 0] += 1
                return
            }
            current = previous
            continued.append("node \(node) has no schema: its rows continue table '\(previous.schema)'")
        }
        current!.rows += 1
        guard let table = current, table.usable, !rowFailed else { return }
        guard let kind = table.kind else {
            skipped[table.schema, default: 0] += 1
            return
        }
        if kind == .timeProfile {
            skipped[table.schema, default: 0] += 1
            return
        }
        let cells = document.children(row)
        guard cells.count == table.columns.count else {
            log.error(
                file,
                "has \(plural(cells.count, "cell")), the table's schema has \(plural(table.columns.count, "column")): cells are positional, so this row cannot be read",
                line: line, at: location(row: table.rows, cell: nil))
            return
        }
        readCells(cells, kind: kind, table: table, document: document, line: line, log: &log)
    }

    /// A row's cells, read as its table's kind says.
    private mutating func readCells(
        _ cells: [Int32], kind: Kind, table: Table, document: XMLDocumentReader, line: Int, log: inout ImportLog
    ) {
        let reader = CellReader(document: document, cells: cells)
        func cell(_ field: Field) -> Int32? { table.positions[field].map { cells[$0] } }
        func fail(_ field: Field, _ message: String) {
            log.error(file, message, line: line, at: location(row: table.rows, cell: table.positions[field]))
        }
        func time(_ field: Field) -> Nanos? {
            guard let index = cell(field) else { return nil }
            switch reader.nanos(index) {
            case .success(let value): return value
            case .failure(let problem):
                fail(field, problem.message)
                return nil
            }
        }
        func thread() -> ThreadKey? {
            guard let index = cell(.thread) else { return nil }
            let node = document.resolved(index)
            if let found = threadCache[node] { return found.key }
            switch reader.thread(index) {
            case .success(let found):
                register(found)
                if node < document.rowBegin { threadCache[node] = found }
                return found.key
            case .failure(let problem):
                fail(.thread, problem.message)
                return nil
            }
        }
        switch kind {
        case .interval:
            guard let start = time(.start), let duration = time(.duration), let key = thread() else { return }
            export.intervals.append(
                XctraceInterval(
                    thread: key, name: reader.string(cell(.name)!), message: cell(.message).map(reader.message) ?? "",
                    start: start, end: start + duration, row: table.rows, line: line))
        case .signpost:
            guard let time = time(.start), let key = thread() else { return }
            let type = reader.string(cell(.eventType)!)
            switch type.lowercased() {
            case "begin", "end":
                export.events.append(
                    XctraceSignpostEvent(
                        thread: key, isBegin: type.lowercased() == "begin", name: reader.string(cell(.name)!),
                        identifier: reader.string(cell(.identifier)!),
                        message: cell(.message).map(reader.message) ?? "", time: time, row: table.rows, line: line))
            default:
                export.pointEvents += 1
            }
        case .lifecycle:
            guard let start = time(.start), let duration = time(.duration) else { return }
            switch reader.process(cell(.process)!) {
            case .success(let process):
                if let name = process.name { export.processNames[process.pid] = name }
                export.phases.append(
                    XctracePhase(
                        pid: process.pid, name: reader.string(cell(.period)!), start: start, end: start + duration))
            case .failure(let problem):
                fail(.process, problem.message)
            }
        case .threadState:
            guard let start = time(.start), let duration = time(.duration), let key = thread() else { return }
            let state: SchedTimeline.State
            switch reader.string(cell(.state)!).lowercased() {
            case "running": state = .running
            case "runnable", "preempted": state = .runnable
            default: state = .sleeping
            }
            export.states.append(XctraceState(tid: key.tid, state: state, start: start, end: start + duration))
        case .timeProfile:
            break
        }
    }

    private mutating func register(_ found: CellReader.FoundThread) {
        if export.threads[found.key] == nil {
            export.threads[found.key] = XctraceThread(name: found.name, isMain: found.isMain)
        }
        if let process = found.processName, export.processNames[found.key.pid] == nil {
            export.processNames[found.key.pid] = process
        }
    }

    /// The notes of the document, once it has been read.
    mutating func finishFile() {
        for (schema, count) in skipped.sorted(by: { $0.key < $1.key }) where schema != "(no schema)" {
            export.notes.append(
                schema == Kind.timeProfile.rawValue
                    ? "table 'time-profile' (\(plural(count, "sample"))) is not read: CPU samples are not used as costs"
                    : "table '\(schema)' (\(plural(count, "row"))) is not read: import reads os-signpost-interval, os-signpost, life-cycle-period and thread-state (by their columns, whatever the schema's name)"
            )
        }
        var seen = Set<String>()
        for note in recognised + continued where seen.insert(note).inserted { export.notes.append(note) }
    }
}

/// Values out of cells: resolved through refs, read from the element's text.
struct CellReader {
    let document: XMLDocumentReader
    let cells: [Int32]

    struct Problem: Error {
        var message: String
    }

    struct FoundThread {
        var key: ThreadKey
        var name: String?
        var isMain: Bool
        var processName: String?
    }

    func value(_ index: Int32) -> XMLValue { document.values[Int(document.resolved(index))] }

    /// Integer nanoseconds (never from `fmt`).
    func nanos(_ index: Int32) -> Result<Nanos, Problem> {
        let value = value(index)
        let tag = document.tagName(index)
        if tag == "sentinel" {
            return .failure(Problem(message: "is empty (<sentinel/>): expected a time in nanoseconds"))
        }
        guard let number = Int64(value.text), number >= 0, number <= maximumInputNanos else {
            let shown = value.text.isEmpty ? "an empty <\(tag)>" : "'\(value.text.prefix(40))'"
            return .failure(
                Problem(
                    message:
                        "\(shown) is not a time in nanoseconds (a whole number from 0 to 4e18; the fmt display string is not read)"
                ))
        }
        return .success(number)
    }

    /// A cell's text (its `fmt` when it has none, else its first child's
    /// text: a typed value wrapping a string); "" for a sentinel.
    func string(_ index: Int32) -> String {
        let value = value(index)
        if !value.text.isEmpty { return value.text }
        if let fmt = value.fmt { return fmt }
        if let child = document.children(index).first { return self.value(child).text }
        return ""
    }

    /// A message (`<os-log-metadata fmt="…">`): its display string, which is the message itself.
    func message(_ index: Int32) -> String {
        if document.tagName(index) == "sentinel" { return "" }
        let value = value(index)
        if let fmt = value.fmt { return fmt }
        if let string = document.children(index).first { return self.value(string).text }
        return value.text
    }

    func process(_ index: Int32) -> Result<(pid: Int, name: String?), Problem> {
        let node = document.resolved(index)
        guard document.tagName(node) == "process" else {
            return .failure(Problem(message: "is a <\(document.tagName(node))>, expected a <process>"))
        }
        guard let pid = document.child(node, "pid").flatMap({ Int(document.values[Int($0)].text) }) else {
            return .failure(Problem(message: "this <process> has no <pid> with a number"))
        }
        return .success((pid, document.values[Int(node)].fmt.map(Self.processName)))
    }

    func thread(_ index: Int32) -> Result<FoundThread, Problem> {
        let node = document.resolved(index)
        guard document.tagName(node) == "thread" else {
            return .failure(Problem(message: "is a <\(document.tagName(node))>, expected a <thread>"))
        }
        guard let tid = document.child(node, "tid").flatMap({ Int(document.values[Int($0)].text) }) else {
            return .failure(Problem(message: "this <thread> has no <tid> with a number"))
        }
        guard let process = document.child(node, "process") else {
            return .failure(Problem(message: "this <thread> has no <process>"))
        }
        let found = self.process(process)
        guard case .success(let (pid, processName)) = found else {
            if case .failure(let problem) = found { return .failure(problem) }
            return .failure(Problem(message: "no process"))
        }
        let name = document.values[Int(node)].fmt.map(Self.threadName) ?? nil
        return .success(
            FoundThread(
                key: ThreadKey(pid: pid, tid: tid), name: name == "Thread" ? nil : name,
                isMain: name == "Main Thread", processName: processName))
    }

    /// `Main Thread 0x12aa (App, pid: 581)` → `Main Thread`; `worker 0x1f (App, pid: 5)` → `worker`.
    /// The name is what precedes the first ` 0x<hex> (`; without one, what precedes the last ` (`.
    static func threadName(_ fmt: String) -> String? {
        var name = Substring(fmt)
        var search = name.startIndex
        var found = false
        while let hex = name.range(of: " 0x", range: search..<name.endIndex) {
            let digits = name[hex.upperBound...].prefix { $0.isHexDigit }
            if !digits.isEmpty, name[digits.endIndex...].hasPrefix(" (") || digits.endIndex == name.endIndex {
                name = name[..<hex.lowerBound]
                found = true
                break
            }
            search = hex.upperBound
        }
        if !found, name.hasSuffix(")"), let open = name.range(of: " (", options: .backwards) {
            name = name[..<open.lowerBound]
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `com.example.shop (581)` → `com.example.shop`.
    static func processName(_ fmt: String) -> String {
        guard fmt.hasSuffix(")"), let open = fmt.range(of: " (", options: .backwards) else { return fmt }
        return String(fmt[..<open.lowerBound])
    }
}
