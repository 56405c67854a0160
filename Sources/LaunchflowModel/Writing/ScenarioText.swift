/// A scenario file as text, and the one editor of a scenario file the user
/// owns: `import --into` and `calibrate --out` change each task's `cost` and
/// `costP90` and each pre-main phase's `cost`; `advise --out` sets, adds and
/// removes task keys (``editing(_:)``, ``edited(from:to:)``). Found with
/// ``JSONReader`` (byte ranges of the values and of each object's members);
/// an edit replaces those bytes only, so every other key — known to this
/// version's decoder or not (`latency`, `queue`, `anchor`…), every
/// comment-like `description`, the key order, the spacing — stays byte for
/// byte.
///
/// ```swift
/// let text = try ScenarioText(bytes)
/// let edited = text.applying([ScenarioText.Edit(range: text.tasks[0].cost!.range, text: "12.5")])
/// ```
package struct ScenarioText {
    /// A number as written: where, and its value.
    package struct Number {
        package var range: Range<Int>
        package var value: Double
    }

    package struct Task {
        package var index: Int
        package var id: String?
        package var cost: Number?
        /// `costP90` as a number, or the range of its `null`.
        package var costP90: Number?
        package var costP90Null: Range<Int>?
        /// The task's object, member by member (nil when the element is not an object).
        package var object: ObjectText?
    }

    package struct Phase {
        package var index: Int
        package var name: String?
        package var cost: Number?
        /// Where the phase's object ends (after its `}`).
        package var end: Int
    }

    /// A replacement of `range` (empty: an insertion) by `text`.
    package struct Edit {
        package var range: Range<Int>
        package var text: String
        package init(range: Range<Int>, text: String) {
            self.range = range
            self.text = text
        }
    }

    package let bytes: [UInt8]
    package private(set) var name: String?
    package private(set) var tasks: [Task] = []
    package private(set) var phases: [Phase] = []
    /// Offsets of the `preMain` array's `[` and `]`.
    package private(set) var preMainBrackets: (open: Int, close: Int)?
    /// Offset of the `"tasks"` key, and the white space before it.
    package private(set) var tasksKey: Int?
    package private(set) var tasksKeyLead = " "
    /// The top-level object, member by member.
    package private(set) var root: ObjectText?

    /// - Throws: a syntax error; anything else (wrong types, missing keys) is
    ///   left for the scenario loader to report.
    package init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
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
        var root = ObjectText(open: r.valueOffset())
        try r.readMembers { r, member in
            let key = r.text(of: member)
            let keyOffset = member.offset
            let valueStart = r.valueOffset()
            defer {
                root.members.append(
                    .init(
                        key: key, keyOffset: keyOffset, keyEnd: Self.keyEnd(before: valueStart, in: r.bytes),
                        value: valueStart..<r.offset))
            }
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
        root.close = r.offset - 1
        self.root = root
    }

    private static func readTask(_ r: inout JSONReader, index: Int) throws -> Task {
        var task = Task(index: index)
        guard try r.peekKind() == .object else {
            try r.skipValue()
            return task
        }
        var object = ObjectText(open: r.valueOffset())
        try r.readMembers { r, member in
            let key = r.text(of: member)
            let valueStart = r.valueOffset()
            defer {
                object.members.append(
                    .init(
                        key: key, keyOffset: member.offset, keyEnd: Self.keyEnd(before: valueStart, in: r.bytes),
                        value: valueStart..<r.offset))
            }
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
        object.close = r.offset - 1
        task.object = object
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
    package func applying(_ edits: [Edit]) -> [UInt8] {
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
    package func setCostP90(_ task: Task, _ text: String) -> Edit? {
        if let p90 = task.costP90 { return Edit(range: p90.range, text: text) }
        if let null = task.costP90Null { return Edit(range: null, text: text) }
        guard let cost = task.cost else { return nil }
        return Edit(range: cost.range.upperBound..<cost.range.upperBound, text: ", \"costP90\": \(text)")
    }

    /// Adds a pre-main phase at the end of `preMain` (creating the key before
    /// `tasks` when there is none).
    package func appendPhase(name: String, cost: String) -> Edit? {
        var writer = JSONWriter()
        writer.object(.spaced) { w in
            w.field("name", name)
            w.key("cost")
            w.number(cost)
        }
        let object = String(decoding: writer.bytes, as: UTF8.self)
        if let brackets = preMainBrackets {
            if let last = phases.last { return Edit(range: last.end..<last.end, text: ", " + object) }
            return Edit(range: brackets.open..<(brackets.close + 1), text: "[" + object + "]")
        }
        guard let key = tasksKey else { return nil }
        return Edit(range: key..<key, text: "\"preMain\": [" + object + "]," + tasksKeyLead)
    }
}

// MARK: Key edits

/// One object of the file as written: its braces and its members, in order.
package struct ObjectText: Sendable {
    /// One `"key": value` member: where its key starts, where the key's
    /// closing quote ends, and its value's bytes.
    package struct Member: Sendable {
        package var key: String
        package var keyOffset: Int
        package var keyEnd: Int
        package var value: Range<Int>
    }

    /// Offsets of `{` and `}`.
    package var open: Int
    package var close: Int = 0
    package var members: [Member] = []

    package init(open: Int) { self.open = open }
}

extension ScenarioText {
    /// A change of one key of one object: its new value as JSON text, or nil to remove it.
    package struct KeyEdit: Sendable, Equatable {
        package enum Target: Sendable, Equatable {
            /// The top-level object.
            case root
            /// The task at this index of `tasks`.
            case task(Int)
            /// The task with this id.
            case taskID(String)
        }

        package var target: Target
        package var key: String
        /// The new value as JSON text (`5`, `true`, `"firstFrame"`), or nil: remove the key.
        package var value: String?

        package init(_ target: Target, _ key: String, _ value: String?) {
            self.target = target
            self.key = key
            self.value = value
        }
    }

    /// Why edits cannot be applied: the place and the reason.
    package struct KeyEditError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The offset just after the closing quote of the key whose value starts at `valueStart`.
    fileprivate static func keyEnd(before valueStart: Int, in bytes: [UInt8]) -> Int {
        var i = valueStart
        func skipSpace() { while i > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i - 1]) { i -= 1 } }
        skipSpace()
        if i > 0, bytes[i - 1] == UInt8(ascii: ":") { i -= 1 }
        skipSpace()
        return i
    }

    /// The text with `edits` applied: a value replaced in place (whatever
    /// its type or shape); a key the object does not have added in the
    /// object's own style — the separator between its last two members (`, `
    /// inline; a comma, a line break and the indentation one key a line) and
    /// the spacing around its colons — after its last member when the object
    /// is inline, on a line of its own before the last member's when it is
    /// one key a line (so no line the user wrote changes); a key removed with
    /// the separator after it (or, for the last member, before it). Every
    /// other byte stays as it was.
    /// Removing a key the object does not have is nothing to do.
    ///
    /// - Throws: ``KeyEditError`` for a task that is not there or not an
    ///   object, a duplicate id, or two edits of one key; nothing traps.
    package func editing(_ edits: [KeyEdit]) throws(KeyEditError) -> [UInt8] {
        // Group by object, keeping the order of the edits within each.
        var byObject: [(object: ObjectText, place: String, edits: [KeyEdit])] = []
        var slot: [Int: Int] = [:]  // object open offset -> index in byObject
        var idIndex: [String: Int]? = nil
        for edit in edits {
            let object: ObjectText?
            let place: String
            switch edit.target {
            case .root:
                object = root
                place = "the top-level object"
            case .task(let index):
                guard tasks.indices.contains(index) else {
                    throw KeyEditError(description: "tasks[\(index)]: no such task (the file has \(tasks.count))")
                }
                object = tasks[index].object
                place = "tasks[\(index)]"
            case .taskID(let id):
                if idIndex == nil {
                    var table: [String: Int] = [:]
                    for task in tasks { if let taskID = task.id, table[taskID] == nil { table[taskID] = task.index } }
                    idIndex = table
                }
                guard let index = idIndex?[id] else { throw KeyEditError(description: "no task with id '\(id)'") }
                object = tasks[index].object
                place = "tasks[\(index)] (task '\(id)')"
            }
            guard let object else { throw KeyEditError(description: "\(place) is not an object") }
            if let k = slot[object.open] {
                guard !byObject[k].edits.contains(where: { $0.key == edit.key }) else {
                    throw KeyEditError(description: "\(place).\(edit.key) is edited twice")
                }
                byObject[k].edits.append(edit)
            } else {
                slot[object.open] = byObject.count
                byObject.append((object, place, [edit]))
            }
        }
        return applying(byObject.flatMap { self.edits(of: $0.object, $0.edits) })
    }

    /// The byte edits of one object's key edits: the object is a run of
    /// pieces — the white space after `{`, each member's key and colon, its
    /// value, the separator after it, the white space before `}` — and the
    /// edited object keeps the pieces it does not change, byte for byte; each
    /// run of dropped or new bytes between two kept pieces is one edit.
    private func edits(of object: ObjectText, _ keyEdits: [KeyEdit]) -> [Edit] {
        let members = object.members
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        var values: [Int: String] = [:]
        var removed = Set<Int>()
        var inserts: [(key: String, value: String)] = []
        for edit in keyEdits {
            // The decoder rejects a key twice in an object; were it there, the last would count.
            switch (members.lastIndex { $0.key == edit.key }, edit.value) {
            case (let i?, let value?): values[i] = value
            case (let i?, nil): removed.insert(i)
            case (nil, let value?): inserts.append((edit.key, value))
            case (nil, nil): break
            }
        }
        let inner = (object.open + 1)..<object.close
        guard let first = members.first, let last = members.last else {
            guard !inserts.isEmpty else { return [] }
            let added = inserts.map { Self.member($0.key, ": ", $0.value) }.joined(separator: ", ")
            return [Edit(range: inner, text: " " + added + " ")]
        }
        enum Piece {
            case keep(Range<Int>)
            case add(String)
        }
        let kept = members.indices.filter { !removed.contains($0) }
        // The object's style: the separator between its last two members, the spacing around its colons.
        let separator: String
        if members.count >= 2 {
            separator = text(members[members.count - 2].value.upperBound..<last.keyOffset)
        } else {
            let lead = text(inner.lowerBound..<first.keyOffset)
            separator = lead.contains("\n") ? "," + lead : ", "
        }
        let colon = text(last.keyEnd..<last.value.lowerBound)
        let added = inserts.map { Self.member($0.key, colon, $0.value) }
        // One key a line: new keys go on lines of their own before the last
        // member's, so no line the user wrote changes (no comma to add).
        // Inline: after the last member.
        let ownLines = separator.contains("\n") && !kept.isEmpty
        var pieces: [Piece] = []
        if !kept.isEmpty || !inserts.isEmpty { pieces.append(.keep(inner.lowerBound..<first.keyOffset)) }
        for (j, i) in kept.enumerated() {
            if ownLines && j == kept.count - 1 && !added.isEmpty {
                pieces.append(.add(added.map { $0 + separator }.joined()))
            }
            pieces.append(.keep(members[i].keyOffset..<members[i].value.lowerBound))
            pieces.append(values[i].map(Piece.add) ?? .keep(members[i].value))
            if j < kept.count - 1 { pieces.append(.keep(members[i].value.upperBound..<members[i + 1].keyOffset)) }
        }
        if !ownLines {
            for (k, member) in added.enumerated() {
                pieces.append(.add((k > 0 || !kept.isEmpty ? separator : "") + member))
            }
        }
        pieces.append(.keep(last.value.upperBound..<inner.upperBound))

        var out: [Edit] = []
        var position = inner.lowerBound
        var pending = ""
        for piece in pieces {
            switch piece {
            case .add(let text): pending += text
            case .keep(let range):
                if range.lowerBound != position || !pending.isEmpty {
                    out.append(Edit(range: position..<range.lowerBound, text: pending))
                }
                position = range.upperBound
                pending = ""
            }
        }
        return out
    }

    /// `"key": value`, the key escaped as JSON.
    private static func member(_ key: String, _ colon: String, _ value: String) -> String {
        var writer = JSONWriter()
        writer.string(key)
        return String(decoding: writer.bytes, as: UTF8.self) + colon + value
    }
}
