/// The text and JSON reports of `launchflow diff`.
extension ScenarioDiff {
    /// Metrics old → new per strategy, the changes by effect, the critical path.
    public func text() -> String {
        var out = "diff: \(oldFile) → \(newFile)"
        out += old.name == new.name ? " (\(new.name))\n" : " ('\(old.name)' → '\(new.name)')\n"

        out += "\nMetrics (old → new; times in ms)\n"
        var rows = [["metric"] + strategies.map(\.rawValue)]
        for metric in Metric.allCases {
            var row = [metric.rawValue]
            for k in strategies.indices {
                let a = oldMetrics[k].value(metric)
                let b = newMetrics[k].value(metric)
                if Check.above(b, a) || Check.below(b, a) {
                    let delta = CheckReport.format(metric, b - a, signed: true)
                    row.append("\(Self.plain(metric, a)) → \(Self.plain(metric, b)) (\(delta))")
                } else {
                    row.append(Self.plain(metric, b))
                }
            }
            rows.append(row)
        }
        out += TextReport.table(rows, rightAligned: [false] + strategies.map { _ in true }, indent: "  ")

        if changes.isEmpty {
            out += "\nNo changes: both files describe the same launch.\n"
        } else {
            let orderedBy = "time to first frame under \(orderingStrategy.rawValue)"
            if effectsMeasured {
                out += "\nChanges, by their effect on \(orderedBy) (ms: each change applied alone to \(oldFile) and"
                out += " simulated again; effects need not add up)\n"
            } else {
                out +=
                    "\nChanges, by the size of their cost change (too many to re-simulate each one: effects not measured)\n"
            }
            var table = [strategies.map { "Δ " + $0.rawValue } + ["change"]]
            for change in changes {
                var row: [String] = strategies.indices.map { k in
                    change.effect.map { CheckReport.format(.timeToFirstFrameMs, Double($0[k]) / 1000, signed: true) }
                        ?? "—"
                }
                var description = Self.describe(change)
                if let note = change.note { description += " (\(note))" }
                row.append(description)
                table.append(row)
            }
            out += TextReport.table(table, rightAligned: strategies.map { _ in true } + [false], indent: "  ")
        }

        out += "\nCritical path (dependsOn only, without pre-main)\n"
        out += "  old: \(path(oldCriticalPath, oldCriticalLength))\n"
        out += "  new: \(path(newCriticalPath, newCriticalLength))\n"
        let entered = enteredCriticalPath
        let left = leftCriticalPath
        if entered.isEmpty && left.isEmpty {
            out += "  the same tasks\n"
        } else {
            if !entered.isEmpty { out += "  entered: \(Self.list(entered, separator: ", "))\n" }
            if !left.isEmpty { out += "  left: \(Self.list(left, separator: ", "))\n" }
        }
        return out
    }

    private func path(_ ids: [String], _ length: Micros) -> String {
        "\(Self.list(ids, separator: " → ")) (\(formatMillis(length)) ms)"
    }

    /// At most 24 names: longer lists keep their first and last 10 around `… n more …`.
    static func list(_ names: [String], separator: String) -> String {
        guard names.count > 24 else { return names.joined(separator: separator) }
        let middle = "… \(names.count - 20) more …"
        return (names.prefix(10) + [middle] + names.suffix(10)).joined(separator: separator)
    }

    /// A value without padding: exact ms for times.
    static func plain(_ metric: Metric, _ value: Double) -> String {
        metric.isTime ? formatMillis(Micros((value * 1000).rounded())) : CheckReport.format(metric, value)
    }

