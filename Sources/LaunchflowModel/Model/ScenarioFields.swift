/// The scenario file's keys (MODEL.md §1), one row each: name, type, default,
/// range, whether required, a one-line doc, and where the value lives in the
/// model.
///
/// The rows drive everything that knows about keys: the decoder (known keys
/// and their "did you mean", types, ranges, required keys), the validation of
/// scenarios built in code, the scenario writer (every key that is not at its
/// default, in row order), `diff` (one comparison per row), the JSON Schema
/// and the key table of docs/scenarios.md (both generated from the rows and checked by
/// the tests). Adding a key is one row here, plus its use in the engine.
package enum ScenarioFields {
    package static let root = FieldTable<Scenario>(
        .root, defaults: .draft,
        [
            ScenarioField(
                "$schema", .string, simulated: false, compared: false,
                doc:
                    "This file's JSON Schema, for editors (the bundled scenarios use \"scenario.schema.json\"); kept in the plan advise writes (a relative path rebased to the plan's folder), never compared",
                .optionalString({ $0.schema }, { $0.schema = $1 })),
            ScenarioField(
                "name", .string, required: true, simulated: false, doc: "The scenario's name, shown in reports",
                .string({ $0.name }, { $0.name = $1 })),
            ScenarioField(
                "description", .string, limits: FieldLimits(freeText: true), simulated: false,
                doc: "Free text about the scenario",
                .string({ $0.description }, { $0.description = $1 })),
            ScenarioField("device", .object, written: .always, doc: "The phone the app launches on", .nested(.device)),
            ScenarioField(
                "preMain", .array, written: .always,
                doc:
                    "Phases before main() (dyld, +load, static initialisers), run in order on the main thread from t = 0",
                .nested(.preMain)),
            ScenarioField(
                "launchPhases", .array,
                limits: FieldLimits(
                    minItems: (
                        1,
                        "launchPhases is empty: list the app's callbacks of the first run-loop turn, or leave the key out"
                    )),
                doc:
                    "The app's callbacks of the first run-loop turn, in order (willFinishLaunching, didFinishLaunching, the scene's willConnectTo, sceneDidBecomeActive), each with the cost of its own main-thread work outside the tasks; the first commit follows the last",
                .nested(.launchPhases)),
            ScenarioField(
                "startsIn", .string,
                doc:
                    "The launch phase in which the strategy's didFinishLaunching runs (default didFinishLaunching): where the app starts its launch scheduler; only with launchPhases",
                .optionalString({ $0.startsIn }, { $0.startsIn = $1 })),
            ScenarioField(
                "jitter", .number, limits: FieldLimits(minimum: 0), simulated: false,
                doc: "Lognormal σ of the cost of tasks without costP90, used by `launchflow sweep`",
                .optionalNumber({ $0.jitter }, { $0.jitter = $1 })),
            ScenarioField(
                "budgets", .object, simulated: false,
                doc:
                    "Limits `launchflow check` enforces: metric name → a number ≥ 0 in the metric's unit (a maximum; a minimum for cpuUtilization)",
                .nested(.budgets)),
            ScenarioField(
                "idleMode", .string, limits: FieldLimits(choices: IdleMode.allCases.map(\.rawValue)),
                doc:
                    "How the run loop runs idle tasks when about to sleep: every waiting one (batch) or one per iteration (oneByOne); `--idle-mode` overrides it",
                .choice(IdleMode.self, { $0.idleMode }, { $0.idleMode = $1 })),
            ScenarioField(
                "mainExecutor", .string, limits: FieldLimits(choices: MainExecutor.allCases.map(\.rawValue)),
                doc:
                    "How main-thread tasks reach the main thread under dag and anchored: the main dispatch queue (dispatch: an iteration runs every one enqueued before it) or OperationQueue.main (operationQueue: one task per iteration, the best-ranked ready one); serial and priority ignore it",
                .choice(MainExecutor.self, { $0.mainExecutor }, { $0.mainExecutor = $1 })),
            ScenarioField(
                "strategy", .string, limits: FieldLimits(choices: Strategy.allCases.map(\.rawValue)), simulated: false,
                doc:
                    "The strategy the app uses today: compare and report take their deltas against it, and advise, simulate, whatif and calibrate default to it without `--strategy`; it changes no schedule",
                .optionalChoice(Strategy.self, { $0.strategy }, { $0.strategy = $1 })),
            ScenarioField(
                "platform", .string, limits: FieldLimits(choices: Platform.allCases.map(\.rawValue)), simulated: false,
                doc:
                    "The platform the app runs on: advise names each change's mechanism in its words (none: both); `advise --platform` overrides it",
                .optionalChoice(Platform.self, { $0.platform }, { $0.platform = $1 })),
            ScenarioField(
                "inputs", .array,
                doc:
                    "User input (taps) arriving during the launch; each handler runs on the main thread at the start of a run-loop iteration",
                .nested(.inputs)),
            ScenarioField(
                "tasks", .array, required: true, limits: FieldLimits(minItems: (1, "the scenario has no tasks")),
                doc: "The launch tasks, at least one; a task's position breaks ties between equal priorities",
                .nested(.tasks)),
        ])

    package static let device = FieldTable<Device>(
        .device, defaults: Device(),
        [
            ScenarioField(
                "cores", .integer, written: .always, limits: FieldLimits(minimum: 2, maximum: 1024),
                doc: "CPU cores, the main thread's included: there are cores − 1 worker threads",
                .integer({ $0.cores }, { $0.cores = $1 })),
            ScenarioField(
                "refreshRate", .number, written: .always,
                limits: FieldLimits(
                    minimum: 0, minimumIsExclusive: true, maximum: 1000, unit: " (Hz)",
                    check: { rate in
                        // MODEL.md allows any r > 0, but 1e6 / r µs must fit the 64-bit clock.
                        rate < 1e-9
                            ? "must be at least 1e-9 Hz (a frame every 31 years); a smaller rate overflows the microsecond clock, found \(rate)"
                            : nil
                    }),
                doc: "Display refresh rate in Hz: vsyncs every 1000 / refreshRate ms, rounded to the microsecond",
                .number({ $0.refreshRate }, { $0.refreshRate = $1 })),
            ScenarioField(
                "commitCost", .ms, written: .always,
                doc: "Main-thread time of the Core Animation commit that ends each run-loop iteration",
                .ms({ $0.commitCost }, { $0.commitCost = $1 })),
            ScenarioField(
                "renderTime", .ms, written: .always, doc: "Time from the end of a commit until its frame can be shown",
                .ms({ $0.renderTime }, { $0.renderTime = $1 })),
            ScenarioField(
                "cpus", .integer, limits: FieldLimits(minimum: 1, maximum: 1024),
                doc:
                    "CPUs the threads share (none: a CPU per thread); with more running threads than CPUs each runs at cpus / running, so a task may take longer than its cost",
                .optionalInteger({ $0.cpus }, { $0.cpus = $1 })),
            ScenarioField(
                "preset", .string, limits: FieldLimits(choices: DevicePreset.allCases.map(\.rawValue)),
                doc:
                    "A phone launchflow knows by name (docs/scenarios.md lists them and their sources): its clusters and refresh rate where the device gives none, and as many threads as cores where it gives no cores; not with cpus",
                .optionalChoice(DevicePreset.self, { $0.preset }, { $0.preset = $1 })),
            ScenarioField(
                "clusters", .array,
                limits: FieldLimits(
                    minItems: (1, "clusters is empty: list the device's clusters of cores, or leave the key out")),
                doc:
                    "The CPUs as clusters of identical cores (performance and efficiency cores): a task's cost is its time on a core of speed 1, and each running item gets a core by its QoS; not with cpus; without cores, cores is max(2, the clusters' total count)",
                .nested(.clusters)),
            ScenarioField(
                "mainThreadPriority", .bool,
                doc:
                    "With cpus, the main thread runs at full speed and the workers share the other CPUs (the UI QoS); no effect without cpus",
                .bool({ $0.mainThreadPriority }, { $0.mainThreadPriority = $1 })),
        ])

    package static let preMain = FieldTable<PreMainPhase>(
        .preMain, defaults: PreMainPhase(name: "", cost: 0),
        [
            ScenarioField(
                "name", .string, required: true, doc: "The phase's name, shown in reports",
                .string({ $0.name }, { $0.name = $1 })),
            ScenarioField(
                "cost", .ms, required: true, doc: "How long the phase takes", .ms({ $0.cost }, { $0.cost = $1 })),
        ])

    package static let cluster = FieldTable<CoreCluster>(
        .cluster, defaults: CoreCluster(name: "", count: 1, speed: 1),
        [
            ScenarioField(
                "name", .string, required: true, limits: FieldLimits(nonEmpty: "cluster name", unique: true),
                doc: "The cluster's name (unique): P, E, big, little", .string({ $0.name }, { $0.name = $1 })),
            ScenarioField(
                "count", .integer, required: true, limits: FieldLimits(minimum: 1, maximum: 1024),
                doc: "How many cores of this kind", .integer({ $0.count }, { $0.count = $1 })),
            ScenarioField(
                "speed", .number, required: true,
                limits: FieldLimits(
                    minimum: 0, minimumIsExclusive: true, maximum: 1,
                    check: { speed in
                        let thousandths = speed * 1000
                        if abs(thousandths - thousandths.rounded()) > 1e-6 {
                            return "must have at most 3 decimals (thousandths of a speed-1 core), found \(speed)"
                        }
                        return thousandths.rounded() < 1 ? "must be at least 0.001, found \(speed)" : nil
                    }),
                doc:
                    "Work per µs of one core, against a core of speed 1 (the fastest): in (0, 1], at most 3 decimals",
                .number({ $0.speed }, { $0.speed = $1 })),
        ])

    package static let launchPhase = FieldTable<LaunchPhase>(
        .launchPhase, defaults: LaunchPhase(name: "", cost: 0),
        [
            ScenarioField(
                "name", .string, required: true, limits: FieldLimits(nonEmpty: "phase name", unique: true),
                doc: "The callback's name (unique), named by startsIn and shown in reports",
                .string({ $0.name }, { $0.name = $1 })),
            ScenarioField(
                "cost", .ms, required: true,
                doc: "Main-thread time of the app's own work in the callback, outside the tasks",
                .ms({ $0.cost }, { $0.cost = $1 })),
        ])

    package static let task = FieldTable<LaunchTask>(
        .task, defaults: LaunchTask(id: "", cost: 0),
        [
            ScenarioField(
                "id", .string, required: true, limits: FieldLimits(nonEmpty: "task id", unique: true),
                doc: "The task's id (case-sensitive), named by other tasks' dependsOn",
                .string({ $0.id }, { $0.id = $1 })),
            ScenarioField(
                "cost", .ms, required: true,
                doc: "Wall-clock time the task occupies its thread (the median when costP90 is given)",
                .ms({ $0.cost }, { $0.cost = $1 })),
            ScenarioField(
                "mainThreadOnly", .bool, doc: "The task may run on the main thread only (UIKit work)",
                .bool({ $0.mainThreadOnly }, { $0.mainThreadOnly = $1 })),
            ScenarioField(
                "firstFrame", .bool,
                limits: FieldLimits(
                    requires: (
                        "mainThreadOnly",
                        "a firstFrame task must be mainThreadOnly: only main-thread work puts pixels on screen (mark the main-thread task that shows the result)"
                    )),
                doc: "The first meaningful frame needs this task; it must be mainThreadOnly",
                .bool({ $0.firstFrame }, { $0.firstFrame = $1 })),
            ScenarioField(
                "priority", .integer, limits: FieldLimits(minimum: 0, maximum: 1_000_000),
                doc: "The task's tier under the priority strategy; lower is more urgent",
                .integer({ $0.priority }, { $0.priority = $1 })),
            ScenarioField(
                "costP90", .ms, limits: FieldLimits(atLeast: "cost"), simulated: false,
                doc: "90th-percentile cost, at least cost, used by `launchflow sweep`",
                .optionalMs({ $0.costP90 }, { $0.costP90 = $1 })),
            ScenarioField(
                "latency", .ms,
                doc:
                    "After its cost, the task is done only this much later, holding no thread (a network reply, an alert dismissed)",
                .ms({ $0.latency }, { $0.latency = $1 })),
            ScenarioField(
                "latencyP90", .ms, limits: FieldLimits(atLeast: "latency"), simulated: false,
                doc: "90th-percentile latency, at least latency, used by `launchflow sweep`",
                .optionalMs({ $0.latencyP90 }, { $0.latencyP90 = $1 })),
            ScenarioField(
                "delay", .ms,
                doc:
                    "The task is released this long after it becomes ready (asyncAfter, a deferred start); serial ignores it",
                .ms({ $0.delay }, { $0.delay = $1 })),
            ScenarioField(
                "queue", .string, limits: FieldLimits(nonEmpty: "queue name"),
                doc: "A serial category: its tasks are in flight one at a time, from admission until done",
                .optionalString({ $0.queue }, { $0.queue = $1 })),
            ScenarioField(
                "idle", .bool,
                limits: FieldLimits(
                    requires: (
                        "mainThreadOnly",
                        "an idle task must be mainThreadOnly: the run loop runs idle tasks on the main thread when it is about to sleep"
                    )),
                doc: "Runs on the main thread when the run loop is about to sleep; it must be mainThreadOnly",
                .bool({ $0.idle }, { $0.idle = $1 })),
            ScenarioField(
                "anchor", .bool,
                doc: "Under dag and anchored, didFinishLaunching does not return before this task is done",
                .bool({ $0.anchor }, { $0.anchor = $1 })),
            ScenarioField(
                "after", .string, limits: FieldLimits(choices: LaunchMilestone.allCases.map(\.rawValue)),
                doc:
                    "Not released before the first frame is on screen (iOS: a CATransaction completion; Android: a post-frame callback); its delay counts from then; the first frame must not wait for it; serial ignores it",
                .optionalChoice(LaunchMilestone.self, { $0.after }, { $0.after = $1 })),
            ScenarioField(
                "before", .string, limits: FieldLimits(choices: LaunchDeadline.allCases.map(\.rawValue)),
                simulated: false,
                doc:
                    "What the app knows: the task must be done before the first-frame commit (firstFrame) or before didFinishLaunching returns (launch); advise never defers it or what it needs, never makes it idle, never makes it done past that point, and validate warns when a strategy runs it later; the simulation ignores it",
                .optionalChoice(LaunchDeadline.self, { $0.before }, { $0.before = $1 })),
            ScenarioField(
                "fullyDrawn", .bool,
                limits: FieldLimits(
                    requires: (
                        "mainThreadOnly",
                        "a fullyDrawn task must be mainThreadOnly: the launch's content is on screen when the main thread has drawn it"
                    )),
                doc:
                    "The launch's content is complete when every such task has run (time to full display); it must be mainThreadOnly",
                .bool({ $0.fullyDrawn }, { $0.fullyDrawn = $1 })),
            ScenarioField(
                "qos", .string, limits: FieldLimits(choices: QualityOfService.allCases.map(\.rawValue)),
                doc:
                    "The worker task's quality of service (userInteractive … background): which cores it may run on with device.clusters; the main thread's work always runs at userInteractive",
                .choice(QualityOfService.self, { $0.qos }, { $0.qos = $1 })),
            ScenarioField(
                "group", .string, limits: FieldLimits(nonEmpty: "group name"), simulated: false,
                doc: "The module the task belongs to, for reports and pictures; no effect on the schedule",
                .optionalString({ $0.group }, { $0.group = $1 })),
            ScenarioField(
                "dependsOn", .idList, limits: FieldLimits(distinct: true),
                doc: "Ids of the tasks that must be done before this one may start (no id twice, no cycles)",
                .dependencies({ $0.dependsOn }, { $0.dependsOn = $1 })),
        ])

    package static let input = FieldTable<UserInput>(
        .input, defaults: UserInput(name: "", at: 0, cost: 0),
        [
            ScenarioField(
                "name", .string, limits: FieldLimits(nonEmpty: "input name"), defaultPrefix: "input-",
                doc: "Shown in reports; need not be unique", .string({ $0.name }, { $0.name = $1 })),
            ScenarioField(
                "at", .ms, required: true, doc: "When the input arrives, from process start",
                .ms({ $0.at }, { $0.at = $1 })),
            ScenarioField(
                "cost", .ms, required: true, doc: "Main-thread time of its handler", .ms({ $0.cost }, { $0.cost = $1 })),
        ])

    /// The largest millisecond value accepted anywhere: an hour.
    package static let maxMilliseconds = 3_600_000.0
}

