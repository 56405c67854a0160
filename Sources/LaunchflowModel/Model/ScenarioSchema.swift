/// Documents generated from ``ScenarioFields``: the JSON Schema of scenario
/// files (`scenarios/scenario.schema.json`) and the key table of docs/scenarios.md. Both
/// are committed; the tests check that they are what these functions give
/// (`LAUNCHFLOW_REGENERATE=1 swift test --filter SchemaTests` rewrites them).
package enum ScenarioSchema {
    /// The JSON Schema (draft 2020-12), pretty-printed, with a final newline.
    package static func jsonSchema() -> String {
        let root: [(String, JSONValue)] = [
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://github.com/launchflow/launchflow/scenarios/scenario.schema.json")),
            ("title", .string("launchflow scenario")),
            (
                "description",
                .string(
                    "How a mobile app launches: the device, the pre-main phases, user input and the launch tasks with their costs, threads, priority tiers, queues and dependencies. Read by `launchflow simulate`, `compare`, `check` and the other commands. Times are in milliseconds. An optional key given as null counts as absent. Generated from Sources/LaunchflowModel/Model/ScenarioFields.swift."
                )
            ),
        ]
        var schema = objectSchema(ScenarioFields.root, nullable: false)
        schema.insert(contentsOf: root, at: 0)
        schema.append(("$defs", .object(definitions)))
        return pretty(.object(schema), indent: "") + "\n"
    }

    /// The table of scenario keys in docs/scenarios.md (markdown, a final newline).
    package static func markdownKeyTable() -> String {
        var out = "| key | type | default | meaning |\n|---|---|---|---|\n"
        func rows<Model>(_ table: FieldTable<Model>) {
            for field in table.fields {
                let cells = [
                    "`\(table.object.keyPrefix)\(field.key)`", typeText(field), defaultText(field, table.defaults),
                    field.doc,
                ]
                out +=
                    "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
                if case .nested(let nested) = field.access {
                    switch nested {
                    case .device: rows(ScenarioFields.device)
                    case .preMain: rows(ScenarioFields.preMain)
                    case .launchPhases: rows(ScenarioFields.launchPhase)
                    case .clusters: rows(ScenarioFields.cluster)
                    case .inputs: rows(ScenarioFields.input)
                    case .tasks: rows(ScenarioFields.task)
                    case .budgets: break
                    }
                }
            }
        }
        rows(ScenarioFields.root)
        out += "\n`ms`: milliseconds, from 0 to 3,600,000 (an hour), kept to the microsecond. "
        out += "An optional key given as `null` counts as absent.\n"
        return out
    }

    // MARK: Schema

    /// `type`, `properties`, `required` and `additionalProperties` of an object's rows.
    private static func objectSchema<Model>(_ table: FieldTable<Model>, nullable: Bool) -> [(String, JSONValue)] {
        var out: [(String, JSONValue)] = [("type", types("object", nullable: nullable))]
        let required = table.fields.filter(\.required).map { JSONValue.string($0.key) }
        if !required.isEmpty { out.append(("required", .array(required))) }
        out.append(("additionalProperties", .bool(false)))
        let rules = table.fields.compactMap { field -> JSONValue? in
            guard let (other, message) = field.limits.requires else { return nil }
            func flag(_ key: String) -> JSONValue {
                .object([
                    ("required", .array([.string(key)])),
                    ("properties", .object([(key, .object([("const", .bool(true))]))])),
                ])
            }
            return .object([
                ("if", flag(field.key)),
                ("then", .object([("description", .string(sentence(message)))] + members(flag(other)))),
            ])
        }
        if !rules.isEmpty { out.append(("allOf", .array(rules))) }
        out.append(("properties", .object(table.fields.map { ($0.key, property($0, table.defaults)) })))
        return out
    }

    private static func property<Model>(_ field: ScenarioField<Model>, _ defaults: Model) -> JSONValue {
        let nullable = !field.required
        var description = sentence(field.doc)
        if field.type == .ms { description += " In milliseconds." }
        if let value = defaultValue(field, defaults) { description += " Default: \(pretty(value, indent: ""))." }
        if let prefix = field.defaultPrefix { description += " Default: \(prefix)<k>, k its 1-based position." }
        var out: [(String, JSONValue)] = [("description", .string(description))]
        let limits = field.limits
        switch field.access {
        case .nested(let nested):
            switch nested {
            case .device: out += objectSchema(ScenarioFields.device, nullable: true)
            case .preMain: out += arraySchema(ScenarioFields.preMain, limits, nullable: nullable)
            case .launchPhases: out += arraySchema(ScenarioFields.launchPhase, limits, nullable: nullable)
            case .clusters: out += arraySchema(ScenarioFields.cluster, limits, nullable: nullable)
            case .inputs: out += arraySchema(ScenarioFields.input, limits, nullable: nullable)
            case .tasks: out += arraySchema(ScenarioFields.task, limits, nullable: nullable)
            case .budgets:
                out.append(("type", types("object", nullable: true)))
                out.append(("additionalProperties", .bool(false)))
                out.append(
                    (
                        "properties",
                        .object(
                            Metric.allCases.map { metric in
                                let doc = metric.info.budgetDoc
                                return (
                                    metric.rawValue,
                                    .object([("description", .string(doc)), ("$ref", .string("#/$defs/budget"))])
                                )
                            })
                    ))
            }
            return .object(out)
        case .dependencies:
            out.append(("type", types("array", nullable: nullable)))
            if limits.distinct { out.append(("uniqueItems", .bool(true))) }
            out.append(("items", .object([("type", .string("string")), ("minLength", .number(1))])))
            return .object(out)
        case .ms, .optionalMs:
            out.append(("$ref", .string(nullable ? "#/$defs/optionalMilliseconds" : "#/$defs/milliseconds")))
        case .string, .optionalString, .choice:
            out.append(("type", types("string", nullable: nullable)))
            if limits.nonEmpty != nil { out.append(("minLength", .number(1))) }
            if let choices = limits.choices {
                out.append(("enum", .array(choices.map(JSONValue.string) + (nullable ? [.null] : []))))
            }
        case .bool:
            out.append(("type", types("boolean", nullable: nullable)))
        case .integer, .optionalInteger:
            out.append(("type", types("integer", nullable: nullable)))
        case .number, .optionalNumber:
            out.append(("type", types("number", nullable: nullable)))
        }
        if let minimum = limits.minimum {
            out.append((limits.minimumIsExclusive ? "exclusiveMinimum" : "minimum", .number(minimum)))
        }
        if let maximum = limits.maximum { out.append(("maximum", .number(maximum))) }
        if !field.required, field.defaultPrefix == nil, let value = defaultValue(field, defaults) {
            out.append(("default", value))
        }
        return .object(out)
    }

    private static func arraySchema<Model>(_ table: FieldTable<Model>, _ limits: FieldLimits, nullable: Bool)
        -> [(String, JSONValue)]
    {
        var out: [(String, JSONValue)] = [("type", types("array", nullable: nullable))]
        if let (count, _) = limits.minItems { out.append(("minItems", .number(Double(count)))) }
        out.append(("items", .object(objectSchema(table, nullable: false))))
        return out
    }

    private static let definitions: [(String, JSONValue)] = [
        (
            "milliseconds",
            .object([
                (
                    "description",
                    .string(
                        "A time in milliseconds, from 0 to 3,600,000 (an hour); the simulator rounds it to the microsecond."
                    )
                ),
                ("type", .string("number")), ("minimum", .number(0)),
                ("maximum", .number(ScenarioFields.maxMilliseconds)),
            ])
        ),
        (
            "optionalMilliseconds",
            .object([
                (
                    "description",
                    .string("A time in milliseconds, from 0 to 3,600,000 (an hour), or null for the default.")
                ),
                ("type", types("number", nullable: true)), ("minimum", .number(0)),
                ("maximum", .number(ScenarioFields.maxMilliseconds)),
            ])
        ),
        (
            "budget",
            .object([
                (
                    "description",
                    .string(
                        "A limit, at least 0, in the metric's unit (ms for times, a fraction for cpuUtilization); null for none."
                    )
                ),
                ("type", types("number", nullable: true)), ("minimum", .number(Budget.limits.minimum ?? 0)),
            ])
        ),
    ]

    /// What each budget limits, for editors.
    private static func types(_ type: String, nullable: Bool) -> JSONValue {
        nullable ? .array([.string(type), .string("null")]) : .string(type)
    }

    private static func members(_ value: JSONValue) -> [(String, JSONValue)] {
        guard case .object(let members) = value else { return [] }
        return members.map { ($0.key, $0.value) }
    }

    /// A doc line as a sentence: capitalised, with a final period.
    private static func sentence(_ text: String) -> String {
        let capitalised = text.prefix(1).uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }

    /// The default as JSON; nil for required keys, nested values and optional values without one.
    package static func defaultValue<Model>(_ field: ScenarioField<Model>, _ defaults: Model) -> JSONValue? {
        guard !field.required, field.defaultPrefix == nil else { return nil }
        switch field.access {
        case .string(let get, _): return .string(get(defaults))
        case .optionalString(let get, _): return get(defaults).map(JSONValue.string)
        case .bool(let get, _): return .bool(get(defaults))
        case .integer(let get, _): return .number(Double(get(defaults)))
        case .optionalInteger(let get, _): return get(defaults).map { .number(Double($0)) }
        case .number(let get, _): return .number(get(defaults))
        case .optionalNumber(let get, _): return get(defaults).map(JSONValue.number)
        case .ms(let get, _): return .number(Double(get(defaults)) / 1000)
        case .optionalMs(let get, _): return get(defaults).map { .number(Double($0) / 1000) }
        case .choice(let get, _): return get(defaults).map(JSONValue.string)
        case .dependencies, .nested: return nil
        }
    }

    // MARK: The key table (docs/scenarios.md)

    private static func typeText<Model>(_ field: ScenarioField<Model>) -> String {
        let limits = field.limits
        var parts: [String] = []
        switch field.type {
        case .integer:
            if let min = limits.minimum, let max = limits.maximum {
                return "integer, \(grouped(min)) … \(grouped(max))"
            }
            return "integer"
        case .number:
            switch (limits.minimum, limits.maximum) {
            case (let min?, let max?):
                let range = "\(grouped(min)) \(limits.minimumIsExclusive ? "<" : "≤") x ≤ \(grouped(max))"
                return "number, " + range + limits.unit
            case (let min?, nil): return "number \(limits.minimumIsExclusive ? ">" : "≥") \(grouped(min))"
            default: return "number"
            }
        case .ms:
            return limits.atLeast.map { "ms ≥ `\($0)`" } ?? "ms"
        case .string:
            if let choices = limits.choices { return choices.map { "`\"\($0)\"`" }.joined(separator: " or ") }
            parts.append("string")
            if limits.nonEmpty != nil { parts.append("non-empty") }
            if limits.unique { parts.append("unique") }
        case .idList:
            parts.append("id list")
            if limits.distinct { parts.append("no id twice") }
        case .array:
            parts.append("array")
            if let (count, _) = limits.minItems { parts.append("at least \(count)") }
        case .bool, .object:
            parts.append(field.type.rawValue)
        }
        return parts.joined(separator: ", ")
    }

    private static func defaultText<Model>(_ field: ScenarioField<Model>, _ defaults: Model) -> String {
        if field.required { return "required" }
        if let prefix = field.defaultPrefix { return "`\(prefix)<k>` (k: 1-based position)" }
        switch field.access {
        case .nested(.device): return ""
        case .nested(.budgets): return "none"
        case .nested: return "`[]`"
        case .dependencies: return "`[]`"
        default: break
        }
        guard let value = defaultValue(field, defaults) else { return "none" }
        return "`\(pretty(value, indent: ""))`"
    }

    /// 1000000 → "1,000,000"; fractions as they are.
    private static func grouped(_ value: Double) -> String {
        guard value.rounded() == value, abs(value) < 1e15 else { return formatNumber(value) }
        var digits = String(Int(abs(value)))
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (value < 0 ? "-" : "") + digits + out
    }

    // MARK: Printing

    /// Objects one member a line, arrays of plain values on one line.
    package static func pretty(_ value: JSONValue, indent: String) -> String {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let oneLine =
                "{ " + members.map { "\(quoted($0.key)): \(pretty($0.value, indent: ""))" }.joined(separator: ", ")
                + " }"
            if members.count <= 2, !oneLine.contains("\n"), oneLine.count <= 60 { return oneLine }
            let inner = indent + "  "
            let lines = members.map { "\(inner)\(quoted($0.key)): \(pretty($0.value, indent: inner))" }
            return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let items):
            let plain = items.allSatisfy {
                if case .object = $0 { return false }
                if case .array = $0 { return false }
                return true
            }
            if plain { return "[" + items.map { pretty($0, indent: indent) }.joined(separator: ", ") + "]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .string(let text): return quoted(text)
        case .number(let x): return formatNumber(x)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    private static func quoted(_ text: String) -> String {
        var w = JSONWriter(capacity: text.utf8.count + 2)
        w.string(text)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
