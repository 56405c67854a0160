/// The metrics of MODEL.md §5, by their names in JSON and in `budgets`, in
/// output order. Everything about a metric — label, unit, kind, direction,
/// where its value lives — is its entry in ``Metric/info``.
public enum Metric: String, CaseIterable, Sendable, Codable {
    case timeToFirstFrameMs, firstFrameReadyMs, firstDrawMs, prewarmedFirstDrawMs, timeToFullDisplayMs,
        launchCompleteMs, mainThreadBusyMs
    case mainThreadBlockedMs, cpuUtilization, frames, maxInputDelayMs, inputLatencyMaxMs, criticalPathMs, lowerBoundMs
    case firstFrameBoundMs, dependencyViolations

    /// Which way is better, for marking the best strategy and for regressions.
    public enum Direction: Sendable { case lowerIsBetter, higherIsBetter, neither }

    /// What a metric's value is, and where ``Metrics`` keeps it.
    public enum Value: Sendable {
        /// A time, in µs (reported in ms).
        case time(KeyPath<Metrics, Micros> & Sendable)
        case count(KeyPath<Metrics, Int> & Sendable)
        /// A fraction in 0…1.
        case ratio(KeyPath<Metrics, Double> & Sendable)
    }

    /// One row of the metric table.
    public struct Info: Sendable {
        /// A short label for tables.
        public let label: String
        /// The unit shown after the label: `ms`, `%` or none.
        public let unit: String
        public let direction: Direction
        public let value: Value
        /// What a budget on the metric limits, one sentence (the JSON Schema's description).
        public var budgetDoc: String { metric.budgetDoc }
        /// (v2.1) Whether the value counts work a strategy may defer: launch
        /// completion, CPU utilisation and frames. A strategy that runs
        /// delayed, idle and after-first-frame work inline (`serial`) does
        /// other work at other moments, so it is not compared on these when
        /// the scenario defers work.
        public var countsDeferredWork: Bool {
            metric == .launchCompleteMs || metric == .cpuUtilization || metric == .frames
        }
        fileprivate var metric: Metric = .frames
    }

    /// The metric table. Lower is better for times and violations; higher CPU
    /// utilisation means more of the device was used; frames, the critical
    /// path and the lower bound are facts about the scenario or the run, not goals.
    public var info: Info {
        var info = baseInfo
        info.metric = self
        return info
    }

    private var baseInfo: Info {
        switch self {
        case .timeToFirstFrameMs:
            Info(label: "time to first frame", unit: "ms", direction: .lowerIsBetter, value: .time(\.timeToFirstFrame))
        case .firstFrameReadyMs:
            Info(
                label: "first frame before vsync", unit: "ms", direction: .lowerIsBetter,
                value: .time(\.firstFrameReady))
        case .firstDrawMs:
            Info(label: "time to first draw", unit: "ms", direction: .lowerIsBetter, value: .time(\.firstDraw))
        case .prewarmedFirstDrawMs:
            Info(
                label: "first draw, prewarmed", unit: "ms", direction: .lowerIsBetter,
                value: .time(\.prewarmedFirstDraw))
        case .timeToFullDisplayMs:
            Info(
                label: "time to full display", unit: "ms", direction: .lowerIsBetter, value: .time(\.timeToFullDisplay))
        case .launchCompleteMs:
            Info(label: "launch complete", unit: "ms", direction: .lowerIsBetter, value: .time(\.launchComplete))
        case .mainThreadBusyMs:
            Info(label: "main thread busy", unit: "ms", direction: .lowerIsBetter, value: .time(\.mainThreadBusy))
        case .mainThreadBlockedMs:
            Info(label: "main thread blocked", unit: "ms", direction: .lowerIsBetter, value: .time(\.mainThreadBlocked))
        case .cpuUtilization:
            Info(label: "CPU utilisation", unit: "%", direction: .higherIsBetter, value: .ratio(\.cpuUtilization))
        case .frames: Info(label: "frames", unit: "", direction: .neither, value: .count(\.frames))
        case .maxInputDelayMs:
            Info(label: "max input delay", unit: "ms", direction: .lowerIsBetter, value: .time(\.maxInputDelay))
        case .inputLatencyMaxMs:
            Info(label: "input latency", unit: "ms", direction: .lowerIsBetter, value: .time(\.inputLatencyMax))
        case .criticalPathMs:
            Info(label: "critical path", unit: "ms", direction: .neither, value: .time(\.criticalPath))
        case .lowerBoundMs: Info(label: "lower bound", unit: "ms", direction: .neither, value: .time(\.lowerBound))
        case .firstFrameBoundMs:
            Info(label: "first-frame bound", unit: "ms", direction: .neither, value: .time(\.firstFrameBound))
        case .dependencyViolations:
            Info(
                label: "dependency violations", unit: "", direction: .lowerIsBetter,
                value: .count(\.dependencyViolations))
        }
    }

