import Foundation

/// The small types the scenario decoder works with.

/// Where a value sits in the document; turned into a path string only for problems.
package enum Location {
    case root(String)
    case device(String)
    case preMain(Int, String)
    case preMainElement(Int)
    case launchPhase(Int, String)
    case cluster(Int, String)
    case clusterElement(Int)
    case launchPhaseElement(Int)
    case task(Int, String)
    case taskElement(Int)
    case dependency(task: Int, position: Int)
    case budget(String)
    case input(Int, String)
    case inputElement(Int)

    package var path: String {
        switch self {
        case .root(let key): key
        case .device(let key): "device.\(key)"
        case .preMain(let i, let key): "preMain[\(i)].\(key)"
        case .preMainElement(let i): "preMain[\(i)]"
        case .launchPhase(let i, let key): "launchPhases[\(i)].\(key)"
        case .cluster(let i, let key): "device.clusters[\(i)].\(key)"
        case .clusterElement(let i): "device.clusters[\(i)]"
        case .launchPhaseElement(let i): "launchPhases[\(i)]"
        case .task(let i, let key): "tasks[\(i)].\(key)"
        case .taskElement(let i): "tasks[\(i)]"
        case .dependency(let task, let position): "tasks[\(task)].dependsOn[\(position)]"
        case .budget(let key): "budgets.\(key)"
        case .input(let i, let key): "inputs[\(i)].\(key)"
        case .inputElement(let i): "inputs[\(i)]"
        }
    }

    package var taskIndex: Int? {
        switch self {
        case .task(let i, _), .taskElement(let i), .dependency(let i, _): i
        default: nil
        }
    }
}

/// A problem with a scenario, before it becomes a ``Diagnostic``: where it is,
/// and the offset that orders it (its byte offset in the file; for a scenario
/// built in code, see ``Scenario/problems()``).
package struct LocatedProblem {
    package var offset: Int
    package var location: Location?
    package var message: String
    package var suggestion: String?
    package var kind: Diagnostic.Kind = .other

    /// Diagnostics in a stable order: by offset, then in the order found. A
    /// problem inside a task names the task when it has an id.
    package static func diagnostics(_ problems: [LocatedProblem], file: String, tasks: [LaunchTask]) -> [Diagnostic] {
        problems.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map {
            let problem = $0.element
            let taskID = problem.location?.taskIndex.flatMap { tasks.indices.contains($0) ? tasks[$0].id : nil }
            return Diagnostic(
                file: file, path: problem.location?.path ?? "", taskID: taskID?.isEmpty == false ? taskID : nil,
                message: problem.message, suggestion: problem.suggestion, kind: problem.kind)
        }
    }
}

/// The result of reading one key: absent (or null), present but invalid (a
/// problem was recorded), or a value.
package enum Field<Value> {
    case absent, invalid
    case value(Value)

    package var value: Value? {
        if case .value(let v) = self { return v }
        return nil
    }

    package var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    package var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}

/// Which of an object's known keys were seen, as bits.
package struct KeySet {
    private var bits: UInt64 = 0

    /// Marks key number `position` seen; false if it already was.
    @discardableResult
    package mutating func insert(_ position: Int) -> Bool {
        let mask: UInt64 = 1 << UInt64(position)
        defer { bits |= mask }
        return bits & mask == 0
    }

    package func contains(_ position: Int) -> Bool { bits & (1 << UInt64(position)) != 0 }
}

extension FieldLimits {
    /// Every millisecond value: 0 … an hour.
    package static let milliseconds = FieldLimits(minimum: 0, maximum: ScenarioFields.maxMilliseconds, unit: " ms")

    /// The problem with a number `v` read from a file, or nil when it is within these limits.
    package func problem(with v: Double) -> String? {
        guard v.isFinite else { return "number out of range (beyond the double range)" }
        let low = minimum ?? -.infinity
        let high = maximum ?? .infinity
        let inRange = (minimumIsExclusive ? v > low : v >= low) && v <= high
        guard inRange else {
            let found = "found \(formatNumber(v))"
            switch (minimum, maximum) {
            case (let min?, let max?) where minimumIsExclusive:
                return "must be greater than \(formatNumber(min)) and at most \(formatNumber(max))\(unit), \(found)"
            case (let min?, let max?):
                return "must be between \(formatNumber(min)) and \(formatNumber(max))\(unit), \(found)"
            case (let min?, nil):
                return
                    "must be \(minimumIsExclusive ? "greater than" : "at least") \(formatNumber(min))\(unit), \(found)"
            case (nil, let max?):
                return "must be at most \(formatNumber(max))\(unit), \(found)"
            case (nil, nil):
                return nil
            }
        }
        return check?(v)
    }

    /// The problem with a number `v` that should be an integer within these limits, or nil.
    package func integerProblem(with v: Double) -> String? {
        guard v.isFinite else { return "number out of range (beyond the double range)" }
        guard v.rounded(.towardZero) == v else { return "must be an integer, found \(formatNumber(v))" }
        if let min = minimum, let max = maximum, !(v >= min && v <= max) {
            return "must be an integer between \(Int(min)) and \(Int(max)), found \(formatNumber(v))"
        }
        return nil
    }
}

extension Budget {
    /// The largest limit or baseline value, in a metric's unit (10¹² ms is
    /// about 31 years): its µs fit a `Micros`, so reports can print it.
    public static let maximum = 1e12

    /// A budget's limit: a number from 0 to ``maximum`` in the metric's unit.
    package static let limits = FieldLimits(minimum: 0, maximum: maximum)
}

/// A number as a reader would write it: `5`, `-2.5`, `1e+300`.
public func formatNumber(_ value: Double) -> String {
    if value.isFinite, value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
}

/// Whether two byte strings are equal (one `memcmp`): how ASCII keys and ids
/// are compared with the document's bytes.
package func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress, a.count > 0 else { return true }
    return memcmp(x, y, a.count) == 0
}
