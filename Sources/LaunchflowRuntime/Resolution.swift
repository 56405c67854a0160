import LaunchflowModel

/// The launch to run: the scenario (from code alone, or a scenario or plan
/// file merged with the code) and each task's body, in the scenario's order.
struct ResolvedLaunch: Sendable {
    let scenario: Scenario
    let bodies: [TaskBody]
    /// The strategy to run: the code's, else the file's `"strategy"`, else `dag`.
    let strategy: Strategy
    /// (§3.12) The launch phase the strategy starts in: the code's, else the file's, else `didFinishLaunching`.
    var startsIn = Scenario.defaultStartsIn
    /// Differences between the code and the file that do not stop the launch
    /// (a dependency only one of them declares: kept).
    var warnings: [Diagnostic]
}

/// Code and file together (docs/runtime.md, "Applying a plan"): the file wins
/// for every scheduling key; a dependency either declares is kept (the code
/// knows what data a task reads), and a difference is reported. Every
/// problem is collected before anything runs.
enum Resolution {
    static func resolve(
        _ graph: LaunchGraph, file: String?, workers: Int, strategy: Strategy? = nil, startsIn: String? = nil
    ) throws(LaunchError) -> ResolvedLaunch {
        var problems: [Diagnostic] = []
        var byID: [String: Int] = [:]
        for (k, task) in graph.tasks.enumerated() {
            if byID[task.id] != nil {
                problems.append(
                    Diagnostic(
                        file: "", path: "tasks", taskID: task.id, message: "task '\(task.id)' is declared twice",
                        kind: .duplicateID))
            } else {
                byID[task.id] = k
            }
        }
        guard let file else {
            var resolved = try fromCode(graph, byID: byID, workers: workers, strategy: strategy, problems: problems)
            resolved.startsIn = startsIn ?? Scenario.defaultStartsIn
            return resolved
        }
        let loaded: Scenario
        do {
            loaded = try ScenarioLoader.load(path: file)
        } catch {
            // The file's problems, and the code's own (duplicates above, unknown dependencies, a cycle).
            var codeProblems: [Diagnostic] = []
            do {
                _ = try fromCode(graph, byID: byID, workers: workers, strategy: strategy, problems: problems)
            } catch let refusal {
                codeProblems = refusal.problems
            }
            throw LaunchError(codeProblems.isEmpty ? problems + error.problems : codeProblems + error.problems)
        }
        var resolved = try merge(graph, byID: byID, with: loaded, file: file, strategy: strategy, problems: problems)
        resolved.startsIn =
            startsIn ?? (loaded.launchPhases.isEmpty ? nil : loaded.startsIn) ?? Scenario.defaultStartsIn
        // The file's startsIn (when it has launch phases) is where the launch starts, unless the code pins another.
        if let startsIn, !loaded.launchPhases.isEmpty, startsIn != loaded.startsIn ?? Scenario.defaultStartsIn {
            resolved.warnings.append(
                Diagnostic(
                    .warning, file: file, path: "startsIn",
                    message:
                        "the code says startsIn \(startsIn), the file says \(loaded.startsIn ?? Scenario.defaultStartsIn); "
                        + "the code's wins (leave LaunchConfiguration(startsIn:) nil to start in the file's)"))
        }
        return resolved
    }

    private static func check(_ problems: [Diagnostic]) throws(LaunchError) {
        if !problems.isEmpty { throw LaunchError(problems) }
    }

    /// The scenario of the code alone: a device with the pool's cores.
    private static func fromCode(
        _ graph: LaunchGraph, byID: [String: Int], workers: Int, strategy: Strategy?, problems: [Diagnostic]
    ) throws(LaunchError) -> ResolvedLaunch {
        var problems = problems
        var tasks: [LaunchTask] = []
        for declaration in graph.tasks {
            let keys = declaration.keys
            var dependsOn: [Int] = []
            for (j, dependency) in keys.dependsOn.enumerated() {
                if let d = byID[dependency] {
                    dependsOn.append(d)
                } else {
                    problems.append(
                        Diagnostic(
                            file: "", path: "dependsOn[\(j)] in code", taskID: declaration.id,
                            message: "unknown task '\(dependency)'",
                            suggestion: closestMatch(to: dependency, in: graph.tasks.map(\.id))))
                }
            }
            tasks.append(
                LaunchTask(
                    id: declaration.id, cost: microseconds(fromMilliseconds: keys.costMs),
                    mainThreadOnly: declaration.body.needsMainThread, priority: keys.priority,
                    dependsOn: dependsOn, firstFrame: keys.firstFrame,
                    delay: microseconds(fromMilliseconds: keys.delayMs), queue: keys.queue, idle: keys.idle,
                    anchor: keys.anchor, group: keys.group, after: keys.afterFirstFrame ? .firstFrame : nil,
                    fullyDrawn: keys.fullyDrawn, qos: LaunchflowModel.QualityOfService(keys.qos)))
        }
        // The scenario's own checks (a cycle among them) with the problems above, unless an id repeats.
        let repeated = problems.contains { $0.kind == .duplicateID }
        let scenario: Scenario
        do {
            scenario = try Scenario(
                name: "launch", device: Device(cores: workers + 1), tasks: tasks, strategy: strategy ?? .dag)
        } catch {
            throw LaunchError(problems + (repeated ? [] : error.problems))
        }
        try check(problems)
        return ResolvedLaunch(
            scenario: scenario, bodies: graph.tasks.map(\.body), strategy: strategy ?? .dag, warnings: [])
    }

