import LaunchflowCore

/// Where a Gantt picture looks by default: at the launch, not at the work
/// the app put off until later.
///
/// The **launch** runs from `t0` (pre-main folded) to the later of
/// - time to full display (which is never before the first frame),
/// - the end of `didFinishLaunching`,
/// - the end of the last task that is not **deferred**.
///
/// A task is deferred when it was put off on purpose or waits for the user:
/// it has a `delay`, `after` or `idle`; or it was handed over only once the
/// user had answered an alert — at or after the first moment a task of a
/// queue with latency is done (an alert: a queued task waiting for the
/// user; what its answer releases, the next alert of its queue, a tier
/// that waited for it); or it depends on a deferred task.
///
/// What happens after the launch (delays, alerts waiting for the user, idle
/// work, taps) is drawn folded behind an axis break (``TimeAxis/latest``).
public enum LaunchFrame {
    /// Per task: whether it is deferred (see the type's documentation).
    ///
    /// - Complexity: O(n + e).
    public static func deferred(_ schedule: Schedule) -> [Bool] {
        let tasks = schedule.scenario.tasks
        var alertQueues = Set<String>()
        for (i, task) in tasks.enumerated() where task.queue != nil && schedule.latencies[i] > 0 {
            alertQueues.insert(task.queue!)
        }
        // The first answer: the earliest done of a task in a queue with latency.
        var answered = Micros.max
        for (i, task) in tasks.enumerated() where task.queue.map(alertQueues.contains) ?? false {
            answered = min(answered, schedule.tasks[i].done)
        }
        var deferred = [Bool](repeating: false, count: tasks.count)
        for i in TaskGraph(tasks: tasks).topologicalOrder() {
            let task = tasks[i]
            deferred[i] =
                task.delay > 0 || task.after != nil || task.idle || schedule.tasks[i].ready >= answered
                || task.dependsOn.contains { deferred[$0] }
        }
        return deferred
    }

    /// The end of the launch in µs (see the type's documentation).
    public static func end(_ result: SimulationResult) -> Micros {
        let schedule = result.schedule
        let deferred = deferred(schedule)
        var end = max(
            result.metrics.timeToFullDisplay, result.metrics.timeToFirstFrame, schedule.didFinishLaunching.end)
        for (i, run) in schedule.tasks.enumerated() where !deferred[i] { end = max(end, run.end) }
        return end
    }

    /// The latest instant a picture of `result` could show: launch
    /// completion, the first frame, full display, the end of the last input's handler or commit.
    public static func latest(_ result: SimulationResult) -> Micros {
        max(
            result.metrics.launchComplete, result.metrics.timeToFirstFrame, result.metrics.timeToFullDisplay,
            result.schedule.inputs.map(\.end).max() ?? 0, result.schedule.commits.last?.end ?? 0)
    }
}

/// An instant named on the command line (`render --from/--to`): a number of
/// milliseconds since process start, or one of the launch's instants.
public enum TimePoint: Sendable, Equatable {
    /// Microseconds since process start.
    case micros(Micros)
    /// The run loop's start (pre-main ends).
    case t0
    /// Time to first frame.
    case ttff
    /// Time to full display.
    case ttfd
    /// The end of the launch's framing (``LaunchFrame/end(_:)``): the default right edge.
    case launch
    /// The last thing that happens: nothing is folded.
    case end

    /// Parses `t0`, `ttff`, `ttfd`, `launch`, `end` or a number of milliseconds (≥ 0).
    public init?(_ text: String) {
        switch text {
        case "t0": self = .t0
        case "ttff": self = .ttff
        case "ttfd": self = .ttfd
        case "launch": self = .launch
        case "end": self = .end
        default:
            guard let ms = Double(text), ms.isFinite, ms >= 0, ms <= 3_600_000 else { return nil }
            self = .micros(Micros((ms * 1000).rounded()))
        }
    }

    /// The instant in `result`, µs.
    public func resolve(_ result: SimulationResult) -> Micros {
        switch self {
        case .micros(let t): t
        case .t0: result.schedule.t0
        case .ttff: result.metrics.timeToFirstFrame
        case .ttfd: result.metrics.timeToFullDisplay
        case .launch: LaunchFrame.end(result)
        case .end: LaunchFrame.latest(result)
        }
    }
}
