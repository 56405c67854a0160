/// The launch strategies of MODEL.md §4, by name.
///
/// Each strategy is one ``StrategyDefinition`` (in its own file beside this
/// one); ``StrategyDefinition/all`` lists them in report order. Everything
/// else — the CLI's choices and help, reports, charts — reads the registry.
/// What is said and drawn of a strategy lives with what says and draws it:
/// its one-line summary in LaunchflowCore (`Output/StrategyText.swift`), the
/// trace's name for its blocked spans beside the trace writer
/// (`Schedule/TraceExport.swift`), its colours in LaunchflowRender
/// (`ChartStyle.strategyColors`).
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

/// One strategy's rules: the facts the executors and the comparisons need,
/// and how the engine and the runtime run it.
public struct StrategyDefinition: Sendable {
    public let strategy: Strategy
    /// `--max-concurrent` applies to it.
    public let limitsConcurrency: Bool
    /// It may start a task before a dependency is done (its times can be
    /// reached only by breaking dependencies).
    public let canBreakDependencies: Bool
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
