import LaunchflowCore

/// The report's sections about other versions of the scenario: the baseline
/// (`report --baseline OLD`) and advise's plan (`report --advise`). Every
/// figure comes from ``ScenarioDiff`` and ``AdvicePlan``, every sentence
/// that `diff` or `advise` also prints from their reports.
extension ReportPage {
    // MARK: - The baseline

    /// "better" or "worse" for a change of `metric` by `delta`, in words (not by colour alone); nil when equal
    /// or when the metric has no better direction.
    static func judgement(_ metric: Metric, _ delta: Double) -> Bool? {
        guard delta != 0 else { return nil }
        switch metric.info.direction {
        case .lowerIsBetter: return delta < 0
        case .higherIsBetter: return delta > 0
        case .neither: return nil
        }
    }

    /// `OLD → NEW (Δ) better|worse`, or the value alone when it did not change.
    func versus(_ metric: Metric, _ old: Metrics, _ new: Metrics) -> String {
        guard old.value(metric) != new.value(metric) else { return changed(metric, old, new) }
        return "\(TextReport.valueText(metric, old)) → " + changed(metric, old, new)
    }

    /// `NEW (Δ) better|worse`, or the value alone when it did not change.
    func changed(_ metric: Metric, _ old: Metrics, _ new: Metrics) -> String {
        let a = old.value(metric)
        let b = new.value(metric)
        guard a != b else {
            return "<span class=\"\(p)same\" title=\"unchanged\">\(TextReport.valueText(metric, new))</span>"
        }
        var out = "<b>\(TextReport.valueText(metric, new))</b>"
        out += " <span class=\"\(p)delta\">(\(TextReport.signed(b - a, metric)))</span>"
        if let better = Self.judgement(metric, b - a) {
            out += " <span class=\"\(p)\(better ? "better" : "worse")\">\(better ? "better" : "worse")</span>"
        }
        return out
    }

    /// The metrics of the headline: first frame, full display (when the scenario marks its content), launch complete.
    func headlineMetrics(_ baseline: ReportBaseline) -> [Metric] {
        let fullDisplay = (baseline.diff.old.tasks + scenario.tasks).contains(where: \.fullyDrawn)
        return [.timeToFirstFrameMs] + (fullDisplay ? [.timeToFullDisplayMs] : []) + [.launchCompleteMs]
    }

    /// "under dag: first frame 16.667 ms later (150.003 → 166.670 ms), …" for one strategy.
    func verdict(_ baseline: ReportBaseline, _ k: Int) -> String {
        let diff = baseline.diff
        let parts = headlineMetrics(baseline).map { metric -> String in
            let a = diff.oldMetrics[k].value(metric)
            let b = diff.newMetrics[k].value(metric)
            let name = metric.label.hasPrefix("time to ") ? String(metric.label.dropFirst(8)) : metric.label
            guard a != b else { return "\(name) unchanged (\(TextReport.valueText(metric, diff.newMetrics[k])) ms)" }
            let delta = String(TextReport.signed(abs(b - a), metric).dropFirst())
            let direction = b > a ? "later" : "sooner"
            let word = Self.judgement(metric, b - a).map { $0 ? "better" : "worse" } ?? ""
            return "\(name) \(delta) ms \(direction), \(word) (\(TextReport.valueText(metric, diff.oldMetrics[k]))"
                + " → \(TextReport.valueText(metric, diff.newMetrics[k])) ms)"
        }
        return parts.joined(separator: "; ")
    }

