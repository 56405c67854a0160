import Foundation

/// A value behind a `pthread_mutex_t`, as swift-nio's `NIOLockedValueBox`:
/// the one lock of the runtime's threads. Not Synchronization's `Mutex`:
/// on Linux that waits on a futex directly, which the thread sanitizer
/// cannot see, so every access under it would be reported as a race and the
/// sanitizer run (`make test`) would check nothing.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let status = pthread_mutex_init(mutex, &attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
