import Foundation

/// The streaming decoder. A class because the reader's callbacks record
/// problems into it while the reader itself is passed `inout`.
final class ScenarioDecoder {
    static let rootKeys = [
        "name", "description", "device", "preMain", "tasks", "$schema", "budgets", "jitter", "idleMode", "inputs",
    ]
    static let deviceKeys = ["cores", "refreshRate", "commitCost", "renderTime"]
    static let preMainKeys = ["name", "cost"]
    static let taskKeys = [
        "id", "cost", "mainThreadOnly", "priority", "dependsOn", "firstFrame", "costP90", "latency", "delay", "queue",
        "idle", "anchor", "group", "latencyP90",
    ]
    /// The largest millisecond value accepted anywhere: an hour.
    static let maxMilliseconds = 3_600_000.0
    static let maxPriority = 1_000_000
    /// Below this the frame interval (`1e6 / r` µs) and vsync times leave 64-bit integers.
    static let minRefreshRate = 1e-9

    let file: String
    private(set) var problems: [(offset: Int, location: Location?, message: String)] = []

    var name: String?
    var description = ""
    var device = Device()
    var preMain: [PreMainPhase] = []
    var tasks: [RawTask] = []
    var tasksPresent = false
    var budgets: [Budget] = []
    var jitter: Double?
    var schema: String?
    var idleMode = IdleMode.batch
    var inputs: [UserInput] = []

    init(file: String) { self.file = file }

    func report(_ message: String, at location: Location?, offset: Int) {
        problems.append((offset, location, message))
    }

    // MARK: Objects

    func decodeRoot(_ r: inout JSONReader) throws {
        let start = r.valueOffset()
        let kind = try r.peekKind()
        guard kind == .object else {
            report("the scenario must be a JSON object, found \(kind.noun)", at: nil, offset: start)
            try r.skipValue()
            return
        }
        var seen = KeySet()
        var nameInvalid = false
        try r.readObject { r, key, keyOffset in
            guard try self.checkKey(key, of: Self.rootKeys, in: &seen, at: .root(key), offset: keyOffset, &r) else {
                return
            }
            switch key {
            case "name":
                let field = try self.string(&r, at: .root(key))
                self.name = field.value
                nameInvalid = field.isInvalid
            case "description":
                if let v = try self.string(&r, at: .root(key)).value { self.description = v }
            case "$schema":
                self.schema = try self.string(&r, at: .root(key)).value
            case "jitter":
                self.jitter = try self.number(&r, at: .root(key), min: 0, max: .greatestFiniteMagnitude, unit: "").value
            case "device": try self.decodeDevice(&r)
            case "preMain": try self.decodePreMain(&r)
            case "tasks": try self.decodeTasks(&r)
            case "budgets": try self.decodeBudgets(&r)
            case "idleMode":
                if let v = try self.string(&r, at: .root(key)).value { self.idleMode = IdleMode(rawValue: v) ?? .batch }
            case "inputs": try self.decodeInputs(&r)
            default: try r.skipValue()
            }
        }
        if name == nil && !nameInvalid {
            report("missing required key 'name'", at: .root("name"), offset: start)
        }
        if !tasksPresent {
            report("missing required key 'tasks'", at: .root("tasks"), offset: start)
        }
    }

    private func decodeDevice(_ r: inout JSONReader) throws {
        guard try expectObject(&r, at: .root("device")) else { return }
        var seen = KeySet()
        try r.readObject { r, key, keyOffset in
            guard try self.checkKey(key, of: Self.deviceKeys, in: &seen, at: .device(key), offset: keyOffset, &r) else {
                return
            }
            switch key {
            case "cores":
                if let v = try self.integer(&r, at: .device(key), min: 2, max: 1024).value { self.device.cores = v }
            case "refreshRate":
                let offset = r.valueOffset()
                guard let v = try self.number(&r, at: .device(key), min: -.infinity, max: .infinity, unit: "").value
                else { return }
                if v > 0 && v <= 1000 {
                    if v < Self.minRefreshRate {
                        // MODEL.md allows any r > 0, but 1e6 / r µs must fit the 64-bit clock.
                        self.report(
                            "must be at least 1e-9 Hz (a frame every 31 years); a smaller rate overflows the microsecond clock, found \(v)",
                            at: .device(key), offset: offset)
                        return
                    }
                    self.device.refreshRate = v
                } else {
                    self.report(
                        "must be greater than 0 and at most 1000 (Hz), found \(formatNumber(v))", at: .device(key),
                        offset: offset)
                }
            case "commitCost":
                if let v = try self.milliseconds(&r, at: .device(key)).value { self.device.commitCost = v }
            case "renderTime":
                if let v = try self.milliseconds(&r, at: .device(key)).value { self.device.renderTime = v }
            default: try r.skipValue()
            }
        }
    }

