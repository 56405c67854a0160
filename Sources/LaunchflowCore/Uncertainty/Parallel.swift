import Dispatch
import Foundation

/// Independent work spread over threads, with results in a fixed order.
///
/// Used by `sweep` (chunks of runs) and `whatif` (chunks of tasks). The work
/// of each item depends only on its index, so the merged result is the same
/// for any number of threads: `jobs` changes the speed, never the output.
public enum Parallel {
    /// Splits `0..<count` into consecutive chunks of `chunkSize` indices,
    /// computes `body(chunk)` for every chunk on up to `jobs` threads
    /// (`DispatchQueue.concurrentPerform`, each thread taking the next
    /// unclaimed chunk), and returns the results in chunk order.
    ///
    /// With `jobs == 1`, or a single chunk, everything runs on the calling
    /// thread. `body` must not touch shared mutable state.
    ///
    /// ```swift
    /// let sums = Parallel.mapChunks(count: 1000, chunkSize: 100, jobs: 2) { range in range.reduce(0, +) }
    /// // sums.count == 10, sums[0] == 4950
    /// ```
    public static func mapChunks<T: Sendable>(
        count: Int, chunkSize: Int, jobs: Int, _ body: @Sendable (Range<Int>) -> T
    ) -> [T] {
        let size = Swift.max(chunkSize, 1)
        let chunks = (Swift.max(count, 0) + size - 1) / size
        @Sendable func chunk(_ k: Int) -> Range<Int> { k * size..<Swift.min((k + 1) * size, count) }
        let threads = Swift.min(Swift.max(jobs, 1), chunks)
        if threads <= 1 { return (0..<chunks).map { body(chunk($0)) } }

        let next = LockedValue(0)  // the next unclaimed chunk (one lock a chunk: runs are far longer)
        let results = LockedValue([T?](repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let k = next.add(1) - 1
                if k >= chunks { return }
                let value = body(chunk(k))
                results.withLock { $0[k] = value }
            }
        }
        return results.withLock { slots in slots.compactMap { $0 } }
    }

    /// The number of cores this process may use (at least 1).
    public static var availableCores: Int { Swift.max(ProcessInfo.processInfo.activeProcessorCount, 1) }
}
