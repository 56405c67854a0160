/// The machine-readable result of MODEL.md §6.
public struct SimulationResult: Sendable {
    public let schedule: Schedule
    public let metrics: Metrics
    public let criticalPath: CriticalPath

    /// Simulates and measures in one go.
    public init(_ scenario: Scenario, strategy: Strategy, options: SimulationOptions = .init()) {
        self.init(PreparedScenario(scenario), strategy: strategy, options: options)
    }

    init(
        _ prepared: PreparedScenario, strategy: Strategy, options: SimulationOptions, costs: [Micros]? = nil,
        latencies: [Micros]? = nil
    ) {
        schedule = prepared.schedule(strategy, options: options, costs: costs, latencies: latencies)
        let asWritten = costs == nil && latencies == nil
        criticalPath =
            asWritten
            ? prepared.criticalPath
            : CriticalPath(graph: prepared.graph, cost: schedule.costs, latency: schedule.latencies)
        let bounds =
            asWritten
            ? prepared.bounds
            : LaunchBounds(
                tasks: prepared.scenario.tasks, graph: prepared.graph, cost: schedule.costs,
                latency: schedule.latencies, queueOf: prepared.queueOf, queueCount: prepared.queueCount)
        metrics = schedule.metrics(criticalPath: criticalPath, bounds: bounds)
    }

    /// Runs each strategy (in the order given), preparing the scenario once.
    public static func compare(_ scenario: Scenario, strategies: [Strategy], options: SimulationOptions = .init())
        -> [SimulationResult]
    {
        let prepared = PreparedScenario(scenario)
        return strategies.map { SimulationResult(prepared, strategy: $0, options: options) }
    }
}

extension JSONWriter {
    /// One result object of MODEL.md §6; `indent` is the indentation of its braces.
    public mutating func result(_ result: SimulationResult, indent: String = "") {
        let schedule = result.schedule
        let scenario = schedule.scenario
        let metrics = result.metrics
        let inner = indent + "  "
        let item = inner + "  "
        raw("{\n\(inner)")
        key("scenario"); string(scenario.name)
        raw(",\n\(inner)"); key("strategy"); string(schedule.strategy.rawValue)
        raw(",\n\(inner)"); key("metrics"); raw("{")
        for (k, metric) in Metric.allCases.enumerated() {
            raw(k == 0 ? "\n" : ",\n")
            raw(item)
            key(metric.rawValue)
            metricValue(metric, of: metrics)
        }
        raw("\n\(inner)},\n\(inner)")
        key("preMain"); raw("[")
        for (k, phase) in scenario.preMain.enumerated() {
            raw(k == 0 ? "\n\(item){" : ",\n\(item){")
            key("name"); string(phase.name)
            raw(", "); key("startMs"); millis(schedule.preMain[k].start)
            raw(", "); key("endMs"); millis(schedule.preMain[k].end)
            raw("}")
        }
        raw(scenario.preMain.isEmpty ? "],\n\(inner)" : "\n\(inner)],\n\(inner)")
        // (§3.12) The launch phases; the `startsIn` one ends when dFL returns.
        key("phases"); raw("[")
        for (k, phase) in scenario.launchPhases.enumerated() {
            raw(k == 0 ? "\n\(item){" : ",\n\(item){")
            key("name"); string(phase.name)
            raw(", "); key("startMs"); millis(schedule.launchPhases[k].start)
            raw(", "); key("endMs"); millis(schedule.launchPhases[k].end)
            raw("}")
        }
        raw(scenario.launchPhases.isEmpty ? "],\n\(inner)" : "\n\(inner)],\n\(inner)")
        key("tasks"); raw("[")
        // The bytes between a task's values, spelled out once (a launch has
        // up to 100,000s of tasks).
        let firstOpening = Array("\n\(item){\"id\": ".utf8)
        let opening = Array(",\n\(item){\"id\": ".utf8)
        let thread = Array(", \"thread\": ".utf8)
        let ready = Array(", \"readyMs\": ".utf8)
        let start = Array(", \"startMs\": ".utf8)
        let end = Array(", \"endMs\": ".utf8)
        let done = Array(", \"doneMs\": ".utf8)
        for (k, run) in schedule.tasks.enumerated() {
            raw(k == 0 ? firstOpening : opening); string(scenario.tasks[k].id)
            raw(thread); threadName(run.thread)
            raw(ready); millis(run.ready)
            raw(start); millis(run.start)
            raw(end); millis(run.end)
            raw(done); millis(run.done)
            raw(UInt8(ascii: "}"))
        }
        raw("\n\(inner)],\n\(inner)")
        key("inputs"); raw("[")
        for (k, input) in schedule.inputs.enumerated() {
            raw(k == 0 ? "\n\(item){" : ",\n\(item){")
            key("name"); string(scenario.inputs[k].name)
            raw(", "); key("atMs"); millis(input.at)
            raw(", "); key("startMs"); millis(input.start)
            raw(", "); key("endMs"); millis(input.end)
            raw("}")
        }
        raw(schedule.inputs.isEmpty ? "],\n\(inner)" : "\n\(inner)],\n\(inner)")
        key("commits"); raw("[")
        for (k, commit) in schedule.commits.enumerated() {
            raw(k == 0 ? "\n\(item){" : ",\n\(item){")
            key("startMs"); millis(commit.start)
            raw(", "); key("endMs"); millis(commit.end)
            raw(", "); key("presentedMs"); millis(commit.presented)
            raw("}")
        }
        raw("\n\(inner)],\n\(inner)")
        key("violations"); raw("[")
        let violations = schedule.violations()
        let firstViolation = Array("\n\(item){\"task\": ".utf8)
        let nextViolation = Array(",\n\(item){\"task\": ".utf8)
        let dependency = Array(", \"dependency\": ".utf8)
        let dependencyEnd = Array(", \"dependencyEndMs\": ".utf8)
        for (k, violation) in violations.enumerated() {
            raw(k == 0 ? firstViolation : nextViolation); string(scenario.tasks[violation.task].id)
            raw(dependency); string(scenario.tasks[violation.dependency].id)
            raw(start); millis(violation.start)
            raw(dependencyEnd); millis(violation.dependencyEnd)
            raw(UInt8(ascii: "}"))
        }
        raw(violations.isEmpty ? "]\n\(indent)}" : "\n\(inner)]\n\(indent)}")
    }