/// A JSON object of the scenario file.
package enum ScenarioObject: String, CaseIterable, Sendable {
    case root, device, cluster, preMain, launchPhase, task, input

    /// How this object's keys are written in docs: `device.`, `tasks[].`.
    package var keyPrefix: String {
        switch self {
        case .root: ""
        case .device: "device."
        case .cluster: "device.clusters[]."
        case .preMain: "preMain[]."
        case .launchPhase: "launchPhases[]."
        case .task: "tasks[]."
        case .input: "inputs[]."
        }
    }
}

/// The type of a key's value, as the docs name it.
package enum FieldType: String, Sendable {
    case string, bool, integer, number, object, array
    /// Milliseconds: a number from 0 to 3,600,000, kept as integer microseconds.
    case ms
    /// Task ids, as an array of strings.
    case idList = "id list"
}

/// What values a key accepts beyond its type. Every `ms` key is also
/// 0 … ``ScenarioFields/maxMilliseconds``.
package struct FieldLimits: Sendable {
    package var minimum: Double?
    package var minimumIsExclusive = false
    package var maximum: Double?
    /// Appended to the numbers in range problems: `" ms"`, `" (Hz)"`.
    package var unit = ""
    /// Further rule on a number in range: the problem, or nil.
    package var check: (@Sendable (Double) -> String?)?
    /// A string that may not be empty; the problem is "`nonEmpty` is empty".
    package var nonEmpty: String?
    /// Unique among the objects of its array (task ids).
    package var unique = false
    /// The values a string may take.
    package var choices: [String]?
    /// An `ms` key that may not be less than the object's key of this name.
    package var atLeast: String?
    /// A bool that, when true, needs the object's bool `key` true as well, or `message` is a problem.
    package var requires: (key: String, message: String)?
    /// An id list without repeats.
    package var distinct = false
    /// An array with at least `count` elements, or `message` is a problem.
    package var minItems: (count: Int, message: String)?
    /// A string of free text, which may be longer: see ``FieldLimits/textProblem(_:)``.
    package var freeText = false

    package init(
        minimum: Double? = nil, minimumIsExclusive: Bool = false, maximum: Double? = nil, unit: String = "",
        check: (@Sendable (Double) -> String?)? = nil, nonEmpty: String? = nil, unique: Bool = false,
        choices: [String]? = nil, atLeast: String? = nil, requires: (key: String, message: String)? = nil,
        distinct: Bool = false, minItems: (count: Int, message: String)? = nil, freeText: Bool = false
    ) {
        self.minimum = minimum
        self.minimumIsExclusive = minimumIsExclusive
        self.maximum = maximum
        self.unit = unit
        self.check = check
        self.nonEmpty = nonEmpty
        self.unique = unique
        self.choices = choices
        self.atLeast = atLeast
        self.requires = requires
        self.distinct = distinct
        self.minItems = minItems
        self.freeText = freeText
    }
}

