/// `launchflow diff OLD NEW`: what changed between two versions of a scenario,
/// what it did to the metrics, and why.
///
/// **Changes** are found key by key as ``ScenarioFields`` lists them, and
/// tasks by id (a renamed task is one removed and one added). Each change is
/// one unit: all field changes of one task together; an added task together
/// with the edges from existing tasks to it (they cannot exist without it); a
/// removed task together with every edge to it; the device; the pre-main
/// phases; each other simulated top-level key (`idleMode`); the inputs; the
/// order of the tasks (ties in rank); and, not simulated, the keys whose rows
/// say so (name, description, budgets, jitter, `costP90`, …).
///
/// **Effect and ordering rule**: the effect of a change is the change in time
/// to first frame, per strategy, when only that change is applied to OLD and
/// OLD is simulated again. Changes are listed by the magnitude of their effect
/// under `dag` (or the first strategy shown, when `dag` is not among them),
/// slowdowns before speedups of the same size, then by the largest effect
/// under any strategy shown, then in the order found (device, pre-main, tasks
/// in NEW's order, removed tasks, task order, information). Effects are
/// measured one at a time: they need not add up to the total change. A change
/// that cannot stand alone (it would close a dependency cycle without the
/// other changes) has no effect measured. When measuring would take more than
/// ``defaultMeasureLimit`` units of simulation work (tasks + dependencies,
/// per change and strategy), nothing is re-simulated and changes are ordered
/// by the size of their cost change instead.
public struct ScenarioDiff: Sendable {
    /// The default cap on re-simulation work, in tasks + dependencies summed
    /// over every re-simulation: about eight runs of a 200,000-task scenario
    /// (a few seconds), hundreds of changes on a scenario of normal size.
    public static let defaultMeasureLimit = 5_000_000

    public let oldFile: String
    public let newFile: String
    public let old: Scenario
    public let new: Scenario
    public let strategies: [Strategy]
    /// Metrics per strategy, in `strategies` order.
    public let oldMetrics: [Metrics]
    public let newMetrics: [Metrics]
    /// Ordered by the rule above.
    public let changes: [ScenarioChange]
    /// Whether effects were measured (false when over the limit).
    public let effectsMeasured: Bool
    /// The strategy whose effect orders the changes.
    public let orderingStrategy: Strategy
    /// Critical paths (task ids, dependencies first) and their lengths without pre-main, µs.
    public let oldCriticalPath: [String]
    public let newCriticalPath: [String]
    public let oldCriticalLength: Micros
    public let newCriticalLength: Micros

