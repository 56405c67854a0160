/// Time inside launchflow: integer microseconds from process start.
public typealias Micros = Int

/// A launch scenario: the device, the pre-main phases and the launch tasks.
///
/// Built by ``ScenarioDecoder``, which guarantees every invariant of
/// MODEL.md §1 (unique ids, known and acyclic dependencies, first-frame tasks
/// on the main thread, values in range). Times are in microseconds.
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    public var device: Device
    public var preMain: [PreMainPhase]
    public var tasks: [LaunchTask]
    /// Metric limits for `launchflow check`, in file order.
    public var budgets: [Budget]
    /// Lognormal σ for tasks without `costP90` (used by `sweep`).
    public var jitter: Double?
    public var schema: String?

    public init(
        name: String, description: String = "", device: Device = Device(),
        preMain: [PreMainPhase] = [], tasks: [LaunchTask], budgets: [Budget] = [],
        jitter: Double? = nil, schema: String? = nil
    ) {
        self.name = name
        self.description = description
        self.device = device
        self.preMain = preMain
        self.tasks = tasks
        self.budgets = budgets
        self.jitter = jitter
        self.schema = schema
    }

    /// Total pre-main time: the instant the run loop starts (`t0`).
    public var preMainTotal: Micros { preMain.reduce(0) { $0 + $1.cost } }
}

public struct Device: Sendable, Equatable {
    /// Cores, main thread included: there are `cores − 1` workers.
    public var cores: Int
    /// Display refresh rate in Hz.
    public var refreshRate: Double
    /// Main-thread time of each Core Animation commit.
    public var commitCost: Micros
    /// Time from the end of a commit until its frame can be shown.
    public var renderTime: Micros

    public init(cores: Int = 4, refreshRate: Double = 60, commitCost: Micros = 0, renderTime: Micros = 0) {
        self.cores = cores
        self.refreshRate = refreshRate
        self.commitCost = commitCost
        self.renderTime = renderTime
    }

    /// The frame interval `F`: `1_000_000 / refreshRate` rounded half away from zero.
    public var frameInterval: Micros { Micros((1_000_000 / refreshRate).rounded()) }

    public var workerCount: Int { cores - 1 }
}

public struct PreMainPhase: Sendable, Equatable {
    public var name: String
    public var cost: Micros

    public init(name: String, cost: Micros) {
        self.name = name
        self.cost = cost
    }
}

public struct LaunchTask: Sendable, Equatable {
    public var id: String
    /// Wall-clock time the task occupies its thread (the median under uncertainty).
    public var cost: Micros
    public var mainThreadOnly: Bool
    /// Lower is more urgent; the tier of the priority strategy.
    public var priority: Int
    /// Indices (into ``Scenario/tasks``) of the tasks this one needs, in file order.
    public var dependsOn: [Int]
    /// The first meaningful frame needs this task.
    public var firstFrame: Bool
    /// 90th-percentile cost, used by `sweep`.
    public var costP90: Micros?

    public init(
        id: String, cost: Micros, mainThreadOnly: Bool = false, priority: Int = 0,
        dependsOn: [Int] = [], firstFrame: Bool = false, costP90: Micros? = nil
    ) {
        self.id = id
        self.cost = cost
        self.mainThreadOnly = mainThreadOnly
        self.priority = priority
        self.dependsOn = dependsOn
        self.firstFrame = firstFrame
        self.costP90 = costP90
    }
}

public struct Budget: Sendable, Equatable {
    public var metric: String
    public var limit: Double

    public init(metric: String, limit: Double) {
        self.metric = metric
        self.limit = limit
    }
}

/// Milliseconds as written in a scenario → integer microseconds (MODEL.md §2):
/// the double product `ms × 1000` rounded half away from zero.
@inlinable
public func microseconds(fromMilliseconds ms: Double) -> Micros {
    Micros((ms * 1000).rounded())
}
