extension Scenario {
    /// The scenario as a scenario file (JSON), the inverse of ``ScenarioLoader``.
    ///
    /// Every key of ``ScenarioFields`` that is required, always written (the
    /// device, the pre-main phases) or not at its default, in row order: the
    /// top level one key a line, each pre-main phase, input and task on a line
    /// of its own, the device and budgets inline.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(capacity: 80 * tasks.count + 1024)
        let root = ScenarioFields.root
        w.raw("{")
        var first = true
        for field in root.fields where field.isWritten(in: self, root.defaults) && !isEmpty(field) {
            w.raw(first ? "\n  " : ",\n  ")
            first = false
            w.key(field.key)
            guard case .nested(let nested) = field.access else {
                w.value(field, of: self)
                continue
            }
            switch nested {
            case .device:
                // (§3.13) The clusters inline, within the device, when there are any.
                w.inlineObject(
                    device, ScenarioFields.device,
                    nested: { w, nested in
                        guard nested == .clusters, !device.clusters.isEmpty else { return false }
                        w.raw("[")
                        for (k, cluster) in device.clusters.enumerated() {
                            if k > 0 { w.raw(", ") }
                            w.inlineObject(cluster, ScenarioFields.cluster)
                        }
                        w.raw("]")
                        return true
                    })
            case .clusters: break  // within the device
            case .preMain: w.lines(preMain, ScenarioFields.preMain)
            case .launchPhases: w.lines(launchPhases, ScenarioFields.launchPhase)
            case .inputs: w.lines(inputs, ScenarioFields.input)
            case .tasks: w.lines(tasks, ScenarioFields.task) { tasks[$0].id }
            case .budgets:
                w.raw("{ ")
                for (k, budget) in budgets.enumerated() {
                    if k > 0 { w.raw(", ") }
                    w.key(budget.metric.rawValue)
                    w.double(budget.limit)
                }
                w.raw(" }")
            }
        }
        w.raw("\n}\n")
        return w.bytes
    }

    /// Optional arrays and objects are left out when empty.
    private func isEmpty<Model>(_ field: ScenarioField<Model>) -> Bool {
        guard case .nested(let nested) = field.access, field.written == .unlessDefault, !field.required else {
            return false
        }
        switch nested {
        case .device, .preMain, .tasks, .clusters: return false
        case .inputs: return inputs.isEmpty
        case .launchPhases: return launchPhases.isEmpty
        case .budgets: return budgets.isEmpty
        }
    }
}

extension JSONWriter {
    /// `{ "a": 1, "b": 2 }`: the written keys of `model`.
    /// - Parameter nested: writes a nested key's value and returns true, or
    ///   writes nothing and returns false to leave the key out.
    fileprivate mutating func inlineObject<Model>(
        _ model: Model, _ table: FieldTable<Model>, position: Int = 0, id: (Int) -> String = { String($0) },
        nested: (inout JSONWriter, FieldAccess<Model>.Nested) -> Bool = { _, _ in false }
    ) {
        raw("{ ")
        var first = true
        for field in table.fields where field.isWritten(in: model, table.defaults, position: position) {
            if case .nested(let kind) = field.access {
                var value = JSONWriter()
                guard nested(&value, kind) else { continue }
                if !first { raw(", ") }
                first = false
                key(field.key)
                raw(value.bytes)
                continue
            }
            if !first { raw(", ") }
            first = false
            key(field.key)
            value(field, of: model, id: id)
        }
        raw(" }")
    }

    /// `[]`, or one inline object a line.
    fileprivate mutating func lines<Model>(
        _ elements: [Model], _ table: FieldTable<Model>, id: (Int) -> String = { String($0) }
    ) {
        raw("[")
        for (k, element) in elements.enumerated() {
            raw(k == 0 ? "\n    " : ",\n    ")
            inlineObject(element, table, position: k, id: id)
        }
        raw(elements.isEmpty ? "]" : "\n  ]")
    }

    /// The value of a key that is not nested; dependencies as the ids `id` gives.
    mutating func value<Model>(
        _ field: ScenarioField<Model>, of model: Model, id: (Int) -> String = { String($0) }
    ) {
        switch field.access {
        case .string(let get, _): string(get(model))
        case .optionalString(let get, _): if let v = get(model) { string(v) } else { raw("null") }
        case .bool(let get, _): bool(get(model))
        case .integer(let get, _): integer(get(model))
        case .optionalInteger(let get, _): if let v = get(model) { integer(v) } else { raw("null") }
        case .number(let get, _): double(get(model))
        case .optionalNumber(let get, _): if let v = get(model) { double(v) } else { raw("null") }
        case .ms(let get, _): millis(get(model))
        case .optionalMs(let get, _): if let v = get(model) { millis(v) } else { raw("null") }
        case .choice(let get, _): if let v = get(model) { string(v) } else { raw("null") }
        case .dependencies(let get, _):
            raw("[")
            for (j, d) in get(model).enumerated() {
                if j > 0 { raw(", ") }
                string(id(d))
            }
            raw("]")
        case .nested: raw("null")
        }
    }
}
