/// (MODEL.md §7.4, docs/model.md §3.13, step 2) Which of a device's cores
/// each running item gets, as a place rather than a rate: what `launchflow
/// replay --emulate` applies to real threads, moving each into the cgroup
/// of its place whenever an item starts or ends.
///
/// The classes most urgent first, the main thread first in
/// `userInteractive`, then the workers in the order given; a class takes the
/// fastest free cores it may use (`background` only the slowest ones), one
/// each; an item left without a core waits. The engine's `ClusterCores`
/// applies the same step to rates.
///
/// A class with more items than cores shares all of them in the model, each
/// item at (Σ speeds) / n. Threads cannot be given that: a cgroup's quota
/// over several CPUs gives them less than its sum (3 threads sharing a
/// quota of 1.5 CPUs in 2 ms periods got about 1.2 here, the kernel's
/// bandwidth slice being 5 ms), so the class's items are spread over its
/// cores instead, each to the core where it gets the most (speed / items
/// there, the faster core on a tie), and the kernel shares each core
/// evenly: the same work per µs in all, in shares that can be unequal
/// (3 items on 1 P + 1 E: ½ each, as the model; 4: ⅓, ⅓, ⅓ and ½ for the
/// model's 0.375).
public enum CorePlacement: Equatable, Sendable {
    /// Core `k` of the cores, fastest first (alone, or with the items of its class spread there).
    case core(Int)
    /// No core left: rate 0 in the model.
    case waiting

    /// A core of `speed` thousandths as CFS bandwidth (cgroup v1's `cpu.cfs_period_us` and
    /// `cpu.cfs_quota_us`, µs): 2 ms periods, longer where the quota would be under the kernel's least
    /// (1 ms: a speed under ½); no quota (−1) at speed 1.
    public static func bandwidth(_ speed: Int) -> (period: Int, quota: Int) {
        let period = 2000 * max(1, (500 + speed - 1) / speed)
        return (period, speed >= 1000 ? -1 : speed * period / 1000)
    }

    /// The place's name (`core0`, `waiting`), as replay's record gives it.
    public var group: String {
        switch self {
        case .core(let k): "core\(k)"
        case .waiting: "waiting"
        }
    }

    /// Every place on `cores` cores: each core, then waiting (the order replay lists them in).
    public static func all(cores: Int) -> [CorePlacement] {
        (0..<cores).map { .core($0) } + [.waiting]
    }

    /// The places of the running items on cores of `speeds` (thousandths,
    /// fastest first): the main thread's (when `mainRunning`; it is always
    /// `.core(0)`) and each worker's, in the order of `workers` (their
    /// QoS classes), which is the order within a class.
    public static func place(speeds: [Int], mainRunning: Bool, workers: [QualityOfService]) -> [CorePlacement] {
        var places = [CorePlacement](repeating: .waiting, count: workers.count)
        let slowest = speeds.min() ?? 1000
        var firstFree = 0  // the free cores are always firstFree…last: a class takes the fastest first
        for qos in QualityOfService.allCases {
            let members = workers.indices.filter { workers[$0] == qos }
            let hasMain = qos == .userInteractive && mainRunning
            let count = members.count + (hasMain ? 1 : 0)
            guard count > 0 else { continue }
            // background: only the slowest cores, which are the last ones.
            let first = qos == .background ? max(firstFree, speeds.firstIndex(of: slowest) ?? speeds.count) : firstFree
            let usable = max(0, speeds.count - first)
            guard usable > 0 else { continue }
            let items = (hasMain ? [-1] : []) + members
            if count <= usable {
                for (i, item) in items.enumerated() where item >= 0 { places[item] = .core(first + i) }
                firstFree = first + count
            } else {
                var load = [Int](repeating: 0, count: usable)
                for item in items {
                    var best = 0
                    for c in 1..<usable
                    where speeds[first + c] * (load[best] + 1) > speeds[first + best] * (load[c] + 1) {
                        best = c
                    }
                    load[best] += 1
                    if item >= 0 { places[item] = .core(first + best) }
                }
                firstFree = speeds.count
            }
        }
        return places
    }
}
