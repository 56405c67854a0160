/// A binary min-heap.
///
/// Elements must be totally ordered without ties that matter: the simulator
/// only stores keys that are unique (task ranks, worker indices, or
/// `(time, worker)` pairs), so the order in which elements come out is fully
/// determined, unlike a heap that leaves equal elements in no fixed order.
///
/// - Complexity: `push` and `popMin` are O(log n); `min` is O(1).
///
/// Inlinable, so that a module using it (the runtime's scheduler, the
/// engine) gets it specialized to its element type: unspecialized, each
/// `push` and `popMin` looked up the element type's metadata, which was 40%
/// of the runtime's own time on a worker (`launchflow-bench --runtime`).
@usableFromInline package struct MinHeap<Element: Comparable> {
    /// The heap's array (change it only through `push` and `popMin`).
    @usableFromInline package var storage: [Element] = []

    @inlinable package init() {}

    /// A heap of `elements`, built in O(n).
    package init(_ elements: [Element]) {
        storage = elements
        guard storage.count > 1 else { return }
        for i in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    @inlinable package var isEmpty: Bool { storage.isEmpty }
    @inlinable package var count: Int { storage.count }
    @inlinable package var min: Element? { storage.first }

    @inlinable package mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    @inlinable package mutating func push(_ element: Element) {
        storage.append(element)
        storage.withUnsafeMutableBufferPointer { heap in HeapOrder.siftUp(element, from: heap.count - 1, in: heap) }
    }

    @discardableResult
    @inlinable package mutating func popMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        let last = storage.removeLast()
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        storage.withUnsafeMutableBufferPointer { heap in HeapOrder.sink(last, from: 0, in: heap) }
        return top
    }

    private mutating func siftDown(_ start: Int) {
        let element = storage[start]
        storage.withUnsafeMutableBufferPointer { heap in HeapOrder.sink(element, from: start, in: heap) }
    }
}

extension MinHeap: Sendable where Element: Sendable {}

/// The sifting both heaps share. Keys are unique in the engine (see
/// ``MinHeap``), so the order elements come out in is fully determined.
@usableFromInline package enum HeapOrder {
    /// Places `element`, stored at `hole`, at `hole` or above, moving larger parents down.
    @inline(__always)
    @inlinable package static func siftUp<Element: Comparable>(
        _ element: Element, from hole: Int, in heap: UnsafeMutableBufferPointer<Element>
    ) {
        var child = hole
        while child > 0 {
            let parent = (child - 1) / 2
            guard element < heap[parent] else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = element
    }

    /// Places `element` at `hole` or below, moving smaller children up.
    @inlinable package static func sink<Element: Comparable>(
        _ element: Element, from hole: Int, in heap: UnsafeMutableBufferPointer<Element>
    ) {
        var parent = hole
        let n = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { break }
            var smallest = left
            let right = left + 1
            if right < n, heap[right] < heap[left] { smallest = right }
            guard heap[smallest] < element else { break }
            heap[parent] = heap[smallest]
            parent = smallest
        }
        heap[parent] = element
    }
}
