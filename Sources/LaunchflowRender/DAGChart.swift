import LaunchflowCore

/// How the DAG shows priority tiers (besides colouring nodes by tier).
public enum TierDisplay: String, CaseIterable, Sendable {
    /// A shaded box around each tier's tasks, labelled with the tier: one
    /// band per tier, top to bottom in tier order (``ClusterStacking``).
    case clusters
    /// A box around each `group`'s (module's) tasks, labelled with the group;
    /// tasks without a group stay outside.
    case groups
    /// Each tier is a band of columns: a tier's tasks sit right of its header
    /// and left of the next tier's header (dependencies permitting).
    case bands
    /// Colour only.
    case none
}

/// Which critical path the DAG highlights.
public enum PathDisplay: String, CaseIterable, Sendable {
    /// The longest chain of costs and latencies that ends at a `firstFrame`
    /// task: what a first-frame investigation needs (the whole launch's when
    /// no task is marked `firstFrame`).
    case firstFrame = "first-frame"
    /// The longest chain of the whole launch (``CriticalPath``, `criticalPathMs`).
    case launch
}

/// Which dependencies the DAG draws.
public enum EdgeDisplay: String, CaseIterable, Sendable {
    /// `reduced` above ``DAGChart/reductionThreshold`` dependencies, else `all`.
    case auto
    /// Every dependency.
    case all
    /// The transitive reduction: a dependency that a longer path implies is
    /// left out (critical-path edges are always drawn); the legend counts them.
    case reduced
}

/// The task graph, laid out left to right by Graphviz's `dot`.
///
/// - One node per task; its SVG element id is the task id, its label the id
///   and cost, its tooltip the cost, tier and, for each result given, the
///   thread, start and end.
/// - Fill colour by priority tier; `mainThreadOnly` tasks have square corners
///   and a double outline (others are rounded); `firstFrame` tasks are marked ★.
/// - The critical path's nodes and edges carry the class `critical` (red, thick).
/// - (v2) `anchor` tasks are marked ⚓ (class `anchor`); the anchor closure
///   of the first `dag`/`anchored` result (else `dag`'s) has a slate outline
///   (class `closure`); a task in a queue says so in its label (class
///   `queue-<n>`, n = the queue's number by first appearance); idle tasks
///   have a dashed outline (class `idle`); latency and delay are in the label.
/// - Tiers as clusters (bands, tier 0 at the top), bands of columns or colour
///   only, or clusters by group (``TierDisplay``).
/// - For a `priority` result, a dependency it breaks is still one arrow:
///   dashed, magenta (red on the critical path), class `violation`.
/// - The critical path drawn is the one to the first frame (``PathDisplay``).
/// - A legend and title above the graph (the graph label).
///
/// Counting edges: every dependency is one SVG element with class `edge
/// dependency …` (and `violation` when broken), id `lf-dep-<dependency index>-<task index>`. Helper edges
/// of the `bands` layout are invisible and not written to the SVG. So the
/// number of `dependency` edges equals the number of dependencies — unless the
/// picture draws the transitive reduction (``EdgeDisplay``, by default above
/// ``reductionThreshold`` dependencies): implied dependencies are then left
/// out and counted in the legend.
public struct DAGChart: Sendable {
    public var scenario: Scenario
    /// The runs whose times the tooltips show (any number, any strategies);
    /// violations are drawn for the `priority` ones.
    public var results: [SimulationResult]
    public var tiers: TierDisplay
    public var edges: EdgeDisplay
    /// The critical path highlighted: to the first frame by default.
    public var path: PathDisplay

    /// Above this many dependencies, ``EdgeDisplay/auto`` draws the transitive reduction.
    public static let reductionThreshold = 150
    /// Above this many tasks, `dot`'s crossing minimisation and network
    /// simplex are bounded (``boundedLayout``): a few passes give almost the
    /// same picture in a fraction of the time.
    public static let boundedLayoutThreshold = 150

    public init(
        _ scenario: Scenario, results: [SimulationResult] = [], tiers: TierDisplay = .clusters,
        edges: EdgeDisplay = .auto, path: PathDisplay = .firstFrame
    ) {
        self.scenario = scenario
        self.results = results
        self.tiers = tiers
        self.edges = edges
        self.path = path
    }

