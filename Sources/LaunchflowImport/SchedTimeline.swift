import LaunchflowCore

/// What each thread was doing, from the kernel scheduler's events
/// (`sched_switch`, `sched_waking`/`sched_wakeup`): running on a CPU,
/// runnable (ready, waiting for a CPU), or sleeping (waiting for something:
/// I/O, a lock, a message — `S`, `D` and the other states).
///
/// - `sched_switch` at time t: `prev_pid` stops — runnable when its
///   `prev_state` is `R` (0, or `R+`, preempted), sleeping otherwise;
///   `next_pid` starts running.
/// - `sched_waking` / `sched_wakeup` (`_new`): the thread becomes runnable.
///
/// Before a thread's first event its state is unknown, and so is the time.
struct SchedTimeline {
    enum State: UInt8 {
        case running, runnable, sleeping
        /// Not known from here on (the end of an Instruments thread-state row with no row after it).
        case unknown
    }

    struct Change {
        var time: Nanos
        var tid: Int32
        var state: State
    }

    /// As read, in any order; ``prepare()`` sorts them per thread.
    var changes: [Change] = []
    private var byThread: [Int32: Range<Int>] = [:]

    /// Sorts the changes by thread, then time (stable: file order at equal times).
    mutating func prepare() {
        // At one time, an `unknown` (the end of a state) before the state that begins there.
        let order = changes.indices.sorted {
            (changes[$0].tid, changes[$0].time, changes[$0].state == .unknown ? 0 : 1, $0)
                < (changes[$1].tid, changes[$1].time, changes[$1].state == .unknown ? 0 : 1, $1)
        }
        changes = order.map { changes[$0] }
        byThread = [:]
        var start = 0
        while start < changes.count {
            var end = start
            while end < changes.count, changes[end].tid == changes[start].tid { end += 1 }
            byThread[changes[start].tid] = start..<end
            start = end
        }
    }

    var threadCount: Int { byThread.count }

    /// Whether thread `tid` has scheduler events.
    func has(tid: Int) -> Bool { Int32(exactly: tid).map { byThread[$0] != nil } ?? false }

    /// Time of thread `tid` in each state between `start` and `end` (nanoseconds).
    struct Breakdown: Equatable {
        var running: Nanos = 0
        var runnable: Nanos = 0
        var sleeping: Nanos = 0
        /// Before the thread's first scheduler event.
        var unknown: Nanos = 0

        static func += (a: inout Breakdown, b: Breakdown) {
            a.running += b.running
            a.runnable += b.runnable
            a.sleeping += b.sleeping
            a.unknown += b.unknown
        }
    }

    /// Where thread `tid` spent `[start, end)`.
    ///
    /// - Complexity: O(log n + k) for the k changes in the span.
    func breakdown(tid: Int, from start: Nanos, to end: Nanos) -> Breakdown {
        var result = Breakdown()
        guard end > start else { return result }
        guard let tid32 = Int32(exactly: tid), let range = byThread[tid32] else {
            result.unknown = end - start
            return result
        }
        // The last change at or before `start`.
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if changes[mid].time <= start { low = mid + 1 } else { high = mid }
        }
        var state: State? = low > range.lowerBound ? changes[low - 1].state : nil
        var time = start
        var k = low
        func add(_ state: State?, _ length: Nanos) {
            switch state {
            case .running?: result.running += length
            case .runnable?: result.runnable += length
            case .sleeping?: result.sleeping += length
            case .unknown?, nil: result.unknown += length
            }
        }
        while k < range.upperBound, changes[k].time < end {
            add(state, changes[k].time - time)
            time = changes[k].time
            state = changes[k].state
            k += 1
        }
        add(state, end - time)
        return result
    }
}
