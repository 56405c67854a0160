/// Handed to a ``TaskBody/completion(onMain:_:)`` body: call it once, from
/// any thread, when the task's asynchronous work is done. A second call is
/// reported in the launch's record (``LaunchRecord/problems``), never fatal.
public final class TaskCompletion: Sendable {
    private let called = Locked(false)
    private let finish: @Sendable () -> Void
    private let calledTwice: @Sendable () -> Void

    init(finish: @escaping @Sendable () -> Void, calledTwice: @escaping @Sendable () -> Void) {
        self.finish = finish
        self.calledTwice = calledTwice
    }

    /// The task's work is done.
    public func callAsFunction() {
        let calledBefore = called.withLock { called in
            defer { called = true }
            return called
        }
        if calledBefore {
            calledTwice()
        } else {
            finish()
        }
    }
}
