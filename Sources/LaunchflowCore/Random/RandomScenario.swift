/// Random valid scenarios, for property tests and the benchmark.
public struct RandomScenario: Sendable {
    public var taskCount: Int
    /// Mean dependencies per task (each on an earlier task, so the graph is acyclic).
    public var dependenciesPerTask: Double = 3
    /// How far back a dependency may reach (keeps the graph deep as well as wide).
    public var dependencyWindow: Int = 1000
    public var cores: ClosedRange<Int> = 2...8
    public var tiers: Int = 4
    public var mainThreadShare: Double = 0.25
    /// The share of tasks that cost nothing.
    public var zeroCostShare: Double = 0.1
    /// The largest task cost in ms.
    public var maxCostMs: Double = 20

    // v2 keys, drawn from a second generator: a scenario's v1 part does not
    // depend on them.
    /// Shares of tasks with a `latency`, a `delay`, a `queue` (one of
    /// `queueNames`), `idle` (among main-thread tasks) and `anchor`.
    public var latencyShare = 0.0
    public var delayShare = 0.0
    public var queueShare = 0.0
    public var queueNames = 3
    public var idleShare = 0.0
    public var anchorShare = 0.0
    /// Inputs arriving during the first `inputWindowMs` ms.
    public var inputs = 0
    public var inputWindowMs = 100.0
    /// Modules the tasks are spread over (0: no `group`).
    public var groups = 0

    // v2.1 keys, drawn from a third generator (the v1 and v2 parts do not depend on them).
    /// The share of the tasks that neither a `firstFrame` nor an `anchor`
    /// task waits for that get `after: "firstFrame"`.
    public var afterShare = 0.0
    /// The share of main-thread tasks that are `fullyDrawn`.
    public var fullyDrawnShare = 0.0

    public init(taskCount: Int) { self.taskCount = taskCount }

    /// The same generator with every v2 key in use, in proportions that stay
    /// realistic at any size: 20% of tasks with a latency, 10% delayed, 20%
    /// in one of n/50 queues, 20% of main-thread tasks idle, 1% anchors,
    /// 20 modules, 10 inputs in the first 200 ms.
    public func usingEveryV2Key() -> RandomScenario {
        var v2 = self
        v2.latencyShare = 0.2
        v2.delayShare = 0.1
        v2.queueShare = 0.2
        v2.queueNames = max(1, taskCount / 50)
        v2.idleShare = 0.2
        v2.anchorShare = 0.01
        v2.inputs = 10
        v2.inputWindowMs = 200
        v2.groups = 20
        return v2
    }

    /// A scenario drawn from `seed`: the same seed gives the same scenario.
    ///
    /// - Throws: ``ScenarioError`` when the settings cannot give a valid
    ///   scenario (no tasks, fewer than 2 cores, costs beyond an hour…).
    public func make(seed: UInt64) throws(ScenarioError) -> Scenario {
        var rng = SplitMix64(seed: seed)
        let refreshRates: [Double] = [60, 120, 90, 59.94, 30, 1000, 7]
        let device = Device(
            cores: Int.random(in: cores, using: &rng),
            refreshRate: refreshRates.randomElement(using: &rng)!,
            commitCost: rng.nextUnit() < 0.5
                ? 0 : microseconds(fromMilliseconds: (rng.nextUnit() * 4 * 1000).rounded() / 1000),
            renderTime: rng.nextUnit() < 0.5
                ? 0 : microseconds(fromMilliseconds: (rng.nextUnit() * 10 * 1000).rounded() / 1000))
        var preMain: [PreMainPhase] = []
        for k in 0..<Int.random(in: 0...3, using: &rng) {
            preMain.append(
                PreMainPhase(name: "phase-\(k)", cost: microseconds(fromMilliseconds: (rng.nextUnit() * 50).rounded())))
        }
        var tasks: [LaunchTask] = []
        tasks.reserveCapacity(taskCount)
        for i in 0..<taskCount {
            let cost = rng.nextUnit() < zeroCostShare ? 0 : Int(rng.nextUnit() * maxCostMs * 1000)
            let mainOnly = rng.nextUnit() < mainThreadShare
            var deps: [Int] = []
            if i > 0 {
                // Up to twice the mean, uniformly: the mean is as asked.
                let wanted = Int(rng.nextUnit() * (2 * dependenciesPerTask + 1))
                let low = max(0, i - dependencyWindow)
                for _ in 0..<min(wanted, i - low) {
                    let d = Int.random(in: low..<i, using: &rng)
                    if !deps.contains(d) { deps.append(d) }
                }
            }
            tasks.append(
                LaunchTask(
                    id: "t\(i)", cost: cost, mainThreadOnly: mainOnly,
                    priority: Int.random(in: 0..<max(1, tiers), using: &rng) * 10,
                    dependsOn: deps, firstFrame: mainOnly && rng.nextUnit() < 0.1))
        }
        var v2 = SplitMix64(seed: ~seed)
        func ms(_ max: Double) -> Micros { microseconds(fromMilliseconds: (v2.nextUnit() * max).rounded()) }
        for i in tasks.indices {
            if v2.nextUnit() < latencyShare { tasks[i].latency = ms(maxCostMs * 2) }
            if v2.nextUnit() < delayShare { tasks[i].delay = ms(maxCostMs) }
            if v2.nextUnit() < queueShare { tasks[i].queue = "q\(Int.random(in: 0..<max(1, queueNames), using: &v2))" }
            if tasks[i].mainThreadOnly && !tasks[i].firstFrame && v2.nextUnit() < idleShare { tasks[i].idle = true }
            if v2.nextUnit() < anchorShare { tasks[i].anchor = true }
            if groups > 0 { tasks[i].group = "module-\(Int.random(in: 0..<groups, using: &v2))" }
        }
        if afterShare > 0 || fullyDrawnShare > 0 {
            var v21 = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
            // What the first frame and didFinishLaunching wait for may not wait for the first frame.
            var needed = tasks.map { $0.firstFrame || $0.anchor }
            for i in tasks.indices.reversed() where needed[i] {
                for d in tasks[i].dependsOn { needed[d] = true }
            }
            for i in tasks.indices {
                if !needed[i] && v21.nextUnit() < afterShare { tasks[i].after = .firstFrame }
                if tasks[i].mainThreadOnly && v21.nextUnit() < fullyDrawnShare { tasks[i].fullyDrawn = true }
            }
        }
        let userInputs = (0..<inputs).map { k in
            UserInput(name: "tap-\(k + 1)", at: ms(inputWindowMs), cost: ms(5))
        }
        let idleMode: IdleMode = idleShare > 0 && v2.nextUnit() < 0.5 ? .oneByOne : .batch
        return try Scenario(
            name: "random-\(seed)", device: device, preMain: preMain, tasks: tasks, idleMode: idleMode,
            inputs: userInputs)
    }
}
