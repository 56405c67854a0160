import Foundation
import LaunchflowModel

/// A launch's metrics as the simulator names them (MODEL.md §5, docs/model.md),
/// from what the runtime recorded: a small `Codable` value for an app's
/// telemetry (``LaunchRecord/metrics``). Times are milliseconds from the
/// launch clock's origin (the process's start when `Launch(origin:)` says so).
///
/// The values are those `launchflow replay` computes from the same run
/// (the simulator's rules over the recorded schedule), e.g.
/// ``timeToFirstFrameMs`` is when the commit of the iteration that ran the
/// last `firstFrame` task was presented.
public struct LaunchMetrics: Codable, Sendable, Equatable {
    /// The strategy the launch ran.
    public var strategy: String
    /// Apple's time to first draw (MetricKit, the App Launch instrument): the
    /// end of the first run-loop iteration's commit, whatever it shows.
    public var firstDrawMs: Double
    /// The first frame: the presentation of the commit of the iteration that
    /// ran the last `firstFrame` task (iteration 0's without such tasks).
    public var timeToFirstFrameMs: Double
    /// That commit's end plus the render time, before the vsync.
    public var firstFrameReadyMs: Double
    /// Full display: the presentation of the commit of the iteration that ran
    /// the last `fullyDrawn` task, or the first frame if that is later.
    public var timeToFullDisplayMs: Double
    /// The later of the last task's done time and the end of the last commit
    /// of an iteration that ran work.
    public var launchCompleteMs: Double
    /// How long `didFinishLaunching` blocked the main thread waiting.
    public var mainThreadBlockedMs: Double
    /// Each task, in the scenario's order.
    public var tasks: [Task]

    /// One task's times.
    public struct Task: Codable, Sendable, Equatable {
        public var id: String
        /// 0 is `main`, k is `worker-k`.
        public var thread: Int
        /// From ready to started: how long it waited for a thread (or the main queue).
        public var waitMs: Double
        /// Its body's wall time, start to end.
        public var runMs: Double
        /// Its body's thread CPU time (`CLOCK_THREAD_CPUTIME_ID`): `runMs`
        /// less what it waited for (I/O, a lock, another thread on its CPU);
        /// nil (left out of the JSON) unless ``LaunchConfiguration/recordsCPUTime``.
        public var cpuMs: Double?
        /// From its body's end to done (its completion called): the measured latency.
        public var latencyMs: Double
        /// `succeeded`, `failed`, `skipped`, `cancelled` or `notRun`.
        public var outcome: String
    }

    /// The metrics of `schedule` (a runtime's record: at least one commit).
    init(_ schedule: Schedule, cpuTimes: [Micros]?, outcomes: [TaskOutcome]) {
        let specs = schedule.scenario.tasks
        let runs = schedule.tasks
        let commits = schedule.commits
        // The simulator's rules (LaunchflowCore's Milestones), over the recorded schedule.
        let firstIteration = specs.indices.filter { specs[$0].firstFrame }.map { Int(runs[$0].iteration) }.max() ?? 0
        let fullIteration = specs.indices.filter { specs[$0].fullyDrawn }.map { Int(runs[$0].iteration) }.max()
        let firstFrame = commits[firstIteration].presented
        let fullDisplay = fullIteration.map { max(commits[$0].presented, firstFrame) } ?? firstFrame
        let lastDone = runs.map(\.done).max() ?? 0
        let lastWorkCommit = commits.last(where: \.ranWork)?.end ?? 0
        strategy = schedule.strategy.rawValue
        firstDrawMs = Self.ms(commits[0].end)
        timeToFirstFrameMs = Self.ms(firstFrame)
        firstFrameReadyMs = Self.ms(commits[firstIteration].end + schedule.scenario.device.renderTime)
        timeToFullDisplayMs = Self.ms(fullDisplay)
        launchCompleteMs = Self.ms(max(lastDone, lastWorkCommit))
        mainThreadBlockedMs = Self.ms(schedule.blocked.reduce(0) { $0 + $1.duration })
        tasks = specs.indices.map { i in
            Task(
                id: specs[i].id, thread: Int(runs[i].thread), waitMs: Self.ms(runs[i].wait),
                runMs: Self.ms(runs[i].end - runs[i].start), cpuMs: cpuTimes.map { Self.ms($0[i]) },
                latencyMs: Self.ms(runs[i].done - runs[i].end), outcome: outcomes[i].name)
        }
    }

    private static func ms(_ micros: Micros) -> Double { Double(micros) / 1000 }
}

extension TaskOutcome {
    /// The outcome's case, for telemetry.
    var name: String {
        switch self {
        case .notRun: "notRun"
        case .waiting: "waiting"
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .skipped: "skipped"
        case .cancelled: "cancelled"
        }
    }
}