    /// Compares `old` with `new` under `strategies` (at least one).
    ///
    /// - Complexity: 2 simulations per strategy, plus one per change and
    ///   strategy while under `measureLimit`; O(n + e) per simulation set-up.
    public init(
        old: Scenario, oldFile: String, new: Scenario, newFile: String, strategies: [Strategy],
        options: SimulationOptions = .init(), measureLimit: Int = defaultMeasureLimit
    ) {
        self.old = old
        self.new = new
        self.oldFile = oldFile
        self.newFile = newFile
        let strategies = strategies.isEmpty ? Strategy.allCases : strategies
        self.strategies = strategies
        oldMetrics = SimulationResult.compare(old, strategies: strategies, options: options).map(\.metrics)
        newMetrics = SimulationResult.compare(new, strategies: strategies, options: options).map(\.metrics)
        let ordering = strategies.contains(.dag) ? .dag : strategies[0]
        orderingStrategy = ordering

        let base = Draft(old)
        let versions = Versions(old: old, new: new)
        var found = Self.changes(old: old, new: new)
        let simulated = found.filter { $0.kind.isSimulated }.count
        let work =
            (old.tasks.count + old.tasks.reduce(0) { $0 + $1.dependsOn.count } + 1) * strategies.count * simulated
        effectsMeasured = work <= measureLimit
        if effectsMeasured {
            let before = oldMetrics.map(\.timeToFirstFrame)
            for k in found.indices where found[k].kind.isSimulated {
                guard let variant = base.applying(found[k], versions).resolved() else {
                    found[k].note = "not measured: alone it would close a dependency cycle"
                    continue
                }
                let results = SimulationResult.compare(variant, strategies: strategies, options: options)
                found[k].effect = zip(results, before).map { $0.metrics.timeToFirstFrame - $1 }
            }
        }
        let position = strategies.firstIndex(of: ordering) ?? 0
        let measured = effectsMeasured
        changes = found.enumerated().sorted { a, b in
            func key(_ change: ScenarioChange) -> (Int, Micros, Int, Micros) {
                guard change.kind.isSimulated else { return (2, 0, 0, 0) }
                if measured {
                    guard let effects = change.effect else { return (1, 0, 0, 0) }
                    let effect = effects[position]
                    return (0, -abs(effect), effect > 0 ? 0 : 1, -(effects.map(abs).max() ?? 0))
                }
                return (0, -abs(change.costDelta), change.costDelta > 0 ? 0 : 1, 0)
            }
            let x = key(a.element)
            let y = key(b.element)
            return (x.0, x.1, x.2, x.3, a.offset) < (y.0, y.1, y.2, y.3, b.offset)
        }.map(\.element)

        let oldPath = CriticalPath(of: old)
        let newPath = CriticalPath(of: new)
        oldCriticalPath = oldPath.tasks.map { old.tasks[$0].id }
        newCriticalPath = newPath.tasks.map { new.tasks[$0].id }
        oldCriticalLength = oldPath.length
        newCriticalLength = newPath.length
    }

    /// Tasks on the new critical path that were not on the old one.
    public var enteredCriticalPath: [String] {
        let before = Set(oldCriticalPath)
        return newCriticalPath.filter { !before.contains($0) }
    }

    /// Tasks on the old critical path that are not on the new one.
    public var leftCriticalPath: [String] {
        let after = Set(newCriticalPath)
        return oldCriticalPath.filter { !after.contains($0) }
    }

    // MARK: Finding the changes

    /// The changes, key by key as ``ScenarioFields`` lists them, in the order
    /// found: device, pre-main, the other simulated top-level keys (each its own
    /// change), inputs, tasks in NEW's order, removed tasks, task order,
    /// information.
    static func changes(old: Scenario, new: Scenario) -> [ScenarioChange] {
        var out: [ScenarioChange] = []
        let oldIDs = Dictionary(old.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let newIDs = Dictionary(new.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })

        var device = fieldChanges(old.device, new.device, ScenarioFields.device)
        // (§3.13) The clusters, a nested array of the device: one change for all of them.
        if old.device.clusters != new.device.clusters {
            func text(_ clusters: [CoreCluster]) -> FieldValue {
                clusters.isEmpty ? .absent : .text(Device.clusterText(clusters))
            }
            device.append(FieldChange("clusters", text(old.device.clusters), text(new.device.clusters)))
        }
        if !device.isEmpty { out.append(ScenarioChange(kind: .device, fields: device)) }
        if let preMain = preMainChange(old, new) { out.append(preMain) }
        let (settings, info) = topLevelChanges(old, new)
        out += settings
        out += taskChanges(old, new, oldIDs: oldIDs, newIDs: newIDs)

        let oldOrder = old.tasks.map(\.id).filter { newIDs[$0] != nil }
        let newOrder = new.tasks.map(\.id).filter { oldIDs[$0] != nil }
        if oldOrder != newOrder {
            out.append(
                ScenarioChange(kind: .taskOrder, fields: [FieldChange("order", .text("file order"), .text("changed"))]))
        }
        if !info.isEmpty { out.append(ScenarioChange(kind: .info, fields: info)) }
        return out
    }