    /// The graph under one strategy.
    public init(_ result: SimulationResult, tiers: TierDisplay = .clusters, edges: EdgeDisplay = .auto) {
        self.init(result.schedule.scenario, results: [result], tiers: tiers, edges: edges)
    }

    /// Graph attributes that bound `dot`'s work on large graphs: fewer
    /// crossing-minimisation passes (`mclimit`), bounded network-simplex
    /// iterations for ranking and placement (`nslimit1`, `nslimit`), no
    /// second crossing pass over clusters (`remincross`).
    public static let boundedLayout: [(String, String)] = [
        ("mclimit", "0.3"), ("nslimit", "4"), ("nslimit1", "4"), ("remincross", "false"), ("searchsize", "20"),
    ]

    /// Whether the picture leaves out implied dependencies.
    public var drawsReduction: Bool {
        switch edges {
        case .all: false
        case .reduced: true
        case .auto: scenario.tasks.reduce(0) { $0 + $1.dependsOn.count } > Self.reductionThreshold
        }
    }

    /// The path the picture highlights (``PathDisplay``): by default the longest
    /// chain of costs and latencies to a `firstFrame` task — what a
    /// first-frame investigation needs; with none, the whole launch's.
    public var highlightedPath: CriticalPath {
        if path == .firstFrame, let toFirstFrame = CriticalPath.toFirstFrame(of: scenario) { return toFirstFrame }
        return results.first?.criticalPath ?? CriticalPath(of: scenario)
    }

    /// Whether the highlighted path ends at the first frame.
    var highlightsFirstFrame: Bool { path == .firstFrame && scenario.tasks.contains(where: \.firstFrame) }

    /// The picture as a Graphviz description (plain Swift, no C).
    ///
    /// - Complexity: O(n + e) for n tasks and e dependencies.
    public var graph: GraphDescription {
        let tasks = scenario.tasks
        let ids = ElementIDs(taskIDs: tasks.map(\.id))
        let tierInfo = Tiers(scenario)
        let path = highlightedPath
        var criticalEdges = Set<[Int]>()
        for (a, b) in zip(path.tasks, path.tasks.dropFirst()) { criticalEdges.insert([a, b]) }
        let implied = drawsReduction ? TransitiveReduction.implied(tasks) : nil
        var omitted = 0
        if let implied {
            for (i, task) in tasks.enumerated() {
                for (k, d) in task.dependsOn.enumerated() where implied[i][k] && !criticalEdges.contains([d, i]) {
                    omitted += 1
                }
            }
        }
        let legend = legend(tierInfo, path: path, omitted: implied == nil ? nil : omitted)
        var graph = GraphDescription(
            name: GraphvizText.name(scenario.name), layout: .dot,
            graphAttributes: [
                "id": .init(GraphvizText.id(ids("graph"))), "rankdir": "LR", "bgcolor": "white", "pad": "0.25",
                "nodesep": "0.22", "ranksep": "0.45", "fontname": .init(ChartStyle.font), "fontsize": "11",
                "labelloc": "t", "labeljust": "l", "newrank": "true", "label": .html(legend),
            ],
            nodeDefaults: [
                "shape": "box", "style": "filled,rounded", "fontname": .init(ChartStyle.font), "fontsize": "11",
                "fontcolor": .init(ChartStyle.text), "penwidth": "1", "margin": "0.12,0.05", "height": "0.4",
            ],
            edgeDefaults: [
                "color": .init(ChartStyle.dependency), "arrowsize": "0.7", "penwidth": "1",
            ])
        addNodes(&graph, ids: ids, tiers: tierInfo, onPath: Set(path.tasks))
        if tasks.count > Self.boundedLayoutThreshold {
            for (name, value) in Self.boundedLayout { graph.graphAttributes[name] = .init(value) }
        }
        addEdges(&graph, ids: ids, tiers: tierInfo, critical: criticalEdges, implied: implied)
        switch tiers {
        case .none: break
        case .clusters: addClusters(&graph, ids: ids, tiers: tierInfo)
        case .groups: addGroupClusters(&graph, ids: ids)
        case .bands: addBands(&graph, ids: ids, tiers: tierInfo)
        }
        return graph
    }

