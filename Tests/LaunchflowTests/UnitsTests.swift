import Testing

@testable import LaunchflowCore

/// Time conversions of MODEL.md §2: ms in, integer µs inside, exact ms out.
struct UnitsTests {
    @Test(arguments: [
        (133_336, "133.336"), (130_000, "130"), (5, "0.005"), (100_002, "100.002"), (1_500, "1.5"), (0, "0"),
        (-2_250, "-2.25"), (3_600_000_000, "3600000"), (1, "0.001"), (10, "0.01"), (100, "0.1"), (1_010, "1.01"),
        (-1, "-0.001"), (Int.max, "9223372036854775.807"), (Int.min, "-9223372036854775.808"),
    ])
    func microsecondsPrintAsExactMilliseconds(_ micros: Int, _ text: String) {
        #expect(formatMillis(micros) == text)
    }

    /// The writer's digits against a plain formatting, on seeded random values of every size.
    @Test func millisecondsAgreeWithAPlainFormatting() {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<5_000 {
            let bits = generator.next()
            let micros = Int(truncatingIfNeeded: bits >> (bits % 63))
            let magnitude = micros.magnitude
            var fraction = String(magnitude % 1000)
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            let plain = (micros < 0 ? "-" : "") + String(magnitude / 1000) + (fraction.isEmpty ? "" : "." + fraction)
            #expect(formatMillis(micros) == plain, "\(micros)")
        }
    }

    @Test(arguments: [(0.0005, 1), (0.0004, 0), (1.0005, 1001), (16.6667, 16667), (3_600_000, 3_600_000_000)])
    func millisecondsRoundHalfAwayFromZero(_ ms: Double, _ micros: Int) {
        #expect(microseconds(fromMilliseconds: ms) == micros)
    }
}
