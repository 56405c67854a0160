/// How early `dag` can present the first frame, whatever `after`, `priority`
/// and `idle` say — a bound tighter than `firstFrameBoundMs` (which holds for
/// every dependency-respecting schedule) because it knows how dag runs the
/// main thread when no task is an anchor:
///
/// - `didFinishLaunching` returns at once and iteration 0 commits first, so a
///   main-thread task starts no earlier than t0 + `commitCost` (an `idle`
///   task can run in iteration 0's idle step, before that commit);
/// - a main-thread task that depends, directly or through other tasks, on
///   another main-thread task is enqueued after that task's snapshot was
///   taken, so it waits for the commit that ends that task's iteration;
/// - the main thread runs the first frame's main-thread tasks one at a time
///   from when each can start; the workers run its worker tasks, at most
///   `cores − 1` (or `--max-concurrent`) at once;
/// - the first-frame commit ends after every `firstFrame` task has run (a
///   commit after a main-thread one), and the frame is shown `renderTime`
///   later, at a vsync.
///
/// `after`, `priority` and non-anchor `idle` change none of these, so no plan
/// of those knobs presents earlier; tested against every plan the search
/// simulates and against random scenarios as written.
enum DagFloor {
    /// The floor for `scenario` under dag, or nil when a task is an anchor
    /// (then `didFinishLaunching` keeps the main thread and none of the above
    /// holds) or no task is `firstFrame`. Never below `bound`, the scenario's
    /// `firstFrameBoundMs`.
    static func firstFrame(_ scenario: Scenario, graph: TaskGraph, options: SimulationOptions, bound: Micros)
        -> Micros?
    {
        let tasks = scenario.tasks
        guard !tasks.contains(where: \.anchor) else { return nil }
        let firstFrames = tasks.indices.filter { tasks[$0].firstFrame }
        let device = scenario.device
        let t0 = scenario.preMainTotal
        let c = device.commitCost
        guard !firstFrames.isEmpty else { return nil }
        let needed = graph.dependencyClosure(of: firstFrames)
        var start = [Micros](repeating: 0, count: tasks.count)
        var end = [Micros](repeating: 0, count: tasks.count)
        // The latest end of a main-thread task on a path to the task (−1: none).
        var mainEnd = [Micros](repeating: -1, count: tasks.count)
        var ready: Micros = 0
        for i in graph.topologicalOrder() where needed[i] {
            let task = tasks[i]
            var s = t0
            var lastMain: Micros = -1
            for d in task.dependsOn {
                s = max(s, end[d] + tasks[d].latency)
                lastMain = max(lastMain, mainEnd[d])
            }
            s += task.delay
            if task.mainThreadOnly && !task.idle {
                s = max(s, t0 + c)
                if lastMain >= 0 { s = max(s, lastMain + c) }
            }
            start[i] = s
            end[i] = s + task.cost
            mainEnd[i] = task.mainThreadOnly ? max(lastMain, end[i]) : lastMain
            if task.firstFrame {
                ready = max(ready, end[i] + (task.mainThreadOnly ? c : 0) + device.renderTime)
            }
        }
        // Capacity: each thread kind runs its needed tasks from when each can
        // start (the workers as if a task could be split between them).
        let workers = max(1, min(device.cores - 1, options.maxConcurrent ?? Int.max))
        for main in [true, false] {
            let jobs = tasks.indices.filter { needed[$0] && tasks[$0].mainThreadOnly == main }
                .sorted { (start[$0], $0) > (start[$1], $1) }
            let machines = Micros(main ? 1 : workers)
            var work: Micros = 0
            var finish: Micros = 0
            for i in jobs {
                work += tasks[i].cost
                finish = max(finish, start[i] + (work + machines - 1) / machines)
            }
            ready = max(ready, finish + (main ? c : 0) + device.renderTime)
        }
        let frame = device.frameInterval
        let floor = (ready + frame - 1) / frame * frame
        return max(floor, bound)
    }
}
