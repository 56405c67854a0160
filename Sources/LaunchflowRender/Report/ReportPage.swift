import LaunchflowCore
import LaunchflowImport

/// Assembles the report's HTML: sections in a fixed order, pictures from
/// ``ReportPictures``, the page's data as JSON for ``ReportScript``.
///
/// Everything that comes from the scenario is escaped with ``ReportText``.
/// Page elements have ids and classes starting with the pictures' prefix, so
/// that none can equal a task id.
struct ReportPage {
    let report: Report
    let pictures: ReportPictures
    let judged: HonestComparison
    /// The panels of other runs (the baseline and NEW, as written and the plan), in page order.
    let extraPanels: [ReportPanel]
    /// Tasks only the baseline has: in the page's data after the scenario's own.
    let removedTasks: [LaunchTask]

    init(_ report: Report) {
        self.report = report
        var extra: [ReportPanel] = []
        var removed: [LaunchTask] = []
        if let baseline = report.baseline {
            let name = baseline.strategy.rawValue
            extra.append(ReportPanel(key: "baseline", heading: "baseline · \(name)", result: baseline.old))
            extra.append(ReportPanel(key: "new", heading: "new · \(name)", result: baseline.new))
            let removedIDs = Set(baseline.removedIDs)
            removed = baseline.diff.old.tasks.filter { removedIDs.contains($0.id) }
        }
        if let advice = report.advice {
            let name = advice.plan.configuration.strategy.rawValue
            extra.append(ReportPanel(key: "written", heading: "as written · \(name)", result: advice.written))
            extra.append(
                ReportPanel(key: "plan", heading: "plan · \(advice.plan.strategy.rawValue)", result: advice.planned))
        }
        extraPanels = extra
        removedTasks = removed
        pictures = ReportPictures(
            results: report.results, extra: extra.map(\.result), extraIDs: removed.map(\.id))
        judged = HonestComparison(report.results)
    }

    var scenario: Scenario { pictures.scenario }
    var results: [SimulationResult] { report.results }
    var p: String { pictures.ids.prefix }

    func render() throws(RenderError) -> String {
        // Render every picture before writing anything.
        var panels: [String] = []
        for result in results { panels.append(ReportPictures.inline(try Graphviz.svg(pictures.panel(result)))) }
        let legend = ReportPictures.inline(try Graphviz.svg(pictures.legend()))
        let dag = ReportPictures.inline(try Graphviz.svg(pictures.dag(report.tiers)))
        var distribution: String?
        if let sweep = report.sweep, sweep.uncertainTasks > 0 || sweep.latencyTasks > 0 {
            distribution = try pictures.distribution(sweep)
        }
        var extraSVG: [String: String] = [:]
        for panel in extraPanels {
            extraSVG[panel.key] = ReportPictures.inline(
                try Graphviz.svg(pictures.panel(panel.result, key: panel.key, heading: panel.heading)))
        }
        var traceOverlay: String?
        if let comparison = report.traceComparison {
            traceOverlay = ReportPictures.inline(try TraceComparisonChart(comparison).svg())
        }

        var out = ""
        out.reserveCapacity(panels.reduce(dag.utf8.count) { $0 + $1.utf8.count } + 200_000)
        out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(ReportText.html(scenario.name)) — launchflow report</title>\n"
        out += "<style>\n\(ReportStyle.css(prefix: p))</style>\n</head>\n<body>\n"
        out += header()
        if let baseline = report.baseline { out += baselineHeadline(baseline) }
        out += headline()
        out += controls()
        out += "<main>\n"
        if let baseline = report.baseline { out += baselineSection(baseline, panels: extraSVG) }
        out += comparisonTable()
        out += lintSection()
        out += ganttSection(legend: legend, panels: panels)
        if let advice = report.advice { out += adviceSection(advice, panels: extraSVG) }
        out += dagSection(dag)
        if let traceOverlay, let comparison = report.traceComparison {
            out += traceSection(comparison, picture: traceOverlay)
        }
        if let distribution, let sweep = report.sweep { out += sweepSection(sweep, picture: distribution) }
        out += whatIfSection()
        out += taskTable()
        out += "</main>\n"
        out += "<aside id=\"\(p)card\" class=\"\(p)card\" hidden></aside>\n"
        out += "<script type=\"application/json\" id=\"\(p)data\">\(data())</script>\n"
        out += "<script>\n\(ReportScript.source)</script>\n</body>\n</html>\n"
        return out
    }

