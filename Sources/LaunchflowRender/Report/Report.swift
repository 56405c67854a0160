import LaunchflowCore
import LaunchflowImport

/// One self-contained HTML page about a scenario's launch (`launchflow
/// report`, `compare --out`, `sweep --out`): the headline, the comparison
/// table, lint warnings, the Gantt charts on one zoomable time axis, the task
/// graph, the sweep's distributions (with cost uncertainty) and the `whatif`
/// top ten — inline CSS, JavaScript and SVG, no network, works from `file://`.
///
/// Interaction (the page's script, ``ReportScript``): hovering or clicking a
/// task in any picture or table highlights it everywhere and shows its card;
/// a strategy toggle; zoom and pan on the time axis; `page.html#task=ID`
/// opens with that task selected.
///
/// ```swift
/// let report = Report.make(scenario, file: "app.json")
/// let bytes = try report.html()
/// ```
public struct Report: Sendable {
    /// The runs to show, in column order (at least one).
    public var results: [SimulationResult]
    /// The scenario file as the user named it (shown in the header).
    public var file: String
    public var lint: [LintWarning]
    public var whatIf: WhatIfAnalysis?
    /// A sweep, shown when some task's cost varied in it.
    public var sweep: SweepResult?
    public var tiers: TierDisplay
    /// `report --trace`: a traced launch against the simulated one, task by task.
    public var traceComparison: TraceComparison?
    /// `report --baseline OLD`: the scenario against an earlier version of it.
    public var baseline: ReportBaseline?
    /// `report --advise`: advise's plan, against the scenario as written.
    public var advice: ReportAdvice?

    public init(
        results: [SimulationResult], file: String, lint: [LintWarning] = [], whatIf: WhatIfAnalysis? = nil,
        sweep: SweepResult? = nil, tiers: TierDisplay = .clusters
    ) {
        precondition(!results.isEmpty, "a report needs at least one result")
        self.results = results
        self.file = file
        self.lint = lint
        self.whatIf = whatIf
        self.sweep = sweep
        self.tiers = tiers
    }

    /// Runs what a report shows: `strategies`, the lint, `whatif` under the
    /// best correct strategy (or `dag`), and — when some task has `costP90`
    /// or the scenario a `jitter` — a sweep of `sweepRuns` launches, unless
    /// `sweep` is given.
    public static func make(
        _ scenario: Scenario, file: String, strategies: [Strategy] = Strategy.allCases,
        options: SimulationOptions = .init(), jobs: Int = Parallel.availableCores, sweep: SweepResult? = nil,
        sweepRuns: Int = 1000, tiers: TierDisplay = .clusters
    ) -> Report {
        let engine = LaunchEngine(scenario)
        let results = strategies.map { engine.result($0, options: options) }
        let judged = HonestComparison(results)
        let whatIfStrategy = judged.bestCorrect.map { results[$0].schedule.strategy } ?? .dag
        let whatIf = WhatIf.analyse(engine, strategy: whatIfStrategy, reduction: 0.5, options: options, jobs: jobs)
        var sweep = sweep
        if sweep == nil, let sampler = try? CostSampler(scenario), !sampler.isDeterministic {
            let configuration = SweepConfiguration(
                runs: sweepRuns, seed: 1, strategies: strategies, options: options, jobs: jobs)
            sweep = Sweep(engine: engine, sampler: sampler).run(configuration)
        }
        return Report(
            results: results, file: file, lint: Lint.warnings(scenario, file: file), whatIf: whatIf, sweep: sweep,
            tiers: tiers)
    }

    /// The page's file name beside the other outputs.
    public static let fileName = "report.html"

    /// The page as UTF-8 bytes. Every picture is rendered first: on error nothing is returned.
    ///
    /// - Complexity: dominated by Graphviz's layout of the task graph.
    public func html() throws(RenderError) -> [UInt8] {
        Array(try ReportPage(self).render().utf8)
    }
}
