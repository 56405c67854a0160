/// Time inside launchflow: integer microseconds from process start.
public typealias Micros = Int

/// A launch scenario: the device, the pre-main phases, user input and the
/// launch tasks.
///
/// Every scenario satisfies every rule of MODEL.md §1 (unique ids, known and
/// acyclic dependencies, first-frame and idle tasks on the main thread,
/// values in range): ``ScenarioLoader`` builds one from a file, the throwing
/// initialiser from values, and both reject anything else with every problem.
/// Outside launchflow its properties can be read, not set, so that it stays
/// valid (inside the package, `calibrate` scales the tasks' costs and sets
/// its overhead phase). Times are in microseconds.
public struct Scenario: Sendable {
    public package(set) var name: String
    public package(set) var description: String
    public package(set) var device: Device
    public package(set) var preMain: [PreMainPhase]
    /// (§3.12) The app's callbacks of the first run-loop turn, in order
    /// (`willFinishLaunching`, `didFinishLaunching`, the scene's); empty: the
    /// turn holds `didFinishLaunching` alone.
    public package(set) var launchPhases: [LaunchPhase]
    /// (§3.12) The phase in which the strategy's `didFinishLaunching` runs, as
    /// written (nil: `"didFinishLaunching"`); only with ``launchPhases``.
    public package(set) var startsIn: String?
    public package(set) var tasks: [LaunchTask]
    /// Metric limits for `launchflow check`, in file order.
    public package(set) var budgets: [Budget]
    /// Lognormal σ for tasks without `costP90` (used by `sweep`).
    public package(set) var jitter: Double?
    public package(set) var schema: String?
    /// How the run loop runs idle tasks (v2); the CLI's `--idle-mode` overrides it.
    public package(set) var idleMode: IdleMode
    /// User input arriving during the launch (v2), in file order.
    public package(set) var inputs: [UserInput]
    /// How main-thread tasks reach the main thread under `dag` and `anchored`
    /// (MODEL.md §3.11); `serial` and `priority` ignore it.
    public package(set) var mainExecutor: MainExecutor
    /// The strategy the app uses today (`"strategy"`): metadata for the
    /// commands (compare's baseline, advise's default), never simulated.
    public package(set) var strategy: Strategy?
    /// The platform the app runs on (`"platform"`): the words advice uses, never simulated.
    public package(set) var platform: Platform?

    /// A scenario from values, checked as a file would be.
    ///
    /// ```swift
    /// let scenario = try Scenario(name: "app", tasks: [
    ///     LaunchTask(id: "net", cost: 8_000),
    ///     LaunchTask(id: "ui", cost: 30_000, mainThreadOnly: true, dependsOn: [0], firstFrame: true),
    /// ])
    /// ```
    ///
    /// - Throws: ``ScenarioError`` with every problem, worded as for a file
    ///   but without a file name: `tasks[1].priority (task 'ui'): must be an
    ///   integer between 0 and 1000000, found -1`. Dependencies are indices
    ///   into `tasks`; one out of range is a problem too.
    /// - Complexity: O(n + e) for n tasks and e dependencies.
    public init(
        name: String, description: String = "", device: Device = Device(),
        preMain: [PreMainPhase] = [], launchPhases: [LaunchPhase] = [], startsIn: String? = nil,
        tasks: [LaunchTask], budgets: [Budget] = [],
        jitter: Double? = nil, schema: String? = nil, idleMode: IdleMode = .batch, inputs: [UserInput] = [],
        mainExecutor: MainExecutor = .dispatch, strategy: Strategy? = nil, platform: Platform? = nil
    ) throws(ScenarioError) {
        self.init()
        self.name = name
        self.description = description
        self.device = device
        self.preMain = preMain
        self.launchPhases = launchPhases
        self.startsIn = startsIn
        self.tasks = tasks
        self.budgets = budgets
        self.jitter = jitter
        self.schema = schema
        self.idleMode = idleMode
        self.inputs = inputs
        self.mainExecutor = mainExecutor
        self.strategy = strategy
        self.platform = platform
        let problems = problems()
        guard problems.isEmpty else { throw ScenarioError(problems) }
    }