/// Where a key's value lives in the model: how to read it and how to set it.
///
/// Small closures rather than key paths: the decoder sets every value of a
/// 100,000-task file through them, and applying a key path costs ten times
/// a closure call.
package enum FieldAccess<Model>: Sendable {
    package typealias Get<Value> = @Sendable (borrowing Model) -> Value
    package typealias Set<Value> = @Sendable (inout Model, Value) -> Void

    case string(Get<String>, Set<String>)
    case optionalString(Get<String?>, Set<String?>)
    case bool(Get<Bool>, Set<Bool>)
    case integer(Get<Int>, Set<Int>)
    /// An integer that may be absent (nil).
    case optionalInteger(Get<Int?>, Set<Int?>)
    case number(Get<Double>, Set<Double>)
    case optionalNumber(Get<Double?>, Set<Double?>)
    case ms(Get<Micros>, Set<Micros>)
    case optionalMs(Get<Micros?>, Set<Micros?>)
    /// A string enumeration: its raw value (nil: absent, for an optional one),
    /// and setting one (nil: absent; false: not a valid value).
    case choice(Get<String?>, @Sendable (inout Model, String?) -> Bool)
    /// `tasks[].dependsOn`: task indices in the model, ids in the file.
    case dependencies(Get<[Int]>, Set<[Int]>)
    /// An object or array with rows or rules of its own.
    case nested(Nested)

    package enum Nested: Sendable {
        case device, clusters, preMain, launchPhases, tasks, inputs, budgets
    }

    package static func choice<E: RawRepresentable<String> & Sendable>(
        _: E.Type, _ get: @escaping @Sendable (Model) -> E, _ set: @escaping @Sendable (inout Model, E) -> Void
    ) -> FieldAccess {
        .choice(
            { get($0).rawValue },
            { model, text in
                guard let text, let value = E(rawValue: text) else { return false }
                set(&model, value)
                return true
            })
    }

    /// An enumeration that may be absent (nil).
    package static func optionalChoice<E: RawRepresentable<String> & Sendable>(
        _: E.Type, _ get: @escaping @Sendable (Model) -> E?, _ set: @escaping @Sendable (inout Model, E?) -> Void
    ) -> FieldAccess {
        .choice(
            { get($0)?.rawValue },
            { model, text in
                guard let text else {
                    set(&model, nil)
                    return true
                }
                guard let value = E(rawValue: text) else { return false }
                set(&model, value)
                return true
            })
    }
}