    /// The pre-main phases, by name: changed, added, removed costs, or their order.
    static func preMainChange(_ old: Scenario, _ new: Scenario) -> ScenarioChange? {
        guard old.preMain != new.preMain else { return nil }
        var change = ScenarioChange(
            kind: .preMain,
            fields: phaseChanges(old.preMain.map { ($0.name, $0.cost) }, new.preMain.map { ($0.name, $0.cost) }))
        change.costDelta = new.preMainTotal - old.preMainTotal
        return change
    }

    /// (§3.12) The launch phases and `startsIn`, one change: a new `startsIn`
    /// needs its phases, and new phases may need the new `startsIn`.
    static func launchPhasesChange(_ old: Scenario, _ new: Scenario) -> ScenarioChange? {
        guard old.launchPhases != new.launchPhases || old.startsIn != new.startsIn else { return nil }
        var fields = phaseChanges(
            old.launchPhases.map { ($0.name, $0.cost) }, new.launchPhases.map { ($0.name, $0.cost) })
        if old.startsIn != new.startsIn {
            fields.append(
                FieldChange(
                    "startsIn", old.startsIn.map(FieldValue.text) ?? .absent,
                    new.startsIn.map(FieldValue.text) ?? .absent))
        }
        var change = ScenarioChange(kind: .launchPhases, fields: fields)
        change.costDelta = new.launchPhases.reduce(0) { $0 + $1.cost } - old.launchPhases.reduce(0) { $0 + $1.cost }
        return change
    }

    /// Named phases (pre-main, launch): each one's cost changed, added or
    /// removed, or their order when only that changed.
    private static func phaseChanges(_ old: [(name: String, cost: Micros)], _ new: [(name: String, cost: Micros)])
        -> [FieldChange]
    {
        var fields: [FieldChange] = []
        let oldNames = old.map(\.name)
        let newNames = new.map(\.name)
        for phase in new {
            if let before = old.first(where: { $0.name == phase.name }) {
                if before.cost != phase.cost {
                    fields.append(FieldChange("'\(phase.name)'", .millis(before.cost), .millis(phase.cost)))
                }
            } else {
                fields.append(FieldChange("'\(phase.name)'", .absent, .millis(phase.cost)))
            }
        }
        for phase in old where !newNames.contains(phase.name) {
            fields.append(FieldChange("'\(phase.name)'", .millis(phase.cost), .absent))
        }
        if fields.isEmpty && oldNames != newNames {
            fields.append(FieldChange("order", .ids(oldNames), .ids(newNames)))
        }
        return fields
    }

    /// Top-level keys: the simulated ones one change each (and the inputs), the others information.
    static func topLevelChanges(_ old: Scenario, _ new: Scenario) -> (changes: [ScenarioChange], info: [FieldChange]) {
        var out: [ScenarioChange] = []
        var info: [FieldChange] = []
        for field in ScenarioFields.root.fields where field.compared {
            switch field.access {
            case .nested(.budgets):
                let oldBudgets = old.budgets.map { "\($0.metric.rawValue)=\(formatNumber($0.limit))" }
                let newBudgets = new.budgets.map { "\($0.metric.rawValue)=\(formatNumber($0.limit))" }
                if Set(oldBudgets) != Set(newBudgets) {
                    info.append(FieldChange("budgets", .ids(oldBudgets), .ids(newBudgets)))
                }
            case .nested(.inputs):
                let fields = inputChanges(old.inputs, new.inputs)
                if !fields.isEmpty { out.append(ScenarioChange(kind: .inputs, fields: fields)) }
            case .nested(.launchPhases):
                if let change = launchPhasesChange(old, new) { out.append(change) }
            case _ where field.key == "startsIn":
                break  // with the launch phases
            case .nested:
                break  // device, pre-main and tasks: apart
            default:
                guard var change = fieldChange(field, old, new) else { continue }
                if field.key == "description" { change = FieldChange(field.key, .text("…"), .text("changed")) }
                if field.simulated {
                    out.append(ScenarioChange(kind: .setting, fields: [change]))
                } else {
                    info.append(change)
                }
            }
        }
        return (out, info)
    }