    /// The same scenario with `$schema` changed (nil: left out), for a file
    /// written into another folder than the one it came from.
    public func withSchema(_ schema: String?) -> Scenario {
        var copy = self
        copy.schema = schema
        return copy
    }

    /// Every key at its default and no tasks: not valid until filled in.
    private init() {
        name = ""
        description = ""
        device = Device()
        preMain = []
        launchPhases = []
        startsIn = nil
        tasks = []
        budgets = []
        jitter = nil
        schema = nil
        idleMode = .batch
        inputs = []
        mainExecutor = .dispatch
        strategy = nil
        platform = nil
    }

    /// An empty scenario to fill in, without checks: for code that checks what
    /// it puts in (the decoder) or derives it from a valid scenario.
    package static var draft: Scenario { Scenario() }

    /// Whether any task is deferred — a `delay`, an `idle` task or (v2.1)
    /// `after` — so that strategies which honour deferrals do work at other
    /// moments than `serial`, which runs it all inline.
    public var defersWork: Bool { tasks.contains { $0.delay > 0 || $0.idle || $0.after != nil } }

    /// Total pre-main time: the instant the run loop starts (`t0`).
    public var preMainTotal: Micros { preMain.reduce(0) { $0 + $1.cost } }

    /// (§3.13) The same launch on `preset`: its clusters, refresh rate and a
    /// thread per core (the device's commit and render costs kept).
    public func onDevice(_ preset: DevicePreset) -> Scenario {
        var copy = self
        copy.device = preset.applied(to: device)
        copy.device.preset = preset
        return copy
    }

    /// (§3.12) The name of the phase that runs `didFinishLaunching` when none is given.
    public static let defaultStartsIn = "didFinishLaunching"

    /// (§3.12) The index of the phase that runs the strategy's
    /// `didFinishLaunching`; nil without launch phases (a valid scenario's
    /// phases always name it).
    public var startPhase: Int? {
        guard !launchPhases.isEmpty else { return nil }
        let name = startsIn ?? Self.defaultStartsIn
        return launchPhases.firstIndex { $0.name == name }
    }
}

/// (§3.12) One of the app's callbacks in the first run-loop turn, with the
/// cost of the app's own main-thread work in it outside the task graph.
public struct LaunchPhase: Sendable, Equatable {
    public var name: String
    public var cost: Micros

    public init(name: String, cost: Micros) {
        self.name = name
        self.cost = cost
    }
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
    /// (§3.10) The CPUs the threads share; nil: a CPU per thread.
    public var cpus: Int?
    /// (§3.10) With `cpus`, the main thread runs at full speed and the workers share the rest.
    public var mainThreadPriority: Bool
    /// (§3.13) The CPUs as clusters of identical cores (performance and
    /// efficiency cores); empty: a CPU of speed 1 per thread (or `cpus`).
    public var clusters: [CoreCluster]
    /// (§3.13) The phone named in the file (`device.preset`): its clusters and
    /// refresh rate where the file gives none (already applied to them).
    public var preset: DevicePreset?

    public init(
        cores: Int = 4, refreshRate: Double = 60, commitCost: Micros = 0, renderTime: Micros = 0, cpus: Int? = nil,
        mainThreadPriority: Bool = false, clusters: [CoreCluster] = []
    ) {
        self.cores = cores
        self.refreshRate = refreshRate
        self.commitCost = commitCost
        self.renderTime = renderTime
        self.cpus = cpus
        self.mainThreadPriority = mainThreadPriority
        self.clusters = clusters
        preset = nil
    }

    /// (§3.13) Whether the threads run on clusters of cores given to them by QoS.
    public var hasClusters: Bool { !clusters.isEmpty }

    /// (§3.13) The work all threads can do per µs at most, in thousandths:
    /// K = min(`cores`, Σ count × speed) × 1000; with no clusters, min(`cores`, `cpus`) × 1000.
    public var capacityThousandths: Int {
        guard hasClusters else { return cpuCount * 1000 }
        return Swift.min(cores * 1000, clusters.reduce(0) { $0 + $1.count * $1.speedThousandths })
    }