/// One key of one object of the scenario file. A class: the decoder looks
/// rows up for every key it reads, and a reference is cheaper to pass around
/// than a copy of the row.
package final class ScenarioField<Model>: Sendable {
    package enum Written: Sendable {
        /// Required keys and keys whose value differs from the default.
        case unlessDefault
        /// Always, default or not (the device and pre-main, so that a written file shows them).
        case always
    }

    package let key: String
    package let type: FieldType
    package let required: Bool
    package let limits: FieldLimits
    /// For a string with a default that depends on the position: `input-` for `input-<k>`, k 1-based.
    package let defaultPrefix: String?
    package let written: Written
    /// Whether the simulation reads the key: `diff` re-simulates changes of these and lists the others as information.
    package let simulated: Bool
    /// Whether `diff` compares the key at all (`$schema`, a path for editors, is not).
    package let compared: Bool
    /// One line (no final period) for the key table (docs/scenarios.md), the schema and `diff`.
    package let doc: String
    package let access: FieldAccess<Model>

    package init(
        _ key: String, _ type: FieldType, required: Bool = false, written: Written = .unlessDefault,
        limits: FieldLimits = FieldLimits(), defaultPrefix: String? = nil, simulated: Bool = true,
        compared: Bool = true, doc: String, _ access: FieldAccess<Model>
    ) {
        self.key = key
        self.type = type
        self.required = required
        self.limits = limits
        self.defaultPrefix = defaultPrefix
        self.written = written
        self.simulated = simulated
        self.compared = compared
        self.doc = doc
        self.access = access
    }
}