    func baselineHeadline(_ baseline: ReportBaseline) -> String {
        let diff = baseline.diff
        let main = diff.strategies.firstIndex(of: baseline.strategy) ?? 0
        var out = "<section class=\"\(p)headline \(p)versus-headline\" aria-label=\"against the baseline\">\n"
        out += "<p class=\"\(p)verdict\">Against the baseline \(ReportText.html(diff.oldFile)), under"
        out += " \(baseline.strategy.rawValue): \(ReportText.html(verdict(baseline, main))).</p>\n"
        out += "<div class=\"\(p)cards\">\n"
        for (k, strategy) in diff.strategies.enumerated() {
            let name = strategy.rawValue
            out += "<div class=\"\(p)strategy-card \(p)versus-card\" data-strategy=\"\(name)\">"
            out += "<div class=\"\(p)card-title\">\(name)</div>"
            for metric in headlineMetrics(baseline) {
                let a = diff.oldMetrics[k].value(metric)
                let b = diff.newMetrics[k].value(metric)
                let name = metric.label.hasPrefix("time to ") ? String(metric.label.dropFirst(8)) : metric.label
                out += "<div class=\"\(p)figure\"><span class=\"\(p)label\">\(name)</span>"
                out += "<span class=\"\(p)value\">\(TextReport.valueText(metric, diff.newMetrics[k])) ms</span>"
                if a == b {
                    out += "<span class=\"\(p)delta\">unchanged</span>"
                } else {
                    let better = Self.judgement(metric, b - a) ?? false
                    out += "<span class=\"\(p)delta\">\(TextReport.signed(b - a, metric)) ms</span>"
                    out += " <span class=\"\(p)\(better ? "better" : "worse")\">\(better ? "better" : "worse")</span>"
                }
                out += "</div>"
            }
            out += "<div class=\"\(p)delta\">baseline: "
            out += headlineMetrics(baseline).map { TextReport.valueText($0, diff.oldMetrics[k]) }.joined(
                separator: " · ")
            out += " ms</div></div>\n"
        }
        return out + "</div>\n</section>\n"
    }