    /// (§3.13) `2 P (speed 1) + 4 E (speed 0.5)`, for summaries and notes.
    public static func clusterText(_ clusters: [CoreCluster]) -> String {
        clusters.map { "\($0.count) \($0.name) (speed \(formatNumber($0.speed)))" }.joined(separator: " + ")
    }

    /// Whether a thread may run slower than its cost says: CPUs shared (§3.10) or clusters (§3.13).
    public var stretchesWork: Bool { sharesCPUs || hasClusters }

    /// The frame interval `F`: `1_000_000 / refreshRate` rounded half away from zero.
    public var frameInterval: Micros { Micros((1_000_000 / refreshRate).rounded()) }

    public var workerCount: Int { cores - 1 }

    /// (§3.10) The CPUs the threads have, min(`cores`, `cpus`): `cpus` absent counts as `cores`.
    public var cpuCount: Int { Swift.min(cores, cpus ?? cores) }

    /// (§3.10) Whether threads can share CPUs: only with `cpus` < `cores`
    /// (there are `cores` threads, so with more CPUs every rate is 1).
    public var sharesCPUs: Bool { cpuCount < cores }
}

/// (§3.13) A cluster of identical cores: `count` cores of `speed` (a task's
/// cost is its time on a core of speed 1).
public struct CoreCluster: Sendable, Equatable {
    public var name: String
    public var count: Int
    /// In (0, 1], at most 3 decimals.
    public var speed: Double

    public init(name: String, count: Int, speed: Double) {
        self.name = name
        self.count = count
        self.speed = speed
    }

    /// The speed in exact thousandths (0.5 → 500, 0.333 → 333).
    public var speedThousandths: Int { Int((speed * 1000).rounded()) }
}

/// (§3.13) A task's quality of service, most urgent first: where it may run on a device with clusters.
public enum QualityOfService: String, CaseIterable, Sendable, Comparable {
    case userInteractive, userInitiated
    case `default`
    case utility, background

    /// Its position in the order above.
    public var rank: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

public struct PreMainPhase: Sendable, Equatable {
    public var name: String
    public var cost: Micros

    public init(name: String, cost: Micros) {
        self.name = name
        self.cost = cost
    }
}

extension [PreMainPhase] {
    /// These phases with their costs scaled to add up to `total` (a measured
    /// time before `didFinishLaunching`): each in proportion, rounded down,
    /// the last taking the rest (all of it when the declared costs are 0).
    package func scaled(to total: Micros) -> [PreMainPhase] {
        let declared = reduce(0) { $0 + $1.cost }
        var left = total
        return enumerated().map { k, phase in
            let cost = k == count - 1 ? left : (declared > 0 ? phase.cost * total / declared : 0)
            left -= cost
            return PreMainPhase(name: phase.name, cost: cost)
        }
    }
}

/// A launch task. On its own it is not checked: its values are when it
/// becomes part of a ``Scenario`` (where `dependsOn` indices mean something).
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
    /// (v2) After its cost, the task is done only this much later, holding no thread.
    public var latency: Micros
    /// (v2) The task is released this long after it becomes ready (`serial` ignores it).
    public var delay: Micros
    /// (v2) A serial category: its tasks are in flight one at a time, from admission until done.
    public var queue: String?
    /// (v2) Runs on the main thread when the run loop is about to sleep; always `mainThreadOnly`.
    public var idle: Bool
    /// (§3.13) The worker task's quality of service (no effect without clusters).
    public var qos: QualityOfService = .default
    /// (v2) Under `dag` and `anchored`, `didFinishLaunching` waits until this task is done.
    public var anchor: Bool
    /// (v2) The module the task belongs to (reports and pictures only).
    public var group: String?
    /// (v2) 90th-percentile latency, used by `sweep`.
    public var latencyP90: Micros?
    /// (v2.1) Not released before this milestone is on screen (`serial` ignores it).
    public var after: LaunchMilestone?
    /// (v2.1) The launch's content is complete when every such task has run
    /// (time to full display); always `mainThreadOnly`.
    public var fullyDrawn: Bool
    /// What the app knows: the task must be done by this point of the launch.
    /// A constraint on advice (`advise`, `validate`'s lint); the simulation ignores it.
    public var before: LaunchDeadline?

