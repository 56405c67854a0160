import Foundation

/// A value behind a `pthread_mutex_t`, as swift-nio's `NIOLockedValueBox`:
/// the one lock of the runtime's threads. Not Synchronization's `Mutex`
/// (iOS 18 / macOS 15, above the runtime's deployment targets; and on Linux
/// it waits on a futex directly, which the thread sanitizer cannot see, so
/// every access under it would be reported as a race and the sanitizer run
/// of `make test` would check nothing).
///
/// The mutex is `PTHREAD_MUTEX_ERRORCHECK` and every pthread call's result
/// is checked: `withLock` re-entered on the thread that holds the lock traps
/// with `EDEADLK` named, instead of running its body unlocked and then
/// releasing the outer caller's lock.
package final class Locked<Value> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        var attributes = pthread_mutexattr_t()
        check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
    }

    deinit {
        check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held. Never call it again from
    /// `body` (on this lock): that traps.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        defer { check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
        return try body(&value)
    }
}

// @unchecked: `value` is only read or written with `mutex` held (`withLock`), and the
// pointer to the mutex never changes; a value that is not Sendable cannot be shared this way.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// Traps unless a pthread call returned 0, naming the call and the error
/// (in release builds too: the message is what a crash log then says).
@inline(__always)
private func check(_ status: Int32, _ call: StaticString) {
    if status != 0 { failed(status, call) }
}

@inline(never)
private func failed(_ status: Int32, _ call: StaticString) -> Never {
    fatalError("launchflow: \(call) failed: \(describe(status))")
}

private func describe(_ status: Int32) -> String {
    switch status {
    case EDEADLK: "EDEADLK (the lock is already held by this thread: withLock was re-entered)"
    case EPERM: "EPERM (the lock is not held by this thread)"
    case EBUSY: "EBUSY (the lock is held)"
    case EINVAL: "EINVAL"
    case ENOMEM: "ENOMEM"
    case EAGAIN: "EAGAIN"
    default: "error \(status)"
    }
}