    /// One node per task: label (marks, id, cost line, queue, idle, after),
    /// fill by tier, outline by path and closure, shape by thread.
    private func addNodes(_ graph: inout GraphDescription, ids: ElementIDs, tiers tierInfo: Tiers, onPath: Set<Int>) {
        let closure = self.closure
        let queues = queueNumbers
        let late = lateInSomeResult
        for (i, task) in scenario.tasks.enumerated() {
            let tier = tierInfo.ofTask[i]
            let colors = ChartStyle.tierColors(tier)
            let critical = onPath.contains(i)
            let inClosure = closure?.contains[i] ?? false
            var classes = "task tier-\(tier)"
            if critical { classes += " critical" }
            if task.mainThreadOnly { classes += " main-thread-only" }
            if task.firstFrame { classes += " first-frame" }
            if task.anchor { classes += " anchor" }
            if inClosure { classes += " closure" }
            if task.idle { classes += " idle" }
            if task.after != nil { classes += " after" }
            if task.fullyDrawn { classes += " fully-drawn" }
            if task.before != nil { classes += " pinned" }
            if late[i] { classes += " late" }
            if let queue = task.queue, let n = queues[queue] { classes += " queue-\(n)" }
            var costLine = "\(formatMillis(task.cost)) ms" + (task.mainThreadOnly ? " · main" : "")
            if task.latency > 0 { costLine += " · +\(formatMillis(task.latency)) ms latency" }
            if task.delay > 0 { costLine += " · delay \(formatMillis(task.delay)) ms" }
            var lines = [GanttPanel.marks(task) + task.id, costLine]
            if let queue = task.queue { lines.append("queue: \(queue)") }
            if task.idle { lines.append("idle") }
            if task.after != nil { lines.append("after the first frame") }
            if let before = task.before {
                lines.append("▣ before \(before == .firstFrame ? "first frame" : "dFL returns")")
            }
            let stroke =
                late[i]
                ? ChartStyle.late
                : critical
                    ? ChartStyle.critical
                    : inClosure ? ChartStyle.closureStroke : task.before != nil ? ChartStyle.pinned : colors.stroke
            var attributes: GraphDescription.Attributes = [
                "id": .init(GraphvizText.id(task.id)),
                "label": .init(GraphvizText.label(lines: lines)),
                "fillcolor": .init(colors.fill), "color": .init(stroke),
                "class": .init(classes),
            ]
            if critical || late[i] {
                attributes["penwidth"] = "2.6"
            } else if inClosure || task.before != nil {
                attributes["penwidth"] = "2.2"
            }
            var style = task.mainThreadOnly ? "filled" : "filled,rounded"
            if task.idle { style += ",dashed" }
            if task.anchor { style += ",bold" }
            if late[i] { style += ",dashed" }
            if style != "filled,rounded" { attributes["style"] = .init(style) }
            if task.mainThreadOnly { attributes["peripheries"] = "2" }
            if ids.tooltipAllowed(forTask: task.id) {
                attributes["tooltip"] = .init(GraphvizText.tooltip(tooltip(i, tier: tierInfo)))
            }
            graph.nodes.append(GraphDescription.Node(name: GraphvizText.name(task.id), attributes))
        }
    }

