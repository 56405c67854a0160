import LaunchflowCore

/// One picture to write: a file name and its SVG bytes.
public struct RenderedFile: Sendable, Equatable {
    /// A bare file name, e.g. `example-graph.svg`.
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// The pictures of one scenario, as `launchflow render` and `compare --out` write them.
public enum Pictures {
    /// Renders, in this order: `<stem>-graph.svg` (tooltips with every result's
    /// times, violations of a `priority` result), `<stem>-<strategy>-gantt.svg`
    /// for each result, and `<stem>-compare-gantt.svg` when there are two or
    /// more results (all on one time scale).
    ///
    /// Everything is rendered in memory first: on error nothing is returned.
    ///
    /// - Parameters:
    ///   - results: runs of one scenario, at least one.
    ///   - from, to: where the Gantt charts' axes start and end; by default
    ///     the launch (``LaunchFrame``): from `t0` (pre-main folded) to the
    ///     end of the launch, later work folded behind an axis break.
    public static func files(
        stem: String, results: [SimulationResult], tiers: TierDisplay = .clusters, edges: EdgeDisplay = .auto,
        from: TimePoint = .t0, to: TimePoint = .launch
    )
        throws(RenderError) -> [RenderedFile]
    {
        precondition(!results.isEmpty, "nothing to draw")
        let scenario = results[0].schedule.scenario
        let dag = DAGChart(scenario, results: results, tiers: tiers, edges: edges)
        var files = [RenderedFile(name: graphFileName(stem), bytes: try dag.svg())]
        for result in results {
            files.append(
                RenderedFile(
                    name: ganttFileName(stem, result.schedule.strategy),
                    bytes: try GanttChart(result, axis: .framed(by: [result], from: from, to: to)).svg()))
        }
        if results.count > 1 {
            let chart = ComparisonChart(results, from: from, to: to)
            files.append(RenderedFile(name: comparisonFileName(stem), bytes: try chart.svg()))
        }
        return files
    }

    public static func graphFileName(_ stem: String) -> String { "\(stem)-graph.svg" }
    public static func ganttFileName(_ stem: String, _ strategy: Strategy) -> String {
        "\(stem)-\(strategy.rawValue)-gantt.svg"
    }
    public static func comparisonFileName(_ stem: String) -> String { "\(stem)-compare-gantt.svg" }
}
