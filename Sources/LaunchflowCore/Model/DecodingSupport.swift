/// The small types the scenario decoder works with.

/// Where a value sits in the document; turned into a path string only for problems.
enum Location {
    case root(String)
    case device(String)
    case preMain(Int, String)
    case preMainElement(Int)
    case task(Int, String)
    case taskElement(Int)
    case dependency(task: Int, position: Int)
    case budget(String)

    var path: String {
        switch self {
        case .root(let key): key
        case .device(let key): "device.\(key)"
        case .preMain(let i, let key): "preMain[\(i)].\(key)"
        case .preMainElement(let i): "preMain[\(i)]"
        case .task(let i, let key): "tasks[\(i)].\(key)"
        case .taskElement(let i): "tasks[\(i)]"
        case .dependency(let task, let position): "tasks[\(task)].dependsOn[\(position)]"
        case .budget(let key): "budgets.\(key)"
        }
    }

    var taskIndex: Int? {
        switch self {
        case .task(let i, _), .taskElement(let i), .dependency(let i, _): i
        default: nil
        }
    }
}

/// A task as read from the file, before ids are resolved.
struct RawTask {
    /// Byte offset of the task's object in the file (orders the problems).
    var offset = 0
    var id: String?
    var cost: Micros?
    var mainThreadOnly = false
    var priority = 0
    /// Dependency ids in file order; nil where the element was not a string.
    var dependsOn: [String?] = []
    var firstFrame = false
    var costP90: Micros?
    var latency: Micros = 0
    var delay: Micros = 0
    var queue: String?
    var idle = false
    var anchor = false
    var group: String?
    var latencyP90: Micros?
}

/// The result of reading one key: absent (or null), present but invalid (a
/// problem was recorded), or a value.
enum Field<Value> {
    case absent, invalid, value(Value)

    var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }

    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}

/// Which of an object's known keys were seen, as bits.
struct KeySet {
    private var bits: UInt64 = 0

    /// Marks key number `position` seen; false if it already was.
    mutating func insert(_ position: Int) -> Bool {
        let mask: UInt64 = 1 << UInt64(position)
        defer { bits |= mask }
        return bits & mask == 0
    }
}

/// A number as a reader would write it: `5`, `-2.5`, `1e+300`.
public func formatNumber(_ value: Double) -> String {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}