    /// One edge per drawn dependency (id `<prefix>dep-<d>-<i>`, class
    /// `dependency`, plus `critical` on the highlighted path). A dependency
    /// a strategy breaks stays one arrow: dashed, in the violation colour
    /// (red when it is also critical), class `violation`, its tooltip saying
    /// when the task started and the dependency ended.
    private func addEdges(
        _ graph: inout GraphDescription, ids: ElementIDs, tiers tierInfo: Tiers, critical criticalEdges: Set<[Int]>,
        implied: [[Bool]]?
    ) {
        let tasks = scenario.tasks
        var broken: [[Int]: [String]] = [:]
        for result in results where result.schedule.strategy.definition.canBreakDependencies {
            let name = result.schedule.strategy.rawValue
            for v in result.schedule.violations() {
                broken[[v.dependency, v.task], default: []].append(
                    "dependency violated under \(name): \(tasks[v.task].id) started at \(formatMillis(v.start)) ms,"
                        + " before \(tasks[v.dependency].id) ended at \(formatMillis(v.dependencyEnd)) ms")
            }
        }
        for (i, task) in tasks.enumerated() {
            for (k, d) in task.dependsOn.enumerated() {
                let critical = criticalEdges.contains([d, i])
                if let implied, implied[i][k] && !critical { continue }
                var classes = critical ? "dependency critical" : "dependency"
                var attributes: GraphDescription.Attributes = ["id": .init(GraphvizText.id(ids("dep-\(d)-\(i)")))]
                if tiers == .bands && tierInfo.ofTask[d] > tierInfo.ofTask[i] {
                    attributes["constraint"] = "false"  // points back across bands: the bands win
                }
                if critical {
                    attributes["color"] = .init(ChartStyle.critical)
                    attributes["penwidth"] = "2.6"
                    attributes["weight"] = "4"
                }
                var tip = "\(task.id) depends on \(tasks[d].id)"
                if let reasons = broken[[d, i]] {
                    classes += " violation"
                    if !critical { attributes["color"] = .init(ChartStyle.violation) }
                    attributes["style"] = "dashed"
                    attributes["penwidth"] = critical ? "2.6" : "1.6"
                    attributes["arrowhead"] = "veevee"
                    tip += "\n" + reasons.joined(separator: "\n")
                }
                attributes["class"] = .init(classes)
                if ids.tooltipAllowed(forTask: ids("dep-\(d)-\(i)")) {
                    attributes["tooltip"] = .init(GraphvizText.tooltip(tip))
                }
                graph.edges.append(GraphDescription.Edge(from: name(d), to: name(i), attributes))
            }
        }
    }

    /// The picture as SVG bytes.
    ///
    /// With tier clusters, `dot` lays the graph out and ``ClusterStacking``
    /// then puts the clusters top to bottom in tier order.
    public func svg() throws(RenderError) -> [UInt8] {
        let graph = self.graph
        guard tiers == .clusters, graph.clusters.count > 1 else { return try Graphviz.svg(graph) }
        let stacking = ClusterStacking(graph)
        return try Graphviz.svg(graph, adjustingLayout: { stacking.apply(&$0) })
    }

    private func name(_ task: Int) -> String { GraphvizText.name(scenario.tasks[task].id) }

    private func isImplied(_ dependency: Int, _ task: Int, _ implied: [[Bool]]?) -> Bool {
        guard let implied, let k = scenario.tasks[task].dependsOn.firstIndex(of: dependency) else { return false }
        return implied[task][k]
    }

    /// The anchor closure drawn: that of the first `dag` or `anchored`
    /// result, else `dag`'s; nil when it is empty.
    var closure: AnchorClosure? {
        let closures = results.lazy.compactMap { AnchorClosure(of: self.scenario, strategy: $0.schedule.strategy) }
        guard let closure = closures.first ?? AnchorClosure(of: scenario, strategy: .dag), !closure.isEmpty else {
            return nil
        }
        return closure
    }

    /// Each queue's number, by first appearance in the tasks.
    var queueNumbers: [String: Int] {
        var numbers: [String: Int] = [:]
        for task in scenario.tasks {
            if let queue = task.queue, numbers[queue] == nil { numbers[queue] = numbers.count }
        }
        return numbers
    }

    /// The groups (modules), in order of first appearance.
    var groups: [String] {
        var seen = Set<String>()
        return scenario.tasks.compactMap(\.group).filter { seen.insert($0).inserted }
    }

    /// One cluster per group, labelled "module: <group>"; tasks without a group stay outside.
    private func addGroupClusters(_ graph: inout GraphDescription, ids: ElementIDs) {
        for (k, group) in groups.enumerated() {
            let members = scenario.tasks.indices.filter { scenario.tasks[$0].group == group }.map(name)
            graph.clusters.append(
                GraphDescription.Cluster(
                    name: "group\(k)",
                    [
                        "id": .init(GraphvizText.id(ids("group-\(k)"))), "class": "group",
                        "label": .init(GraphvizText.label("module: \(group)")), "labeljust": "l",
                        "style": "filled,rounded", "fillcolor": "#f6f7f9", "color": "#90a4ae",
                        "fontcolor": "#37474f", "fontsize": "11", "penwidth": "1",
                        "fontname": .init(ChartStyle.font),
                    ], nodes: members))
        }
    }

