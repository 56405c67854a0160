import Foundation

/// The temporary files of writes under way, so that a process interrupted
/// (SIGINT, SIGTERM, SIGHUP) can remove them before it dies of the signal:
/// Ctrl-C in the middle of a 20 MB write leaves nothing behind.
///
/// A library installs no signal handler in the process that links it: the
/// `launchflow` executable does (`Sources/launchflow/SignalCleanup.swift`),
/// and its handler calls ``removeRegistered()``. An app or tool that links
/// LaunchflowCore and wants the same installs its own handler that calls it.
///
/// The handler may only call async-signal-safe functions: the table it walks
/// is a fixed array of C strings, and ``removeRegistered()`` calls `unlink`
/// only.
///
/// `kill -9` cannot be caught: ``removeAbandoned(in:prefix:)`` clears what
/// such a run left when the same file is next written.
public enum TemporaryFiles {
    /// At most this many writes at once keep their temporary file registered.
    static let capacity = 64

    /// The table the handler reads: a slot is nil or a C string that is never
    /// freed (the handler may be reading it on another thread; a path per
    /// write is all it costs).
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()

    private static let lock = NSLock()

    /// Prepares the table a signal handler reads: call it before installing
    /// the handler, so that the handler never initialises it.
    public static func prepareForSignals() {
        _ = slots
    }

    /// Records `path` for removal on a signal.
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for k in 0..<capacity where slots[k] == nil {
            slots[k] = strdup(path)
            return
        }
    }

    /// Forgets `path` (written and renamed, or removed).
    static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for k in 0..<capacity {
            if let entry = slots[k], String(cString: entry) == path {
                slots[k] = nil  // the string is not freed: see `slots`
                return
            }
        }
    }

    /// The registered paths (for tests).
    static var registered: [String] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).compactMap { slots[$0].map { String(cString: $0) } }
    }

    /// Removes every registered file: what a signal handler calls
    /// (async-signal-safe: `unlink` only, on a table prepared beforehand).
    public static func removeRegistered() {
        for k in 0..<capacity {
            if let entry = slots[k] { unlink(entry) }
        }
    }

    /// Removes the temporary files `.<name>.tmp-<pid>-<hex>` in `directory`
    /// whose process no longer runs (left by `kill -9` or a power cut);
    /// those of a running process, this one included, are left alone.
    static func removeAbandoned(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard rest.count == 2, let pid = pid_t(rest[0]), pid > 0, UInt32(rest[1], radix: 16) != nil,
                pid != getpid()
            else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }
}
