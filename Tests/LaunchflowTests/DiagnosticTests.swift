import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// The one form of every error and warning about an input, and its escaping.
struct DiagnosticTests {
    static let forms: [(diagnostic: Diagnostic, line: String)] = [
        (
            Diagnostic(
                file: "s.json", path: "tasks[1].dependsOn[0]", taskID: "b", message: "unknown task 'nett'",
                suggestion: "net"),
            "error: s.json: tasks[1].dependsOn[0] (task 'b'): unknown task 'nett'; did you mean 'net'?"
        ),
        (
            Diagnostic(file: "s.json", line: 3, column: 25, message: "invalid JSON: expected ',' or '}'"),
            "error: s.json:3:25: invalid JSON: expected ',' or '}'"
        ),
        (Diagnostic(file: "s.json", message: "no such file"), "error: s.json: no such file"),
        (
            Diagnostic(.warning, file: "s.json", path: "tasks[2].dependsOn[0]", taskID: "x", message: "depends on 'y'"),
            "warning: s.json: tasks[2].dependsOn[0] (task 'x'): depends on 'y'"
        ),
        (
            Diagnostic(file: "b.json", subject: "baseline", path: "results[0]", message: "missing key 'metrics'"),
            "error: b.json: baseline results[0]: missing key 'metrics'"
        ),
        (
            Diagnostic(file: "b.json", subject: "baseline", line: 1, column: 1, message: "invalid JSON"),
            "error: b.json:1:1: baseline: invalid JSON"
        ),
        // Built in code: no file.
        (
            Diagnostic(file: "", path: "tasks[0].priority", taskID: "a", message: "must be an integer"),
            "error: tasks[0].priority (task 'a'): must be an integer"
        ),
        // A task id is shown only with a path, and never when empty.
        (Diagnostic(file: "s.json", taskID: "a", message: "m"), "error: s.json: m"),
        (Diagnostic(file: "s.json", path: "tasks[0].id", taskID: "", message: "m"), "error: s.json: tasks[0].id: m"),
    ]

    @Test(arguments: forms.indices)
    func oneFormForEveryDiagnostic(_ k: Int) {
        #expect(Self.forms[k].diagnostic.description == Self.forms[k].line)
    }

