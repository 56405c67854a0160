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

/// Dependencies are resolved from the document's bytes when every id of a task
/// is plain ASCII, and by strings otherwise: both give the same scenario and
/// the same problems.
struct DependencyResolutionTests {
    /// `ids[k]` as written in a file: plainly, or every character as a `\u` escape.
    static func written(_ id: String, escaped: Bool) -> String {
        escaped ? id.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() : id
    }

    static func scenario(ids: [String], escaped: (Int) -> Bool) -> String {
        let tasks = ids.indices.map { i in
            let deps = (0..<i).filter { ($0 * 7 + i) % 3 == 0 }.map {
                "\"\(written(ids[$0], escaped: escaped($0 + i)))\""
            }
            return #"{"id": "\#(ids[i])", "cost": 1, "dependsOn": [\#(deps.joined(separator: ", "))]}"#
        }
        return #"{"name": "x", "tasks": [\#(tasks.joined(separator: ", "))]}"#
    }

    static func dependsOn(_ json: String) throws -> [[Int]] {
        try ScenarioLoader.decode(Array(json.utf8), file: "s.json").tasks.map(\.dependsOn)
    }

    @Test(arguments: [["a", "b", "c", "d", "e", "f", "g"], ["é", "b", "cé", "d", "e"]])
    func escapedAndPlainIdsResolveAlike(_ ids: [String]) throws {
        let plain = try Self.dependsOn(Self.scenario(ids: ids) { _ in false })
        #expect(plain.joined().count >= 3)
        #expect(try Self.dependsOn(Self.scenario(ids: ids) { _ in true }) == plain)
        #expect(try Self.dependsOn(Self.scenario(ids: ids) { $0 % 2 == 0 }) == plain)
    }

    @Test func problemsAreTheSameWhetherAnIdIsEscapedOrNot() {
        let plain = problems(
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["a", "a", "b", "zz"]}]}"#
        )
        let escaped = problems(
            #"{"name": "x", "tasks": [{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["a", "\u0061", "\u0062", "z\u007a"]}]}"#
        )
        #expect(plain.count == 3)
        #expect(escaped == plain)
    }
}

extension DependencyResolutionTests {
    /// A task that waits for thousands of tasks is resolved in linear time, and
    /// a repeat among them is still found (by the set, then worded by strings).
    @Test func longDependencyListsResolveAndFindRepeats() throws {
        let n = 20_000
        var tasks = (0..<n).map { #"{"id": "t\#($0)", "cost": 1}"# }
        let all = (0..<n).map { "\"t\($0)\"" }.joined(separator: ", ")
        tasks.append(#"{"id": "join", "cost": 1, "dependsOn": [\#(all)]}"#)
        let json = #"{"name": "x", "tasks": [\#(tasks.joined(separator: ", "))]}"#
        #expect(try Self.dependsOn(json).last == Array(0..<n))
        let repeated = json.replacingOccurrences(of: #""t19999"]"#, with: #""t19999", "t5"]"#)
        #expect(
            problems(repeated) == [
                "error: s.json: tasks[20000].dependsOn[20000] (task 'join'): 't5' is listed twice (also at dependsOn[5])"
            ])
    }
}