    /// One line for a change: `'launch-cache': cost 12 → 20 ms; dependsOn +device-info`.
    public static func describe(_ change: ScenarioChange) -> String {
        func value(_ v: FieldValue) -> String {
            switch v {
            case .absent: "—"
            case .millis(let micros): "\(formatMillis(micros)) ms"
            case .integer(let n): String(n)
            case .number(let x): formatNumber(x)
            case .bool(let b): b ? "true" : "false"
            case .text(let t): t
            case .ids(let ids): ids.isEmpty ? "none" : ids.joined(separator: ", ")
            }
        }
        func field(_ f: FieldChange) -> String {
            switch (f.field, f.old, f.new) {
            case ("cost", .millis(let a), .millis(let b)):
                return "cost \(formatMillis(a)) → \(formatMillis(b)) ms (\(Check.signedMillis(b - a)))"
            case ("dependsOn", .ids(let a), .ids(let b)):
                let added = b.filter { !a.contains($0) }.map { "+" + $0 }
                let removed = a.filter { !b.contains($0) }.map { "−" + $0 }
                return "dependsOn " + (added + removed).joined(separator: " ")
            case (_, .bool, .bool(let b)):
                return (b ? "now " : "no longer ") + f.field
            case (let name, .absent, let b):
                return "+ \(name) \(value(b))"
            case (let name, let a, .absent):
                return "− \(name) \(value(a))"
            case (let name, .millis(let a), .millis(let b)):
                return "\(name) \(formatMillis(a)) → \(formatMillis(b)) ms"
            default:
                return "\(f.field) \(value(f.old)) → \(value(f.new))"
            }
        }
        let id = change.task.map { "'\($0)'" } ?? ""
        if change.task != nil && (change.kind == .taskChanged || change.kind == .info) {
            return "\(id): " + change.fields.map(field).joined(separator: "; ")
        }
        switch change.kind {
        case .taskChanged:
            return "\(id): " + change.fields.map(field).joined(separator: "; ")
        case .taskAdded:
            var parts: [String] = []
            for f in change.fields {
                switch (f.field, f.new) {
                case ("cost", .millis(let c)): parts.append("\(formatMillis(c)) ms")
                case ("mainThreadOnly", _): parts.append("main thread only")
                case ("firstFrame", _): parts.append("first frame")
                case ("priority", .integer(let p)): parts.append("priority \(p)")
                case ("dependsOn", .ids(let ids)): parts.append("depends on \(ids.joined(separator: ", "))")
                case (let name, .bool(true)): parts.append(name)
                case (let name, let v): parts.append("\(name) \(value(v))")
                }
            }
            var text = "added \(id): " + parts.joined(separator: ", ")
            if !change.linked.isEmpty { text += "; needed by \(change.linked.joined(separator: ", "))" }
            return text
        case .taskRemoved:
            var text = "removed \(id)"
            if case .millis(let c)? = change.fields.first?.old { text += " (\(formatMillis(c)) ms)" }
            if !change.linked.isEmpty { text += "; was needed by \(change.linked.joined(separator: ", "))" }
            return text
        case .device:
            return "device: " + change.fields.map(field).joined(separator: "; ")
        case .setting:
            return change.fields.map(field).joined(separator: "; ")
        case .inputs:
            let parts = change.fields.map { f in
                switch (f.old, f.new) {
                case (.absent, let b): "+ \(value(b))"
                case (let a, .absent): "− \(value(a))"
                default: "\(value(f.old)) → \(value(f.new))"
                }
            }
            return "inputs: " + parts.joined(separator: "; ")
        case .launchPhases:
            return "launch phases: " + change.fields.map(field).joined(separator: "; ")
        case .preMain:
            var text = "pre-main: " + change.fields.map(field).joined(separator: "; ")
            if change.costDelta != 0 { text += " (total \(Check.signedMillis(change.costDelta)))" }
            return text
        case .taskOrder:
            return "task order changed (equal priorities are ranked by position)"
        case .info:
            return change.fields.map(field).joined(separator: "; ")
        }
    }

    // MARK: JSON

    /// The machine-readable report (`diff --format json`), with a newline.
    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 4096 + 256 * changes.count)
        w.object(.lines) { w in
            w.field("old", object: .compact) { w in file(&w, oldFile, old) }
            w.field("new", object: .compact) { w in file(&w, newFile, new) }
            w.field("strategies", strings: strategies.map(\.rawValue))
            w.field("metrics", object: .lines) { w in
                for (k, strategy) in strategies.enumerated() {
                    w.field(strategy.rawValue, object: .lines) { w in
                        for metric in Metric.allCases { metricChange(&w, metric, k) }
                    }
                }
            }
            w.field("orderedBy", object: .compact) { w in
                w.field("metric", Metric.timeToFirstFrameMs.rawValue)
                w.field("strategy", orderingStrategy.rawValue)
                w.field("effectsMeasured", effectsMeasured)
            }
            w.field("changes", array: .lines) { w in
                for change in changes { self.change(&w, change) }
            }
            w.field("criticalPath", object: .compact) { w in
                w.field("old", strings: oldCriticalPath)
                w.field("new", strings: newCriticalPath)
                w.field("oldMs", millis: oldCriticalLength)
                w.field("newMs", millis: newCriticalLength)
                w.field("entered", strings: enteredCriticalPath)
                w.field("left", strings: leftCriticalPath)
            }
        }
        w.newline()
        return w.bytes
    }

    /// `"metric": {"old": …, "new": …, "delta": …}` under the `k`th strategy.
    private func metricChange(_ w: inout JSONWriter, _ metric: Metric, _ k: Int) {
        w.field(metric.rawValue, object: .compact) { w in
            w.key("old")
            w.metricValue(metric, of: oldMetrics[k])
            w.key("new")
            w.metricValue(metric, of: newMetrics[k])
            let delta = newMetrics[k].value(metric) - oldMetrics[k].value(metric)
            if metric.isTime {
                w.field("delta", millis: Micros((delta * 1000).rounded()))
            } else {
                w.field("delta", delta)
            }
        }
    }

    /// One change: what, where, its fields, what it is linked to and what it moved.
    private func change(_ w: inout JSONWriter, _ change: ScenarioChange) {
        w.object { w in
            w.field("kind", change.kind.rawValue)
            w.field("task", change.task)
            w.field("description", Self.describe(change))
            w.field("fields", array: .compact) { w in
                for field in change.fields {
                    w.object { w in
                        w.field("field", field.field)
                        w.key("old")
                        value(&w, field.old)
                        w.key("new")
                        value(&w, field.new)
                    }
                }
            }
            w.field("linked", strings: change.linked)
            w.key("timeToFirstFrameEffectMs")
            if let effect = change.effect {
                w.object { w in
                    for (s, strategy) in strategies.enumerated() { w.field(strategy.rawValue, millis: effect[s]) }
                }
            } else {
                w.null()
            }
            w.field("note", change.note)
        }
    }

    private func file(_ w: inout JSONWriter, _ path: String, _ scenario: Scenario) {
        w.field("file", path)
        w.field("scenario", scenario.name)
    }

    private func value(_ w: inout JSONWriter, _ v: FieldValue) {
        switch v {
        case .absent: w.null()
        case .millis(let micros): w.millis(micros)
        case .integer(let n): w.integer(n)
        case .number(let x): w.double(x)
        case .bool(let b): w.bool(b)
        case .text(let t): w.string(t)
        case .ids(let ids): w.strings(ids)
        }
    }
}