    private func decodePreMain(_ r: inout JSONReader) throws {
        guard try expectArray(&r, at: .root("preMain")) else { return }
        try r.readArray { r, index in
            let start = r.valueOffset()
            guard try self.expectObject(&r, at: .preMainElement(index), nullIsAbsent: false) else { return }
            var seen = KeySet()
            var name: Field<String> = .absent
            var cost: Field<Micros> = .absent
            try r.readObject { r, key, keyOffset in
                guard
                    try self.checkKey(
                        key, of: Self.preMainKeys, in: &seen, at: .preMain(index, key), offset: keyOffset, &r)
                else { return }
                switch key {
                case "name": name = try self.string(&r, at: .preMain(index, key))
                case "cost": cost = try self.milliseconds(&r, at: .preMain(index, key))
                default: try r.skipValue()
                }
            }
            for (key, missing) in [("name", name.isAbsent), ("cost", cost.isAbsent)] where missing {
                self.report("missing required key '\(key)'", at: .preMainElement(index), offset: start)
            }
            self.preMain.append(PreMainPhase(name: name.value ?? "", cost: cost.value ?? 0))
        }
    }

    private func decodeTasks(_ r: inout JSONReader) throws {
        let start = r.valueOffset()
        if try r.peekKind() == .null {
            try r.readNull()
            return
        }
        tasksPresent = true
        guard try expectArray(&r, at: .root("tasks")) else { return }
        try r.readArray { r, index in
            self.tasks.append(try self.decodeTask(&r, index: index))
        }
        if tasks.isEmpty { report("the scenario has no tasks", at: .root("tasks"), offset: start) }
    }

    private func decodeTask(_ r: inout JSONReader, index: Int) throws -> RawTask {
        let start = r.valueOffset()
        var task = RawTask(offset: start)
        guard try expectObject(&r, at: .taskElement(index), nullIsAbsent: false) else { return task }
        var seen = KeySet()
        var id: Field<String> = .absent
        var cost: Field<Micros> = .absent
        try r.readObject { r, key, keyOffset in
            let at = Location.task(index, key)
            guard try self.checkKey(key, of: Self.taskKeys, in: &seen, at: at, offset: keyOffset, &r) else { return }
            switch key {
            case "id":
                let offset = r.valueOffset()
                id = try self.string(&r, at: at)
                task.id = id.value
                if id.value?.isEmpty == true { self.report("task id is empty", at: at, offset: offset) }
            case "cost":
                cost = try self.milliseconds(&r, at: at)
                task.cost = cost.value
            case "mainThreadOnly": task.mainThreadOnly = try self.bool(&r, at: at).value ?? false
            case "firstFrame": task.firstFrame = try self.bool(&r, at: at).value ?? false
            case "priority":
                task.priority = try self.integer(&r, at: at, min: 0, max: Self.maxPriority).value ?? 0
            case "costP90": task.costP90 = try self.milliseconds(&r, at: at).value
            case "latency": task.latency = try self.milliseconds(&r, at: at).value ?? 0
            case "delay": task.delay = try self.milliseconds(&r, at: at).value ?? 0
            case "latencyP90": task.latencyP90 = try self.milliseconds(&r, at: at).value
            case "queue": task.queue = try self.string(&r, at: at).value
            case "group": task.group = try self.string(&r, at: at).value
            case "idle": task.idle = try self.bool(&r, at: at).value ?? false
            case "anchor": task.anchor = try self.bool(&r, at: at).value ?? false
            case "dependsOn": task.dependsOn = try self.dependencies(&r, task: index)
            default: try r.skipValue()
            }
        }
        if id.isAbsent {
            report("missing required key 'id'", at: .taskElement(index), offset: start)
        }
        if cost.isAbsent {
            report("missing required key 'cost'", at: .taskElement(index), offset: start)
        }
        return task
    }