    /// The tasks: changed and added ones in NEW's order, then the removed ones.
    static func taskChanges(_ old: Scenario, _ new: Scenario, oldIDs: [String: Int], newIDs: [String: Int])
        -> [ScenarioChange]
    {
        var out: [ScenarioChange] = []
        // The dependency graphs, for the tasks that depend on an added or removed task.
        let oldGraph = TaskGraph(tasks: old.tasks)
        let newGraph = TaskGraph(tasks: new.tasks)
        for (j, task) in new.tasks.enumerated() {
            let newDeps = task.dependsOn.map { new.tasks[$0].id }
            guard let i = oldIDs[task.id] else {
                var change = addedTask(task, dependencies: newDeps)
                change.linked = newGraph.dependents(of: j).map { new.tasks[Int($0)].id }.filter { oldIDs[$0] != nil }
                out.append(change)
                continue
            }
            let before = old.tasks[i]
            var fields: [FieldChange] = []
            var simulated = false
            for field in ScenarioFields.task.fields {
                let change: FieldChange?
                if case .dependencies = field.access {
                    let oldDeps = before.dependsOn.map { old.tasks[$0].id }
                    // Edges to added or removed tasks belong to those tasks' changes.
                    let ownOld = oldDeps.filter { newIDs[$0] != nil }
                    let ownNew = newDeps.filter { oldIDs[$0] != nil }
                    change = Set(ownOld) == Set(ownNew) ? nil : FieldChange(field.key, .ids(ownOld), .ids(ownNew))
                } else {
                    change = fieldChange(field, before, task)
                }
                guard let change else { continue }
                fields.append(change)
                simulated = simulated || field.simulated
            }
            guard !fields.isEmpty else { continue }
            var change = ScenarioChange(kind: simulated ? .taskChanged : .info, task: task.id, fields: fields)
            change.costDelta = task.cost - before.cost
            out.append(change)
        }
        for (i, task) in old.tasks.enumerated() where newIDs[task.id] == nil {
            var change = ScenarioChange(
                kind: .taskRemoved, task: task.id, fields: [FieldChange("cost", .millis(task.cost), .absent)])
            change.linked = oldGraph.dependents(of: i).map { old.tasks[Int($0)].id }.filter { newIDs[$0] != nil }
            change.costDelta = -task.cost
            out.append(change)
        }
        return out
    }

    /// An added task: every key it sets (required or not at its default).
    static func addedTask(_ task: LaunchTask, dependencies: [String]) -> ScenarioChange {
        let template = ScenarioFields.task.defaults
        var fields: [FieldChange] = []
        for field in ScenarioFields.task.fields where field.key != "id" {
            if case .dependencies = field.access {
                if !dependencies.isEmpty { fields.append(FieldChange(field.key, .absent, .ids(dependencies))) }
            } else if field.required || !field.hasDefault(in: task, template) {
                fields.append(FieldChange(field.key, .absent, field.diffValue(task)))
            }
        }
        var change = ScenarioChange(kind: .taskAdded, task: task.id, fields: fields)
        change.costDelta = task.cost
        return change
    }

    /// The change of one key that is not nested, if its value differs.
    static func fieldChange<Model>(_ field: ScenarioField<Model>, _ old: Model, _ new: Model) -> FieldChange? {
        let (a, b) = (field.diffValue(old), field.diffValue(new))
        return a == b ? nil : FieldChange(field.key, a, b)
    }

    /// The changes of every key of an object that is not nested, in row order.
    static func fieldChanges<Model>(_ old: Model, _ new: Model, _ table: FieldTable<Model>) -> [FieldChange] {
        table.fields.compactMap { fieldChange($0, old, new) }
    }

