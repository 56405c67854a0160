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

    public init(taskCount: Int) { self.taskCount = taskCount }

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
        return try Scenario(name: "random-\(seed)", device: device, preMain: preMain, tasks: tasks)
    }
}