    private func dependencies(_ r: inout JSONReader, task: Int) throws -> [String?] {
        let at = Location.task(task, "dependsOn")
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .null:
            try r.readNull()
            return []
        case .array: break
        case let kind:
            report("expected an array of task ids, found \(kind.noun)", at: at, offset: offset)
            try r.skipValue()
            return []
        }
        var ids: [String?] = []
        try r.readArray { r, position in
            let elementOffset = r.valueOffset()
            let kind = try r.peekKind()
            if kind == .string {
                ids.append(try r.readString())
            } else {
                self.report(
                    "expected a task id (a string), found \(kind.noun)",
                    at: .dependency(task: task, position: position), offset: elementOffset)
                try r.skipValue()
                ids.append(nil)  // keeps positions aligned
            }
        }
        return ids
    }

    private func decodeInputs(_ r: inout JSONReader) throws {
        guard try expectArray(&r, at: .root("inputs")) else { return }
        try r.readArray { r, index in
            var name: String?
            var at: Micros = 0
            var cost: Micros = 0
            guard try self.expectObject(&r, at: .root("inputs[\(index)]"), nullIsAbsent: false) else { return }
            try r.readObject { r, key, _ in
                let loc = Location.root("inputs[\(index)].\(key)")
                switch key {
                case "name": name = try self.string(&r, at: loc).value
                case "at": at = try self.milliseconds(&r, at: loc).value ?? 0
                case "cost": cost = try self.milliseconds(&r, at: loc).value ?? 0
                default: try r.skipValue()
                }
            }
            self.inputs.append(UserInput(name: name ?? "input-\(index + 1)", at: at, cost: cost))
        }
    }

    private func decodeBudgets(_ r: inout JSONReader) throws {
        guard try expectObject(&r, at: .root("budgets")) else { return }
        let metrics = Metric.allCases.map(\.rawValue)
        var seen = Set<String>()
        try r.readObject { r, key, keyOffset in
            guard Metric(rawValue: key) != nil else {
                self.report(
                    "unknown metric '\(key)'\(didYouMean(key, in: metrics))", at: .budget(key), offset: keyOffset)
                try r.skipValue()
                return
            }
            guard seen.insert(key).inserted else {
                self.report("key '\(key)' appears twice in this object", at: .budget(key), offset: keyOffset)
                try r.skipValue()
                return
            }
            if let v = try self.number(&r, at: .budget(key), min: 0, max: .greatestFiniteMagnitude, unit: "").value {
                self.budgets.append(Budget(metric: key, limit: v))
            }
        }
    }

    // MARK: Keys

    /// Records unknown and repeated keys; returns whether the value should be decoded
    /// (otherwise it has been skipped).
    private func checkKey(
        _ key: String, of known: [String], in seen: inout KeySet, at location: Location, offset: Int,
        _ r: inout JSONReader
    ) throws -> Bool {
        guard let position = known.firstIndex(of: key) else {
            report("unknown key '\(key)'\(didYouMean(key, in: known))", at: location, offset: offset)
            try r.skipValue()
            return false
        }
        if seen.insert(position) == false {
            report("key '\(key)' appears twice in this object", at: location, offset: offset)
            try r.skipValue()
            return false
        }
        return true
    }

    // MARK: Values

    /// `nullIsAbsent`: true for the value of an optional key; an array element is never absent.
    private func expectObject(_ r: inout JSONReader, at location: Location, nullIsAbsent: Bool = true) throws -> Bool {
        try expect(.object, &r, at: location, nullIsAbsent: nullIsAbsent)
    }

    private func expectArray(_ r: inout JSONReader, at location: Location) throws -> Bool {
        try expect(.array, &r, at: location, nullIsAbsent: true)
    }

    /// Whether the next value has `kind`; if not, a problem is recorded (unless
    /// it is null and null means absent) and the value skipped.
    private func expect(_ kind: JSONReader.ValueKind, _ r: inout JSONReader, at location: Location, nullIsAbsent: Bool)
        throws -> Bool
    {
        let offset = r.valueOffset()
        let found = try r.peekKind()
        if found == kind { return true }
        if found != .null || !nullIsAbsent {
            report("expected \(kind.noun), found \(found.noun)", at: location, offset: offset)
        }
        try r.skipValue()
        return false
    }

    func string(_ r: inout JSONReader, at location: Location) throws -> Field<String> {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .string: return .value(try r.readString())
        case .null:
            try r.readNull()
            return .absent
        case let kind:
            report("expected a string, found \(kind.noun)", at: location, offset: offset)
            try r.skipValue()
            return .invalid
        }
    }

    func bool(_ r: inout JSONReader, at location: Location) throws -> Field<Bool> {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .bool: return .value(try r.readBool())
        case .null:
            try r.readNull()
            return .absent
        case let kind:
            report("expected true or false, found \(kind.noun)", at: location, offset: offset)
            try r.skipValue()
            return .invalid
        }
    }

    /// A finite number in `min...max`.
    func number(_ r: inout JSONReader, at location: Location, min: Double, max: Double, unit: String) throws -> Field<
        Double
    > {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .number:
            let v = try r.readNumber().value
            guard v.isFinite else {
                report("number out of range (beyond the double range)", at: location, offset: offset)
                return .invalid
            }
            guard v >= min && v <= max else {
                if max == .greatestFiniteMagnitude {
                    report(
                        "must be at least \(formatNumber(min))\(unit), found \(formatNumber(v))", at: location,
                        offset: offset)
                } else {
                    report(
                        "must be between \(formatNumber(min)) and \(formatNumber(max))\(unit), found \(formatNumber(v))",
                        at: location, offset: offset)
                }
                return .invalid
            }
            return .value(v)
        case .null:
            try r.readNull()
            return .absent
        case let kind:
            report("expected a number, found \(kind.noun)", at: location, offset: offset)
            try r.skipValue()
            return .invalid
        }
    }

    /// A millisecond value (0 … one hour), as microseconds.
    func milliseconds(_ r: inout JSONReader, at location: Location) throws -> Field<Micros> {
        switch try number(&r, at: location, min: 0, max: Self.maxMilliseconds, unit: " ms") {
        case .value(let ms): .value(microseconds(fromMilliseconds: ms))
        case .absent: .absent
        case .invalid: .invalid
        }
    }

    /// An integral number (`4` or `4.0`) in `min...max`.
    func integer(_ r: inout JSONReader, at location: Location, min: Int, max: Int) throws -> Field<Int> {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .number:
            let n = try r.readNumber()
            guard n.value.isFinite else {
                report("number out of range (beyond the double range)", at: location, offset: offset)
                return .invalid
            }
            guard n.isIntegral else {
                report("must be an integer, found \(formatNumber(n.value))", at: location, offset: offset)
                return .invalid
            }
            guard n.value >= Double(min) && n.value <= Double(max) else {
                report(
                    "must be an integer between \(min) and \(max), found \(formatNumber(n.value))", at: location,
                    offset: offset)
                return .invalid
            }
            return .value(Int(n.value))
        case .null:
            try r.readNull()
            return .absent
        case let kind:
            report("expected an integer, found \(kind.noun)", at: location, offset: offset)
            try r.skipValue()
            return .invalid
        }
    }

    // MARK: Finish

    /// Resolves ids, runs the semantic checks and builds the scenario, or throws every problem.
    func finish() throws(ScenarioError) -> Scenario {
        var validator = ScenarioValidator(tasks: tasks)
        let resolved = validator.resolve()
        for problem in validator.problems {
            report(problem.message, at: problem.location, offset: problem.offset)
        }
        if !problems.isEmpty {
            // Stable order: by position in the file, then in the order found.
            let ordered = problems.enumerated().sorted {
                ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
            }
            throw ScenarioError(
                ordered.map { entry in
                    let (_, location, message) = entry.element
                    let taskID = location?.taskIndex.flatMap { tasks.indices.contains($0) ? tasks[$0].id : nil }
                    return ScenarioProblem(
                        file: file, path: location?.path ?? "", taskID: taskID?.isEmpty == false ? taskID : nil,
                        message: message)
                })
        }
        let launchTasks = tasks.indices.map { i in
            let raw = tasks[i]
            return LaunchTask(
                id: raw.id ?? "", cost: raw.cost ?? 0, mainThreadOnly: raw.mainThreadOnly, priority: raw.priority,
                dependsOn: resolved[i], firstFrame: raw.firstFrame, costP90: raw.costP90, latency: raw.latency,
                delay: raw.delay, queue: raw.queue, idle: raw.idle, anchor: raw.anchor, group: raw.group,
                latencyP90: raw.latencyP90)
        }
        return Scenario(
            name: name ?? "", description: description, device: device, preMain: preMain, tasks: launchTasks,
            budgets: budgets, jitter: jitter, schema: schema, idleMode: idleMode, inputs: inputs)
    }
}