/// The rows of one object, with a fast lookup by key. A class, like its rows.
package final class FieldTable<Model: Sendable>: Sendable {
    package let object: ScenarioObject
    package let fields: [ScenarioField<Model>]
    package let keys: [String]
    /// The object with every key at its default (required keys: any value).
    package let defaults: Model
    /// The rules between keys of the object (`requires`, `atLeast`), in row order.
    package let relations: [FieldRelation<Model>]
    /// Each key's UTF-8 length: most keys are told apart without comparing text.
    private let lengths: [Int]
    /// Each key's UTF-8 (every key is ASCII).
    private let utf8: [[UInt8]]

    package init(_ object: ScenarioObject, defaults: Model, _ fields: [ScenarioField<Model>]) {
        precondition(fields.count <= 64, "KeySet holds 64 keys")
        self.object = object
        self.defaults = defaults
        self.fields = fields
        keys = fields.map(\.key)
        lengths = keys.map(\.utf8.count)
        utf8 = keys.map { Array($0.utf8) }
        precondition(utf8.allSatisfy { $0.allSatisfy { $0 < 0x80 } }, "keys are ASCII")
        relations = fields.flatMap { field in FieldRelation.rules(of: field, among: fields) }
    }

    /// The row of `key`. Objects usually list their keys in row order, so the
    /// search starts at `hint`, the row after the previous key's.
    ///
    /// - Complexity: O(rows), usually O(1).
    package func index(of key: String, from hint: Int) -> Int? {
        search(from: hint, length: key.utf8.count) { keys[$0] == key }
    }

    /// The row of the key whose UTF-8 is `bytes`, ASCII (as Swift compares
    /// strings, an ASCII key equals only itself); the same search.
    package func index(ofASCII bytes: UnsafeBufferPointer<UInt8>, from hint: Int) -> Int? {
        search(from: hint, length: bytes.count) { row in utf8[row].withUnsafeBufferPointer { sameBytes($0, bytes) } }
    }

    /// The first row from `hint` on (wrapping around) whose key is `length`
    /// UTF-8 bytes long and `equals`.
    @inline(__always)
    private func search(from hint: Int, length: Int, _ equals: (Int) -> Bool) -> Int? {
        let n = keys.count
        var i = hint < n ? hint : 0
        for _ in 0..<n {
            if lengths[i] == length && equals(i) { return i }
            i += 1
            if i == n { i = 0 }
        }
        return nil
    }

    package subscript(key: String) -> ScenarioField<Model>? { index(of: key, from: 0).map { fields[$0] } }

    /// Sets the rows not `given` whose default depends on the position (`input-<k>`).
    package func fillPositionalDefaults(_ given: KeySet, in model: inout Model, position: Int) {
        for (f, field) in fields.enumerated() where !given.contains(f) {
            if let prefix = field.defaultPrefix, case .string(_, let set) = field.access {
                set(&model, prefix + String(position + 1))
            }
        }
    }
}

