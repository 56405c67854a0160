import LaunchflowCore

/// A scenario file as text, with the places `import --into` and `calibrate
/// --out` change: each task's `cost` and `costP90`, each pre-main phase's
/// `cost`. Found with ``JSONReader`` (byte ranges of the values); an edit
/// replaces those bytes only, so every other key — known to this version's
/// decoder or not (`latency`, `queue`, `anchor`…), every comment-like
/// `description`, the key order, the spacing — stays byte for byte.
///
/// ```swift
/// let text = try ScenarioText(bytes)
/// let edited = text.applying([ScenarioText.Edit(range: text.tasks[0].cost!.range, text: "12.5")])
/// ```
struct ScenarioText {
    /// A number as written: where, and its value.
    struct Number {
        var range: Range<Int>
        var value: Double
    }

    struct Task {
        var index: Int
        var id: String?
        var cost: Number?
        /// `costP90` as a number, or the range of its `null`.
        var costP90: Number?
        var costP90Null: Range<Int>?
    }

    struct Phase {
        var index: Int
        var name: String?
        var cost: Number?
        /// Where the phase's object ends (after its `}`).
        var end: Int
    }

    /// A replacement of `range` (empty: an insertion) by `text`.
    struct Edit {
        var range: Range<Int>
        var text: String
    }

    let bytes: [UInt8]
    private(set) var name: String?
    private(set) var tasks: [Task] = []
    private(set) var phases: [Phase] = []
    /// Offsets of the `preMain` array's `[` and `]`.
    private(set) var preMainBrackets: (open: Int, close: Int)?
    /// Offset of the `"tasks"` key, and the white space before it.
    private(set) var tasksKey: Int?
    private(set) var tasksKeyLead = " "

    /// - Throws: a syntax error; anything else (wrong types, missing keys) is
    ///   left for the scenario loader to report.
    init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        self.bytes = bytes
        var r = JSONReader(bytes: bytes)
        do {
            try read(&r)
            try r.expectEnd()
        } catch let error as JSONSyntaxError {
            throw error
        } catch {
            throw JSONSyntaxError(offset: r.offset, message: "\(error)")
        }
    }

    private mutating func read(_ r: inout JSONReader) throws {
        guard try r.peekKind() == .object else { return try r.skipValue() }
        try r.readObject { r, key, keyOffset in
            switch key {
            case "name":
                if try r.peekKind() == .string { self.name = try r.readString() } else { try r.skipValue() }
            case "tasks":
                self.tasksKey = keyOffset
                var lead = keyOffset
                while lead > 0, [0x20, 0x0A, 0x0D, 0x09].contains(self.bytes[lead - 1]) { lead -= 1 }
                self.tasksKeyLead = String(decoding: self.bytes[lead..<keyOffset], as: UTF8.self)
                guard try r.peekKind() == .array else { return try r.skipValue() }
                try r.readArray { r, index in self.tasks.append(try Self.readTask(&r, index: index)) }
            case "preMain":
                guard try r.peekKind() == .array else { return try r.skipValue() }
                let open = r.valueOffset()
                try r.readArray { r, index in self.phases.append(try Self.readPhase(&r, index: index)) }
                self.preMainBrackets = (open, r.offset - 1)
            default: try r.skipValue()
            }
        }
    }

    private static func readTask(_ r: inout JSONReader, index: Int) throws -> Task {
        var task = Task(index: index)
        guard try r.peekKind() == .object else {
            try r.skipValue()
            return task
        }
        try r.readObject { r, key, _ in
            switch key {
            case "id": if try r.peekKind() == .string { task.id = try r.readString() } else { try r.skipValue() }
            case "cost": task.cost = try number(&r)
            case "costP90":
                if try r.peekKind() == .null {
                    let start = r.valueOffset()
                    try r.readNull()
                    task.costP90Null = start..<r.offset
                } else {
                    task.costP90 = try number(&r)
                }
            default: try r.skipValue()
            }
        }
        return task
    }

    private static func readPhase(_ r: inout JSONReader, index: Int) throws -> Phase {
        var phase = Phase(index: index, end: 0)
        if try r.peekKind() == .object {
            try r.readObject { r, key, _ in
                switch key {
                case "name":
                    if try r.peekKind() == .string { phase.name = try r.readString() } else { try r.skipValue() }
                case "cost": phase.cost = try number(&r)
                default: try r.skipValue()
                }
            }
        } else {
            try r.skipValue()
        }
        phase.end = r.offset
        return phase
    }

    private static func number(_ r: inout JSONReader) throws -> Number? {
        guard try r.peekKind() == .number else {
            try r.skipValue()
            return nil
        }
        let start = r.valueOffset()
        let value = try r.readNumber().value
        return Number(range: start..<r.offset, value: value)
    }

    /// The text with `edits` applied (they must not overlap; any order).
    func applying(_ edits: [Edit]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        var position = 0
        for edit in edits.sorted(by: {
            ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
        }) {
            out.append(contentsOf: bytes[position..<edit.range.lowerBound])
            out.append(contentsOf: edit.text.utf8)
            position = edit.range.upperBound
        }
        out.append(contentsOf: bytes[position...])
        return out
    }

    // MARK: Common edits

    /// Sets task `task`'s `costP90` to `text` (replacing it, or inserting it after `cost`).
    func setCostP90(_ task: Task, _ text: String) -> Edit? {
        if let p90 = task.costP90 { return Edit(range: p90.range, text: text) }
        if let null = task.costP90Null { return Edit(range: null, text: text) }
        guard let cost = task.cost else { return nil }
        return Edit(range: cost.range.upperBound..<cost.range.upperBound, text: ", \"costP90\": \(text)")
    }

    /// Adds a pre-main phase at the end of `preMain` (creating the key before
    /// `tasks` when there is none).
    func appendPhase(name: String, cost: String) -> Edit? {
        var writer = JSONWriter()
        writer.raw("{ ")
        writer.key("name")
        writer.string(name)
        writer.raw(", ")
        writer.key("cost")
        writer.raw(cost)
        writer.raw(" }")
        let object = String(decoding: writer.bytes, as: UTF8.self)
        if let brackets = preMainBrackets {
            if let last = phases.last { return Edit(range: last.end..<last.end, text: ", " + object) }
            return Edit(range: brackets.open..<(brackets.close + 1), text: "[" + object + "]")
        }
        guard let key = tasksKey else { return nil }
        return Edit(range: key..<key, text: "\"preMain\": [" + object + "]," + tasksKeyLead)
    }
}

/// Milliseconds as a scenario writes them, from a double: rounded to the
/// microsecond (the model's resolution), exact decimals.
func millisText(_ ms: Double) -> String {
    formatMillis(microseconds(fromMilliseconds: ms))
}
