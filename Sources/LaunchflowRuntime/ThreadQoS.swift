import Foundation
import LaunchflowModel

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A task's quality of service at run time (`tasks[].qos`, MODEL.md §3.13):
/// what the task asked for and what its body ran at (docs/runtime.md,
/// "Quality of service").
public struct TaskQoS: Sendable, Equatable {
    /// What the task's body ran at.
    public enum Applied: Sendable, Equatable {
        /// Nothing to change: a `default` task (the workers run at `default`,
        /// the main thread at its own).
        case unchanged
        /// On Apple platforms: the worker's QoS class for the body
        /// (`pthread_set_qos_class_self_np`), its own again afterwards.
        case qosClass(Foundation.QualityOfService)
        /// On Linux: the worker's nice value for the body (`setpriority`), its
        /// own again afterwards.
        case nice(Int)
        /// An `async` body: its `Task.detached(priority:)` (the QoS class the
        /// priority stands for: `userInteractive` has none above `userInitiated`).
        case taskPriority(Foundation.QualityOfService)
        /// Not applied, and why (the main thread keeps its own; the OS refused).
        case notApplied(String)
    }

    /// The task's `qos`: the file's, else the code's (`default` when neither says).
    public let requested: Foundation.QualityOfService
    public let applied: Applied
    /// Why the worker could not go back to its own level after the body
    /// (later tasks on that worker then start from where it was left); nil: it did.
    public let notRestored: String?

    public init(requested: Foundation.QualityOfService, applied: Applied, notRestored: String? = nil) {
        self.requested = requested
        self.applied = applied
        self.notRestored = notRestored
    }

    /// What the trace's task slice says (`qosApplied`): `nice 10`, `background`, `not applied: …`.
    var traceText: String? {
        switch applied {
        case .unchanged: nil
        case .qosClass(let qos): LaunchflowModel.QualityOfService(qos).rawValue
        case .nice(let nice): "nice \(nice)" + (notRestored.map { " (not restored: \($0))" } ?? "")
        case .taskPriority(let qos): "Task priority \(LaunchflowModel.QualityOfService(qos).rawValue)"
        case .notApplied(let why): "not applied: \(why)"
        }
    }
}

extension Foundation.QualityOfService {
    init(_ qos: LaunchflowModel.QualityOfService) {
        switch qos {
        case .userInteractive: self = .userInteractive
        case .userInitiated: self = .userInitiated
        case .default: self = .default
        case .utility: self = .utility
        case .background: self = .background
        }
    }
}

/// Where a worker's body runs at the task's QoS, and back (ThreadQoS.enter / leave).
struct ThreadLevel {
    #if canImport(Darwin)
        let qosClass: qos_class_t
        let relativePriority: Int32
    #else
        let nice: Int
    #endif
}

