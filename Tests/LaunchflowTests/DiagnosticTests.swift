import Testing

@testable import LaunchflowCore

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
                #"error: s.json: tasks[0].dependsOn[0] (task 'a\u{1B}[2J'): unknown task 'b\f'"#,
                #"error: s.json: tasks[1].c\tost (task 'c'): unknown key 'c\tost'; did you mean 'cost'?"#,
            ])
    }

    @Test func didYouMeanHasOneForm() {
        #expect(didYouMean("cots", in: ["id", "cost"]) == "; did you mean 'cost'?")
        #expect(didYouMean("colour", in: ["id", "cost"]) == "")
        #expect(didYouMean(nil) == "")
    }
}
