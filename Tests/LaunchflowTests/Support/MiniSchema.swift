@testable import LaunchflowCore

/// A validator for the subset of JSON Schema (draft 2020-12) that
/// scenarios/scenario.schema.json uses. A keyword outside the subset is
/// reported as an error, so the schema cannot silently outgrow the tests.
struct MiniSchema {
    /// Keywords that only annotate.
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "default", "$defs", "examples"]
    /// Keywords that are checked.
    static let assertions: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "uniqueItems", "minimum",
        "maximum", "exclusiveMinimum", "minLength", "$ref", "const", "enum", "if", "then", "allOf",
    ]

    let root: JSONValue

    init(_ bytes: [UInt8]) throws { root = try JSONValue.parse(bytes) }

    /// Every way `instance` breaks the schema, as `path: message`.
    func errors(_ instance: JSONValue) -> [String] {
        var out: [String] = []
        check(instance, root, "$", &out)
        return out
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, _ out: inout [String]) {
        guard case .object(let keywords) = schema else {
            out.append("\(path): schema is not an object")
            return
        }
        for (keyword, argument) in keywords {
            if Self.annotations.contains(keyword) || keyword == "then" { continue }
            guard Self.assertions.contains(keyword) else {
                out.append("\(path): unsupported keyword '\(keyword)'")
                continue
            }
            switch keyword {
            case "$ref":
                guard let reference = argument.string, reference.hasPrefix("#/$defs/"),
                    let target = root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
                else {
                    out.append("\(path): unresolvable $ref")
                    continue
                }
                check(value, target, path, &out)
            case "type":
                let names: [String]
                switch argument {
                case .string(let name): names = [name]
                case .array(let items): names = items.compactMap(\.string)
                default: names = []
                }
                if !names.contains(where: { Self.has(value, type: $0) }) {
                    out.append("\(path): expected \(names.joined(separator: " or ")), found \(value.noun)")
                }
            case "properties":
                guard case .object(let members) = value else { continue }
                for (key, member) in members {
                    if let sub = argument[key] { check(member, sub, "\(path).\(key)", &out) }
                }
            case "additionalProperties":
                guard case .object(let members) = value else { continue }
                for (key, member) in members where schema["properties"]?[key] == nil {
                    if case .bool(false) = argument {
                        out.append("\(path): unknown key '\(key)'")
                    } else {
                        check(member, argument, "\(path).\(key)", &out)
                    }
                }
            case "required":
                guard case .object = value, case .array(let names) = argument else { continue }
                for name in names.compactMap(\.string) {
                    if value[name] == nil { out.append("\(path): missing required key '\(name)'") }
                }
            case "items":
                guard case .array(let items) = value else { continue }
                for (k, item) in items.enumerated() { check(item, argument, "\(path)[\(k)]", &out) }
            case "minItems":
                if case .array(let items) = value, case .number(let n) = argument, Double(items.count) < n {
                    out.append("\(path): fewer than \(Int(n)) items")
                }
            case "uniqueItems":
                if case .array(let items) = value, case .bool(true) = argument {
                    let texts = items.map(Self.canonical)
                    if Set(texts).count != texts.count { out.append("\(path): items are not unique") }
                }
            case "minimum", "maximum", "exclusiveMinimum":
                guard case .number(let x) = value, case .number(let limit) = argument else { continue }
                let ok = keyword == "minimum" ? x >= limit : keyword == "maximum" ? x <= limit : x > limit
                if !ok { out.append("\(path): \(x) breaks \(keyword) \(limit)") }
            case "minLength":
                if case .string(let text) = value, case .number(let n) = argument, Double(text.unicodeScalars.count) < n
                {
                    out.append("\(path): shorter than \(Int(n))")
                }
            case "const":
                if Self.canonical(value) != Self.canonical(argument) {
                    out.append("\(path): not \(Self.canonical(argument))")
                }
            case "enum":
                guard case .array(let choices) = argument else { continue }
                if !choices.contains(where: { Self.canonical($0) == Self.canonical(value) }) {
                    out.append("\(path): not one of \(choices.map(Self.canonical).joined(separator: ", "))")
                }
            case "allOf":
                guard case .array(let schemas) = argument else { continue }
                for sub in schemas { check(value, sub, path, &out) }
            case "if":
                var failures: [String] = []
                check(value, argument, path, &failures)
                if failures.isEmpty, let then = schema["then"] { check(value, then, path, &out) }
            default:
                break
            }
        }
    }

    /// JSON Schema types; "integer" is any number with a zero fractional part (4.0 included).
    static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("number", .number), ("boolean", .bool),
            ("null", .null):
            return true
        case ("integer", .number(let x)): return x.isFinite && x.rounded() == x
        default: return false
        }
    }

    /// A text that is equal for equal JSON values (object keys sorted).
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { "\($0.key):\(canonical($0.value))" }.joined(separator: ",")
                + "}"
        case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
        case .string(let text): return "\"\(text)\""
        case .number(let x): return "\(x)"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        }
    }
}
