import LaunchflowCore

/// The dependencies a longer path already implies: if `c` needs `b` and `b`
/// needs `a`, then `c → a` adds no ordering, only clutter and layout time.
/// Drawing the graph without them (its transitive reduction) keeps every
/// "must finish before" relation visible as a path.
///
/// ```swift
/// // a; b needs a; c needs a and b
/// TransitiveReduction.implied(tasks)   // [[], [false], [true, false]]: c → a is implied
/// ```
enum TransitiveReduction {
    /// The largest graph reduced: the ancestor sets take n² bits (12.5 MB at this size).
    static let maximumTasks = 10_000

    /// `implied[i][k]`: task i's k-th dependency is also an ancestor of another of
    /// its dependencies. Nil for graphs above ``maximumTasks``.
    ///
    /// - Complexity: O(n·e/64) time with bitsets of ancestors, O(n²/8) bytes.
    static func implied(_ tasks: [LaunchTask]) -> [[Bool]]? {
        let n = tasks.count
        guard n <= maximumTasks else { return nil }
        let words = (n + 63) / 64
        var ancestors = [UInt64](repeating: 0, count: n * words)
        for i in TaskGraph(tasks: tasks).topologicalOrder() {
            for d in tasks[i].dependsOn {
                for w in 0..<words { ancestors[i * words + w] |= ancestors[d * words + w] }
                ancestors[i * words + d / 64] |= 1 << UInt64(d % 64)
            }
        }
        return tasks.map { task in
            task.dependsOn.map { d in
                task.dependsOn.contains { other in
                    other != d && ancestors[other * words + d / 64] & (1 << UInt64(d % 64)) != 0
                }
            }
        }
    }
}
