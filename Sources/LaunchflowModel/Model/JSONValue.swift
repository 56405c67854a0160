/// A small JSON document tree for inputs read whole (baselines), built with
/// ``JSONReader`` so that syntax errors carry line and column.
package enum JSONValue: Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        do {
            let value = try read(&reader)
            try reader.expectEnd()
            return value
        } catch let error as JSONSyntaxError {
            throw error
        } catch {
            throw JSONSyntaxError(offset: reader.offset, message: "\(error)")
        }
    }

    /// The reader limits the nesting depth, so this recursion is bounded.
    private static func read(_ r: inout JSONReader) throws -> JSONValue {
        switch try r.peekKind() {
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            try r.readObject { r, key, _ in members.append((key, try read(&r))) }
            return .object(members)
        case .array:
            var items: [JSONValue] = []
            try r.readArray { r, _ in items.append(try read(&r)) }
            return .array(items)
        case .string: return .string(try r.readString())
        case .number: return .number(try r.readNumber().value)
        case .bool: return .bool(try r.readBool())
        case .null:
            try r.readNull()
            return .null
        }
    }

    /// The member `key` of an object (the last one, if repeated); nil otherwise.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package var noun: String {
        switch self {
        case .object: JSONReader.ValueKind.object.noun
        case .array: JSONReader.ValueKind.array.noun
        case .string: JSONReader.ValueKind.string.noun
        case .number: JSONReader.ValueKind.number.noun
        case .bool: JSONReader.ValueKind.bool.noun
        case .null: JSONReader.ValueKind.null.noun
        }
    }
}
