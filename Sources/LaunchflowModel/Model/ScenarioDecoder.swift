import Foundation

/// The streaming decoder: reads each object of the file against its rows in
/// ``ScenarioFields``, straight into the model.
///
/// A class because the reader's callbacks record problems into it while the
/// reader itself is passed `inout`.
package final class ScenarioDecoder {
    package let file: String
    private(set) var problems: [LocatedProblem] = []

    /// The root's own values (name, description, jitter, idleMode, $schema).
    package var root = Scenario.draft
    package var device = Device()
    package var preMain: [PreMainPhase] = []
    package var launchPhases: [LaunchPhase] = []
    /// (§3.12) Where `launchPhases` and each phase start, to order their problems.
    private var launchPhasesOffset = 0
    /// (§3.13) Whether `device.cores` was given, and where the device starts.
    private var coresGiven = false
    private var clusters: [CoreCluster] = []
    private var refreshRateGiven = false
    private var deviceOffset = 0
    private var phaseOffsets: [Int] = []
    package var budgets: [Budget] = []
    package var inputs: [UserInput] = []
    package var tasks: [LaunchTask] = []
    /// Each task's byte offset in the file (orders the problems).
    package var taskOffsets: [Int] = []
    /// Each task's `dependsOn` entries in file order.
    package var dependencies = DependencyEntries(document: [])

    /// The task rows, fetched once (read for every task).
    private let taskFields = ScenarioFields.task

    package init(file: String) { self.file = file }

    package func report(_ message: String, at location: Location?, offset: Int, suggestion: String? = nil) {
        problems.append(LocatedProblem(offset: offset, location: location, message: message, suggestion: suggestion))
    }

    // MARK: Objects

    package func decodeRoot(_ r: inout JSONReader) throws {
        let start = r.valueOffset()
        let kind = try r.peekKind()
        guard kind == .object else {
            report("the scenario must be a JSON object, found \(kind.noun)", at: nil, offset: start)
            try r.skipValue()
            return
        }
        try decodeObject(&r, ScenarioFields.root, into: &root, start: start, element: nil, at: Location.root) {
            r, field in
            guard case .nested(let nested) = field.access else { return try r.skipValue() }
            switch nested {
            case .device:
                guard try self.expect(.object, &r, at: .root(field.key)) else { return }
                self.deviceOffset = r.valueOffset()
                let given = try self.decodeObject(
                    &r, ScenarioFields.device, into: &self.device, start: r.valueOffset(), element: .root(field.key),
                    at: Location.device
                ) { r, field in
                    guard case .nested(.clusters) = field.access else { return try r.skipValue() }
                    try self.decodeArray(&r, field, at: .device(field.key), element: Location.clusterElement) {
                        r, index in
                        var cluster = CoreCluster(name: "", count: 1, speed: 1)
                        try self.decodeElement(
                            &r, ScenarioFields.cluster, into: &cluster, element: .clusterElement(index),
                            at: { .cluster(index, $0) })
                        self.clusters.append(cluster)
                    }
                }
                // (Read apart: `device` is borrowed while its object is read.)
                self.device.clusters = self.clusters
                self.coresGiven = ScenarioFields.device.index(of: "cores", from: 0).map(given.contains) ?? false
                self.refreshRateGiven =
                    ScenarioFields.device.index(of: "refreshRate", from: 0).map(given.contains) ?? false
            case .preMain:
                try self.decodeArray(&r, field, element: Location.preMainElement) { r, index in
                    var phase = PreMainPhase(name: "", cost: 0)
                    try self.decodeElement(
                        &r, ScenarioFields.preMain, into: &phase, element: .preMainElement(index),
                        at: { .preMain(index, $0) })
                    self.preMain.append(phase)
                }
            case .launchPhases:
                self.launchPhasesOffset = r.valueOffset()
                try self.decodeArray(&r, field, element: Location.launchPhaseElement) { r, index in
                    var phase = LaunchPhase(name: "", cost: 0)
                    self.phaseOffsets.append(r.valueOffset())
                    try self.decodeElement(
                        &r, ScenarioFields.launchPhase, into: &phase, element: .launchPhaseElement(index),
                        at: { .launchPhase(index, $0) })
                    self.launchPhases.append(phase)
                }
            case .inputs:
                try self.decodeArray(&r, field, element: Location.inputElement) { r, index in
                    var input = UserInput(name: "", at: 0, cost: 0)
                    let given = try self.decodeElement(
                        &r, ScenarioFields.input, into: &input, element: .inputElement(index),
                        at: { .input(index, $0) })
                    ScenarioFields.input.fillPositionalDefaults(given, in: &input, position: index)
                    self.inputs.append(input)
                }
            case .tasks:
                // Locals rather than properties in the loop: no exclusivity checks per task.
                var tasks: [LaunchTask] = []
                var offsets: [Int] = []
                var dependencies = DependencyEntries(document: r.bytes)
                try self.decodeArray(&r, field, element: Location.taskElement) { r, index in
                    offsets.append(r.valueOffset())
                    // Decoded in place: a task is not copied into the array.
                    tasks.append(LaunchTask(id: "", cost: 0))
                    try self.decodeElement(
                        &r, self.taskFields, into: &tasks[index], element: .taskElement(index),
                        at: { .task(index, $0) }
                    ) { r, _ in
                        try self.readDependencies(&r, task: index, into: &dependencies)
                    }
                    dependencies.endTask()
                }
                (self.tasks, self.taskOffsets, self.dependencies) = (tasks, offsets, dependencies)
            case .budgets:
                try self.decodeBudgets(&r)
            case .clusters:
                try r.skipValue()  // inside the device
            }
        }
    }

    /// An array of objects (null counts as absent); `element` reads element k.
    private func decodeArray<Model: Sendable>(
        _ r: inout JSONReader, _ field: ScenarioField<Model>, at location: Location? = nil,
        element: (Int) -> Location, _ body: (inout JSONReader, Int) throws -> Void
    ) throws {
        let start = r.valueOffset()
        let location = location ?? .root(field.key)
        guard try expect(.array, &r, at: location) else { return }
        var count = 0
        try r.readArray { r, index in
            try body(&r, index)
            count += 1
        }
        if let (minimum, message) = field.limits.minItems, count < minimum {
            report(message, at: location, offset: start)
        }
    }

    /// One object in an array: null is not absent here, but an error.
    @discardableResult
    private func decodeElement<Model: Sendable>(
        _ r: inout JSONReader, _ fields: FieldTable<Model>, into model: inout Model, element: Location,
        at location: (String) -> Location,
        nested: (inout JSONReader, ScenarioField<Model>) throws -> Void = { r, _ in try r.skipValue() }
    ) throws -> KeySet {
        let start = r.valueOffset()
        guard try expect(.object, &r, at: element, nullIsAbsent: false) else { return KeySet() }
        return try decodeObject(&r, fields, into: &model, start: start, element: element, at: location, nested: nested)
    }

    /// Reads an object's members against `fields`: unknown keys (with a "did you
    /// mean"), repeated keys, each value's type and limits, then missing required
    /// keys (reported at `element`, or at the key for the root) and the rules
    /// between keys (at the object's start, like the checks between tasks). Values of
    /// `nested` and `dependencies` rows are read by `nested`. Returns the rows
    /// given a value other than null.
    @discardableResult
    private func decodeObject<Model: Sendable>(
        _ r: inout JSONReader, _ fields: FieldTable<Model>, into model: inout Model, start: Int, element: Location?,
        at location: (String) -> Location,
        nested: (inout JSONReader, ScenarioField<Model>) throws -> Void = { r, _ in try r.skipValue() }
    ) throws -> KeySet {
        var seen = KeySet()
        var given = KeySet()
        var hint = 0
        try r.readMembers { r, member in
            // An ASCII key is matched by its bytes; only another one is made a string.
            let match =
                member.isASCII
                ? r.withBytes(of: member) { fields.index(ofASCII: $0, from: hint) }
                : fields.index(of: r.text(of: member), from: hint)
            guard let f = match else {
                let key = r.text(of: member)
                self.report(
                    "unknown key '\(key)'", at: location(key), offset: member.offset,
                    suggestion: closestMatch(to: key, in: fields.keys))
                try r.skipValue()
                return
            }
            hint = f + 1
            // The key as written equals the row's key (as Swift compares strings).
            let key = fields.keys[f]
            guard seen.insert(f) else {
                self.report("key '\(key)' appears twice in this object", at: location(key), offset: member.offset)
                try r.skipValue()
                return
            }
            if try self.read(fields.fields[f], &r, into: &model, at: location(key), nested: nested) {
                _ = given.insert(f)
            }
        }
        for (f, field) in fields.fields.enumerated() where field.required && !given.contains(f) {
            report("missing required key '\(field.key)'", at: element ?? location(field.key), offset: start)
        }
        for relation in fields.relations {
            if let message = relation.problem(model) { report(message, at: location(relation.key), offset: start) }
        }
        return given
    }

    /// Reads one value into `model`; false when it was absent (null).
    @inline(__always)
    private func read<Model: Sendable>(
        _ field: ScenarioField<Model>, _ r: inout JSONReader, into model: inout Model, at location: Location,
        nested: (inout JSONReader, ScenarioField<Model>) throws -> Void
    ) throws -> Bool {
        let offset = r.valueOffset()
        /// Sets a read value; false for absent.
        func apply<Value>(_ value: Field<Value>, _ set: (inout Model, Value) -> Void) -> Bool {
            switch value {
            case .absent: return false
            case .invalid: return true
            case .value(let v):
                set(&model, v)
                return true
            }
        }
        switch field.access {
        case .bool(_, let set): return apply(try bool(&r, at: location), set)
        case .ms(_, let set): return apply(try milliseconds(&r, at: location), set)
        case .optionalMs(_, let set): return apply(try milliseconds(&r, at: location), set)
        case .integer(_, let set): return apply(try integer(&r, at: location, field.limits), set)
        case .optionalInteger(_, let set): return apply(try integer(&r, at: location, field.limits), set)
        case .number(_, let set): return apply(try number(&r, at: location, field.limits), set)
        case .optionalNumber(_, let set): return apply(try number(&r, at: location, field.limits), set)
        case .string(_, let set): return apply(try string(&r, at: location, field.limits, offset: offset), set)
        case .optionalString(_, let set):
            return apply(try string(&r, at: location, field.limits, offset: offset), set)
        case .choice(_, let set):
            return apply(try string(&r, at: location, field.limits, offset: offset)) { model, text in
                guard !set(&model, text) else { return }
                let choices = field.limits.choices ?? []
                report(
                    "must be \(choices.map { "'\($0)'" }.joined(separator: " or ")), found '\(text)'", at: location,
                    offset: offset, suggestion: closestMatch(to: text, in: choices))
            }
        case .dependencies, .nested:
            if try r.peekKind() == .null {
                try r.readNull()
                return false
            }
            try nested(&r, field)
            return true
        }
    }

    /// Reads a task's `dependsOn` into `entries` (ids are resolved once every task is read).
    private func readDependencies(_ r: inout JSONReader, task: Int, into entries: inout DependencyEntries) throws {
        let offset = r.valueOffset()
        let kind = try r.peekKind()
        guard kind == .array else {
            report("expected an array of task ids, found \(kind.noun)", at: .task(task, "dependsOn"), offset: offset)
            try r.skipValue()
            return
        }
        try r.readArray { r, position in
            let elementOffset = r.valueOffset()
            let kind = try r.peekKind()
            if kind == .string, let bytes = try Self.oversizedLiteral(&r, FieldLimits()) {
                self.report(
                    FieldLimits().tooLong("a string of \(bytes) bytes") + " (no task id is)",
                    at: .dependency(task: task, position: position), offset: elementOffset)
                entries.appendNotAString()  // keeps positions aligned
            } else if kind == .string {
                entries.append(try r.readRawString())
            } else {
                self.report(
                    "expected a task id (a string), found \(kind.noun)",
                    at: .dependency(task: task, position: position), offset: elementOffset)
                try r.skipValue()
                entries.appendNotAString()  // keeps positions aligned
            }
        }
    }

    private func decodeBudgets(_ r: inout JSONReader) throws {
        guard try expect(.object, &r, at: .root("budgets")) else { return }
        let metrics = Metric.allCases.map(\.rawValue)
        var seen = Set<String>()
        try r.readObject { r, key, keyOffset in
            guard let metric = Metric(rawValue: key) else {
                self.report(
                    "unknown metric '\(key)'", at: .budget(key), offset: keyOffset,
                    suggestion: closestMatch(to: key, in: metrics))
                try r.skipValue()
                return
            }
            guard seen.insert(key).inserted else {
                self.report("key '\(key)' appears twice in this object", at: .budget(key), offset: keyOffset)
                try r.skipValue()
                return
            }
            if let v = try self.number(&r, at: .budget(key), Budget.limits).value {
                self.budgets.append(Budget(metric: metric, limit: v))
            }
        }
    }

    // MARK: Values

    /// Whether the next value has `kind`; if not, a problem is recorded (unless
    /// it is null and null means absent: `nullIsAbsent` is true for the value of
    /// an optional key, false for an array element) and the value skipped.
    private func expect(
        _ kind: JSONReader.ValueKind, _ r: inout JSONReader, at location: Location, nullIsAbsent: Bool = true
    ) throws -> Bool {
        let offset = r.valueOffset()
        let found = try r.peekKind()
        if found == kind { return true }
        if found != .null || !nullIsAbsent {
            report("expected \(kind.noun), found \(found.noun)", at: location, offset: offset)
        }
        try r.skipValue()
        return false
    }

    private func string(_ r: inout JSONReader, at location: Location, _ limits: FieldLimits, offset: Int) throws
        -> Field<String>
    {
        switch try r.peekKind() {
        case .string:
            if let bytes = try Self.oversizedLiteral(&r, limits) {
                report(limits.tooLong("a string of \(bytes) bytes"), at: location, offset: offset)
                return .invalid
            }
            let text = try r.readString()
            if let noun = limits.nonEmpty, text.isEmpty { report("\(noun) is empty", at: location, offset: offset) }
            if let problem = limits.textProblem(text) {
                report(problem, at: location, offset: offset)
                return .invalid
            }
            return .value(text)
        case .null:
            try r.readNull()
            return .absent
        case let kind:
            report("expected a string, found \(kind.noun)", at: location, offset: offset)
            try r.skipValue()
            return .invalid
        }
    }

    /// The size of the string literal at the reader when it is longer than
    /// any string `limits` allows (the reader is then past it), else nil (the
    /// reader has not moved): a 1 GB id is refused without being decoded.
    private static func oversizedLiteral(_ r: inout JSONReader, _ limits: FieldLimits) throws -> Int? {
        var probe = r
        let start = probe.valueOffset()
        try probe.skipValue()
        guard probe.offset - start > limits.maxLiteralBytes else { return nil }
        r = probe
        return probe.offset - start
    }

    private func bool(_ r: inout JSONReader, at location: Location) throws -> Field<Bool> {
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

    /// A finite number within `limits`.
    private func number(_ r: inout JSONReader, at location: Location, _ limits: FieldLimits) throws -> Field<Double> {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .number:
            let v = try r.readNumber().value
            if let problem = limits.problem(with: v) {
                report(problem, at: location, offset: offset)
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
    @inline(__always)
    private func milliseconds(_ r: inout JSONReader, at location: Location) throws -> Field<Micros> {
        if try r.peekKind() == .number {
            // The common case without a detour through the limits.
            let offset = r.valueOffset()
            let ms = try r.readNumber().value
            if ms >= 0 && ms <= ScenarioFields.maxMilliseconds { return .value(microseconds(fromMilliseconds: ms)) }
            report(FieldLimits.milliseconds.problem(with: ms) ?? "", at: location, offset: offset)
            return .invalid
        }
        switch try number(&r, at: location, FieldLimits.milliseconds) {
        case .value(let ms): return .value(microseconds(fromMilliseconds: ms))
        case .absent: return .absent
        case .invalid: return .invalid
        }
    }

    /// An integral number (`4` or `4.0`) within `limits`.
    private func integer(_ r: inout JSONReader, at location: Location, _ limits: FieldLimits) throws -> Field<Int> {
        let offset = r.valueOffset()
        switch try r.peekKind() {
        case .number:
            let n = try r.readNumber()
            if let problem = limits.integerProblem(with: n.value) {
                report(problem, at: location, offset: offset)
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

    /// Resolves ids, runs the checks between tasks and builds the scenario, or throws every problem.
    package func finish() throws(ScenarioError) -> Scenario {
        let (resolved, relational) = {
            var validator = ScenarioValidator(tasks: tasks, offsets: taskOffsets)
            return (validator.resolve(dependencies), validator.problems)
        }()  // the validator's share of `tasks` ends here, so they are not copied below
        problems += relational
        // (§3.13) The clusters against each other and the device; without
        // `cores`, the threads are max(2, the clusters' cores).
        // A preset fills in what the device does not say.
        if let preset = device.preset {
            if device.clusters.isEmpty { device.clusters = preset.clusters }
            if !refreshRateGiven { device.refreshRate = preset.refreshRate }
        }
        if !device.clusters.isEmpty && !coresGiven {
            device.cores = max(2, device.clusters.reduce(0) { $0 + $1.count })
        }
        for var problem in ClusterRules.problems(device, coresGiven: coresGiven) {
            problem.offset = deviceOffset
            problems.append(problem)
        }
        // (§3.12) The phases' names and startsIn, once both are read (either
        // may come first). A phase whose name did not decode has an empty one,
        // which the rules pass over.
        for var problem in LaunchPhaseRules.problems(launchPhases, startsIn: root.startsIn) {
            problem.offset =
                switch problem.location {
                case .launchPhase(let k, _): phaseOffsets.indices.contains(k) ? phaseOffsets[k] : launchPhasesOffset
                default: launchPhasesOffset
                }
            problems.append(problem)
        }
        if !problems.isEmpty {
            throw ScenarioError(LocatedProblem.diagnostics(problems, file: file, tasks: tasks))
        }
        var built = tasks
        tasks = []
        for i in built.indices { built[i].dependsOn = resolved[i] }
        var scenario = root
        scenario.device = device
        scenario.preMain = preMain
        scenario.launchPhases = launchPhases
        scenario.budgets = budgets
        scenario.inputs = inputs
        scenario.tasks = built
        return scenario
    }
}
