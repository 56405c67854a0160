import LaunchflowCore

/// Which slices of a trace become which tasks: `--match`, `--premain`,
/// `--map`, `--main-thread`, and, with `--into`, the scenario's task ids.
public struct ImportOptions: Sendable {
    /// `--from`: the format, instead of detecting it.
    public var format: ImportFormat?
    /// `--match REGEX`: the outermost slices whose name the regex finds are tasks
    /// (instead of every slice at depth 0).
    public var match: String?
    /// `--premain REGEX`: main-thread slices whose name the regex finds are pre-main phases.
    public var premain: String?
    /// `--main-thread NAME|TID`.
    public var mainThread: String?
    /// `--process NAME`: the app's process by name (Android: the package name).
    public var process: String?
    /// `--map FILE`, read.
    public var map: NameMap?
    /// `--cost`: what a task costs, its slices' wall time or the time their thread ran.
    public var cost: ImportCost
    /// `--cpus N`: the device's CPUs (`device.cpus`), where the trace records none or another count.
    public var cpus: Int?

    public init(
        format: ImportFormat? = nil, match: String? = nil, premain: String? = nil, mainThread: String? = nil,
        process: String? = nil, map: NameMap? = nil, cost: ImportCost = .wall, cpus: Int? = nil
    ) {
        self.cpus = cpus
        self.format = format
        self.match = match
        self.premain = premain
        self.mainThread = mainThread
        self.process = process
        self.map = map
        self.cost = cost
    }
}

/// `--cost`: a task's cost from its slices.
public enum ImportCost: String, CaseIterable, Sendable {
    /// The slices' wall time (end − start).
    case wall
    /// The time the slices' thread was running on a CPU during them (`sched_switch`).
    case running
}

/// The input formats `import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case perfetto, chrome, atrace, metrickit, xctrace
}

/// `--map FILE`: slice names → task ids. Two forms:
///
/// - an object of exact names, `{"NetworkConfig.fetch": "network-config", …}`;
/// - regular expressions, `{"rules": [{"match": "^NetworkConfig\\.", "task": "network-config"}, …]}`,
///   each searched in the slice name (not anchored unless the pattern says so).
///   A name that the rules send to two different tasks is an error; several
///   rules (or names) may send slices to the same task, whose costs then add up.
///
/// A name the map does not mention stays its own task id.
public struct NameMap: Sendable {
    enum Form: Sendable {
        case exact([String: String])
        case rules([(pattern: String, task: String)])
    }

    let file: String
    let form: Form

    /// Reads and checks a map file; every problem at once.
    public static func load(path: String) throws(ImportError) -> NameMap {
        let root = try readJSONFile(path, what: "a JSON map of slice names to task ids")
        guard case .object(let members) = root else {
            throw ImportError(
                file: path,
                "a map is an object: {\"slice name\": \"task id\", …} or {\"rules\": [{\"match\": REGEX, \"task\": ID}, …]}, found \(root.noun)"
            )
        }
        var log = ImportLog()
        if case .array(let rules)? = root["rules"] {
            var list: [(pattern: String, task: String)] = []
            for (key, _) in members where !["rules", "description", "$schema"].contains(key) {
                log.error(path, "unknown key '\(key)' beside 'rules'", at: key)
            }
            for (k, rule) in rules.enumerated() {
                guard let pattern = rule["match"]?.string, let task = rule["task"]?.string, !task.isEmpty else {
                    log.error(
                        path, "a rule needs \"match\" (a regular expression) and \"task\" (a task id)",
                        at: "rules[\(k)]")
                    continue
                }
                do {
                    _ = try Regex(pattern)
                    list.append((pattern, task))
                } catch {
                    log.error(path, "'\(pattern)' is not a valid regular expression: \(error)", at: "rules[\(k)].match")
                }
            }
            if log.hasErrors { throw ImportError(log) }
            return NameMap(file: path, form: .rules(list))
        }
        var exact: [String: String] = [:]
        for (key, value) in members {
            guard let task = value.string, !task.isEmpty else {
                log.error(
                    path, "the task id for slice '\(key)' must be a non-empty string, found \(value.noun)", at: key)
                continue
            }
            exact[key] = task
        }
        if log.hasErrors { throw ImportError(log) }
        return NameMap(file: path, form: .exact(exact))
    }
}

/// What a slice name stands for, decided once per distinct name.
struct NameDecision {
    /// The task id the name counts towards (the name itself when unmapped).
    var task: String
    /// The map sends the name to more than one task (an error when such a slice is used).
    var conflicts: [String] = []
    /// `--match` finds the name (always true without `--match`).
    var matches: Bool
    /// `--premain` finds the name, or (with `--into`) it names a pre-main phase.
    var premain: Bool
    /// With `--into`: the task is one of the scenario's.
    var known: Bool
}

/// The compiled rules, with a decision cache per interned name.
struct SelectionRules {
    let match: Regex<AnyRegexOutput>?
    let premain: Regex<AnyRegexOutput>?
    let exactMap: [String: String]?
    let ruleMap: [(regex: Regex<AnyRegexOutput>, pattern: String, task: String)]?
    /// With `--into`: the scenario's task ids and pre-main phase names.
    let taskIDs: Set<String>?
    let phaseNames: Set<String>
    /// The `--map` file, for messages.
    let mapFile: String?
    /// `--cost`.
    let cost: ImportCost

    var isInto: Bool { taskIDs != nil }

    /// - Throws: an ``ImportError`` naming the option whose regex is invalid.
    init(_ options: ImportOptions, taskIDs: Set<String>? = nil, phaseNames: Set<String> = []) throws(ImportError) {
        func compile(_ pattern: String?, _ option: String) throws(ImportError) -> Regex<AnyRegexOutput>? {
            guard let pattern else { return nil }
            do {
                return try Regex(pattern)
            } catch {
                throw ImportError(file: option, "'\(pattern)' is not a valid regular expression: \(error)")
            }
        }
        match = try compile(options.match, "--match")
        premain = try compile(options.premain, "--premain")
        switch options.map?.form {
        case .exact(let map)?:
            exactMap = map
            ruleMap = nil
        case .rules(let rules)?:
            exactMap = nil
            ruleMap = rules.compactMap { rule in (try? Regex(rule.pattern)).map { ($0, rule.pattern, rule.task) } }
        case nil:
            exactMap = nil
            ruleMap = nil
        }
        self.taskIDs = taskIDs
        self.phaseNames = phaseNames
        mapFile = options.map?.file
        cost = options.cost
    }

    func decide(_ name: String) -> NameDecision {
        var task = name
        var conflicts: [String] = []
        if let exactMap, let mapped = exactMap[name] { task = mapped }
        if let ruleMap {
            var tasks: [String] = []
            for rule in ruleMap where (try? rule.regex.firstMatch(in: name)) != nil && !tasks.contains(rule.task) {
                tasks.append(rule.task)
            }
            if let first = tasks.first { task = first }
            if tasks.count > 1 {
                conflicts = ruleMap.filter { rule in (try? rule.regex.firstMatch(in: name)) != nil }.map {
                    "'\($0.task)' (rule \"\($0.pattern)\")"
                }
            }
        }
        let matches = match.map { (try? $0.firstMatch(in: name)) != nil } ?? true
        let premain = premain.map { (try? $0.firstMatch(in: name)) != nil } == true || phaseNames.contains(name)
        let known = taskIDs.map { ids in ids.contains(task) || conflicts.isEmpty == false } ?? true
        return NameDecision(task: task, conflicts: conflicts, matches: matches, premain: premain, known: known)
    }
}
