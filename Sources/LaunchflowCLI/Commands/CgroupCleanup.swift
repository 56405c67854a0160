import Foundation

/// The cgroups of a `replay --emulate` under way, so that an interrupted
/// launchflow (SIGINT, SIGTERM, SIGHUP) removes them before it dies of the
/// signal: `Sources/launchflow/SignalCleanup.swift` calls
/// ``removeRegistered()``, as it calls `TemporaryFiles.removeRegistered()`.
///
/// As there, the handler walks a fixed table of C strings prepared
/// beforehand and calls system calls only (`kill`, `open`, `read`, `write`,
/// `rmdir`, `nanosleep`), its buffers on the stack. (A plain directory, the
/// tests' fake cgroup root, has its files removed through `opendir` first;
/// a cgroup's `rmdir` never asks for that: it fails with EBUSY, not ENOTEMPTY.)
public enum CgroupCleanup {
    static let capacity = 64

    /// Per slot: a group's directory and its hierarchy's root `tasks` file (never freed: see TemporaryFiles).
    nonisolated(unsafe) private static let slots:
        UnsafeMutablePointer<(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)> = {
            let table = UnsafeMutablePointer<(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)>.allocate(
                capacity: capacity)
            table.initialize(repeating: (nil, nil), count: capacity)
            return table
        }()
    /// The host process running in the groups (0: none), killed first on a signal.
    nonisolated(unsafe) static var child: pid_t = 0
    private static let lock = NSLock()

    /// Prepares the table a signal handler reads (before the handler is installed).
    public static func prepareForSignals() { _ = slots }

    /// Called when the host has ended: during a signal's clean-up, never returns (the handler ends the
    /// process with the signal).
    static func holdIfSignalled() {
        while signalled { pause() }
    }

    /// Records `dirs` (in creation order; removed in the reverse order) for removal on a signal.
    static func register(_ dirs: [String], cpuRoot: String, cpusetRoot: String) {
        lock.lock()
        defer { lock.unlock() }
        var free = (0..<capacity).filter { slots[$0].0 == nil }
        for dir in dirs.reversed() where !free.isEmpty {
            let root = dir.hasPrefix(cpusetRoot + "/") ? cpusetRoot : cpuRoot
            slots[free.removeFirst()] = (strdup(dir), strdup("\(root)/tasks"))
        }
    }

    /// Forgets `dirs` (removed).
    static func unregister(_ dirs: [String]) {
        lock.lock()
        defer { lock.unlock() }
        for k in 0..<capacity {
            if let entry = slots[k].0, dirs.contains(String(cString: entry)) { slots[k] = (nil, nil) }
        }
    }

    /// The registered directories, in the order they are removed (for tests).
    static var registered: [String] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).compactMap { slots[$0].0.map { String(cString: $0) } }
    }

    /// Set by ``removeRegistered()``: the process is about to die of a signal, so the thread waiting for
    /// the host it kills waits on (``holdIfSignalled()``) instead of reporting the host's death and exiting
    /// first with another status.
    nonisolated(unsafe) static var signalled = false

    /// Kills the host, then removes every registered group: what a signal handler calls.
    public static func removeRegistered() {
        signalled = true
        if child > 0 { kill(child, SIGKILL) }
        for k in 0..<capacity {
            if let dir = slots[k].0, let tasks = slots[k].1 { removeGroup(path: dir, rootTasks: tasks) }
        }
    }

    /// Removes the group `dir`: its threads moved to `rootTasks` first, a few tries while a killed
    /// process's threads exit. A plain directory (the tests' fake root) has its files removed first.
    static func removeGroup(path dir: UnsafePointer<CChar>, rootTasks: UnsafePointer<CChar>) {
        for _ in 0..<50 {
            moveThreads(of: dir, to: rootTasks)
            if rmdir(dir) == 0 || errno == ENOENT { return }
            if errno == ENOTEMPTY { removeFiles(in: dir) }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }

    static func removeGroup(_ dir: String, rootTasks: String) {
        removeGroup(path: dir, rootTasks: rootTasks)
    }

    /// Writes each thread id listed in `dir`/tasks to `rootTasks`. Buffers of 1 KiB at most, so that
    /// they are on the stack (a signal handler may not call malloc).
    private static func moveThreads(of dir: UnsafePointer<CChar>, to rootTasks: UnsafePointer<CChar>) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { path in
            guard join(dir, "/tasks", into: path) else { return }
            let fd = open(path.baseAddress!, O_RDONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let out = open(rootTasks, O_WRONLY)
            guard out >= 0 else { return }
            defer { close(out) }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
                var id = 0
                while true {
                    let n = read(fd, buffer.baseAddress!, buffer.count)
                    guard n > 0 else { break }
                    for i in 0..<n {
                        if buffer[i] >= UInt8(ascii: "0") && buffer[i] <= UInt8(ascii: "9") {
                            id = id * 10 + Int(buffer[i] - UInt8(ascii: "0"))
                        } else if id > 0 {
                            writeNumber(id, to: out)
                            id = 0
                        }
                    }
                }
                if id > 0 { writeNumber(id, to: out) }
            }
        }
    }

    /// Writes `n` in decimal to `fd` in one write (a cgroup's `tasks` takes one id per write).
    private static func writeNumber(_ n: Int, to fd: Int32) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var k = digits.count
            var rest = n
            repeat {
                k -= 1
                digits[k] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            _ = write(fd, digits.baseAddress! + k, digits.count - k)
        }
    }

    /// Unlinks the entries of a plain directory (on a cgroup file system unlink fails and nothing changes).
    private static func removeFiles(in dir: UnsafePointer<CChar>) {
        guard let stream = opendir(dir) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { path in
                var name = entry.pointee.d_name
                withUnsafeBytes(of: &name) { raw in
                    let bytes = raw.bindMemory(to: CChar.self)
                    guard bytes[0] != 0, !(bytes[0] == 46 && (bytes[1] == 0 || (bytes[1] == 46 && bytes[2] == 0)))
                    else { return }
                    guard join(dir, "/", into: path) else { return }
                    let used = strlen(path.baseAddress!)
                    var i = 0
                    while i < bytes.count && bytes[i] != 0 && used + i < path.count - 1 {
                        path[used + i] = bytes[i]
                        i += 1
                    }
                    path[used + i] = 0
                    unlink(path.baseAddress!)
                }
            }
        }
    }

    /// `a` + `b` into `path` (nul-terminated); false when it does not fit.
    private static func join(_ a: UnsafePointer<CChar>, _ b: StaticString, into path: UnsafeMutableBufferPointer<CChar>)
        -> Bool
    {
        let n = strlen(a)
        let m = b.utf8CodeUnitCount
        guard n + m < path.count else { return false }
        for i in 0..<n { path[i] = a[i] }
        for i in 0..<m { path[n + i] = CChar(bitPattern: b.utf8Start[i]) }
        path[n + m] = 0
        return true
    }
}