/// A rule between two keys of one object, stated by a row's limits: a bool
/// that `requires` another, an `ms` value `atLeast` another.
package struct FieldRelation<Model>: Sendable {
    /// The key the problem is reported at.
    package let key: String
    /// The problem with `model`, or nil. Borrows the model: the rules are
    /// checked on every task of a file.
    package let problem: @Sendable (borrowing Model) -> String?

    package static func rules(of field: ScenarioField<Model>, among fields: [ScenarioField<Model>]) -> [FieldRelation] {
        func access(_ key: String) -> FieldAccess<Model>? { fields.first { $0.key == key }?.access }
        var rules: [FieldRelation] = []
        if let (other, message) = field.limits.requires, case .bool(let flag, _) = field.access,
            case .bool(let needed, _)? = access(other)
        {
            rules.append(FieldRelation(key: field.key) { flag($0) && !needed($0) ? message : nil })
        }
        if let other = field.limits.atLeast, case .optionalMs(let value, _) = field.access,
            case .ms(let minimum, _)? = access(other)
        {
            rules.append(
                FieldRelation(key: field.key) { model in
                    guard let v = value(model), v < minimum(model) else { return nil }
                    return "must be at least \(other) (\(formatMillis(minimum(model))) ms), found \(formatMillis(v)) ms"
                })
        }
        return rules
    }
}