    /// Inputs by position: `inputs[k]` added, removed or changed.
    static func inputChanges(_ old: [UserInput], _ new: [UserInput]) -> [FieldChange] {
        func text(_ input: UserInput) -> FieldValue {
            .text("'\(input.name)' at \(formatMillis(input.at)) ms (\(formatMillis(input.cost)) ms)")
        }
        return (0..<max(old.count, new.count)).compactMap { k in
            let a = k < old.count ? text(old[k]) : .absent
            let b = k < new.count ? text(new[k]) : .absent
            return a == b ? nil : FieldChange("inputs[\(k)]", a, b)
        }
    }
}

extension ScenarioField {
    /// The value as `diff` shows it (nested values and dependencies: absent).
    func diffValue(_ model: Model) -> FieldValue {
        switch access {
        case .string(let get, _): .text(get(model))
        case .optionalString(let get, _): get(model).map(FieldValue.text) ?? .absent
        case .bool(let get, _): .bool(get(model))
        case .integer(let get, _): .integer(get(model))
        case .optionalInteger(let get, _): get(model).map(FieldValue.integer) ?? .absent
        case .number(let get, _): .number(get(model))
        case .optionalNumber(let get, _): get(model).map(FieldValue.number) ?? .absent
        case .ms(let get, _): .millis(get(model))
        case .optionalMs(let get, _): get(model).map(FieldValue.millis) ?? .absent
        case .choice(let get, _): get(model).map(FieldValue.text) ?? .absent
        case .dependencies, .nested: .absent
        }
    }
}

/// One unit of difference between two scenario versions.
public struct ScenarioChange: Sendable {
    public enum Kind: String, Sendable {
        case taskChanged, taskAdded, taskRemoved, device, preMain, taskOrder
        /// (§3.12) The launch phases and `startsIn`.
        case launchPhases
        /// A simulated top-level key other than the device, pre-main, inputs and tasks (`idleMode`).
        case setting
        case inputs
        /// Keys the simulation does not read: name, description, budgets, jitter, costP90, …
        case info

        var isSimulated: Bool { self != .info }
    }

    public var kind: Kind
    /// The task's id, for task changes.
    public var task: String?
    public var fields: [FieldChange]
    /// Added task: existing tasks that now depend on it. Removed task: tasks that depended on it.
    public var linked: [String] = []
    /// Time to first frame change (µs) per strategy, in the diff's strategy
    /// order, when only this change is applied to OLD; nil when not measured.
    public var effect: [Micros]?
    /// Why the effect is missing, when it is.
    public var note: String?
    /// The change in total task cost (or pre-main time), µs: orders the changes when effects are not measured.
    public var costDelta: Micros = 0

    init(kind: Kind, task: String? = nil, fields: [FieldChange]) {
        self.kind = kind
        self.task = task
        self.fields = fields
    }
}

/// A field's old and new value.
public struct FieldChange: Sendable {
    public var field: String
    public var old: FieldValue
    public var new: FieldValue

    init(_ field: String, _ old: FieldValue, _ new: FieldValue) {
        self.field = field
        self.old = old
        self.new = new
    }
}

public enum FieldValue: Sendable, Equatable {
    case absent
    case millis(Micros)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case text(String)
    case ids([String])
}

/// Both versions with their id → index tables, built once per diff.
struct Versions {
    let old: Scenario
    let new: Scenario
    let oldIDs: [String: Int]
    let newIDs: [String: Int]
    /// For each task of NEW: where it goes when inserted into OLD — after the
    /// nearest task before it in NEW that OLD has too.
    let insertion: [Int]

