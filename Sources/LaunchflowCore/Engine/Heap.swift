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

    mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    mutating func push(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func popMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        let last = storage.removeLast()
        guard !storage.isEmpty else { return last }
        let top = storage[0]
        storage[0] = last
        siftDown(0)
        return top
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let n = storage.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { return }
            var smallest = left
            let right = left + 1
            if right < n, storage[right] < storage[left] { smallest = right }
            guard storage[smallest] < storage[parent] else { return }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
