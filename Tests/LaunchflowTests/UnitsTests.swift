import Testing

@testable import LaunchflowCore

/// Time conversions of MODEL.md §2: ms in, integer µs inside, exact ms out.
struct UnitsTests {
    @Test(arguments: [
        (133_336, "133.336"), (130_000, "130"), (5, "0.005"), (100_002, "100.002"), (1_500, "1.5"), (0, "0"),
        (-2_250, "-2.25"), (3_600_000_000, "3600000"),
    ])
    func microsecondsPrintAsExactMilliseconds(_ micros: Int, _ text: String) {
        #expect(formatMillis(micros) == text)
    }

    @Test(arguments: [(0.0005, 1), (0.0004, 0), (1.0005, 1001), (16.6667, 16667), (3_600_000, 3_600_000_000)])
    func millisecondsRoundHalfAwayFromZero(_ ms: Double, _ micros: Int) {
        #expect(microseconds(fromMilliseconds: ms) == micros)
    }
}