    public init(
        id: String, cost: Micros, mainThreadOnly: Bool = false, priority: Int = 0,
        dependsOn: [Int] = [], firstFrame: Bool = false, costP90: Micros? = nil,
        latency: Micros = 0, delay: Micros = 0, queue: String? = nil, idle: Bool = false, anchor: Bool = false,
        group: String? = nil, latencyP90: Micros? = nil, after: LaunchMilestone? = nil, fullyDrawn: Bool = false,
        before: LaunchDeadline? = nil, qos: QualityOfService = .default
    ) {
        self.qos = qos
        self.id = id
        self.cost = cost
        self.mainThreadOnly = mainThreadOnly
        self.priority = priority
        self.dependsOn = dependsOn
        self.firstFrame = firstFrame
        self.costP90 = costP90
        self.latency = latency
        self.delay = delay
        self.queue = queue
        self.idle = idle
        self.anchor = anchor
        self.group = group
        self.latencyP90 = latencyP90
        self.after = after
        self.fullyDrawn = fullyDrawn
        self.before = before
    }
}

/// A point of the launch a task must be done by: `before` (what the app
/// knows — the lock screen is set up before any content shows, the crash
/// reporter starts inside didFinishLaunching). Advice honours it; the
/// simulation does not read it.
public enum LaunchDeadline: String, CaseIterable, Sendable {
    /// Done (its latency included) before the first-frame commit starts, so
    /// that the first frame shows its effect.
    case firstFrame
    /// Done before `didFinishLaunching` returns.
    case launch

    /// How messages name the point: "the first frame", "didFinishLaunching returns".
    public var noun: String {
        switch self {
        case .firstFrame: "the first frame"
        case .launch: "didFinishLaunching returns"
        }
    }
}

/// A moment of the launch that a task can wait for (v2.1): `after`.
public enum LaunchMilestone: String, CaseIterable, Sendable {
    /// The first-frame commit is presented: work started by a post-frame
    /// callback (`CATransaction` completion, Android's `postFrameCallback`).
    case firstFrame

    /// How messages name it: "first frame".
    public var noun: String {
        switch self {
        case .firstFrame: "first frame"
        }
    }
}

/// The platform an app runs on: the words `advise` names each change's mechanism in.
public enum Platform: String, CaseIterable, Sendable {
    case ios, android
}

/// How the run loop runs idle tasks when it is about to sleep (MODEL.md §3, v2).
public enum IdleMode: String, CaseIterable, Sendable {
    /// Every idle task waiting at that instant, back to back, in one iteration.
    case batch
    /// One idle task per iteration, so input and main-queue work get in between.
    case oneByOne
}

/// How main-thread tasks reach the main thread under `dag` and `anchored`
/// (MODEL.md §3.11).
public enum MainExecutor: String, CaseIterable, Sendable {
    /// Each main-thread task is handed to the main dispatch queue when it is
    /// ready: an iteration runs every item enqueued before its snapshot.
    case dispatch
    /// The main-thread operations are added to `OperationQueue.main`: one at a
    /// time, the best-ranked ready one, each in a run-loop iteration of its own.
    case operationQueue
}

/// A user input (a tap) arriving during the launch (v2): its handler runs on
/// the main thread at the start of the next run-loop iteration.
public struct UserInput: Sendable, Equatable {
    /// `input-<k>` (1-based position) when the file gives none.
    public var name: String
    /// Arrival, from process start.
    public var at: Micros
    /// Main-thread time of its handler.
    public var cost: Micros

    public init(name: String, at: Micros, cost: Micros) {
        self.name = name
        self.at = at
        self.cost = cost
    }
}

/// A limit `launchflow check` enforces on one metric, in the metric's unit
/// (ms for times, a fraction for `cpuUtilization`).
public struct Budget: Sendable, Equatable {
    public var metric: Metric
    public var limit: Double

    public init(metric: Metric, limit: Double) {
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
