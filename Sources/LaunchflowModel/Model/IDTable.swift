import Foundation

/// Id → index, with ids compared as Swift compares strings (canonical
/// equivalence: "é" precomposed equals "e" + U+0301, and U+212A KELVIN SIGN
/// equals "K"). Task ids, and the names of launch phases and clusters,
/// which compare as ids do.
///
/// Swift's `Dictionary<String, Int>` has exactly those semantics but hashes
/// slowly (SipHash over normalised text); a 100k-task scenario spends most of
/// its validation there. When every id is ASCII (the usual case) this table
/// hashes raw bytes instead (FNV-1a, open addressing), which is exact for
/// ASCII; a non-ASCII query is normalised (NFC) first, since only its NFC form
/// can equal an ASCII id. Any non-ASCII id falls back to a Swift dictionary.
///
/// - Complexity: O(length) per insert and lookup, expected.
package struct IDTable {
    private var ids: [String] = []
    private var slots: [Int32] = []  // index + 1; 0 = empty
    private var hashes: [UInt64] = []
    private var mask = 0
    private var fallback: [String: Int]?

    /// Indexes `ids` in order, skipping empty ones; `duplicate(i, first)` is
    /// called for each id seen before.
    package init(_ ids: [String], duplicate: (Int, Int) -> Void) {
        let allASCII = ids.allSatisfy(Self.isASCII)
        if !allASCII {
            var dictionary = [String: Int](minimumCapacity: ids.count)
            for (i, id) in ids.enumerated() {
                guard !id.isEmpty else { continue }
                if let first = dictionary[id] { duplicate(i, first) } else { dictionary[id] = i }
            }
            fallback = dictionary
            return
        }
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        slots = [Int32](repeating: 0, count: capacity)
        hashes = [UInt64](repeating: 0, count: capacity)
        mask = capacity - 1
        self.ids = ids
        for (i, id) in self.ids.enumerated() where !id.isEmpty {
            let hash = Self.hash(id)
            var slot = Int(truncatingIfNeeded: hash) & mask
            var found: Int?
            while slots[slot] != 0 {
                let other = Int(slots[slot]) - 1
                if hashes[slot] == hash && self.ids[other] == id {
                    found = other
                    break
                }
                slot = (slot + 1) & mask
            }
            if let found {
                duplicate(i, found)
            } else {
                slots[slot] = Int32(i + 1)
                hashes[slot] = hash
            }
        }
    }

    /// The index of the task whose id equals `id` as a Swift string.
    package func index(of id: String) -> Int? {
        if let fallback { return fallback[id] }
        guard Self.isASCII(id) else {
            let normalized = id.precomposedStringWithCanonicalMapping
            return Self.isASCII(normalized) ? index(of: normalized) : nil
        }
        let hash = Self.hash(id)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let other = Int(slots[slot]) - 1
            if hashes[slot] == hash && ids[other] == id { return other }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Whether every id is ASCII (the table hashes bytes; see ``index(ofASCII:)``).
    package var isASCII: Bool { fallback == nil }

    /// The index of the task whose id is the ASCII text `bytes` — the same as
    /// ``index(of:)`` of that text, without making a string. Only for a table
    /// whose ids are all ASCII (``isASCII``).
    package func index(ofASCII bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        precondition(isASCII, "index(ofASCII:) needs an ASCII table")
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let other = Int(slots[slot]) - 1
            if hashes[slot] == hash {
                var id = ids[other]
                if id.withUTF8({ sameBytes($0, bytes) }) { return other }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// FNV-1a over the UTF-8 bytes, then a final mix so the low bits spread.
    private static func hash(_ text: String) -> UInt64 {
        var text = text  // withUTF8 on a native string: no copy
        return text.withUTF8(hash)
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }
}