    /// One cluster per tier, in tier order. Each holds an invisible anchor;
    /// the anchors share the first rank, so the clusters are horizontal bands
    /// that ``ClusterStacking`` can put in tier order after the layout.
    private func addClusters(_ graph: inout GraphDescription, ids: ElementIDs, tiers: Tiers) {
        var anchors: [String] = []
        for (tier, priority) in tiers.priorities.enumerated() {
            let colors = ChartStyle.tierColors(tier)
            var members = scenario.tasks.indices.filter { tiers.ofTask[$0] == tier }.map(name)
            if tiers.priorities.count > 1 {
                let anchor = GraphvizText.name(ids("tier-anchor-\(tier)"))
                graph.nodes.append(
                    GraphDescription.Node(
                        name: anchor,
                        [
                            "id": .init(GraphvizText.id(anchor)), "style": "invis", "shape": "point", "label": "",
                            "width": "0.01", "height": "0.01", "fixedsize": "true",
                        ]))
                members.append(anchor)
                anchors.append(anchor)
            }
            graph.clusters.append(
                GraphDescription.Cluster(
                    name: "tier\(tier)",
                    [
                        "id": .init(GraphvizText.id(ids("tier-\(tier)"))), "class": "tier",
                        "label": .init(GraphvizText.label("tier \(tier) · priority \(priority)")), "labeljust": "l",
                        "style": "filled,rounded", "fillcolor": .init(colors.fill + "33"),
                        "color": .init(colors.stroke + "99"),
                        "fontcolor": .init(colors.stroke), "fontsize": "11", "penwidth": "1",
                        "fontname": .init(ChartStyle.font),
                    ], nodes: members))
        }
        if !anchors.isEmpty { graph.sameRank.append(anchors) }
    }

    /// Each tier takes a band of consecutive ranks (columns, left to right):
    /// the tier's header, then its tasks at 1 + their depth among the tier's
    /// own dependencies. Ranks are pinned by an invisible spine of nodes, one
    /// per rank: a node at rank r hangs between spine nodes r − 1 and r + 1 by
    /// invisible one-rank edges (`rank=same` groups do the same but make
    /// `dot` many times slower). A dependency pointing from a later tier back
    /// to an earlier one does not constrain the layout in this mode.
    ///
    /// - Complexity: O(n + e).
    private func addBands(_ graph: inout GraphDescription, ids: ElementIDs, tiers: Tiers) {
        let tasks = scenario.tasks
        var depth = [Int](repeating: 0, count: tasks.count)
        for i in TaskGraph(tasks: tasks).topologicalOrder() {
            for d in tasks[i].dependsOn where tiers.ofTask[d] == tiers.ofTask[i] {
                depth[i] = max(depth[i], depth[d] + 1)
            }
        }
        var bandStart = [Int](repeating: 0, count: tiers.priorities.count + 1)
        for tier in tiers.priorities.indices {
            let deepest = tasks.indices.filter { tiers.ofTask[$0] == tier }.map { depth[$0] }.max() ?? -1
            bandStart[tier + 1] = bandStart[tier] + deepest + 2
        }
        let ranks = bandStart[tiers.priorities.count] + 1
        let spine = (0..<ranks).map { GraphvizText.name(ids("rank-\($0)")) }
        for node in spine {
            graph.nodes.append(
                GraphDescription.Node(
                    name: node,
                    [
                        "id": .init(GraphvizText.id(node)), "style": "invis", "label": "", "width": "0.01",
                        "height": "0.01",
                        "fixedsize": "true",
                    ]))
        }
        var helpers = 0
        func invisible(_ from: String, _ to: String) {
            graph.edges.append(
                GraphDescription.Edge(
                    from: from, to: to,
                    [
                        "id": .init(GraphvizText.id(ids("layout-\(helpers)"))), "style": "invis", "class": "layout",
                    ]))
            helpers += 1
        }
        for (a, b) in zip(spine, spine.dropFirst()) { invisible(a, b) }
        func pin(_ node: String, rank: Int) {
            if rank > 0 { invisible(spine[rank - 1], node) }
            invisible(node, spine[rank + 1])
        }
        for (tier, priority) in tiers.priorities.enumerated() {
            let colors = ChartStyle.tierColors(tier)
            let header = ids("band-\(tier)")
            graph.nodes.append(
                GraphDescription.Node(
                    name: GraphvizText.name(header),
                    [
                        "id": .init(GraphvizText.id(header)), "class": "tier-band",
                        "label": .init(GraphvizText.label(lines: ["tier \(tier)", "priority \(priority)"])),
                        "shape": "box", "style": "filled", "fillcolor": .init(colors.stroke), "fontcolor": "white",
                        "color": .init(colors.stroke),
                    ]))
            pin(GraphvizText.name(header), rank: bandStart[tier])
        }
        for (i, tier) in tiers.ofTask.enumerated() { pin(name(i), rank: bandStart[tier] + 1 + depth[i]) }
    }

