extension Scenario {
    /// The scenario as a scenario file (JSON), the inverse of ``ScenarioLoader``.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(capacity: 80 * tasks.count + 1024)
        w.raw("{\n  "); w.key("name"); w.string(name)
        if !description.isEmpty { w.raw(",\n  "); w.key("description"); w.string(description) }
        w.raw(",\n  "); w.key("device"); w.raw("{ ")
        w.key("cores"); w.integer(device.cores)
        w.raw(", "); w.key("refreshRate"); w.double(device.refreshRate)
        w.raw(", "); w.key("commitCost"); w.millis(device.commitCost)
        w.raw(", "); w.key("renderTime"); w.millis(device.renderTime)
        w.raw(" },\n  "); w.key("preMain"); w.raw("[")
        for (k, phase) in preMain.enumerated() {
            w.raw(k == 0 ? "\n    { " : ",\n    { ")
            w.key("name"); w.string(phase.name); w.raw(", "); w.key("cost"); w.millis(phase.cost); w.raw(" }")
        }
        w.raw(preMain.isEmpty ? "],\n  " : "\n  ],\n  ")
        if let jitter { w.key("jitter"); w.double(jitter); w.raw(",\n  ") }
        if !budgets.isEmpty {
            w.key("budgets"); w.raw("{ ")
            for (k, budget) in budgets.enumerated() {
                if k > 0 { w.raw(", ") }
                w.key(budget.metric); w.double(budget.limit)
            }
            w.raw(" },\n  ")
        }
        w.key("tasks"); w.raw("[")
        for (k, task) in tasks.enumerated() {
            w.raw(k == 0 ? "\n    { " : ",\n    { ")
            w.key("id"); w.string(task.id)
            w.raw(", "); w.key("cost"); w.millis(task.cost)
            if task.mainThreadOnly { w.raw(", "); w.key("mainThreadOnly"); w.bool(true) }
            if task.firstFrame { w.raw(", "); w.key("firstFrame"); w.bool(true) }
            if task.priority != 0 { w.raw(", "); w.key("priority"); w.integer(task.priority) }
            if let p90 = task.costP90 { w.raw(", "); w.key("costP90"); w.millis(p90) }
            if !task.dependsOn.isEmpty {
                w.raw(", "); w.key("dependsOn"); w.raw("[")
                for (j, d) in task.dependsOn.enumerated() {
                    if j > 0 { w.raw(", ") }
                    w.string(tasks[d].id)
                }
                w.raw("]")
            }
            w.raw(" }")
        }
        w.raw("\n  ]\n}\n")
        return w.bytes
    }
}
