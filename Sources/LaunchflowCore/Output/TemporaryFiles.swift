import Foundation

/// The temporary files of writes under way, removed when the process is
/// interrupted (SIGINT, SIGTERM, SIGHUP) before it dies of the signal, so
/// that Ctrl-C in the middle of a 20 MB write leaves nothing behind.
///
/// The signal handler may only call async-signal-safe functions: it walks a
/// fixed table of C strings and calls `unlink`, then restores the default
/// action and raises the signal again (the exit status stays "killed by
/// SIGTERM"). A disposition someone set before us (`nohup`'s ignored
/// SIGHUP) is kept: the handler is installed only over the default one.
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
    nonisolated(unsafe) private static var installed = false

    /// Records `path` for removal on a signal (installs the handlers the first time).
    static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if !installed {
            installed = true
            _ = slots  // initialised before any handler can read it
            for signal in [SIGINT, SIGTERM, SIGHUP] { installHandler(signal) }
        }
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

    /// Removes every registered file: what the signal handler does, callable
    /// from code (async-signal-safe: `unlink` only).
    static func removeRegistered() {
        for k in 0..<capacity {
            if let entry = slots[k] { unlink(entry) }
        }
    }

    private static func installHandler(_ signal: Int32) {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return }
        #if os(Linux)
            let isDefault = current.__sigaction_handler.sa_handler == nil
        #else
            let isDefault = current.__sigaction_u.__sa_handler == nil
        #endif
        guard isDefault else { return }  // ignored or handled by someone else: keep it
        var action = sigaction()
        #if os(Linux)
            action.__sigaction_handler.sa_handler = { signal in
                TemporaryFiles.removeRegistered()
                Foundation.signal(signal, SIG_DFL)
                raise(signal)
            }
        #else
            action.__sigaction_u.__sa_handler = { signal in
                TemporaryFiles.removeRegistered()
                Foundation.signal(signal, SIG_DFL)
                raise(signal)
            }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(signal, &action, nil)
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
