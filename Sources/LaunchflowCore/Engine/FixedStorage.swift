/// Storage of a fixed size for the engine's per-run state.
///
/// The engine knows every size before a run starts (n tasks, w workers: a
/// task enters the ready set, a timer or a worker's slot at most once at a
/// time), so its hottest state lives in memory allocated once per run and
/// owned by one value: nothing grows, nothing is shared. Unlike an `Array`, a
/// write therefore needs no uniqueness check — a call into the runtime on
/// every write, which added up to about a tenth of a sweep's instructions.
/// Every index is still checked: a bad one stops the program, as an array's would.
struct FixedArray<Element>: ~Copyable {
    private let base: UnsafeMutablePointer<Element>
    let count: Int
    /// Whether this value allocated `base` (and frees it).
    private let owns: Bool

    init(repeating value: Element, count: Int) {
        precondition(count >= 0, "a fixed array's size is not negative")
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(repeating: value, count: count)
        self.count = count
        owns = true
    }

    /// The elements of `buffer` — an array's, inside its
    /// `withUnsafeMutableBufferPointer`, which keeps them alive and owns them
    /// (so that a run's results end up in an array without a copy).
    init(borrowing buffer: UnsafeMutableBufferPointer<Element>) {
        // A non-null address even for an empty buffer (never dereferenced).
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
        count = buffer.count
        owns = false
    }

    deinit {
        guard owns else { return }
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
            return base + index
        }
    }

}

/// A binary min-heap in a ``FixedArray``'s way: its capacity is fixed when it
/// is made, and pushing beyond it stops the program. Elements come out in the
/// order ``MinHeap`` gives them (the same sifting, ``HeapOrder``).
///
/// - Complexity: `push` and `popMin` are O(log n); `min` is O(1).
struct FixedHeap<Element: Comparable>: ~Copyable {
    private let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity >= 0, "a heap's capacity is not negative")
        base = .allocate(capacity: Swift.max(capacity, 1))
        self.capacity = capacity
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var min: Element? { count == 0 ? nil : base[0] }

    mutating func push(_ element: Element) {
        precondition(count < capacity, "heap full")
        (base + count).initialize(to: element)
        count += 1
        HeapOrder.siftUp(element, from: count - 1, in: UnsafeMutableBufferPointer(start: base, count: count))
    }

    @discardableResult
    mutating func popMin() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        let last = (base + count).move()
        guard count > 0 else { return last }
        let top = base[0]
        HeapOrder.sink(last, from: 0, in: UnsafeMutableBufferPointer(start: base, count: count))
        return top
    }
}