    private func tooltip(_ i: Int, tier: Tiers) -> String {
        let task = scenario.tasks[i]
        var lines = [task.id, "cost \(formatMillis(task.cost)) ms · \(tier.name(tier.ofTask[i]))"]
        var facts: [String] = []
        if task.mainThreadOnly { facts.append("main thread only") }
        if task.firstFrame { facts.append("needed by the first frame") }
        if let before = task.before { facts.append("must be done before \(before.noun)") }
        if !facts.isEmpty { lines.append(facts.joined(separator: " · ")) }
        for result in results {
            let run = result.schedule.tasks[i]
            var line =
                "\(result.schedule.strategy.rawValue): \(Schedule.threadName(run.thread)),"
                + " start \(formatMillis(run.start)) ms, end \(formatMillis(run.end)) ms"
            if let before = task.before {
                let point = result.schedule.instant(of: before, firstFrameIteration: result.metrics.firstFrameIteration)
                if run.done > point { line += " — done \(formatMillis(run.done - point)) ms late" }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The title and legend, as an HTML-like label, wrapped to the graph's
    /// estimated width (``estimatedWidth``) so that it is never wider than
    /// the graph. `omitted`: the implied dependencies left out, when the
    /// picture draws the reduction.
    private func legend(_ tiers: Tiers, path: CriticalPath, omitted: Int?) -> String {
        let width = max(estimatedWidth, 360)
        let lines = Self.wrapped(summary(path: path, omitted: omitted), width: width, size: 11)
        let summary = lines.map(GraphvizText.html).joined(separator: "<BR ALIGN=\"LEFT\"/>")
        var rows = ""
        for row in Self.rows(legendCells(tiers), width: width) {
            rows += "<TR><TD ALIGN=\"LEFT\"><TABLE ALIGN=\"LEFT\" BORDER=\"0\" CELLSPACING=\"5\" CELLPADDING=\"3\"><TR>"
            rows += row.joined() + "</TR></TABLE></TD></TR>"
        }
        let title = GraphvizText.html("\(scenario.name) — task graph")
        return "<TABLE BORDER=\"0\" CELLSPACING=\"3\" CELLPADDING=\"2\">"
            + "<TR><TD ALIGN=\"LEFT\"><FONT POINT-SIZE=\"18\"><B>\(title)</B></FONT></TD></TR>"
            + "<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\"><FONT COLOR=\"\(ChartStyle.mutedText)\">\(summary)"
            + "<BR ALIGN=\"LEFT\"/></FONT></TD></TR>" + rows + "</TABLE>"
    }

    /// "9 tasks · 8 dependencies · critical path to the first frame 183 ms incl. pre-main …".
    private func summary(path: CriticalPath, omitted: Int?) -> String {
        let dependencies = scenario.tasks.reduce(0) { $0 + $1.dependsOn.count }
        // The same number as the tables' criticalPathMs (t0 + the chain), with the chain itself.
        let t0 = scenario.preMainTotal
        var summary =
            "\(scenario.tasks.count) tasks · \(dependencies) dependencies · critical path"
            + (highlightsFirstFrame ? " to the first frame" : "") + " \(formatMillis(t0 + path.length)) ms"
            + (t0 > 0 ? " incl. pre-main \(formatMillis(t0)) ms" : "")
            + " (a chain of \(path.tasks.count) task\(path.tasks.count == 1 ? "" : "s"): \(formatMillis(path.length)) ms)"
        if highlightsFirstFrame {
            summary += " · the whole launch's: \(formatMillis(t0 + CriticalPath(of: scenario).length)) ms"
        }
        if let omitted {
            summary +=
                " · \(omitted) dependenc\(omitted == 1 ? "y" : "ies") implied by longer paths not drawn"
                + " (--edges all draws them)"
        }
        if !results.isEmpty {
            summary += " · times in tooltips: " + results.map(\.schedule.strategy.rawValue).joined(separator: ", ")
        }
        return summary
    }

    /// The legend's cells: tiers, then shapes and marks, each with its estimated width in points.
    private func legendCells(_ tiers: Tiers) -> [(cell: String, width: Double)] {
        var cells: [(String, String)] = []
        for tier in 0..<min(tiers.priorities.count, 8) {
            let colors = ChartStyle.tierColors(tier)
            let text = "tier \(tier) · p\(tiers.priorities[tier])"
            cells.append(
                (
                    "<TD BGCOLOR=\"\(colors.fill)\" COLOR=\"\(colors.stroke)\" BORDER=\"1\">\(GraphvizText.html(text))</TD>",
                    text
                ))
        }
        if tiers.priorities.count > 8 {
            let text = "… \(tiers.priorities.count - 8) more"
            cells.append(("<TD>\(text)</TD>", text))
        }
        let swatch = { (text: String, attributes: String) in
            (
                "<TD><TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\"><TR><TD \(attributes)>\(text)</TD></TR></TABLE></TD>",
                text
            )
        }
        cells.append(swatch("rounded: any thread", "BORDER=\"1\" STYLE=\"rounded\""))
        cells.append(
            (
                "<TD><TABLE BORDER=\"1\" CELLBORDER=\"1\" CELLSPACING=\"2\" CELLPADDING=\"2\"><TR><TD>double: main thread only</TD></TR></TABLE></TD>",
                "double: main thread only"
            ))
        cells.append(("<TD>★ needed by the first frame</TD>", "★ needed by the first frame"))
        let pathText = highlightsFirstFrame ? "━━▶ critical path to the first frame" : "━━▶ critical path"
        cells.append(("<TD><FONT COLOR=\"\(ChartStyle.critical)\"><B>\(pathText)</B></FONT></TD>", pathText))
        for text in markTexts() { cells.append(("<TD>\(GraphvizText.html(text))</TD>", text)) }
        if let closure {
            let which = closure.firstFrameIsAnchor ? "anchored" : "dag"
            cells.append(
                swatch(
                    "anchor closure (\(which): anchors and what they need)",
                    "BORDER=\"2\" COLOR=\"\(ChartStyle.closureStroke)\" STYLE=\"rounded\""))
        }
        if scenario.tasks.contains(where: \.idle) {
            cells.append(swatch("dashed: idle task", "BORDER=\"1\" STYLE=\"dashed\""))
        }
        let breaking = results.map(\.schedule.strategy).filter(\.definition.canBreakDependencies)
        if !breaking.isEmpty {
            let text = "╌╌▶ dependency violated (\(breaking.map(\.rawValue).joined(separator: ", ")))"
            cells.append(("<TD><FONT COLOR=\"\(ChartStyle.violation)\">\(text)</FONT></TD>", text))
        }
        return cells.map { ($0.0, ChartStyle.estimatedWidth($0.1, size: 11) * 1.1 + 18) }
    }

    /// The legend entries for the marks the scenario uses.
    /// Whether each task has a `before` that some drawn run does too late.
    private var lateInSomeResult: [Bool] {
        var late = [Bool](repeating: false, count: scenario.tasks.count)
        for result in results {
            let lateHere = result.schedule.lateTasks(firstFrameIteration: result.metrics.firstFrameIteration)
            for (i, flag) in lateHere.enumerated() where flag && i < late.count { late[i] = true }
        }
        return late
    }

    private func markTexts() -> [String] {
        let tasks = scenario.tasks
        var texts: [String] = []
        if tasks.contains(where: \.anchor) { texts.append("⚓ anchor (dFL waits for it under dag, anchored)") }
        if tasks.contains(where: { $0.after != nil }) { texts.append("↦ after the first frame") }
        if tasks.contains(where: \.fullyDrawn) { texts.append("✔ fully drawn (full display)") }
        if tasks.contains(where: { $0.before != nil }) {
            texts.append("▣ pinned (before): blue outline; dashed orange when a run does it too late")
        }
        if tasks.contains(where: { $0.queue != nil }) { texts.append("queue: serial category") }
        return texts
    }

    /// Cells in rows no wider than `width` points (a row holds at least one cell).
    static func rows(_ cells: [(cell: String, width: Double)], width: Double) -> [[String]] {
        var rows: [[String]] = [[]]
        var used = 0.0
        for (cell, cellWidth) in cells {
            if !rows[rows.count - 1].isEmpty && used + cellWidth > width {
                rows.append([])
                used = 0
            }
            rows[rows.count - 1].append(cell)
            used += cellWidth
        }
        return rows
    }

    /// `text` broken at " · " into lines no wider than `width` points at `size`.
    static func wrapped(_ text: String, width: Double, size: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for part in text.components(separatedBy: " · ") {
            let candidate = line.isEmpty ? part : line + " · " + part
            if !line.isEmpty && ChartStyle.estimatedWidth(candidate, size: size) * 1.05 > width {
                lines.append(line)
                line = part
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The graph's width as `dot` will lay it out, estimated: its columns
    /// (ranks: the longest chain of dependencies to each task), each as wide
    /// as its widest label, and the gaps between them.
    var estimatedWidth: Double {
        let tasks = scenario.tasks
        guard !tasks.isEmpty else { return 0 }
        var rank = [Int](repeating: 0, count: tasks.count)
        for i in TaskGraph(tasks: tasks).topologicalOrder() {
            for d in tasks[i].dependsOn { rank[i] = max(rank[i], rank[d] + 1) }
        }
        var widest = [Double](repeating: 0, count: (rank.max() ?? 0) + 1)
        for (i, task) in tasks.enumerated() {
            let label = max(
                ChartStyle.estimatedWidth(GanttPanel.marks(task) + task.id, size: 11),
                ChartStyle.estimatedWidth("\(formatMillis(task.cost)) ms · main", size: 11))
            widest[rank[i]] = max(widest[rank[i]], label + 24)
        }
        let clusterPadding = tiers == .none ? 0.0 : 16.0
        return widest.reduce(0) { $0 + $1 + 0.45 * 72 + clusterPadding } + 36
    }
}

extension CriticalPath {
    /// The longest chain of costs and latencies that ends at a `firstFrame`
    /// task (among equally long ones, the one ending at the lowest index and,
    /// going back, taking the first dependency in `dependsOn` order of those
    /// that end latest); nil when no task is marked `firstFrame`. Its length
    /// does not include pre-main.
    ///
    /// - Complexity: O(n + e).
    public static func toFirstFrame(of scenario: Scenario) -> CriticalPath? {
        let tasks = scenario.tasks
        guard tasks.contains(where: \.firstFrame) else { return nil }
        var finish = [Micros](repeating: 0, count: tasks.count)
        var previous = [Int](repeating: -1, count: tasks.count)
        for i in TaskGraph(tasks: tasks).topologicalOrder() {
            var best: Micros = -1
            for d in tasks[i].dependsOn where finish[d] > best {
                best = finish[d]
                previous[i] = d
            }
            finish[i] = max(best, 0) + tasks[i].cost + tasks[i].latency
        }
        var end = -1
        for i in tasks.indices where tasks[i].firstFrame && (end < 0 || finish[i] > finish[end]) { end = i }
        var chain = [end]
        while previous[chain[chain.count - 1]] >= 0 { chain.append(previous[chain[chain.count - 1]]) }
        var path = CriticalPath(of: scenario)  // its initialiser from parts is internal to the core
        path.length = finish[end]
        path.tasks = chain.reversed()
        return path
    }
}