    /// Code acts on a problem by its kind, never its message (issue 39, item 8): the relations between
    /// tasks, launch phases and clusters have theirs, in a file and in a scenario built in code.
    @Test func problemsBetweenTasksHaveAKind() throws {
        func kinds(_ json: String) -> [Diagnostic.Kind] {
            do {
                _ = try ScenarioLoader.decode(Array(json.utf8), file: "s.json")
                return []
            } catch {
                return error.problems.map(\.kind)
            }
        }
        let task = #"{ "id": "%@", "cost": 1, "dependsOn": [%@] }"#
        func tasks(_ list: [(String, String)]) -> String {
            let body = list.map { id, deps in
                task.replacingOccurrences(of: "%@", with: id, range: task.range(of: "%@"))
                    .replacingOccurrences(of: "%@", with: deps)
            }
            return #"{ "name": "k", "tasks": ["# + body.joined(separator: ", ") + "] }"
        }
        #expect(kinds(tasks([("a", ""), ("a", "")])) == [.duplicateID])
        #expect(kinds(tasks([("a", #""b""#), ("b", #""a""#)])) == [.dependencyCycle])
        #expect(kinds(tasks([("a", #""nope""#)])) == [.unknownTask])
        #expect(kinds(tasks([("a", #""a""#)])) == [.selfDependency])
        #expect(kinds(tasks([("a", ""), ("b", #""a", "a""#)])) == [.repeatedDependency])
        #expect(kinds(tasks([("a", "")]).replacingOccurrences(of: #""cost": 1"#, with: #""cost": -1"#)) == [.other])
        let phases =
            #"{ "name": "k", "launchPhases": [ { "name": "p", "cost": 1 }, { "name": "p", "cost": 1 } ], "startsIn": "p", "#
            + #""tasks": [ { "id": "a", "cost": 1 } ] }"#
        #expect(kinds(phases) == [.duplicateID])
        let clusters =
            #"{ "name": "k", "device": { "clusters": [ { "name": "P", "count": 1, "speed": 1 }, "#
            + #"{ "name": "P", "count": 1, "speed": 1 } ] }, "tasks": [ { "id": "a", "cost": 1 } ] }"#
        #expect(kinds(clusters) == [.duplicateID])
        // A scenario built in code: the same kinds.
        let code = #expect(throws: ScenarioError.self) {
            try Scenario(
                name: "k", device: Device(cores: 2),
                tasks: [
                    LaunchTask(id: "a", cost: 1, dependsOn: [1]), LaunchTask(id: "b", cost: 1, dependsOn: [0]),
                ])
        }
        #expect(code?.problems.map(\.kind) == [.dependencyCycle])
    }

    @Test func controlCharactersFromTheInputAreEscaped() {
        #expect(escapedForTerminal("plain 'ids' → é ☃") == "plain 'ids' → é ☃")
        #expect(escapedForTerminal("a\tb\nc\rd\u{0C}e\u{08}f\u{0B}g\0h") == #"a\tb\nc\rd\fe\bf\vg\0h"#)
        #expect(escapedForTerminal("\u{1B}[31mred\u{1B}[0m") == #"\u{1B}[31mred\u{1B}[0m"#)
        #expect(escapedForTerminal("\u{7F}\u{9B}\u{2028}\u{202E}\u{2066}") == #"\u{7F}\u{9B}\u{2028}\u{202E}\u{2066}"#)
        let diagnostic = Diagnostic(
            file: "evil\u{07}.json", path: "tasks[0].dependsOn[0]", taskID: "a\u{1B}]0;x",
            message: "unknown task '\u{0C}'",
            suggestion: "b\nc")
        #expect(
            diagnostic.description
                == #"error: evil\u{7}.json: tasks[0].dependsOn[0] (task 'a\u{1B}]0;x'): unknown task '\f'; did you mean 'b\nc'?"#
        )
    }

    @Test func idsInScenarioProblemsReachTheTerminalEscaped() {
        let json =
            #"{"name": "x", "tasks": [{"id": "a\u001b[2J", "cost": 1, "dependsOn": ["b\f"]}, {"id": "c", "cost": 1, "c\tost": 2}]}"#
        #expect(
            problems(json) == [
                #"error: s.json: tasks[0].dependsOn[0]: unknown task 'b\f'"#,
                #"error: s.json: tasks[0].id: must not hold control characters, found U+001B at character 2"#,
                #"error: s.json: tasks[1].c\tost (task 'c'): unknown key 'c\tost'; did you mean 'cost'?"#,
            ])
    }

    /// The full optimal-string-alignment table, for comparison with the banded one.
    static func fullDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), d[i - 1][j] + 1, d[i][j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    @Test func theBandedEditDistanceAgreesWithTheFullTable() {
        var random = SplitMix64(seed: 19)
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", "\u{202E}"]
        func word() -> [Unicode.Scalar] {
            (0..<Int(random.next() % 9)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        }
        for _ in 0..<3000 {
            let (a, b) = (word(), word())
            let limit = 1 + Int(random.next() % 3)
            let full = Self.fullDistance(a, b)
            #expect(editDistance(a, b, limit: limit) == min(full, limit + 1), "\(a) \(b) limit \(limit)")
        }
    }

    /// Issue 19: a 160,000-character name of bidi controls took 3.5 s to escape (×4 per doubling) and a
    /// suggestion for it the whole edit-distance table; both are linear now (quadratic would take minutes).
    @Test func escapingAndSuggestionsForLongNamesTakeLinearTime() {
        let long = String(repeating: "\u{202E}", count: 400_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(escapedForTerminal(long).utf8.count == 8 * 400_000)
            #expect(closestMatch(to: long + "x", in: [long, long + "yz"]) == long)
            #expect(closestMatch(to: long, in: [String(repeating: "a", count: 400_000)]) == nil)
        }
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }

    /// Issue 19 (found by the fuzzer): 200 diagnostics each naming a 100,000-character slice printed
    /// 160 MB; a diagnostic line keeps its start and end and says how much it left out.
    @Test func aLongDiagnosticLosesItsMiddle() {
        let name = String(repeating: "\u{7}", count: 100_000)
        let diagnostic = Diagnostic(file: "s.json", path: "tasks[0]", message: "unknown key '\(name)' at the end")
        let line = diagnostic.description
        #expect(line.hasPrefix(#"error: s.json: tasks[0]: unknown key '\u{7}"#))
        #expect(line.hasSuffix(#"\u{7}' at the end"#))
        #expect(line.contains(" … (98943 characters left out) … "))  // 100,043 less 800 at the start and 300 at the end
        #expect(line.unicodeScalars.count < 8 * diagnosticLength)
        let short = Diagnostic(file: "s.json", message: String(repeating: "x", count: diagnosticLength - 20))
        #expect(!short.description.contains("left out"))
        let imported = ImportDiagnostic(.error, file: "t.json", line: 3, message: "slice '\(name)' never ends")
        #expect(imported.description.contains("characters left out"))
        #expect(imported.description.hasSuffix(#"' never ends"#))
    }

    @Test func didYouMeanHasOneForm() {
        #expect(didYouMean("cots", in: ["id", "cost"]) == "; did you mean 'cost'?")
        #expect(didYouMean("colour", in: ["id", "cost"]) == "")
        #expect(didYouMean(nil) == "")
    }
}