    // MARK: - Sections

    private func header() -> String {
        let device = scenario.device
        let dependencies = scenario.tasks.reduce(0) { $0 + $1.dependsOn.count }
        var out = "<header class=\"\(p)header\">\n<h1>\(ReportText.html(scenario.name))</h1>\n"
        if !scenario.description.isEmpty {
            out += "<p class=\"\(p)description\">\(ReportText.html(scenario.description))</p>\n"
        }
        out += "<p class=\"\(p)facts\">\(ReportText.html(report.file)) · \(scenario.tasks.count) tasks,"
        out += " \(dependencies) dependencies, \(pictures.tiers.priorities.count) tier"
        out += pictures.tiers.priorities.count == 1 ? "" : "s"
        out += " · \(device.cores) cores (main + \(device.workerCount) workers),"
        out += " \(formatNumber(device.refreshRate)) Hz · pre-main \(formatMillis(scenario.preMainTotal)) ms"
        if let baseline = report.baseline {
            out += " · against the baseline \(ReportText.html(baseline.diff.oldFile))"
        }
        out += " · launchflow report</p>\n</header>\n"
        return out
    }

    /// (v2.1) The scenario marks its content (`fullyDrawn`): time to full display is shown.
    private var hasFullDisplay: Bool { scenario.tasks.contains(where: \.fullyDrawn) }

    private func headline() -> String {
        var out = "<section class=\"\(p)headline\" aria-label=\"headline\">\n"
        out += "<p class=\"\(p)verdict\">\(ReportText.html(judged.headline))</p>\n<div class=\"\(p)cards\">\n"
        let serial = judged.serial.map { results[$0].metrics }
        for (k, result) in results.enumerated() {
            let m = result.metrics
            let name = result.schedule.strategy.rawValue
            var classes = "\(p)strategy-card"
            if k == judged.bestCorrect { classes += " \(p)best" }
            if !judged.isCorrect[k] { classes += " \(p)broken" }
            out += "<div class=\"\(classes)\" data-strategy=\"\(name)\">"
            out += "<div class=\"\(p)card-title\">\(ReportText.html(judged.label(result.schedule.strategy)))"
            if k == judged.bestCorrect { out += " <span class=\"\(p)badge \(p)badge-best\">best correct</span>" }
            out += "</div>"
            // (v2.1) Full display when the scenario says what its content is; launch
            // completion against the baseline (serial, or the app's strategy) only when it does the
            // same work at the same moments.
            let serialComparable = judged.serial.map { judged.exclusion($0, .launchCompleteMs) == nil } ?? false
            var figures: [(String, Micros, Micros?)] = [("first frame", m.timeToFirstFrame, serial?.timeToFirstFrame)]
            if hasFullDisplay { figures.append(("full display", m.timeToFullDisplay, serial?.timeToFullDisplay)) }
            // (§3.12) Apple's number, when its commit is not the first frame's.
            if m.firstFrameIteration > 0 { figures.append(("first draw (Apple)", m.firstDraw, nil)) }
            figures.append(("launch complete", m.launchComplete, serialComparable ? serial?.launchComplete : nil))
            for (label, value, base) in figures {
                out += "<div class=\"\(p)figure\"><span class=\"\(p)label\">\(label)</span>"
                out += "<span class=\"\(p)value\">\(formatMillis(value)) ms</span>"
                if let base, result.schedule.strategy != judged.baselineStrategy {
                    out +=
                        "<span class=\"\(p)delta\">\(ReportText.signedMs(value - base)) vs \(ReportText.html(judged.label(judged.baselineStrategy)))</span>"
                }
                out += "</div>"
            }
            // The first-frame bound and the gap to it: what a better plan could still gain.
            let gap = m.timeToFirstFrame - m.firstFrameBound
            out += "<div class=\"\(p)figure \(p)bound\"><span class=\"\(p)label\">first-frame bound</span>"
            out += "<span class=\"\(p)value\">\(formatMillis(m.firstFrameBound)) ms</span>"
            out +=
                "<span class=\"\(p)delta\" title=\"no schedule that keeps every dependency presents its first frame earlier\">"
                + (gap > 0 ? "gap \(formatMillis(gap)) ms" : gap == 0 ? "reached" : "below: breaks dependencies")
                + "</span></div>"

            if m.dependencyViolations > 0 {
                out +=
                    "<div class=\"\(p)badge \(p)badge-broken\">\(HonestComparison.breaks(m.dependencyViolations))</div>"
            } else {
                out += "<div class=\"\(p)badge \(p)badge-ok\">keeps every dependency</div>"
            }
            out += "</div>\n"
        }
        out += "</div>\n</section>\n"
        return out
    }

