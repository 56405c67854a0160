/// (MODEL.md §7.4, docs/model.md §3.13) The cores of a device with clusters,
/// given to the running items by QoS at every visited instant: the classes
/// most urgent first, within a class the main thread then the workers by
/// number; a class takes the fastest free cores it may use (`background` only
/// the slowest cluster's), one each, or shares all of them when it has more
/// items than cores. Rates are exact fractions of thousandths.
struct ClusterCores {
    /// Every core's speed in thousandths, fastest first (equal speeds in the clusters' order), and its cluster.
    private let speeds: [Int]
    private let coreCluster: [Int]
    private let clusterCount: Int
    /// Per worker: its task, and the cluster of the core it has now (−1: none, waiting).
    private var workerTask: [Int]
    private var workerCluster: [Int]
    /// Per task and cluster (task × clusters + cluster): the wall time it ran there.
    private var taskTime: [Micros]
    /// The least speed: the only cores `background` may use.
    private let slowest: Int
    /// Each task's QoS class (0 `userInteractive` … 4 `background`).
    private let classOf: [UInt8]
    /// Per worker (index 1…): its task's class and work left, whether it runs, and its rate n/d.
    private var workerClass: [UInt8]
    private var left: [Micros]
    private var running: [Bool]
    private var rateN: [Int]
    private var rateD: [Int]
    private var mainRate = (n: 1000, d: 1000)
    /// Scratch: the free cores (indices into `speeds`) and each class's workers.
    private var free: [Int] = []
    private var classes: [[Int32]] = Array(repeating: [], count: 5)

    init(device: Device, workers: Int, qos: [QualityOfService]) {
        var cores: [(speed: Int, cluster: Int)] = []
        for (k, cluster) in device.clusters.enumerated() {
            cores += Array(repeating: (cluster.speedThousandths, k), count: cluster.count)
        }
        cores.sort { ($0.speed, -$0.cluster) > ($1.speed, -$1.cluster) }
        speeds = cores.map(\.speed)
        coreCluster = cores.map(\.cluster)
        clusterCount = device.clusters.count
        workerTask = Array(repeating: -1, count: workers + 1)
        workerCluster = Array(repeating: -1, count: workers + 1)
        taskTime = Array(repeating: 0, count: qos.count * device.clusters.count)
        slowest = speeds.min() ?? 1000
        classOf = qos.map { UInt8($0.rank) }
        workerClass = Array(repeating: 0, count: workers + 1)
        left = Array(repeating: 0, count: workers + 1)
        running = Array(repeating: false, count: workers + 1)
        rateN = Array(repeating: 0, count: workers + 1)
        rateD = Array(repeating: 1, count: workers + 1)
        free.reserveCapacity(speeds.count)
    }

    /// `task` (of positive cost) starts on `worker`.
    mutating func start(_ task: Int, cost: Micros, on worker: Int32) {
        let w = Int(worker)
        workerTask[w] = task
        workerClass[w] = classOf[task]
        left[w] = cost
        running[w] = true
    }

    /// Gives the running items their cores (the main thread's, when
    /// `mainLeft` is given, at `userInteractive`) and returns the earliest
    /// projected end from `now` (`.max` when no item progresses).
    mutating func assign(mainLeft: Micros?, now: Micros) -> Micros {
        for c in classes.indices { classes[c].removeAll(keepingCapacity: true) }
        for w in 1..<running.count where running[w] { classes[Int(workerClass[w])].append(Int32(w)) }
        free.removeAll(keepingCapacity: true)
        free.append(contentsOf: speeds.indices)
        var next = Micros.max
        func end(_ left: Micros, _ n: Int, _ d: Int) -> Micros {
            n == 0 ? .max : now + (left * d + n - 1) / n
        }
        for c in classes.indices {
            let hasMain = c == 0 && mainLeft != nil
            let count = classes[c].count + (hasMain ? 1 : 0)
            guard count > 0 else { continue }
            // The cores the class may use, fastest first: all free ones, or the slowest cluster's.
            let usable = c == 4 ? free.filter { speeds[$0] == slowest } : free
            var item = 0
            func give(_ n: Int, _ d: Int, cluster: Int) {
                if hasMain && item == 0 {
                    mainRate = (n, d)
                    next = min(next, end(mainLeft!, n, d))
                } else {
                    let w = Int(classes[c][item - (hasMain ? 1 : 0)])
                    rateN[w] = n
                    rateD[w] = d
                    workerCluster[w] = n == 0 ? -1 : cluster
                    next = min(next, end(left[w], n, d))
                }
                item += 1
            }
            if count <= usable.count {
                for core in usable.prefix(count) { give(speeds[core], 1000, cluster: coreCluster[core]) }
                let taken = Set(usable.prefix(count))
                free.removeAll { taken.contains($0) }
            } else {
                let sum = usable.reduce(0) { $0 + speeds[$1] }
                // Shared: counted on the fastest of the cores shared.
                let cluster = usable.first.map { coreCluster[$0] } ?? -1
                for _ in 0..<count { give(sum, 1000 * count, cluster: cluster) }
                let taken = Set(usable)
                free.removeAll { taken.contains($0) }
            }
        }
        return next
    }

    /// Moves every running item `elapsed` µs on at its rate (the main
    /// thread's when `mainRunning`); `ended` gets the workers left with no
    /// work, in worker order.
    mutating func progress(
        by elapsed: Micros, mainLeft: inout Micros, mainRunning: Bool, ended: inout [Int32]
    ) {
        ended.removeAll(keepingCapacity: true)
        if mainRunning { mainLeft = max(0, mainLeft - elapsed * mainRate.n / mainRate.d) }
        for w in 1..<running.count where running[w] {
            if workerCluster[w] >= 0 { taskTime[workerTask[w] * clusterCount + workerCluster[w]] += elapsed }
            left[w] = max(0, left[w] - elapsed * rateN[w] / rateD[w])
            if left[w] == 0 {
                running[w] = false
                ended.append(Int32(w))
            }
        }
    }

    /// Each task's cluster: where it ran longest on a worker (the first such
    /// cluster on a tie; shared cores count for the fastest of them); −1 for
    /// a task that never ran on a worker core (main thread, zero cost).
    func taskClusters() -> [Int32] {
        guard clusterCount > 0 else { return [] }
        return (0..<(taskTime.count / clusterCount)).map { task in
            var best: Int32 = -1
            var longest: Micros = 0
            for k in 0..<clusterCount where taskTime[task * clusterCount + k] > longest {
                longest = taskTime[task * clusterCount + k]
                best = Int32(k)
            }
            return best
        }
    }
}
