// `--core-speeds` (launchflow replay --emulate, Linux): the scenario's
// performance and efficiency cores emulated with cgroup v1's cpu and cpuset
// controllers. `launchflow replay` creates the emulation's groups (in the
// cpuset hierarchy one with the CPUs of the cores emulated; in the cpu
// hierarchy a group per core, its speed a CFS quota its threads share, and
// one for the items the model leaves waiting) and removes them; the host puts
// itself on core 0 and, whenever an item starts or ends, moves each worker
// thread running a body to the group of the core CorePlacement gives it and
// pins it to that core's CPU (sched_setaffinity) — the model's §7.4 rule
// applied to real threads. The main thread stays on core 0: it is first in
// the first class, so it has core 0 whenever it runs.
//
// A move waits for the kernel's cgroup lock, shared with every process that
// moves threads (0.01 ms at the median here, up to tens of milliseconds on a
// loaded machine): the record gives the moves' time. A group per thread,
// whose quota would change instead, does not work: a core's speed is a quota
// its threads share.

import Foundation
import LaunchflowModel
import LaunchflowRuntime

final class CoreEmulation: @unchecked Sendable {
    /// The cores' speeds in thousandths, fastest first, and the CPU each is.
    let speeds: [Int]
    let cpus: [Int]
    /// The emulation's own group in the cpu and the cpuset hierarchy.
    let cpuGroup: String
    let cpusetGroup: String
    private let lock = NSLock()
    private var mainRunning = false
    /// The worker threads running a body: thread id, its task's QoS, in the order the threads were first seen.
    private var running: [(tid: Int32, qos: LaunchflowModel.QualityOfService)] = []
    /// The worker threads in the order first seen (the order within a class).
    private var seen: [Int32] = []
    /// Where each worker thread was last put.
    private var current: [Int32: CorePlacement] = [:]
    /// Dispatch's threads moved back to core 0.
    private var adopted: Set<Int32> = []
    /// Per task: the place of its thread when its body started ("" for a task that did not run).
    private(set) var started: [String]
    private(set) var moves = 0
    /// The time the changes of core took in all, and the longest, µs.
    private(set) var moveTime: UInt64 = 0
    private(set) var longestMove: UInt64 = 0
    /// The writes that failed (at most a few kept), for the record.
    private(set) var failures: [String] = []

    init(speeds: [Int], cpus: [Int], cpuGroup: String, cpusetGroup: String, tasks: Int) {
        self.speeds = speeds
        self.cpus = cpus
        self.cpuGroup = cpuGroup
        self.cpusetGroup = cpusetGroup
        started = Array(repeating: "", count: tasks)
    }

    /// Puts the whole process (every thread it has; the threads it starts later inherit it) on core 0.
    func enter() {
        put("\(getpid())", into: "\(cpusetGroup)/cgroup.procs")
        put("\(getpid())", into: "\(cpuGroup)/\(CorePlacement.core(0).group)/cgroup.procs")
        pin(0, to: cpus[0])
    }

    /// The main thread starts (`true`) or ends an item (task `index`'s body, or a commit: nil): the
    /// workers' places change with it.
    func main(running busy: Bool, task index: Int? = nil) {
        lock.lock()
        defer { lock.unlock() }
        mainRunning = busy
        if busy, let index { started[index] = CorePlacement.core(0).group }
        replace(except: nil)
    }

    /// The calling worker thread starts task `index`'s body at `qos`.
    func begin(task index: Int, qos: LaunchflowModel.QualityOfService) {
        let tid = Self.threadID()
        lock.lock()
        defer { lock.unlock() }
        if !seen.contains(tid) { seen.append(tid) }
        running.append((tid, qos))
        running.sort { seen.firstIndex(of: $0.tid)! < seen.firstIndex(of: $1.tid)! }
        // Itself last: a thread moved to a slow group while it holds the lock would slow everyone.
        let mine = replace(except: tid)
        move(tid, to: mine)
        started[index] = mine.group
    }

