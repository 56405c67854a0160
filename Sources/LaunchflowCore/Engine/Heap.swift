/// A binary min-heap.
///
/// Elements must be totally ordered without ties that matter: the simulator
/// only stores keys that are unique (task ranks, worker indices, or
/// `(time, worker)` pairs), so the order in which elements come out is fully
/// determined, unlike a heap that leaves equal elements in no fixed order.
///
/// - Complexity: `push` and `popMin` are O(log n); `min` is O(1).
struct MinHeap<Element: Comparable> {
    private(set) var storage: [Element] = []

    init() {}

    /// A heap of `elements`, built in O(n).
    init(_ elements: [Element]) {
        storage = elements
        guard storage.count > 1 else { return }
        for i in stride(from: storage.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    var isEmpty: Bool { storage.isEmpty }
    var count: Int { storage.count }
    var min: Element? { storage.first }

    mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

    mutating func push(_ element: Element) {
        storage.append(element)
        storage.withUnsafeMutableBufferPointer { heap in HeapOrder.siftUp(element, from: heap.count - 1, in: heap) }
    }

    @discardableResult
    mutating func popMin() -> Element? {
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
