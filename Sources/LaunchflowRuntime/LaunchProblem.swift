import LaunchflowModel

/// How one task's run ended.
public enum TaskOutcome: Sendable, Equatable {
    /// Not started (yet).
    case notRun
    /// Its body returned; waiting for its completion.
    case waiting
    case succeeded
    /// It threw (the error's description), or its completion timed out.
    case failed(String)
    /// Not run because the task with this id failed before it, with ``FailurePolicy/skipDependents``.
    case skipped(because: String)
    /// Not run: handed to a worker after the launch had ended (``LaunchProblem/Kind/taskCancelled``),
    /// or waiting in the main queue when `didFinishLaunching` failed.
    case cancelled
}

/// Something that went wrong while the launch ran, with the task it concerns.
public struct LaunchProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The body threw.
        case taskFailed
        /// A completion not called within ``LaunchConfiguration/completionTimeout``.
        case completionTimedOut
        /// A completion called a second time (ignored).
        case completionCalledTwice
        /// Dependents not run because a task failed.
        case dependentsSkipped
        /// Handed to a worker after the launch had ended: not run.
        case taskCancelled
    }

    /// The task's id.
    public var task: String
    public var kind: Kind
    public var message: String

    public var description: String { message }
}

/// Refused before anything runs, or while `didFinishLaunching` would wait
/// forever: every problem, each naming the file (when one is given), the
/// place and the key — the same diagnostics `launchflow validate` prints.
public struct LaunchError: Error, Sendable, CustomStringConvertible {
    public var problems: [Diagnostic]

    public init(_ problems: [Diagnostic]) { self.problems = problems }

    /// One line per problem, each starting with `error: ` (or `warning: `).
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
