import Synchronization

/// Handed to a ``TaskBody/completion(onMain:_:)`` body: call it once, from
/// any thread, when the task's asynchronous work is done. A second call is
/// reported in the launch's record (``LaunchRecord/problems``), never fatal.
public final class TaskCompletion: Sendable {
    private let called = Atomic<Bool>(false)
    private let finish: @Sendable () -> Void
    private let calledTwice: @Sendable () -> Void

    init(finish: @escaping @Sendable () -> Void, calledTwice: @escaping @Sendable () -> Void) {
        self.finish = finish
        self.calledTwice = calledTwice
    }

    /// The task's work is done.
    public func callAsFunction() {
        if called.exchange(true, ordering: .acquiringAndReleasing) {
            calledTwice()
        } else {
            finish()
        }
    }
}