/// A task's QoS on the calling worker thread: ``enter(_:)`` before the body,
/// ``leave(_:)`` after it. A `default` task costs nothing (no system call).
enum ThreadQoS {
    /// Takes `qos` on this worker thread: what was applied, and the level to
    /// go back to (nil: nothing was changed).
    static func enter(_ qos: LaunchflowModel.QualityOfService) -> (TaskQoS.Applied, ThreadLevel?) {
        if qos == .default { return (.unchanged, nil) }
        #if canImport(Darwin)
            var own = QOS_CLASS_DEFAULT
            var relative: Int32 = 0
            _ = pthread_get_qos_class_np(pthread_self(), &own, &relative)
            let status = pthread_set_qos_class_self_np(qos.qosClass, 0)
            guard status == 0 else {
                return (.notApplied("pthread_set_qos_class_self_np failed: \(String(cString: strerror(status)))"), nil)
            }
            return (.qosClass(Foundation.QualityOfService(qos)), ThreadLevel(qosClass: own, relativePriority: relative))
        #elseif os(Linux)
            errno = 0
            let own = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
            guard errno == 0 else { return (.notApplied("getpriority failed: \(errorText(errno))"), nil) }
            switch NiceLevels.plan(own: own, qos: qos, lowest: NiceLevels.lowestAllowed) {
            case .keep(let nice):
                return (.nice(nice), nil)
            case .refused(let why):
                return (.notApplied(why), nil)
            case .set(let nice):
                guard setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Int32(nice)) == 0 else {
                    return (.notApplied("setpriority(\(nice)) failed: \(errorText(errno))"), nil)
                }
                return (.nice(nice), ThreadLevel(nice: own))
            }
        #else
            return (.notApplied("this platform has no thread QoS the runtime knows"), nil)
        #endif
    }

    /// Takes the worker's own level again; nil, or why it could not.
    static func leave(_ level: ThreadLevel) -> String? {
        #if canImport(Darwin)
            // A thread started without a class reports QOS_CLASS_UNSPECIFIED, which cannot be set: default.
            let own = level.qosClass == QOS_CLASS_UNSPECIFIED ? QOS_CLASS_DEFAULT : level.qosClass
            let status = pthread_set_qos_class_self_np(own, level.relativePriority)
            return status == 0 ? nil : "pthread_set_qos_class_self_np failed: \(String(cString: strerror(status)))"
        #elseif os(Linux)
            guard setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Int32(level.nice)) == 0 else {
                return "setpriority(\(level.nice)) failed: \(errorText(errno))"
            }
            return nil
        #else
            return nil
        #endif
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Linux: a task's QoS as a nice value, relative to the worker's own (the
/// process's, which each thread inherits). Linux's nice is per thread, and
/// `setpriority(PRIO_PROCESS, 0, n)` sets the calling thread's.
enum NiceLevels {
    /// The offset of each QoS from the worker's own nice (docs/runtime.md):
    /// Android's top-app boost (−10) for `userInteractive`, its
    /// `THREAD_PRIORITY_BACKGROUND` (+10) for `background`.
    static func offset(_ qos: LaunchflowModel.QualityOfService) -> Int {
        switch qos {
        case .userInteractive: -10
        case .userInitiated: -5
        case .default: 0
        case .utility: 5
        case .background: 10
        }
    }

    enum Plan: Equatable {
        /// The worker is at that level already.
        case keep(Int)
        /// Set it, and set the worker's own back afterwards.
        case set(Int)
        case refused(String)
    }

    /// What to do for `qos` on a worker at nice `own`, when this process may
    /// set no nice below `lowest`: a level the worker could not leave again
    /// (back to `own` is a lower nice) is not taken.
    static func plan(own: Int, qos: LaunchflowModel.QualityOfService, lowest: Int) -> Plan {
        let target = Swift.min(19, Swift.max(-20, own + offset(qos)))
        if target == own { return .keep(own) }
        let needed = Swift.min(target, own)
        guard needed >= lowest else {
            let why =
                target < own
                ? "nice \(target) is below \(lowest), the lowest this process may set"
                : "nice \(target) could not be undone: back to \(own) is below \(lowest), the lowest this process may set"
            return .refused(why + " (no CAP_SYS_NICE; RLIMIT_NICE allows down to \(lowest))")
        }
        return .set(target)
    }

    #if os(Linux)
        /// The lowest nice this process may set: −20 with CAP_SYS_NICE, else
        /// `20 − RLIMIT_NICE` (setpriority(2), getrlimit(2)). Read once.
        static let lowestAllowed: Int = {
            if hasSysNice() { return -20 }
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(__RLIMIT_NICE.rawValue), &limit) == 0 else { return 20 }
            if limit.rlim_cur >= 40 { return -20 }
            return 20 - Int(limit.rlim_cur)
        }()

        /// CAP_SYS_NICE (capability 23) in the effective set (`CapEff` of /proc/self/status).
        private static func hasSysNice() -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
                let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << 23) != 0
        }
    #endif
}

extension LaunchflowModel.QualityOfService {
    /// The scenario's QoS of Foundation's (same names).
    init(_ qos: Foundation.QualityOfService) {
        switch qos {
        case .userInteractive: self = .userInteractive
        case .userInitiated: self = .userInitiated
        case .utility: self = .utility
        case .background: self = .background
        default: self = .default
        }
    }

    #if canImport(Darwin)
        /// The Darwin QoS class (`<sys/qos.h>`).
        var qosClass: qos_class_t {
            switch self {
            case .userInteractive: QOS_CLASS_USER_INTERACTIVE
            case .userInitiated: QOS_CLASS_USER_INITIATED
            case .default: QOS_CLASS_DEFAULT
            case .utility: QOS_CLASS_UTILITY
            case .background: QOS_CLASS_BACKGROUND
            }
        }
    #endif

    /// The Swift concurrency priority an `async` body starts at: `TaskPriority`'s
    /// raw values are the QoS classes' (`userInteractive` has no priority of its own: `high`).
    var taskPriority: (priority: TaskPriority, qos: LaunchflowModel.QualityOfService) {
        switch self {
        case .userInteractive, .userInitiated: (.userInitiated, .userInitiated)
        case .default: (.medium, .default)
        case .utility: (.utility, .utility)
        case .background: (.background, .background)
        }
    }
}
