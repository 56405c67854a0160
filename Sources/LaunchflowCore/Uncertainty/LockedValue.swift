import Foundation

/// A value behind a lock: the simulator's stand-in for Synchronization's
/// `Mutex`, which needs macOS 15 where the package builds for macOS 13.
///
/// Its API is `Mutex`'s (`withLock`, the value `sending` in and out), so it
/// is `Sendable` for any value as `Mutex` is: the value is only reached
/// through `withLock`, one thread at a time. A class, because a lock has an
/// identity: the threads share this one. `NSLock` is a pthread mutex on
/// both Linux and Darwin. The value is copyable: a noncopyable generic
/// argument needs the Swift 6 runtime's metadata, which macOS 13 lacks.
package final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value, the lock held.
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension LockedValue where Value == Int {
    /// Adds `amount` and returns the new value (a counter shared by threads).
    package func add(_ amount: Int) -> Int {
        withLock { value in
            value += amount
            return value
        }
    }
}
