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
        w.object(.lines) { w in
            for field in root.fields where field.isWritten(in: self, root.defaults) && !isEmpty(field) {
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
                            w.array(.compact, device.clusters) { w, cluster in
                                w.inlineObject(cluster, ScenarioFields.cluster)
                            }
                            return true
                        })
                case .clusters: break  // within the device
                case .preMain: w.lines(preMain, ScenarioFields.preMain)
                case .launchPhases: w.lines(launchPhases, ScenarioFields.launchPhase)
                case .inputs: w.lines(inputs, ScenarioFields.input)
                case .tasks: w.lines(tasks, ScenarioFields.task) { tasks[$0].id }
                case .budgets:
                    w.object(.spaced) { w in
                        for budget in budgets { w.field(budget.metric.rawValue, budget.limit) }
                    }
                }
            }
        }
        w.newline()
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
        object(.spaced) { w in
            for field in table.fields where field.isWritten(in: model, table.defaults, position: position) {
                if case .nested(let kind) = field.access {
                    var value = JSONWriter()
                    guard nested(&value, kind) else { continue }
                    w.key(field.key)
                    w.raw(value.bytes)
                    continue
                }
                w.key(field.key)
                w.value(field, of: model, id: id)
            }
        }
    }

    /// `[]`, or one inline object a line.
    fileprivate mutating func lines<Model>(
        _ elements: [Model], _ table: FieldTable<Model>, id: (Int) -> String = { String($0) }
    ) {
        array(.lines) { w in
            for (k, element) in elements.enumerated() { w.inlineObject(element, table, position: k, id: id) }
        }
    }

    /// The value of a key that is not nested; dependencies as the ids `id` gives.
    mutating func value<Model>(
        _ field: ScenarioField<Model>, of model: Model, id: (Int) -> String = { String($0) }
    ) {
        switch field.access {
        case .string(let get, _): string(get(model))
        case .optionalString(let get, _): if let v = get(model) { string(v) } else { null() }
        case .bool(let get, _): bool(get(model))
        case .integer(let get, _): integer(get(model))
        case .optionalInteger(let get, _): if let v = get(model) { integer(v) } else { null() }
        case .number(let get, _): double(get(model))
        case .optionalNumber(let get, _): if let v = get(model) { double(v) } else { null() }
        case .ms(let get, _): millis(get(model))
        case .optionalMs(let get, _): if let v = get(model) { millis(v) } else { null() }
        case .choice(let get, _): if let v = get(model) { string(v) } else { null() }
        case .dependencies(let get, _): strings(get(model).map(id))
        case .nested: null()
        }
    }
}
