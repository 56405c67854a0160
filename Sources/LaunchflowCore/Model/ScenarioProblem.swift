/// One thing wrong with a scenario file, located by JSON path and task.
public struct ScenarioProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// Where in the document: `tasks[3].dependsOn[0]`, `device.cores`; empty for the whole file.
    public var path: String
    /// The id of the task the problem is in, when known.
    public var taskID: String?
    /// 1-based line and column, for syntax errors.
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(
        file: String, path: String = "", taskID: String? = nil,
        line: Int? = nil, column: Int? = nil, message: String
    ) {
        self.file = file
        self.path = path
        self.taskID = taskID
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE: tasks[3].cost (task 'net'): must be …` or `FILE:4:12: invalid JSON: …`.
    public var description: String {
        var text = file
        if let line, let column { text += ":\(line):\(column)" }
        text += ": "
        if !path.isEmpty {
            text += path
            if let taskID { text += " (task '\(taskID)')" }
            text += ": "
        }
        return text + message
    }
}

/// A scenario that cannot be used, with every problem found in it.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public var problems: [ScenarioProblem]

    public init(_ problems: [ScenarioProblem]) { self.problems = problems }

    /// One line per problem, each starting with `error: `.
    public var description: String { problems.map { "error: \($0)" }.joined(separator: "\n") }
}
