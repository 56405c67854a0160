import Testing

@testable import LaunchflowCore

/// The reader's numbers equal Swift's correctly rounded parsing, bit for bit,
/// on the fast path (up to 15 significant digits) and beyond it.
struct JSONNumberTests {
    @Test func numbersParseAsSwiftParsesThem() throws {
        var generator = SplitMix64(seed: 5)
        for _ in 0..<20_000 {
            let integerDigits = Int(generator.next() % 12)
            let fractionDigits = Int(generator.next() % 8)
            var text = generator.next() % 4 == 0 ? "-" : ""
            text += integerDigits == 0 ? "0" : String(1 + generator.next() % 9)
            for _ in 0..<Swift.max(integerDigits - 1, 0) { text += String(generator.next() % 10) }
            if fractionDigits > 0 {
                text += "."
                for _ in 0..<fractionDigits { text += String(generator.next() % 10) }
            }
            if generator.next() % 10 == 0 { text += "e" + String(Int(generator.next() % 9) - 4) }
            var reader = JSONReader(bytes: Array(text.utf8))
            let value = try reader.readNumber().value
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