    init(old: Scenario, new: Scenario) {
        self.old = old
        self.new = new
        oldIDs = Dictionary(old.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let newIDs = Dictionary(new.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.newIDs = newIDs
        var insertion: [Int] = []
        var position = 0
        for task in new.tasks {
            insertion.append(position)
            if let i = oldIDs[task.id] { position = i + 1 }
        }
        self.insertion = insertion
    }
}

/// OLD with dependencies by id, so that changes can be applied and indices
/// resolved afterwards.
struct Draft {
    /// OLD's top-level values, device and pre-main (its tasks are `tasks`).
    var scenario: Scenario
    var tasks: [LaunchTask]
    var dependencies: [[String]]

    init(_ scenario: Scenario) {
        self.scenario = scenario
        tasks = scenario.tasks
        dependencies = scenario.tasks.map { task in task.dependsOn.map { scenario.tasks[$0].id } }
        self.scenario.tasks = []
    }

    /// OLD with only `change` applied.
    ///
    /// - Complexity: O(n + e) (a copy of the draft, plus a pass over the edges for a removal).
    func applying(_ change: ScenarioChange, _ v: Versions) -> Draft {
        var draft = self
        let new = v.new
        switch change.kind {
        case .device: draft.scenario.device = new.device
        case .preMain: draft.scenario.preMain = new.preMain
        case .launchPhases:
            draft.scenario.launchPhases = new.launchPhases
            draft.scenario.startsIn = new.startsIn
        case .inputs: draft.scenario.inputs = new.inputs
        case .setting:
            for field in change.fields { ScenarioFields.root[field.field]?.copy(from: new, to: &draft.scenario) }
        case .info: break
        case .taskChanged:
            guard let id = change.task, let i = v.oldIDs[id], let j = v.newIDs[id] else { break }
            let replacement = new.tasks[j]
            let newDeps = replacement.dependsOn.map { new.tasks[$0].id }.filter { v.oldIDs[$0] != nil }
            let keptDeps = draft.dependencies[i].filter { v.newIDs[$0] == nil }
            draft.tasks[i] = replacement
            draft.dependencies[i] = newDeps + keptDeps
        case .taskAdded:
            guard let id = change.task, let j = v.newIDs[id] else { break }
            let added = new.tasks[j]
            for dependent in change.linked {
                if let i = v.oldIDs[dependent] { draft.dependencies[i].append(id) }
            }
            draft.tasks.insert(added, at: v.insertion[j])
            draft.dependencies.insert(
                added.dependsOn.map { new.tasks[$0].id }.filter { v.oldIDs[$0] != nil }, at: v.insertion[j])
        case .taskRemoved:
            guard let id = change.task, let i = v.oldIDs[id] else { break }
            draft.tasks.remove(at: i)
            draft.dependencies.remove(at: i)
            for k in draft.dependencies.indices where draft.dependencies[k].contains(id) {
                draft.dependencies[k].removeAll { $0 == id }
            }
        case .taskOrder:
            // Common tasks take NEW's relative order in the slots they hold in OLD.
            let slots = draft.tasks.indices.filter { v.newIDs[draft.tasks[$0].id] != nil }
            let moved = slots.sorted { v.newIDs[draft.tasks[$0].id]! < v.newIDs[draft.tasks[$1].id]! }
            let (tasks, dependencies) = (draft.tasks, draft.dependencies)
            for (slot, source) in zip(slots, moved) {
                draft.tasks[slot] = tasks[source]
                draft.dependencies[slot] = dependencies[source]
            }
        }
        return draft
    }

    /// The scenario with dependencies resolved to indices; nil if they form a cycle.
    func resolved() -> Scenario? {
        var index: [String: Int] = [:]
        for (i, task) in tasks.enumerated() { index[task.id] = i }
        var resolved = tasks
        for i in resolved.indices {
            var seen = Set<Int>()
            resolved[i].dependsOn = dependencies[i].compactMap { index[$0] }.filter { seen.insert($0).inserted }
        }
        guard TaskGraph(tasks: resolved).topologicalOrder().count == resolved.count else { return nil }
        var result = scenario
        result.tasks = resolved
        return result
    }
}