    func baselineSection(_ baseline: ReportBaseline, panels: [String: String]) -> String {
        let diff = baseline.diff
        let index = taskIndex()
        var out = "<section id=\"\(p)versus\">\n<h2>Against the baseline</h2>\n"
        out += "<p class=\"\(p)note\">baseline: \(ReportText.html(diff.oldFile))"
        if diff.old.name != diff.new.name { out += " ('\(ReportText.html(diff.old.name))')" }
        out += " → new: \(ReportText.html(diff.newFile)). Every metric old → new under each strategy, its change"
        out += " (±x) and whether that is better or worse: the figures <code>launchflow diff</code> prints.</p>\n"

        // The metrics, old → new.
        out += "<div class=\"\(p)scroll\"><table class=\"\(p)table \(p)metrics \(p)versus-metrics\">\n"
        out += "<thead><tr><th>metric</th>"
        for strategy in diff.strategies {
            out += "<th data-strategy=\"\(strategy.rawValue)\">\(strategy.rawValue)</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for metric in Metric.allCases {
            let unit = metric.info.unit.isEmpty ? "" : " (\(metric.info.unit))"
            out += "<tr data-metric=\"\(metric.rawValue)\"><th scope=\"row\">\(metric.label)\(unit)</th>"
            for (k, strategy) in diff.strategies.enumerated() {
                out += "<td data-strategy=\"\(strategy.rawValue)\">"
                out += versus(metric, diff.oldMetrics[k], diff.newMetrics[k]) + "</td>"
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table></div>\n"

        // What changed, and what each change did.
        out += "<h3>What changed, and what it did</h3>\n"
        let added = diff.changes.filter { $0.kind == .taskAdded }.compactMap(\.task)
        let removed = diff.changes.filter { $0.kind == .taskRemoved }.compactMap(\.task)
        if !added.isEmpty || !removed.isEmpty {
            out += "<p class=\"\(p)tasks-changed\">"
            if !added.isEmpty {
                out += "<b>\(added.count) task\(added.count == 1 ? "" : "s") added:</b> "
                out += added.map { "<code>\(ReportText.html($0))</code>" }.joined(separator: ", ")
            }
            if !added.isEmpty && !removed.isEmpty { out += "<br>" }
            if !removed.isEmpty {
                out += "<b>\(removed.count) task\(removed.count == 1 ? "" : "s") removed:</b> "
                out += removed.map { "<code>\(ReportText.html($0))</code>" }.joined(separator: ", ")
            }
            out += "</p>\n"
        }
        if diff.changes.isEmpty {
            out += "<p class=\"\(p)note\">No changes: both files describe the same launch.</p>\n"
        } else {
            out += "<p class=\"\(p)note\">"
            if diff.effectsMeasured {
                out += "By their effect on time to first frame under \(diff.orderingStrategy.rawValue) (ms: each"
                out += " change applied alone to the baseline and simulated again; effects need not add up).</p>\n"
            } else {
                out += "By the size of their cost change (too many to re-simulate each one: effects not"
                out += " measured).</p>\n"
            }
            out += "<table class=\"\(p)table \(p)tasks \(p)changes\">\n<thead><tr>"
            for strategy in diff.strategies {
                out += "<th data-strategy=\"\(strategy.rawValue)\">Δ \(strategy.rawValue)</th>"
            }
            out += "<th class=\"\(p)id\">change</th></tr></thead>\n<tbody>\n"
            for change in diff.changes {
                let row = change.task.flatMap { index[$0] }.map { " data-task=\"\($0)\"" } ?? ""
                out += "<tr\(row)>"
                for k in diff.strategies.indices {
                    let cell =
                        change.effect.map { TextReport.signed(Double($0[k]) / 1000, .timeToFirstFrameMs) } ?? "—"
                    out += "<td data-strategy=\"\(diff.strategies[k].rawValue)\">\(cell)</td>"
                }
                var description = ScenarioDiff.describe(change)
                if let note = change.note { description += " (\(note))" }
                out += "<td class=\"\(p)id\">\(ReportText.html(description))</td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        out += "<p class=\"\(p)note\">Critical path (dependsOn only, without pre-main): "
        out += "\(formatMillis(diff.oldCriticalLength)) → \(formatMillis(diff.newCriticalLength)) ms"
        let entered = diff.enteredCriticalPath
        let left = diff.leftCriticalPath
        if entered.isEmpty && left.isEmpty { out += ", the same tasks" }
        if !entered.isEmpty { out += "; entered: " + entered.map(ReportText.html).joined(separator: ", ") }
        if !left.isEmpty { out += "; left: " + left.map(ReportText.html).joined(separator: ", ") }
        out += ".</p>\n"

        // Both versions under one strategy, on the page's time axis.
        out += "<h3>The baseline and the new version under \(baseline.strategy.rawValue), on one time scale</h3>\n"
        out += "<p class=\"\(p)note\">The same task lines up in both; the time axis is the page's (zoom, pan, search"
        out += " and Shift + drag work here too). Marks as in the legend of the strategies' charts below.</p>\n"
        out += pairOfPanels(["baseline", "new"], panels)
        return out + "</section>\n"
    }

    /// Two extra panels stacked, and an axis of their own that follows the page's view.
    func pairOfPanels(_ keys: [String], _ panels: [String: String]) -> String {
        var out = "<div class=\"\(p)panels\">\n"
        for key in keys {
            out += "<div class=\"\(p)panel \(p)extra\" data-panel=\"\(key)\">\(panels[key] ?? "")</div>\n"
        }
        return out + "</div>\n<div class=\"\(p)axis\"></div>\n"
    }

    // MARK: - Advice

    /// A value of advise's JSON as the table shows it: `null` as "—", a string without its quotes.
    static func plain(_ json: String) -> String {
        if json == "null" { return "—" }
        if json.count >= 2, json.hasPrefix("\""), json.hasSuffix("\"") { return String(json.dropFirst().dropLast()) }
        return json
    }

    func adviceSection(_ advice: ReportAdvice, panels: [String: String]) -> String {
        let plan = advice.plan
        let written = plan.written
        var out = "<section id=\"\(p)advice\">\n<h2>Advice: what to change (launchflow advise)</h2>\n"
        out += "<p class=\"\(p)note\">\(ReportText.html(AdviseReport.title(plan))). The plan changes only how the"
        out += " app schedules its work; every figure is a simulation of it.</p>\n"
        out += "<table class=\"\(p)table \(p)metrics \(p)advice-metrics\">\n<thead><tr><th>metric</th>"
        // As advise prints them: as written, the plan (against as written), the plan without anchors, the best built-in.
        let columns = AdviseReport.columns(plan)
        out += columns.map { "<th>\(ReportText.html($0.title))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for metric in AdviseReport.tableMetrics + AdviseReport.inputMetrics(plan) {
            out += "<tr data-metric=\"\(metric.rawValue)\"><th scope=\"row\">\(metric.label) (ms)</th>"
            for (k, column) in columns.enumerated() {
                let cell =
                    k == 1
                    ? changed(metric, plan.baseline, column.metrics) : TextReport.valueText(metric, column.metrics)
                out += "<td>\(cell)</td>"
            }
            out += "</tr>\n"
            if metric == .firstFrameReadyMs {
                // The vsync the first frame is presented at minus its ready time (AdviseReport's row).
                out += "<tr data-metric=\"margin\"><th scope=\"row\">margin to the vsync (ms)</th>"
                out += columns.map { "<td>\(TextReport.fixed($0.metrics.margin))</td>" }.joined() + "</tr>\n"
            }
        }
        out += "</tbody>\n</table>\n"
        let gap = plan.metrics.timeToFirstFrame - plan.firstFrameBound
        out += "<p class=\"\(p)bound-line\" data-bound=\"\(plan.firstFrameBound)\" data-gap=\"\(gap)\">"
        out +=
            AdviseReport.boundLine(plan).split(separator: "\n").map { ReportText.html(String($0)) + "." }
            .joined(separator: " ") + "</p>\n"
        if let constraints = AdviseReport.constraintsLine(plan) {
            out += "<p class=\"\(p)note\">\(ReportText.html(constraints)).</p>\n"
        }
        for note in plan.notes { out += "<p class=\"\(p)note\">note: \(ReportText.html(note))</p>\n" }

        if plan.changeCount == 0 {
            out += "<p>No change improves on the scenario as written.</p>\n"
        } else {
            out += "<h3>The changes (\(plan.changeCount))</h3>\n<p class=\"\(p)note\">Each effect on the"
            out += " \(plan.configuration.objective.label) measured by taking it out of the plan and simulating"
            out += " again.</p>\n<ul class=\"\(p)advice-list\">\n"
            for (line, details) in AdviseReport.changeList(plan) {
                out += "<li>\(ReportText.html(line))"
                if !details.isEmpty {
                    out += "<ul>" + details.map { "<li>\(ReportText.html($0))</li>" }.joined() + "</ul>"
                }
                out += "</li>\n"
            }
            out += "</ul>\n"
            out += "<table class=\"\(p)table \(p)tasks \(p)advice-changes\">\n<thead><tr><th class=\"\(p)id\">task</th>"
            out += "<th>key</th><th>as written</th><th>plan</th><th>gain</th></tr></thead>\n<tbody>\n"
            for change in plan.changes {
                out += "<tr data-task=\"\(change.task)\" data-gain=\"\(change.gain)\">"
                out += "<td class=\"\(p)id\">\(ReportText.html(written.tasks[change.task].id))</td>"
                out += "<td>\(change.key.rawValue)</td><td>\(ReportText.html(Self.plain(change.from)))</td>"
                out += "<td>\(ReportText.html(Self.plain(change.to)))</td>"
                out +=
                    "<td>\(ReportText.html(AdviseReport.gainText(change.gain) + AdviseReport.secondaryText(change, plan)))"
                out += "</td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        let under =
            plan.strategy == plan.configuration.strategy
            ? "under \(plan.strategy.rawValue)"
            : "(under \(plan.configuration.strategy.rawValue) and \(plan.strategy.rawValue))"
        out += "<h3>As written and the plan \(under), on one time scale</h3>\n"
        out += "<p class=\"\(p)note\">The same task lines up in both; the page's time axis, zoom, search and"
        out += " Shift + drag. Marks as in the legend above.</p>\n"
        out += pairOfPanels(["written", "plan"], panels)
        return out + "</section>\n"
    }
}
