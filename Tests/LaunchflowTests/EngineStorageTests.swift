import Testing

@testable import LaunchflowCore

/// The engine's fixed-size storage (``FixedHeap``, ``FixedArray``) behaves as
/// the array-backed ``MinHeap`` and `Array` it stands in for.
struct EngineStorageTests {
    @Test(arguments: [1, 2, 7, 300])
    func fixedHeapComesOutInTheOrderOfMinHeap(_ capacity: Int) {
        var generator = SplitMix64(seed: UInt64(capacity))
        var fixed = FixedHeap<WorkerEnd>(capacity: capacity)
        var reference = MinHeap<WorkerEnd>()
        var worker: Int32 = 0
        var popped = 0
        for _ in 0..<5_000 {
            if fixed.count < capacity && generator.next() % 3 != 0 {
                worker += 1
                let end = WorkerEnd(time: Micros(generator.next() % 50), worker: worker)
                fixed.push(end)
                reference.push(end)
            } else {
                #expect(fixed.popMin() == reference.popMin())
                popped += 1
            }
            #expect(fixed.min == reference.min)
            #expect(fixed.count == reference.count)
        }
        while let end = reference.popMin() { #expect(fixed.popMin() == end) }
        #expect(fixed.isEmpty && fixed.popMin() == nil)
        #expect(popped > 0)
    }

    @Test func borrowedFixedArrayWritesIntoTheArray() {
        var values = [Int](repeating: 0, count: 5)
        values.withUnsafeMutableBufferPointer { buffer in
            var fixed = FixedArray(borrowing: buffer)
            for i in 0..<fixed.count { fixed[i] = i * i }
            fixed[4] += 1
        }
        #expect(values == [0, 1, 4, 9, 17])
        var owned = FixedArray(repeating: -1, count: 3)
        owned[1] = 7
        #expect((owned[0], owned[1], owned[2]) == (-1, 7, -1))
    }
}
