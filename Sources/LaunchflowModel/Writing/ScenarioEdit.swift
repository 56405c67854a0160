extension ScenarioText {
    /// The key edits that turn `written`, the scenario this file decodes to,
    /// into `target`, the same scenario with some keys changed (advise's
    /// plan): one per key of the top level or of a task whose value differs,
    /// in task order, then row order.
    ///
    /// A key set to something other than its default is replaced, or added
    /// when the file does not have it. A key back at its default keeps its
    /// place when the default is a value (`"priority": 0`, `"idle": false`:
    /// what the user wrote out stays written out) and is removed when the
    /// default is its absence (`after`, `queue`: no `null` is written).
    /// Nested objects and arrays (the device, `preMain`, `inputs`, `budgets`)
    /// and the number of tasks are not edited: a target that differs there
    /// fails ``edited(from:to:file:)``'s check.
    package func keyEdits(from written: Scenario, to target: Scenario) throws(KeyEditError) -> [KeyEdit] {
        guard written.tasks.count == target.tasks.count, tasks.count == target.tasks.count else {
            throw KeyEditError(
                description:
                    "the plan has \(target.tasks.count) tasks, the file \(tasks.count): only keys are edited in place")
        }
        var edits: [KeyEdit] = []
        func compare<Model>(
            _ old: Model, _ new: Model, _ table: FieldTable<Model>, _ object: ObjectText?, _ target: KeyEdit.Target,
            position: Int, id: (Int) -> String
        ) {
            for field in table.fields {
                if case .nested = field.access { continue }
                func text(_ model: Model) -> String {
                    var writer = JSONWriter()
                    writer.value(field, of: model, id: id)
                    return String(decoding: writer.bytes, as: UTF8.self)
                }
                let value = text(new)
                guard value != text(old) else { continue }
                let present = object?.members.contains { $0.key == field.key } ?? false
                if !field.required && !field.isWritten(in: new, table.defaults, position: position) {
                    let defaultValue = text(table.defaults)
                    if defaultValue == "null" || field.defaultPrefix != nil || !present {
                        if present { edits.append(KeyEdit(target, field.key, nil)) }
                    } else {
                        edits.append(KeyEdit(target, field.key, defaultValue))
                    }
                } else {
                    edits.append(KeyEdit(target, field.key, value))
                }
            }
        }
        compare(written, target, ScenarioFields.root, root, .root, position: 0) { String($0) }
        for (i, task) in target.tasks.enumerated() {
            compare(written.tasks[i], task, ScenarioFields.task, tasks[i].object, .task(i), position: i) {
                target.tasks.indices.contains($0) ? target.tasks[$0].id : String($0)
            }
        }
        return edits
    }

    /// This file with only the keys changed that differ between `written`
    /// (the scenario it decodes to) and `target` (``keyEdits(from:to:)``),
    /// checked: the result must decode to `target` exactly (its scenario file,
    /// ``Scenario/jsonBytes()``, byte for byte). `file` names the result in
    /// the check's problems.
    ///
    /// - Throws: ``KeyEditError`` when the target cannot be reached by
    ///   editing keys, or the check fails; never traps.
    package func edited(from written: Scenario, to target: Scenario, file: String) throws(KeyEditError) -> [UInt8] {
        let result = try editing(keyEdits(from: written, to: target))
        let decoded: Scenario
        do {
            decoded = try ScenarioLoader.decode(result, file: file)
        } catch {
            throw KeyEditError(
                description: "the edited file would not load: \(error.problems.first.map { "\($0)" } ?? "invalid")")
        }
        guard decoded.jsonBytes() == target.jsonBytes() else {
            throw KeyEditError(description: "the edited file would not be the plan")
        }
        return result
    }
}