    private func controls() -> String {
        var out = "<nav class=\"\(p)controls\" aria-label=\"controls\">\n<span class=\"\(p)group\">Strategies:"
        for result in results {
            let name = result.schedule.strategy.rawValue
            out += " <label><input type=\"checkbox\" class=\"\(p)toggle\" value=\"\(name)\" checked> \(name)</label>"
        }
        out += "</span>\n<span class=\"\(p)group\">Time axis:"
        out += " <button type=\"button\" data-zoom=\"in\" title=\"zoom in (or Ctrl + wheel)\">+</button>"
        out += "<button type=\"button\" data-zoom=\"out\" title=\"zoom out\">−</button>"
        out += "<button type=\"button\" data-zoom=\"launch\" title=\"from t0 to the end of the launch (full display"
        out += " and the last task not deferred)\">launch</button>"
        out += "<button type=\"button\" data-zoom=\"t0\" title=\"from main() on: fold pre-main\">from t0</button>"
        out += "<button type=\"button\" data-zoom=\"reset\" title=\"the whole launch\">all</button>"
        out += " <span class=\"\(p)range\" id=\"\(p)range\"></span></span>\n"
        out += "<span class=\"\(p)group\"><button type=\"button\" id=\"\(p)export\""
        out += " title=\"download the panels shown, as zoomed, and the span (Shift + drag) as one SVG file\">"
        out += "Export SVG</button></span>\n"
        out += "<span class=\"\(p)group\"><label>Task: <input type=\"search\" id=\"\(p)find\" list=\"\(p)ids\""
        out += " placeholder=\"id\" size=\"18\"></label></span>\n"
        out += "<span class=\"\(p)group\"><label>Search: <input type=\"search\" id=\"\(p)search\""
        out += " placeholder=\"text or /regex/\" size=\"18\" title=\"highlights the matching tasks in every picture\">"
        out += "</label> <span class=\"\(p)found\" id=\"\(p)found\"></span>"
        out += " <span class=\"\(p)found\" title=\"W/S zoom in and out, A/D pan\">keys: W A S D</span></span>\n"
        out += "<datalist id=\"\(p)ids\">"
        for task in scenario.tasks { out += "<option value=\"\(ReportText.html(task.id))\">" }
        out += "</datalist>\n</nav>\n"
        return out
    }