    /// The file's scenario with the code's bodies and dependencies.
    private static func merge(
        _ graph: LaunchGraph, byID: [String: Int], with loaded: Scenario, file: String, strategy: Strategy?,
        problems: [Diagnostic]
    ) throws(LaunchError) -> ResolvedLaunch {
        var merging = Merging(graph: graph, byID: byID, loaded: loaded, file: file, problems: problems)
        merging.checkStrategy(strategy)
        merging.checkCodeTasksInFile()
        var tasks = loaded.tasks
        var bodies: [TaskBody] = []
        for (i, task) in loaded.tasks.enumerated() {
            guard let declaration = merging.declaration(of: task, at: i) else { continue }
            bodies.append(declaration.body)
            tasks[i].dependsOn = merging.merge(declaration, into: task, at: i)
        }
        let scenario = try merging.scenario(tasks, strategy: strategy)
        try check(merging.problems)
        return ResolvedLaunch(
            scenario: scenario, bodies: bodies, strategy: strategy ?? loaded.strategy ?? .dag,
            warnings: merging.warnings)
    }

    /// One merge of code and file under way: what it has found so far.
    private struct Merging {
        let graph: LaunchGraph
        let byID: [String: Int]
        let loaded: Scenario
        let file: String
        /// The file's task ids, each to its index (the first, when one repeats: the file's own check says so).
        let fileIDs: [String: Int]
        var problems: [Diagnostic]
        var warnings: [Diagnostic] = []

