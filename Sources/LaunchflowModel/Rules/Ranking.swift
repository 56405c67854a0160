/// Tasks ordered by rank (MODEL.md §1): `(priority, index)`, or under `dag`
/// and `anchored` `(c, priority, index)` with `c = 0` for the anchor closure.
/// Position 0 is the best.
@usableFromInline package struct Ranking: Sendable {
    private let rankOf: [Int32]
    private let taskAt: [Int32]

    /// - Parameter first: the tasks of class 0 (the anchor closure), ranked
    ///   before all others; nil when there are none.
    /// - Complexity: O(n): a stable radix sort of the indices by priority
    ///   (priorities are at most 1,000,000 < 2²²), so ties keep index order,
    ///   then a stable partition by class.
    package init(tasks: [LaunchTask], first: [Bool]? = nil) {
        let n = tasks.count
        var order = Array(0..<n)
        let priority = tasks.map(\.priority)
        if zip(priority, priority.dropFirst()).contains(where: { $0 > $1 }) {
            var buffer = [Int](repeating: 0, count: n)
            for shift in stride(from: 0, to: 22, by: 11) {  // two passes of 11 bits
                var counts = [Int](repeating: 0, count: 2049)
                for i in order { counts[((priority[i] >> shift) & 2047) + 1] += 1 }
                for b in 0..<2048 { counts[b + 1] += counts[b] }
                for i in order {
                    let bucket = (priority[i] >> shift) & 2047
                    buffer[counts[bucket]] = i
                    counts[bucket] += 1
                }
                swap(&order, &buffer)
            }
        }
        if let first, first.contains(true) {
            order = order.filter { first[$0] } + order.filter { !first[$0] }
        }
        var rankOf = [Int32](repeating: 0, count: n)
        for (position, task) in order.enumerated() { rankOf[task] = Int32(position) }
        self.rankOf = rankOf
        taskAt = order.map(Int32.init)
    }

    @usableFromInline @inline(__always) package func rank(of task: Int) -> Int32 { rankOf[task] }
    @usableFromInline @inline(__always) package func task(atRank rank: Int32) -> Int { Int(taskAt[Int(rank)]) }
}