    /// What a budget on the metric limits, one sentence (the JSON Schema's description).
    fileprivate var budgetDoc: String {
        switch self {
        case .timeToFirstFrameMs: "Most time (ms) until the first meaningful frame is presented."
        case .firstFrameReadyMs:
            "Most time (ms) until the first frame is ready, before vsync rounding (its commit's end plus the render time)."
        case .firstDrawMs:
            "Most time (ms) until the first Core Animation commit ends, whatever it shows: Apple's time to first draw (MetricKit, the App Launch instrument)."
        case .prewarmedFirstDrawMs:
            "Most time (ms) from the tap to the first draw of a launch iOS prewarmed (pre-main paid before the tap): MetricKit's optimized time to first draw."
        case .timeToFullDisplayMs:
            "Most time (ms) until the launch's content is complete: the frame after the last fullyDrawn task (the first frame without one)."
        case .launchCompleteMs: "Most time (ms) until the last task and the last commit have ended."
        case .mainThreadBusyMs:
            "Most main-thread time (ms): pre-main, launch phases, main-thread tasks, input handlers and commits."
        case .mainThreadBlockedMs: "Most time (ms) the main thread may wait blocked in didFinishLaunching."
        case .cpuUtilization: "Least fraction (0–1) of all cores' time used until launch completes."
        case .frames: "Most commits (frames) during the launch."
        case .maxInputDelayMs: "Longest run-loop iteration (ms) after the first frame: how long an input may wait."
        case .inputLatencyMaxMs: "Longest time (ms) an input waited for its handler."
        case .criticalPathMs:
            "Most time (ms) until didFinishLaunching starts (pre-main and the launch phases before it) plus the longest dependency path."
        case .lowerBoundMs:
            "Most for the bound (ms) below which no dependency-respecting schedule can finish its tasks."
        case .firstFrameBoundMs:
            "Most for the bound (ms) below which no dependency-respecting schedule can present its first frame."
        case .dependencyViolations: "Most tasks-started-before-their-dependency-was-done pairs."
        }
    }

    public var label: String { info.label }
    public var direction: Direction { info.direction }

    /// Whether the value is a time (µs inside, milliseconds outside).
    public var isTime: Bool {
        if case .time = info.value { return true }
        return false
    }

    /// Whether the value is a fraction in 0…1 (shown as a percentage; a budget may be written `40%`).
    public var isRatio: Bool {
        if case .ratio = info.value { return true }
        return false
    }

    /// Whether the value is a whole count (frames, violations).
    public var isCount: Bool {
        if case .count = info.value { return true }
        return false
    }
}

/// A dependency violation: `task` started before its dependency was done.
public struct Violation: Sendable, Equatable {
    public var task: Int
    public var dependency: Int
    public var start: Micros
    /// When the dependency was done (its end plus latency).
    public var dependencyEnd: Micros

    package init(task: Int, dependency: Int, start: Micros, dependencyEnd: Micros) {
        self.task = task
        self.dependency = dependency
        self.start = start
        self.dependencyEnd = dependencyEnd
    }
}

/// The metrics of one schedule, times in microseconds.
public struct Metrics: Sendable, Equatable {
    public var timeToFirstFrame: Micros
    /// (v2.1) The first-frame commit's end plus the render time: the first
    /// frame before vsync rounding.
    public var firstFrameReady: Micros
    /// (§3.12) The end of iteration 0's commit, whatever it shows: Apple's
    /// time to first draw (MetricKit, the App Launch instrument).
    public var firstDraw: Micros
    /// (§3.12) `firstDraw − t0`: the first draw from the tap of a launch iOS
    /// prewarmed (pre-main done before it), MetricKit's "optimized" time.
    public var prewarmedFirstDraw: Micros
    /// (v2.1) When the launch's content is complete (the `fullyDrawn` tasks).
    public var timeToFullDisplay: Micros
    public var launchComplete: Micros
    public var mainThreadBusy: Micros
    public var mainThreadBlocked: Micros
    public var cpuUtilization: Double
    public var frames: Int
    public var maxInputDelay: Micros
    /// (v2) The longest time an input was pending.
    public var inputLatencyMax: Micros
    public var criticalPath: Micros
    public var lowerBound: Micros
    /// (v2.1) No dependency-respecting schedule presents its first frame earlier.
    public var firstFrameBound: Micros
    public var dependencyViolations: Int
    /// The index of the first-frame commit.
    public var firstFrameIteration: Int

    /// The value as reported (milliseconds for times).
    public func value(_ metric: Metric) -> Double {
        switch metric.info.value {
        case .time(let path): ms(self[keyPath: path])
        case .count(let path): Double(self[keyPath: path])
        case .ratio(let path): self[keyPath: path]
        }
    }

    private func ms(_ micros: Micros) -> Double { Double(micros) / 1000 }

    package init(
        timeToFirstFrame: Micros, firstFrameReady: Micros, firstDraw: Micros, prewarmedFirstDraw: Micros,
        timeToFullDisplay: Micros,
        launchComplete: Micros,
        mainThreadBusy: Micros, mainThreadBlocked: Micros, cpuUtilization: Double, frames: Int, maxInputDelay: Micros,
        inputLatencyMax: Micros, criticalPath: Micros, lowerBound: Micros, firstFrameBound: Micros,
        dependencyViolations: Int, firstFrameIteration: Int
    ) {
        self.timeToFirstFrame = timeToFirstFrame
        self.firstFrameReady = firstFrameReady
        self.firstDraw = firstDraw
        self.prewarmedFirstDraw = prewarmedFirstDraw
        self.timeToFullDisplay = timeToFullDisplay
        self.launchComplete = launchComplete
        self.mainThreadBusy = mainThreadBusy
        self.mainThreadBlocked = mainThreadBlocked
        self.cpuUtilization = cpuUtilization
        self.frames = frames
        self.maxInputDelay = maxInputDelay
        self.inputLatencyMax = inputLatencyMax
        self.criticalPath = criticalPath
        self.lowerBound = lowerBound
        self.firstFrameBound = firstFrameBound
        self.dependencyViolations = dependencyViolations
        self.firstFrameIteration = firstFrameIteration
    }
}