    /// The calling thread, one of Dispatch's (a latency's timer), back on core 0 with the process's other
    /// threads: it may have been started by a worker, and inherited its group and CPU.
    func adopt() {
        let tid = Self.threadID()
        lock.lock()
        defer { lock.unlock() }
        guard !seen.contains(tid), adopted.insert(tid).inserted else { return }
        put("\(tid)", into: "\(cpuGroup)/\(CorePlacement.core(0).group)/tasks")
        pin(tid, to: cpus[0])
    }

    /// The calling worker thread's body ended.
    func end() {
        let tid = Self.threadID()
        lock.lock()
        defer { lock.unlock() }
        running.removeAll { $0.tid == tid }
        replace(except: nil)
    }

    /// Moves every running worker whose place changed (but `skip`); returns `skip`'s place.
    @discardableResult
    private func replace(except skip: Int32?) -> CorePlacement {
        let places = CorePlacement.place(speeds: speeds, mainRunning: mainRunning, workers: running.map(\.qos))
        var skipped = CorePlacement.waiting
        for (k, item) in running.enumerated() {
            if item.tid == skip {
                skipped = places[k]
            } else {
                move(item.tid, to: places[k])
            }
        }
        return skipped
    }

    /// Moves worker thread `tid` to the group of `place` and pins it to its core's CPU (waiting: the
    /// slowest core's, at the least weight).
    private func move(_ tid: Int32, to place: CorePlacement) {
        guard current[tid] != place else { return }
        current[tid] = place
        moves += 1
        let start = DispatchTime.now().uptimeNanoseconds
        put("\(tid)", into: "\(cpuGroup)/\(place.group)/tasks")
        if case .core(let k) = place { pin(tid, to: cpus[k]) } else { pin(tid, to: cpus[cpus.count - 1]) }
        let took = (DispatchTime.now().uptimeNanoseconds - start) / 1000
        moveTime += took
        longestMove = max(longestMove, took)
    }

    /// Pins thread `tid` (0: the calling one) to `cpu` (Linux's sched_setaffinity, looked up at run time:
    /// Glibc declares it only with _GNU_SOURCE).
    private func pin(_ tid: Int32, to cpu: Int) {
        #if os(Linux)
            typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
            guard let symbol = dlsym(nil, "sched_setaffinity") else { return }
            var set = cpu_set_t()
            withUnsafeMutableBytes(of: &set) { $0[cpu / 8] |= UInt8(1 << (cpu % 8)) }
            let status = withUnsafeBytes(of: &set) {
                unsafeBitCast(symbol, to: SetAffinity.self)(tid, $0.count, $0.baseAddress!)
            }
            if status != 0 && failures.count < 5 {
                failures.append("sched_setaffinity(\(tid), CPU \(cpu)): \(String(cString: strerror(errno)))")
            }
        #endif
    }

    private func put(_ text: String, into path: String) {
        let fd = open(path, O_WRONLY)
        let ok = fd >= 0 && text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) } >= 0
        let error = errno
        if fd >= 0 { close(fd) }
        if !ok && failures.count < 5 { failures.append("\(path): \(String(cString: strerror(error)))") }
    }

    /// The calling thread's id, as a cgroup's `tasks` file takes it: /proc/thread-self links to `PID/task/TID`.
    static func threadID() -> Int32 {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 64)
            let n = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard n > 0 else { return 0 }
            let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Int32(text.split(separator: "/").last ?? "") ?? 0
        #else
            return 0  // launchflow passes --core-speeds on Linux only
        #endif
    }

    /// The record's part: each task's group when its body started, the moves, the writes that failed.
    var json: [String: Any] {
        lock.lock()
        defer { lock.unlock() }
        return [
            "started": started, "moves": moves, "failures": failures, "moveTime": Int(moveTime),
            "longestMove": Int(longestMove),
        ]
    }
}
