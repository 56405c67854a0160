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
    /// One result object of MODEL.md §6, its members one a line (indented as
    /// deep as the scope it is written in).
    public mutating func result(_ result: SimulationResult) {
        let schedule = result.schedule
        let scenario = schedule.scenario
        object(.lines) { w in
            w.field("scenario", scenario.name)
            w.field("strategy", schedule.strategy.rawValue)
            w.field("metrics", object: .lines) { w in
                for metric in Metric.allCases {
                    w.key(metric.rawValue)
                    w.metricValue(metric, of: result.metrics)
                }
            }
            w.spans("preMain", scenario.preMain.map(\.name), schedule.preMain.map { ($0.start, $0.end) })
            // (§3.12) The launch phases; the `startsIn` one ends when dFL returns.
            w.spans("phases", scenario.launchPhases.map(\.name), schedule.launchPhases.map { ($0.start, $0.end) })
            w.field("tasks", array: .linesEvenWhenEmpty) { w in
                for (k, run) in schedule.tasks.enumerated() {
                    w.object { w in
                        w.field(Keys.id, scenario.tasks[k].id)
                        w.key(Keys.thread)
                        w.threadName(run.thread)
                        w.field(Keys.readyMs, millis: run.ready)
                        w.field(Keys.startMs, millis: run.start)
                        w.field(Keys.endMs, millis: run.end)
                        w.field(Keys.doneMs, millis: run.done)
                    }
                }
            }
            w.field("inputs", array: .lines) { w in
                for (k, input) in schedule.inputs.enumerated() {
                    w.object { w in
                        w.field("name", scenario.inputs[k].name)
                        w.field("atMs", millis: input.at)
                        w.field("startMs", millis: input.start)
                        w.field("endMs", millis: input.end)
                    }
                }
            }
            w.field("commits", array: .linesEvenWhenEmpty) { w in
                for commit in schedule.commits {
                    w.object { w in
                        w.field("startMs", millis: commit.start)
                        w.field("endMs", millis: commit.end)
                        w.field("presentedMs", millis: commit.presented)
                    }
                }
            }
            w.field("violations", array: .lines) { w in
                for violation in schedule.violations() {
                    w.object { w in
                        w.field("task", scenario.tasks[violation.task].id)
                        w.field("dependency", scenario.tasks[violation.dependency].id)
                        w.field("startMs", millis: violation.start)
                        w.field("dependencyEndMs", millis: violation.dependencyEnd)
                    }
                }
            }
        }
    }

    /// A task's keys, escaped once (a launch has up to 100,000s of tasks).
    private enum Keys {
        static let id = JSONKey("id")
        static let thread = JSONKey("thread")
        static let readyMs = JSONKey("readyMs")
        static let startMs = JSONKey("startMs")
        static let endMs = JSONKey("endMs")
        static let doneMs = JSONKey("doneMs")
    }

    /// `"key": [ {"name": …, "startMs": …, "endMs": …}, … ]`, one span a line.
    private mutating func spans(_ key: String, _ names: [String], _ spans: [(start: Micros, end: Micros)]) {
        field(key, array: .lines) { w in
            for (name, span) in zip(names, spans) {
                w.object { w in
                    w.field("name", name)
                    w.field("startMs", millis: span.start)
                    w.field("endMs", millis: span.end)
                }
            }
        }
    }

    private mutating func threadName(_ thread: Int32) {
        string(thread == 0 ? "main" : "worker-\(thread)")
    }

    /// `{ "scenario": …, "results": [ … ], "breaksDependencies": [ … ],
    /// "bestCorrectStrategy": … }` of `launchflow compare --format json`: the
    /// strategies whose schedule breaks a dependency, and the best of the
    /// others (``HonestComparison``; null when every strategy breaks one).
    public mutating func comparison(_ results: [SimulationResult]) {
        let judged = HonestComparison(results)
        object(.lines) { w in
            w.field("scenario", results.first?.schedule.scenario.name ?? "")
            w.field("results", array: .lines) { w in
                for result in results { w.result(result) }
            }
            w.field(
                "breaksDependencies",
                strings: results.indices.filter { !judged.isCorrect[$0] }.map { results[$0].schedule.strategy.rawValue }
            )
            w.field("bestCorrectStrategy", judged.bestCorrect.map { results[$0].schedule.strategy.rawValue })
            w.bestPerMetric(judged)
        }
    }

    /// (v2.1) `"best": { metric: { "strategy": …, "leftOut": [ { "strategy", "reason" } ] } }`:
    /// per metric with a better direction, the strategy marked best (null when
    /// none is) and the strategies not compared on it, with the reason.
    private mutating func bestPerMetric(_ judged: HonestComparison) {
        let results = judged.results
        field("best", object: .lines) { w in
            for metric in Metric.allCases where metric.direction != .neither {
                w.field(metric.rawValue, object: .spaced) { w in
                    w.field("strategy", judged.best(metric).map { results[$0].schedule.strategy.rawValue })
                    w.field("leftOut", array: .compact) { w in
                        for k in results.indices {
                            guard let reason = judged.exclusion(k, metric) else { continue }
                            w.object(.spaced) { w in
                                w.field("strategy", results[k].schedule.strategy.rawValue)
                                w.field("reason", reason)
                            }
                        }
                    }
                }
            }
        }
    }
}

extension TraceExport {
    /// The trace of `result`: its schedule with the simulator's metrics.
    public static func json(_ result: SimulationResult) -> [UInt8] {
        json(result.schedule, metrics: result.metrics)
    }
}