extension ScenarioField {
    /// Whether `model` holds the same value as `defaults` for this key (false
    /// for nested objects and arrays, which their own rows or rules compare).
    package func hasDefault(in model: Model, _ defaults: Model) -> Bool {
        switch access {
        case .string(let get, _): get(model) == get(defaults)
        case .optionalString(let get, _): get(model) == get(defaults)
        case .bool(let get, _): get(model) == get(defaults)
        case .integer(let get, _): get(model) == get(defaults)
        case .optionalInteger(let get, _): get(model) == get(defaults)
        case .number(let get, _): get(model) == get(defaults)
        case .optionalNumber(let get, _): get(model) == get(defaults)
        case .ms(let get, _): get(model) == get(defaults)
        case .optionalMs(let get, _): get(model) == get(defaults)
        case .choice(let get, _): get(model) == get(defaults)
        case .dependencies(let get, _): get(model) == get(defaults)
        case .nested: false
        }
    }

    /// Whether the writer writes this key of `model`, element `position` of its array.
    package func isWritten(in model: Model, _ defaults: Model, position: Int = 0) -> Bool {
        switch written {
        case .always: return true
        case .unlessDefault:
            if required { return true }
            if let prefix = defaultPrefix, case .string(let get, _) = access {
                return get(model) != prefix + String(position + 1)
            }
            return !hasDefault(in: model, defaults)
        }
    }

    /// Copies this key's value from `source` into `target` (nested values are not copied).
    package func copy(from source: Model, to target: inout Model) {
        switch access {
        case .string(let get, let set): set(&target, get(source))
        case .optionalString(let get, let set): set(&target, get(source))
        case .bool(let get, let set): set(&target, get(source))
        case .integer(let get, let set): set(&target, get(source))
        case .optionalInteger(let get, let set): set(&target, get(source))
        case .number(let get, let set): set(&target, get(source))
        case .optionalNumber(let get, let set): set(&target, get(source))
        case .ms(let get, let set): set(&target, get(source))
        case .optionalMs(let get, let set): set(&target, get(source))
        case .choice(let get, let set): _ = set(&target, get(source))
        case .dependencies(let get, let set): set(&target, get(source))
        case .nested: break
        }
    }
}