        init(graph: LaunchGraph, byID: [String: Int], loaded: Scenario, file: String, problems: [Diagnostic]) {
            self.graph = graph
            self.byID = byID
            self.loaded = loaded
            self.file = file
            self.problems = problems
            fileIDs = Dictionary(loaded.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// The file's "strategy" is the one the app runs, unless the code pins one (reported when they differ).
        mutating func checkStrategy(_ strategy: Strategy?) {
            guard let strategy, let planned = loaded.strategy, strategy != planned else { return }
            warnings.append(
                Diagnostic(
                    .warning, file: file, path: "strategy",
                    message:
                        "the code says strategy \(strategy.rawValue), the file says \(planned.rawValue); "
                        + "the code's wins (leave LaunchConfiguration(strategy:) nil to run the file's)"))
        }

        /// Every task the code declares is in the file.
        mutating func checkCodeTasksInFile() {
            for declaration in graph.tasks where fileIDs[declaration.id] == nil {
                problems.append(
                    Diagnostic(
                        file: file, path: "tasks", taskID: declaration.id,
                        message: "task '\(declaration.id)' is declared in code but not in the file",
                        suggestion: closestMatch(to: declaration.id, in: loaded.tasks.map(\.id))))
            }
        }

        /// The code's declaration of the file's task `i` (nil, reported, when the code has no body for it),
        /// whose body runs where the file says.
        mutating func declaration(of task: LaunchTask, at i: Int) -> TaskDeclaration? {
            guard let k = byID[task.id] else {
                problems.append(
                    Diagnostic(
                        file: file, path: "tasks[\(i)]", taskID: task.id,
                        message: "task '\(task.id)' has no body in code",
                        suggestion: closestMatch(to: task.id, in: graph.tasks.map(\.id))))
                return nil
            }
            let declaration = graph.tasks[k]
            if declaration.body.needsMainThread && !task.mainThreadOnly {
                problems.append(
                    Diagnostic(
                        file: file, path: "tasks[\(i)].mainThreadOnly", taskID: task.id,
                        message:
                            "the code runs task '\(task.id)' on the main thread, the file says mainThreadOnly: false"))
            }
            return declaration
        }

        /// The file wins for the keys (what the code said otherwise is reported); the dependencies are
        /// the file's and the code's together. Returns the task's dependencies.
        mutating func merge(_ declaration: TaskDeclaration, into task: LaunchTask, at i: Int) -> [Int] {
            for key in overridden(declaration.keys, by: task) {
                warnings.append(
                    Diagnostic(
                        .warning, file: file, path: "tasks[\(i)]", taskID: task.id,
                        message: "the code says \(key) for task '\(task.id)', the file does not; the file's keys win"))
            }
            var dependsOn = task.dependsOn
            for (j, dependency) in declaration.keys.dependsOn.enumerated() {
                guard let d = fileIDs[dependency] else {
                    problems.append(
                        Diagnostic(
                            file: "", path: "dependsOn[\(j)] in code", taskID: task.id,
                            message: "unknown task '\(dependency)'",
                            suggestion: closestMatch(to: dependency, in: loaded.tasks.map(\.id))))
                    continue
                }
                if !dependsOn.contains(d) {
                    dependsOn.append(d)
                    warnings.append(
                        Diagnostic(
                            .warning, file: file, path: "tasks[\(i)].dependsOn", taskID: task.id,
                            message:
                                "the code says task '\(task.id)' depends on '\(dependency)', the file does not; kept"))
                }
            }
            // Code that declares no dependencies for a task leaves them to the file: nothing to report.
            let codeDependencies = Set(declaration.keys.dependsOn)
            for d in task.dependsOn where !codeDependencies.isEmpty && !codeDependencies.contains(loaded.tasks[d].id) {
                warnings.append(
                    Diagnostic(
                        .warning, file: file, path: "tasks[\(i)].dependsOn", taskID: task.id,
                        message:
                            "the file says task '\(task.id)' depends on '\(loaded.tasks[d].id)', the code does not; kept"
                    ))
            }
            return dependsOn
        }

        /// The merged scenario: the file's, with `tasks`, under the strategy the launch runs.
        func scenario(_ tasks: [LaunchTask], strategy: Strategy?) throws(LaunchError) -> Scenario {
            do {
                return try Scenario(
                    name: loaded.name, description: loaded.description, device: loaded.device,
                    preMain: loaded.preMain, launchPhases: loaded.launchPhases, startsIn: loaded.startsIn,
                    tasks: tasks, budgets: loaded.budgets, jitter: loaded.jitter,
                    schema: loaded.schema, idleMode: loaded.idleMode, inputs: loaded.inputs,
                    mainExecutor: loaded.mainExecutor, strategy: strategy ?? loaded.strategy ?? .dag,
                    platform: loaded.platform)
            } catch {
                // The merged dependencies can make a cycle the file alone did not have.
                throw LaunchError(
                    problems
                        + error.problems.map { problem in
                            var problem = problem
                            if problem.file.isEmpty { problem.file = file }
                            return problem
                        })
            }
        }
    }

    /// The scheduling keys the code set (to other than their defaults) that the file's task does not have.
    private static func overridden(_ keys: TaskKeys, by task: LaunchTask) -> [String] {
        var found: [String] = []
        if keys.priority != 0 && keys.priority != task.priority { found.append("priority: \(keys.priority)") }
        if keys.firstFrame && !task.firstFrame { found.append("firstFrame: true") }
        if keys.fullyDrawn && !task.fullyDrawn { found.append("fullyDrawn: true") }
        if keys.afterFirstFrame && task.after == nil { found.append("after: \"firstFrame\"") }
        if keys.idle && !task.idle { found.append("idle: true") }
        if keys.anchor && !task.anchor { found.append("anchor: true") }
        let delay = microseconds(fromMilliseconds: keys.delayMs)
        if delay != 0 && delay != task.delay { found.append("delay: \(formatDelay(keys.delayMs))") }
        if let queue = keys.queue, queue != task.queue { found.append("queue: \"\(queue)\"") }
        if let group = keys.group, group != task.group { found.append("group: \"\(group)\"") }
        let qos = LaunchflowModel.QualityOfService(keys.qos)
        if qos != .default && qos != task.qos { found.append("qos: \"\(qos.rawValue)\"") }
        return found
    }

    private static func formatDelay(_ ms: Double) -> String {
        ms.rounded() == ms ? String(Int(ms)) : String(ms)
    }
}
