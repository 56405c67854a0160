/// Which module (`group`) costs the launch the most (v2): per module, its
/// tasks, their total cost, the time they spent on the main thread under one
/// strategy, and their share of the first frame's longest dependency chain.
public struct ModuleBreakdown: Sendable {
    public struct Module: Sendable, Equatable {
        /// The group's name; "(no group)" for tasks without one.
        public var name: String
        public var tasks: Int
        /// Total cost, µs.
        public var cost: Micros
        /// Cost of its tasks that ran on the main thread, µs.
        public var mainThread: Micros
        /// Cost plus latency of its tasks on the first frame's path, µs.
        public var firstFramePath: Micros
    }

    /// Modules by total cost, largest first (ties: by name); tasks without a
    /// group last, as one module.
    public let modules: [Module]
    /// The first frame's path: task indices, dependencies first.
    public let firstFramePath: [Int]

    /// - Complexity: O(n + e + g log g) for g groups.
    public init(_ result: SimulationResult) {
        let schedule = result.schedule
        let tasks = schedule.scenario.tasks
        let path = FirstFramePath(
            graph: TaskGraph(tasks: tasks), tasks: tasks,
            weight: zip(schedule.costs, schedule.latencies).map { $0 + $1 })
        firstFramePath = path.tasks
        var onPath = [Bool](repeating: false, count: tasks.count)
        for task in path.tasks { onPath[task] = true }
        var byName: [String: Module] = [:]
        let none = "(no group)"
        for (i, task) in tasks.enumerated() {
            let name = task.group ?? none
            var module = byName[name] ?? Module(name: name, tasks: 0, cost: 0, mainThread: 0, firstFramePath: 0)
            module.tasks += 1
            module.cost += schedule.costs[i]
            if schedule.tasks[i].isOnMain { module.mainThread += schedule.costs[i] }
            if onPath[i] { module.firstFramePath += schedule.costs[i] + schedule.latencies[i] }
            byName[name] = module
        }
        modules = byName.values.sorted {
            ($0.name == none ? 1 : 0, -$0.cost, $0.name) < ($1.name == none ? 1 : 0, -$1.cost, $1.name)
        }
    }
}

/// The longest chain through `dependsOn` that ends at a `firstFrame` task
/// (each task weighing cost plus latency) — what the first frame waits for
/// at least; the overall critical path when no task is `firstFrame`.
struct FirstFramePath {
    let tasks: [Int]
    let length: Micros

    init(graph: TaskGraph, tasks specs: [LaunchTask], weight: [Micros]) {
        var finish = [Micros](repeating: 0, count: weight.count)
        var previous = [Int](repeating: -1, count: weight.count)
        for i in graph.topologicalOrder() {
            var best: Micros = 0
            for k in Int(graph.dependencyStart[i])..<Int(graph.dependencyStart[i + 1]) {
                let d = Int(graph.dependencies[k])
                if previous[i] < 0 || finish[d] > best {
                    best = finish[d]
                    previous[i] = d
                }
            }
            finish[i] = best + weight[i]
        }
        let candidates =
            specs.contains(where: \.firstFrame) ? specs.indices.filter { specs[$0].firstFrame } : Array(specs.indices)
        guard var end = candidates.first else {
            self.tasks = []
            length = 0
            return
        }
        for i in candidates where finish[i] > finish[end] { end = i }
        var path = [end]
        while previous[path[path.count - 1]] >= 0 { path.append(previous[path[path.count - 1]]) }
        self.tasks = path.reversed()
        length = finish[end]
    }
}
