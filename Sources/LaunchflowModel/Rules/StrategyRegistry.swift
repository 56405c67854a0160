/// The launch strategies of MODEL.md §4, by name.
///
/// Each strategy is one ``StrategyDefinition`` (in its own file beside this
/// one); ``StrategyDefinition/all`` lists them in report order. Everything
/// else — the CLI's choices and help, reports, charts — reads the registry.
public enum Strategy: String, CaseIterable, Sendable, Codable {
    case serial, priority, dag, anchored

    /// This strategy's entry in the registry.
    public var definition: StrategyDefinition {
        switch self {
        case .serial: .serial
        case .priority: .priority
        case .dag: .dag
        case .anchored: .anchored
        }
    }

    /// The names, in report order, for help and error messages: `serial, priority, dag, anchored`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// One strategy: its name and help, the facts the reports need, and how the
/// engine runs it.
public struct StrategyDefinition: Sendable {
    public let strategy: Strategy
    /// One line for `--help` and reports.
    public let summary: String
    /// `--max-concurrent` applies to it.
    public let limitsConcurrency: Bool
    /// It may start a task before a dependency is done (its times can be
    /// reached only by breaking dependencies).
    public let canBreakDependencies: Bool
    /// The strategy's colours in pictures that compare strategies (fill, stroke; `#rrggbb`).
    public let colors: (fill: String, stroke: String)
    /// What `didFinishLaunching` waits for when it blocks the main thread.
    public let blockedReason: String
    /// (v2.1) It runs delayed, idle and after-first-frame work inline, at
    /// other moments than the strategies that defer it: comparisons leave it
    /// out of the metrics that count deferred work (``Metric/Info/countsDeferredWork``).
    public var runsDeferredWorkInline: Bool { strategy == .serial }
    /// `didFinishLaunching` waits for `anchor` tasks (the others ignore the key).
    public var waitsForAnchors: Bool { strategy == .dag || strategy == .anchored }
    /// What an executor — the simulator's engine or the runtime's scheduler —
    /// needs of the strategy for one scenario, built once: the rank order,
    /// where each task is handed over, and the policy that decides what
    /// `didFinishLaunching` does and which tasks become ready.
    package let plan: @Sendable (StrategyInputs) -> StrategyPlan

    /// Every strategy, in report order.
    public static var all: [StrategyDefinition] { Strategy.allCases.map(\.definition) }

    /// The strategy the others are compared with (deltas in reports).
    public static let baseline = Strategy.serial
}
