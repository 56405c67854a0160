/// The checks of MODEL.md §1 that relate tasks to each other: duplicate ids;
/// unknown, repeated and self dependencies; dependency cycles. (Rules between
/// the keys of one task are its rows' ``FieldTable/relations``.)
///
/// - Complexity: O(n + e) for n tasks and e dependencies (suggestions for
///   unknown ids aside, which are limited to the first few).
package struct ScenarioValidator {
    /// Unknown ids beyond this many get no "did you mean" (each costs a scan of all ids).
    package static let suggestionLimit = 64

    package let tasks: [LaunchTask]
    /// Each task's byte offset in its file (orders the problems).
    package let offsets: [Int]
    private(set) var problems: [LocatedProblem] = []

    package init(tasks: [LaunchTask], offsets: [Int]) {
        self.tasks = tasks
        self.offsets = offsets
    }

    /// Resolves every task's `dependsOn` ids (nil: an element that was not a
    /// string) to task indices, recording problems; invalid entries are left
    /// out of the result.
    package mutating func resolve(_ dependencies: DependencyEntries) -> [[Int]] {
        let (indexOf, duplicateIDs) = indexIDs()
        var resolved = [[Int]](repeating: [], count: tasks.count)
        var suggestionsLeft = Self.suggestionLimit
        // With unique ASCII ids, a task whose ids are all ASCII, known, distinct
        // and not its own is resolved from the document's bytes: the same
        // indices as below (equal ids ⇔ equal indices). Any other task takes
        // the path by strings, which finds and words every problem.
        let byBytes = !duplicateIDs && indexOf.isASCII
        for i in tasks.indices {
            if byBytes, let indices = Self.resolveFromBytes(i, dependencies, indexOf) {
                resolved[i] = indices
                continue
            }
            let names = dependencies.names(of: i)
            guard !names.isEmpty else { continue }
            var deps: [Int] = []
            deps.reserveCapacity(names.count)
            var seen = names.count > 8 ? [String: Int]() : nil
            for (position, name) in names.enumerated() {
                guard let name else { continue }
                let at = Location.dependency(task: i, position: position)
                if let earlier = firstPosition(of: name, in: names, before: position, seen: &seen) {
                    report(
                        at, i, "'\(name)' is listed twice (also at dependsOn[\(earlier)])", kind: .repeatedDependency)
                    continue
                }
                if !name.isEmpty, name == tasks[i].id {
                    report(at, i, "the task depends on itself", kind: .selfDependency)
                    continue
                }
                guard let j = indexOf.index(of: name) else {
                    var suggestion: String?
                    if suggestionsLeft > 0 {
                        suggestionsLeft -= 1
                        suggestion = closestMatch(to: name, in: tasks.lazy.map(\.id).filter { !$0.isEmpty })
                    }
                    report(at, i, "unknown task '\(name)'", suggestion: suggestion, kind: .unknownTask)
                    continue
                }
                deps.append(j)
            }
            resolved[i] = deps
        }
        reportCycles(resolved)
        reportAwaitedDeferrals(resolved)
        return resolved
    }

    /// Checks every task's `dependsOn` indices (a scenario built in code):
    /// out of range, listed twice, the task itself, cycles.
    package mutating func checkIndices() {
        _ = indexIDs()
        var valid = [[Int]](repeating: [], count: tasks.count)
        for i in tasks.indices {
            let deps = tasks[i].dependsOn
            var seen: [Int: Int] = [:]
            for (position, d) in deps.enumerated() {
                let at = Location.dependency(task: i, position: position)
                guard tasks.indices.contains(d) else {
                    report(at, i, "no task at index \(d) (there are \(tasks.count) tasks)", kind: .unknownTask)
                    continue
                }
                if let earlier = seen[d] {
                    report(
                        at, i, "'\(name(of: d))' is listed twice (also at dependsOn[\(earlier)])",
                        kind: .repeatedDependency)
                    continue
                }
                seen[d] = position
                if d == i {
                    report(at, i, "the task depends on itself", kind: .selfDependency)
                    continue
                }
                valid[i].append(d)
            }
        }
        reportCycles(valid)
        reportAwaitedDeferrals(valid)
    }

    /// (v2.1) A task with `after` that the first frame or `didFinishLaunching`
    /// waits for — a `firstFrame` task or an `anchor`, or one that such a task
    /// depends on, directly or not — would wait for itself: one problem per
    /// such task, with a `dependsOn` path to it from the nearest of them. The
    /// same for a task with `before` (it must be done before the first frame,
    /// or inside didFinishLaunching) and what it depends on.
    ///
    /// - Complexity: O(n + e): one breadth-first search from every
    ///   `firstFrame` and `anchor` task at once (index order breaks ties).
    private mutating func reportAwaitedDeferrals(_ deps: [[Int]]) {
        guard tasks.contains(where: { $0.after != nil }) else { return }
        var parent = [Int](repeating: -2, count: tasks.count)  // −2: not reached; −1: a source
        var queue: [Int] = []
        for i in tasks.indices where tasks[i].firstFrame || tasks[i].anchor || tasks[i].before != nil {
            parent[i] = -1
            queue.append(i)
        }
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for w in deps[u] where parent[w] == -2 {
                parent[w] = u
                queue.append(w)
            }
        }
        for i in tasks.indices where parent[i] != -2 {
            guard let milestone = tasks[i].after else { continue }
            var path = [i]
            while parent[path[path.count - 1]] >= 0 { path.append(parent[path[path.count - 1]]) }
            path.reverse()
            report(.task(i, "after"), i, Self.awaitedDeferral(milestone, path: path.map(name(of:)), tasks[path[0]]))
        }
    }

    /// The task's id, or `tasks[i]` when it has none.
    private func name(of i: Int) -> String { tasks[i].id.isEmpty ? "tasks[\(i)]" : tasks[i].id }

    /// id → index of its first definition; later duplicates are reported.
    /// The id table, and whether any id is repeated (each repeat is reported).
    private mutating func indexIDs() -> (IDTable, duplicates: Bool) {
        var duplicates: [(Int, Int)] = []
        let table = IDTable(tasks.map(\.id)) { duplicates.append(($0, $1)) }
        for (i, first) in duplicates {
            report(
                .task(i, "id"), i, "duplicate task id '\(tasks[i].id)'; first defined at tasks[\(first)]",
                kind: .duplicateID)
        }
        return (table, !duplicates.isEmpty)
    }

    /// Task `task`'s dependencies when each is an ASCII id (as read, without an
    /// escape) of another task, none twice; nil otherwise (or for no entries).
    private static func resolveFromBytes(_ task: Int, _ dependencies: DependencyEntries, _ indexOf: IDTable) -> [Int]? {
        let range = dependencies.range(of: task)
        guard !range.isEmpty else { return nil }
        var indices: [Int] = []
        indices.reserveCapacity(range.count)
        // Repeats: a scan of the few before, a set for a long list (a task may wait for thousands).
        var seen: Set<Int>? = range.count > 8 ? Set(minimumCapacity: range.count) : nil
        return dependencies.document.withUnsafeBufferPointer { document -> [Int]? in
            for k in range {
                guard case .ascii(let bytes) = dependencies.entries[k],
                    let j = indexOf.index(ofASCII: UnsafeBufferPointer(rebasing: document[bytes])), j != task
                else { return nil }
                let repeated = seen != nil ? !seen!.insert(j).inserted : indices.contains(j)
                if repeated { return nil }
                indices.append(j)
            }
            return indices
        }
    }

    /// The earlier position of `name` in `list`, if any (a dictionary for long lists).
    private func firstPosition(of name: String, in list: [String?], before position: Int, seen: inout [String: Int]?)
        -> Int?
    {
        if seen != nil {
            if let earlier = seen![name] { return earlier }
            seen![name] = position
            return nil
        }
        return list[..<position].firstIndex { $0 == name }
    }

    /// One cycle, as a path in `dependsOn` direction, for every strongly
    /// connected group of tasks.
    /// The problem of a task with `after` that `source` waits for along `path` (ids, `source` first).
    private static func awaitedDeferral(_ milestone: LaunchMilestone, path: [String], _ source: LaunchTask) -> String {
        let wait = "cannot wait for the \(milestone.noun)"
        if !source.firstFrame && !source.anchor, let before = source.before {
            let pinned = "\"before\": \"\(before.rawValue)\""
            if path.count == 1 {
                return
                    "a task with \(pinned) \(wait): it must be done before \(before.noun) (remove 'after' or 'before')"
            }
            return
                "\(wait): '\(path[0])' (\(pinned)) must be done before \(before.noun) and waits for this task through \(path.joined(separator: " → ")) (remove 'after', 'before', or the dependency)"
        }
        if path.count == 1 {
            return source.firstFrame
                ? "a firstFrame task \(wait): it is part of it (remove 'after')"
                : "an anchor \(wait): didFinishLaunching waits for it, and the first frame for didFinishLaunching (remove 'after' or 'anchor')"
        }
        let route = path.joined(separator: " → ")
        return source.firstFrame
            ? "\(wait): the first frame waits for this task through \(route) (remove 'after', or the dependency)"
            : "\(wait): didFinishLaunching waits for this task through \(route) (anchor '\(path[0])'), and the first frame for didFinishLaunching (remove 'after', or the dependency)"
    }

    private mutating func reportCycles(_ deps: [[Int]]) {
        let n = deps.count
        // Kahn's algorithm first: in the common acyclic case nothing is left.
        let graph = TaskGraph(dependencies: deps)
        var order = graph.topologicalOrder()
        guard order.count < n else { return }
        var leftover = [Bool](repeating: true, count: n)
        for v in order { leftover[v] = false }
        order = []

        // Tarjan's strongly connected components over the leftover tasks, iteratively.
        var index = [Int](repeating: -1, count: n)
        var low = [Int](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int](repeating: -1, count: n)
        var stack: [Int] = []
        var frames: [(node: Int, next: Int)] = []
        var counter = 0
        var cycles: [Int] = []  // the smallest member of each component with a cycle

        for root in 0..<n where leftover[root] && index[root] < 0 {
            index[root] = counter; low[root] = counter; counter += 1
            stack.append(root); onStack[root] = true
            frames.append((root, 0))
            while let (u, next) = frames.last {
                if next < deps[u].count {
                    frames[frames.count - 1].next += 1
                    let w = deps[u][next]
                    guard leftover[w] else { continue }
                    if index[w] < 0 {
                        index[w] = counter; low[w] = counter; counter += 1
                        stack.append(w); onStack[w] = true
                        frames.append((w, 0))
                    } else if onStack[w] {
                        low[u] = min(low[u], index[w])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { low[parent.node] = min(low[parent.node], low[u]) }
                guard low[u] == index[u] else { continue }
                var members: [Int] = []
                while true {
                    let w = stack.removeLast()
                    onStack[w] = false
                    component[w] = u
                    members.append(w)
                    if w == u { break }
                }
                if members.count > 1 { cycles.append(members.min()!) }
            }
        }
        for start in cycles.sorted() {
            let path = cyclePath(from: start, deps: deps, within: component)
            let names = path.map(name(of:))
            report(
                .task(start, "dependsOn"), start, "dependency cycle: \(names.joined(separator: " → "))",
                kind: .dependencyCycle)
        }
    }

    /// The shortest path `start → … → start` along `dependsOn` inside `start`'s component.
    private func cyclePath(from start: Int, deps: [[Int]], within component: [Int]) -> [Int] {
        var parent: [Int: Int] = [start: start]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for w in deps[u] where component[w] == component[start] {
                if w == start {
                    var path = [start]
                    var v = u
                    while v != start {
                        path.append(v)
                        v = parent[v]!
                    }
                    path.reverse()  // now: u … (towards start)
                    return [start] + path.dropLast() + [start]
                }
                if parent[w] == nil {
                    parent[w] = u
                    queue.append(w)
                }
            }
        }
        return [start, start]
    }

    private mutating func report(
        _ location: Location, _ task: Int, _ message: String, suggestion: String? = nil,
        kind: Diagnostic.Kind = .other
    ) {
        problems.append(
            LocatedProblem(
                offset: offsets[task], location: location, message: message, suggestion: suggestion, kind: kind))
    }
}