    private mutating func threadName(_ thread: Int32) {
        if thread == 0 {
            raw("\"main\"")
        } else {
            raw("\"worker-")
            integer(Int(thread))
            raw("\"")
        }
    }

    /// `{ "scenario": …, "results": [ … ], "breaksDependencies": [ … ],
    /// "bestCorrectStrategy": … }` of `launchflow compare --format json`: the
    /// strategies whose schedule breaks a dependency, and the best of the
    /// others (``HonestComparison``; null when every strategy breaks one).
    public mutating func comparison(_ results: [SimulationResult]) {
        raw("{\n  ")
        key("scenario"); string(results.first?.schedule.scenario.name ?? "")
        raw(",\n  "); key("results"); raw("[")
        for (k, result) in results.enumerated() {
            raw(k == 0 ? "\n    " : ",\n    ")
            self.result(result, indent: "    ")
        }
        raw("\n  ]")
        let judged = HonestComparison(results)
        raw(",\n  "); key("breaksDependencies"); raw("[")
        for (n, k) in results.indices.filter({ !judged.isCorrect[$0] }).enumerated() {
            if n > 0 { raw(", ") }
            string(results[k].schedule.strategy.rawValue)
        }
        raw("]")
        raw(",\n  "); key("bestCorrectStrategy")
        if let best = judged.bestCorrect { string(results[best].schedule.strategy.rawValue) } else { raw("null") }
        bestPerMetric(judged)
        raw("\n}")
    }

    /// (v2.1) `"best": { metric: { "strategy": …, "leftOut": [ { "strategy", "reason" } ] } }`:
    /// per metric with a better direction, the strategy marked best (null when
    /// none is) and the strategies not compared on it, with the reason.
    private mutating func bestPerMetric(_ judged: HonestComparison) {
        let results = judged.results
        raw(",\n  "); key("best"); raw("{")
        for (n, metric) in Metric.allCases.filter({ $0.direction != .neither }).enumerated() {
            raw(n == 0 ? "\n    " : ",\n    "); key(metric.rawValue); raw("{ "); key("strategy")
            if let best = judged.best(metric) { string(results[best].schedule.strategy.rawValue) } else { raw("null") }
            raw(", "); key("leftOut"); raw("[")
            for (m, k) in results.indices.filter({ judged.exclusion($0, metric) != nil }).enumerated() {
                raw(m == 0 ? "" : ", "); raw("{ "); key("strategy"); string(results[k].schedule.strategy.rawValue)
                raw(", "); key("reason"); string(judged.exclusion(k, metric)!); raw(" }")
            }
            raw("] }")
        }
        raw("\n  }")
    }
}

extension TraceExport {
    /// The trace of `result`: its schedule with the simulator's metrics.
    public static func json(_ result: SimulationResult) -> [UInt8] {
        json(result.schedule, metrics: result.metrics)
    }
}
