/// The rules of MODEL.md §1 checked on a scenario built in code, with the
/// messages a file breaking them gets (without the file name): every value
/// against its row in ``ScenarioFields``, then the relations between tasks
/// (``ScenarioValidator``).
extension Scenario {
    /// Every problem with this scenario, in a stable order: the top level, the
    /// device, pre-main, budgets and inputs first, then task by task.
    ///
    /// - Complexity: O(n + e) for n tasks and e dependencies.
    package func problems() -> [Diagnostic] {
        var found: [LocatedProblem] = []
        func report(_ location: Location, _ offset: Int, _ message: String, suggestion: String? = nil) {
            found.append(LocatedProblem(offset: offset, location: location, message: message, suggestion: suggestion))
        }
        /// The rules between keys at `offset - 1`, the values at `offset` (see below).
        func check<Model>(_ model: Model, _ table: FieldTable<Model>, offset: Int, at location: (String) -> Location) {
            for relation in table.relations {
                if let message = relation.problem(model) { report(location(relation.key), max(offset - 1, 0), message) }
            }
            for field in table.fields {
                if let message = field.problem(in: model) { report(location(field.key), offset, message) }
            }
        }

        check(self, ScenarioFields.root, offset: 0, at: Location.root)
        check(device, ScenarioFields.device, offset: 0, at: Location.device)
        for (k, cluster) in device.clusters.enumerated() {
            check(cluster, ScenarioFields.cluster, offset: 0) { .cluster(k, $0) }
        }
        found += ClusterRules.problems(device, coresGiven: true)
        for (k, phase) in preMain.enumerated() {
            check(phase, ScenarioFields.preMain, offset: 0) { .preMain(k, $0) }
        }
        for (k, phase) in launchPhases.enumerated() {
            check(phase, ScenarioFields.launchPhase, offset: 0) { .launchPhase(k, $0) }
        }
        found += LaunchPhaseRules.problems(launchPhases, startsIn: startsIn)
        var seen = Set<Metric>()
        for budget in budgets {
            let key = budget.metric.rawValue
            if !seen.insert(budget.metric).inserted {
                report(.budget(key), 0, "key '\(key)' appears twice in this object")
            } else if let message = Budget.limits.problem(with: budget.limit) {
                report(.budget(key), 0, message)
            }
        }
        for (k, input) in inputs.enumerated() {
            check(input, ScenarioFields.input, offset: 0) { .input(k, $0) }
        }
        if let (minimum, message) = ScenarioFields.root["tasks"]?.limits.minItems, tasks.count < minimum {
            report(.root("tasks"), 0, message)
        }
        // Offsets that order the problems as a file's: task by task, and within
        // a task the rules between keys, then those between tasks (both at the
        // task's start in a file), then those of its values (further in).
        for (i, task) in tasks.enumerated() {
            check(task, ScenarioFields.task, offset: 2 + 2 * i) { .task(i, $0) }
        }
        var validator = ScenarioValidator(tasks: tasks, offsets: tasks.indices.map { 1 + 2 * $0 })
        validator.checkIndices()
        return LocatedProblem.diagnostics(found + validator.problems, file: "", tasks: tasks)
    }
}

extension ScenarioField {
    /// The problem with this key's value in `model`, as the decoder words it
    /// for a file; nil when it is fine. Relations between keys and nested
    /// values are checked elsewhere.
    package func problem(in model: Model) -> String? {
        let limits = self.limits
        switch access {
        case .string(let get, _):
            if let noun = limits.nonEmpty, get(model).isEmpty { return "\(noun) is empty" }
            return limits.textProblem(get(model))
        case .optionalString(let get, _):
            if let noun = limits.nonEmpty, get(model)?.isEmpty == true { return "\(noun) is empty" }
            return get(model).flatMap(limits.textProblem)
        case .integer(let get, _):
            return limits.integerProblem(with: Double(get(model)))
        case .optionalInteger(let get, _):
            return get(model).flatMap { limits.integerProblem(with: Double($0)) }
        case .number(let get, _):
            return limits.problem(with: get(model))
        case .optionalNumber(let get, _):
            return get(model).flatMap(limits.problem(with:))
        case .ms(let get, _):
            return Self.millisecondsProblem(get(model))
        case .optionalMs(let get, _):
            return get(model).flatMap(Self.millisecondsProblem)
        case .bool, .choice, .dependencies, .nested:
            break
        }
        return nil
    }

    /// A time in µs outside 0 … an hour, worded as for milliseconds in a file.
    private static func millisecondsProblem(_ micros: Micros) -> String? {
        let limit = microseconds(fromMilliseconds: ScenarioFields.maxMilliseconds)
        guard micros < 0 || micros > limit else { return nil }
        return "must be between 0 and \(formatNumber(ScenarioFields.maxMilliseconds)) ms, found \(formatMillis(micros))"
    }
}