    private func comparisonTable() -> String {
        var out = "<section id=\"\(p)compare\">\n<h2>Strategies compared</h2>\n"
        out += "<table class=\"\(p)table \(p)metrics\">\n<thead><tr><th>metric</th>"
        for (k, result) in results.enumerated() {
            let name = result.schedule.strategy.rawValue
            out += "<th data-strategy=\"\(name)\">\(ReportText.html(judged.label(result.schedule.strategy)))"
            if !judged.isCorrect[k] {
                out += "<br><span class=\"\(p)badge \(p)badge-broken\">"
                out += HonestComparison.breaks(result.metrics.dependencyViolations) + "</span>"
            }
            out += "</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        let serial = judged.serial
        for metric in Metric.allCases {
            let unit = metric.info.unit.isEmpty ? "" : " (\(metric.info.unit))"
            out += "<tr><th scope=\"row\">\(metric.label)\(unit)</th>"
            for (k, result) in results.enumerated() {
                var classes: [String] = []
                var title = ""
                var cell = TextReport.valueText(metric, result.metrics)
                if judged.isBest(k, metric) {
                    classes.append("\(p)is-best")
                    cell +=
                        "<span class=\"\(p)star\" title=\"best among the strategies that keep every dependency\">*</span>"
                }
                if judged.beatsOnlyByBreaking(k, metric) {
                    classes.append("\(p)is-broken")
                    title = "reached only by breaking \(result.metrics.dependencyViolations) dependencies"
                    cell += "<span class=\"\(p)dagger\">†</span>"
                }
                if judged.isCorrect[k], let reason = judged.exclusion(k, metric) {
                    title = "not compared: it \(reason)"
                    cell += "<span class=\"\(p)dagger\">‡</span>"
                }
                if let serial, k != serial, !(judged.isCorrect[serial] && judged.exclusion(serial, metric) != nil) {
                    let delta = result.metrics.value(metric) - results[serial].metrics.value(metric)
                    cell += " <span class=\"\(p)delta\">(\(TextReport.signed(delta, metric)))</span>"
                }
                out += "<td data-strategy=\"\(result.schedule.strategy.rawValue)\""
                if !classes.isEmpty { out += " class=\"\(classes.joined(separator: " "))\"" }
                if !title.isEmpty { out += " title=\"\(title)\"" }
                out += ">\(cell)</td>"
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table>\n<p class=\"\(p)note\">* the best value among the strategies that keep every"
        out += " dependency; (±x) the change against \(ReportText.html(judged.label(judged.baselineStrategy)))."
        out +=
            scenario.launchPhases.isEmpty
            ? " critical path and lower bound include pre-main (\(formatMillis(scenario.preMainTotal)) ms).</p>\n"
            : " critical path and lower bound include the time until didFinishLaunching starts (pre-main and the launch phases before it: \(formatMillis(results[0].schedule.t1)) ms).</p>\n"
        if let note = judged.deferralNote { out += "<p class=\"\(p)note\">‡ \(ReportText.html(note))</p>\n" }
        // (§3.12, §3.13) Apple's first draw where it is not the first frame; the cores and the main executor.
        for note in [firstDrawNote(results)].compactMap({ $0 })
            + executionNotes(scenario, strategies: results.map(\.schedule.strategy))
        {
            out += "<p class=\"\(p)note\">\(ReportText.html(note))</p>\n"
        }
        let warnings = judged.warnings
        if !warnings.isEmpty {
            out += "<p class=\"\(p)note \(p)warn\">† better than every correct strategy only by breaking dependencies: "
            out += warnings.map(ReportText.html).joined(separator: " ") + "</p>\n"
        }
        return out + "</section>\n"
    }

    private func lintSection() -> String {
        var out = "<section id=\"\(p)lint\">\n<h2>Lint</h2>\n"
        guard !report.lint.isEmpty else {
            return out
                + "<p class=\"\(p)note\">No lint warnings: nothing in the scenario looks unintended.</p>\n</section>\n"
        }
        let index = taskIndex()
        var byRule: [String] = []
        for rule in LintWarning.Rule.allCases {
            let count = report.lint.filter { $0.rule == rule }.count
            if count > 0 { byRule.append("\(count) \(rule.rawValue)") }
        }
        let count = report.lint.count
        out += "<details\(count <= 5 ? " open" : "")><summary>\(count) warning\(count == 1 ? "" : "s")"
        out += " (\(byRule.joined(separator: ", "))) — 'launchflow validate' explains each rule</summary>\n"
        out += "<ul class=\"\(p)lint-list\">\n"
        for warning in report.lint {
            let problem = warning.problem
            var attributes = ""
            if let id = problem.taskID, let i = index[id] { attributes = " data-task=\"\(i)\"" }
            out += "<li\(attributes)><code>\(ReportText.html(problem.path))</code>"
            if let id = problem.taskID { out += " (task <b>\(ReportText.html(id))</b>)" }
            out +=
                ": \(ReportText.html(problem.message)) <span class=\"\(p)rule\">\(warning.rule.rawValue)</span></li>\n"
        }
        return out + "</ul>\n</details>\n</section>\n"
    }

    private func ganttSection(legend: String, panels: [String]) -> String {
        var out = "<section id=\"\(p)gantt\">\n<h2>The launch, strategy by strategy, on one time scale</h2>\n"
        out += "<p class=\"\(p)note\">One lane per thread, one bar per task from its start to its end. Drag to pan;"
        out += " Ctrl + wheel (or the buttons above) to zoom the time axis; Shift + drag to measure a span."
        out += " Click a bar for its card.</p>\n"
        out += "<div class=\"\(p)legend\">\(legend)</div>\n<div class=\"\(p)panels\">\n"
        for (result, svg) in zip(results, panels) {
            out += "<div class=\"\(p)panel\" data-strategy=\"\(result.schedule.strategy.rawValue)\">\(svg)</div>\n"
        }
        out += "</div>\n<div class=\"\(p)axis\" id=\"\(p)axis\"></div>\n</section>\n"
        return out
    }

    private func dagSection(_ svg: String) -> String {
        var out = "<section id=\"\(p)dag\">\n<h2>The task graph</h2>\n"
        out += "<p class=\"\(p)note\">Red: the critical path. Dashed magenta: a dependency the priority strategy"
        out += " breaks. Click a task to see its dependencies and dependents.</p>\n"
        out += "<div class=\"\(p)dag-frame\">\(svg)</div>\n</section>\n"
        return out
    }

    private func sweepSection(_ sweep: SweepResult, picture: String) -> String {
        let runs = sweep.configuration.runs
        var out = "<section id=\"\(p)sweep\">\n<h2>With uncertain costs: \(runs) sampled launches</h2>\n"
        out += "<p class=\"\(p)note\">\(ReportText.html(UncertaintyReport.uncertaintyLine(sweep))); seed"
        out += " \(sweep.configuration.seed). Win rate: the share of runs in which the strategy's time was the"
        out += " smallest of the strategies that broke no dependency in that run (ties count for each).</p>\n"
        let broken = sweep.summaries.contains { $0.brokenRuns > 0 }
        out += "<table class=\"\(p)table\">\n<thead><tr><th>strategy</th><th>first frame p50</th><th>p90</th>"
        out += "<th>p99</th><th>wins</th><th>launch complete p50</th><th>p90</th><th>p99</th><th>wins</th>"
        out += broken ? "<th>broke dependencies</th>" : ""
        out += "</tr></thead>\n<tbody>\n"
        for summary in sweep.summaries {
            let name = summary.strategy.rawValue
            out += "<tr data-strategy=\"\(name)\"\(summary.brokenRuns > 0 ? " class=\"\(p)is-broken\"" : "")>"
            out += "<th scope=\"row\">\(name)\(summary.brokenRuns > 0 ? "†" : "")</th>"
            for (d, wins) in [
                (summary.firstFrame, summary.bestFirstFrame), (summary.launchComplete, summary.bestLaunchComplete),
            ] {
                out += "<td>\(formatMillis(d.p50))</td><td>\(formatMillis(d.p90))</td><td>\(formatMillis(d.p99))</td>"
                out += "<td>\(percent(wins, of: runs))</td>"
            }
            if broken { out += "<td>\(percent(summary.brokenRuns, of: runs))</td>" }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table>\n<div class=\"\(p)dist\">\(picture)</div>\n</section>\n"
        return out
    }

    private func traceSection(_ comparison: TraceComparison, picture: String) -> String {
        var out = "<section id=\"\(p)trace\">\n<h2>Measured against simulated</h2>\n"
        out += "<p class=\"\(p)note\">\(ReportText.html(comparison.trace)) against the model under"
        out += " \(comparison.strategy.rawValue), task by task (matched by id), aligned at the start of"
        out += " '\(ReportText.html(comparison.anchor))'. Dashed outlines: measured; bars: simulated."
        out += " Error = simulated − measured (+: the model is late).</p>\n"
        out += "<div class=\"\(p)dag-frame\">\(picture)</div>\n"
        out += "<table class=\"\(p)table \(p)tasks\">\n<thead><tr><th class=\"\(p)id\">task</th>"
        out += "<th>measured</th><th>simulated</th><th>start error</th><th>end error</th></tr></thead>\n<tbody>\n"
        let index = taskIndex()
        for row in comparison.rows.prefix(20) {
            out += "<tr data-task=\"\(index[row.id] ?? -1)\"><td class=\"\(p)id\">\(ReportText.html(row.id))</td>"
            out += "<td>\(formatMillis(row.measured.start)) → \(formatMillis(row.measured.end))</td>"
            out += "<td>\(formatMillis(row.simulated.start)) → \(formatMillis(row.simulated.end))</td>"
            out += "<td>\(ReportText.signedMs(row.startError))</td><td>\(ReportText.signedMs(row.endError))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        if let frame = comparison.firstFrame {
            out += "<p class=\"\(p)note\">First frame (end of '\(ReportText.html(frame.task))'): measured"
            out += " \(formatMillis(frame.measured)) ms, simulated \(formatMillis(frame.simulated)) ms.</p>\n"
        }
        if let measured = comparison.measuredFirstFrame {
            out += "<p class=\"\(p)note\">First frame from process start (Instruments App Launch: the end of"
            out += " Initial Frame Rendering): measured \(formatMillis(measured)) ms, simulated"
            out += " \(formatMillis(comparison.simulatedTimeToFirstFrame)) ms, error"
            out += " \(ReportText.signedMs(comparison.simulatedTimeToFirstFrame - measured)) ms.</p>\n"
        }
        return out + "</section>\n"
    }

    private func whatIfSection() -> String {
        guard let analysis = report.whatIf else { return "" }
        var out = "<section id=\"\(p)whatif\">\n<h2>What to make faster first</h2>\n"
        out += "<p class=\"\(p)note\">Under \(analysis.strategy.rawValue): each task made"
        out += " \(UncertaintyReport.percentText(analysis.reduction))% cheaper in turn, the launch simulated again."
        out += " Slack: how much the task's cost can grow before the first frame moves.</p>\n"
        out +=
            "<table class=\"\(p)table \(p)tasks\">\n<thead><tr><th>rank</th><th class=\"\(p)id\">task</th><th>cost</th>"
        out += "<th>first-frame gain</th><th>launch gain</th><th>slack</th></tr></thead>\n<tbody>\n"
        for (k, row) in analysis.rows.prefix(10).enumerated() {
            out += "<tr data-task=\"\(row.task)\"><td>\(k + 1)</td>"
            out += "<td class=\"\(p)id\">\(ReportText.html(scenario.tasks[row.task].id))</td>"
            out += "<td>\(formatMillis(row.cost))</td><td>\(ReportText.signedMs(row.firstFrameGain))</td>"
            out += "<td>\(ReportText.signedMs(row.launchGain))</td>"
            out += "<td>\(row.slackIsCapped ? "≥ " : "")\(formatMillis(row.slack))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n<p class=\"\(p)note\">Times in ms, against the base launch: first frame"
        out += " \(formatMillis(analysis.base.timeToFirstFrame)), launch complete"
        out += " \(formatMillis(analysis.base.launchComplete)).</p>\n</section>\n"
        return out
    }

    private func taskTable() -> String {
        var out = "<section id=\"\(p)all\">\n<details>\n<summary><h2>Every task</h2></summary>\n"
        out +=
            "<table class=\"\(p)table \(p)tasks\">\n<thead><tr><th class=\"\(p)id\">task</th><th>cost</th><th>tier</th>"
        for result in results {
            let name = result.schedule.strategy.rawValue
            out += "<th data-strategy=\"\(name)\">\(name): thread, start → end</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for (i, task) in scenario.tasks.enumerated() {
            out += "<tr data-task=\"\(i)\"><td class=\"\(p)id\">\(ReportText.html(task.id))</td>"
            out += "<td>\(formatMillis(task.cost))</td><td>\(pictures.tiers.ofTask[i])</td>"
            for result in results {
                let run = result.schedule.tasks[i]
                out += "<td data-strategy=\"\(result.schedule.strategy.rawValue)\">"
                out += "\(Schedule.threadName(run.thread)) \(formatMillis(run.start)) → \(formatMillis(run.end))</td>"
            }
            out += "</tr>\n"
        }
        return out + "</tbody>\n</table>\n</details>\n</section>\n"
    }

    // MARK: - Data for the script

    /// Task id → index in the page's data: the scenario's tasks, then those only the baseline has.
    func taskIndex() -> [String: Int] {
        Dictionary(
            (scenario.tasks + removedTasks).enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    private func percent(_ count: Int, of runs: Int) -> String {
        TextReport.percent(runs == 0 ? 0 : Double(count) / Double(runs)) + "%"
    }

    /// The page's data as JSON (times in µs):
    /// `{prefix, scenario, axis, t0, strategies: [{name, violations}], tasks: [{id, cost,
    /// main, firstFrame, tier, priority, critical, deps, dependents, runs:
    /// [[thread, ready, start, end]…], slack, slackCapped, gain}], whatIf}`;
    /// `scenario` is the scenario file's name without its extension (the
    /// exported view is `<scenario>-view.svg`).
    private func data() -> String {
        let tasks = scenario.tasks
        let graph = TaskGraph(tasks: tasks)
        let critical = Set(results[0].criticalPath.tasks)
        var slack: [WhatIfRow?] = Array(repeating: nil, count: tasks.count)
        for row in report.whatIf?.rows ?? [] { slack[row.task] = row }
        let axis = pictures.axis
        let base = report.file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        let stem = base.lastIndex(of: ".").map { $0 == base.startIndex ? base : String(base[..<$0]) } ?? base
        let panelIndices = extraPanels.map { Self.index($0.result.schedule.scenario) }
        let oldIndex = report.baseline.map { Self.index($0.diff.old) } ?? [:]
        var out = "{\"prefix\":\(ReportText.json(p)),\"t0\":\(scenario.preMainTotal)"
        out += ",\"scenario\":\(ReportText.json(stem.isEmpty ? scenario.name : stem))"
        out += ",\"axis\":{\"originX\":\(Number.points(axis.originX)),\"width\":\(Number.points(axis.width))"
        out += ",\"end\":\(axis.end)}"
        // The first view: the launch, framed as the pictures frame it.
        out += ",\"view\":[\(min(scenario.preMainTotal, axis.end - 1)),\(min(pictures.frame.end, axis.end))]"
        out += ",\"whatIf\":" + (report.whatIf.map { ReportText.json($0.strategy.rawValue) } ?? "null")
        out += ",\"strategies\":["
        for (k, result) in results.enumerated() {
            if k > 0 { out += "," }
            out += "{\"name\":\(ReportText.json(result.schedule.strategy.rawValue)),\"violations\":["
            out += result.schedule.violations().map { "[\($0.task),\($0.dependency)]" }.joined(separator: ",")
            out += "]}"
        }
        out += "],\"tasks\":["
        for (i, task) in tasks.enumerated() {
            if i > 0 { out += ",\n" }
            out += "{\"id\":\(ReportText.json(task.id)),\"cost\":\(task.cost)"
            if task.mainThreadOnly { out += ",\"main\":true" }
            if task.firstFrame { out += ",\"firstFrame\":true" }
            if critical.contains(i) { out += ",\"critical\":true" }
            out += ",\"tier\":\(pictures.tiers.ofTask[i]),\"priority\":\(task.priority)"
            out += ",\"deps\":[" + task.dependsOn.map(String.init).joined(separator: ",") + "]"
            out += ",\"dependents\":[" + graph.dependents(of: i).map { String($0) }.joined(separator: ",") + "]"
            out += ",\"runs\":["
            out += results.map { result in
                let run = result.schedule.tasks[i]
                return "[\(run.thread),\(run.ready),\(run.start),\(run.end)]"
            }.joined(separator: ",")
            out += "]"
            if let row = slack[i] {
                out += ",\"slack\":\(row.slack),\"slackCapped\":\(row.slackIsCapped)"
                out += ",\"gain\":[\(row.firstFrameGain),\(row.launchGain)]"
            }
            if !extraPanels.isEmpty {
                if report.baseline != nil, oldIndex[task.id] == nil { out += ",\"added\":true" }
                out += ",\"more\":" + moreRuns(task.id, panelIndices)
            }
            out += "}"
        }
        // Tasks only the baseline has: its panel's bars, found by the search, shown on the card.
        let oldTiers = report.baseline.map { Tiers($0.diff.old) }
        for task in removedTasks {
            let k = oldIndex[task.id]!
            out += ",\n{\"id\":\(ReportText.json(task.id)),\"cost\":\(task.cost),\"removed\":true"
            if task.mainThreadOnly { out += ",\"main\":true" }
            if task.firstFrame { out += ",\"firstFrame\":true" }
            out += ",\"tier\":\(oldTiers?.ofTask[k] ?? 0),\"priority\":\(task.priority),\"deps\":[],\"dependents\":[]"
            out += ",\"runs\":[],\"more\":" + moreRuns(task.id, panelIndices) + "}"
        }
        out += "]"
        if !extraPanels.isEmpty {
            out += ",\"panels\":["
            out += extraPanels.map { "{\"key\":\(ReportText.json($0.key)),\"label\":\(ReportText.json($0.heading))}" }
                .joined(separator: ",")
            out += "]"
        }
        out += "}"
        return out
    }

    /// Task id → index in `scenario`.
    private static func index(_ scenario: Scenario) -> [String: Int] {
        Dictionary(scenario.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The task's run in each extra panel, `[thread, ready, start, end]` or null, as JSON.
    private func moreRuns(_ id: String, _ indices: [[String: Int]]) -> String {
        "["
            + zip(extraPanels, indices).map { panel, index in
                guard let k = index[id] else { return "null" }
                let run = panel.result.schedule.tasks[k]
                return "[\(run.thread),\(run.ready),\(run.start),\(run.end)]"
            }.joined(separator: ",") + "]"
    }
}
