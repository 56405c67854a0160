import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore
@testable import LaunchflowImport

/// Bad input to `import`: every problem at once, each with its file and the
/// event (or line) and key; exit 2; nothing written; input text escaped.
struct ImportErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Files to write into a fresh folder: name → content.
        var files: [String: String] = [:]
        /// `import` arguments; `@name` is a file of the folder, `%name` a fixture.
        var args: [String]
        /// Every one must appear in stderr.
        var expected: [String]
        var status: Int32 = 2

        var testDescription: String { name }
    }

    static let header = #"{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}"#

    static func trace(_ events: String...) -> String {
        "{\"traceEvents\": [\n" + ([header] + events).joined(separator: ",\n") + "\n]}\n"
    }

    static let cases: [Case] = [
        Case(
            name: "negative duration (fixture)",
            args: ["%chrome-negative-dur.json"],
            expected: ["chrome-negative-dur.json:8: traceEvents[4]", "'dur' is negative (-1250 µs)"]),
        Case(
            name: "malformed JSON (fixture): line and column",
            args: ["%chrome-malformed.json"],
            expected: ["chrome-malformed.json:7:", "not valid JSON", "nothing was imported"]),
        Case(
            name: "no thread names, no tid = pid (fixture): the threads are listed",
            args: ["%chrome-no-thread-names.json"],
            expected: ["cannot tell which thread is the app's main thread", "tid 5301 of pid 5300", "--main-thread"]),
        Case(
            name: "a slice two map rules claim (fixture)",
            args: ["%chrome-ambiguous-map.json", "--map", "%map-ambiguous.json"],
            expected: [
                "chrome-ambiguous-map.json:11: traceEvents[7]: slice 'ImageCache.prefetchAnalytics' matches map rules for 2 tasks: 'image-cache'",
                "'analytics'",
            ]),
        // Issue 19: these trapped (exit 132) instead of reporting.
        Case(
            name: "an unmatched E at ts 1e15: the diagnostic prints the time",
            files: ["t.json": trace(#"{"ph": "E", "pid": 1, "tid": 1, "ts": 1e15}"#)],
            args: ["@t.json"],
            expected: ["traceEvents[1] (ph 'E', pid 1, tid 1, ts 1000000000000000): an 'E' event with no open 'B'"]),
        Case(
            name: "ts and dur beyond 4e15 µs, and a slice ending beyond",
            files: [
                "t.json": trace(
                    #"{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 9e15, "dur": 1}"#,
                    #"{"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1e300}"#,
                    #"{"name": "c", "ph": "B", "pid": 1, "tid": 1, "ts": -4e15}"#,
                    #"{"name": "c", "ph": "E", "pid": 1, "tid": 1, "ts": 4e15}"#,
                    #"{"name": "d", "ph": "X", "pid": 1, "tid": 1, "ts": 4e15, "dur": 4e15}"#)
            ],
            args: ["@t.json"],
            expected: [
                "traceEvents[1] (ph 'X', name 'a', pid 1, tid 1, ts 9000000000000000.0): 'ts' is out of range: 9000000000000000.0 (expected at most ±4e15 µs)",
                "traceEvents[2] (ph 'X', name 'b', pid 1, tid 1, ts 0): 'dur' is out of range: 1e+300 (expected at most 4e15 µs)",
            ]),
        Case(
            name: "the longest slices that can be read, several of one name: their sum does not overflow",
            files: [
                "t.json": trace(
                    #"{"name": "c", "ph": "B", "pid": 1, "tid": 1, "ts": -4e15}"#,
                    #"{"name": "c", "ph": "E", "pid": 1, "tid": 1, "ts": 4e15}"#,
                    #"{"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 4e15, "dur": 4e15}"#,
                    #"{"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 4e15, "dur": 4e15}"#)
            ],
            args: ["@t.json"],
            expected: ["task 'c' would cost", "more than the model's limit of an hour"]),
        Case(
            name: "a MetricKit bucketCount of 1e+19",
            files: [
                "m.json":
                    #"{"signpostMetrics": [{"signpostName": "a", "signpostIntervalData": {"histogrammedSignpostDurations": {"histogramValue": {"0": {"bucketCount": 1e+19, "bucketStart": "1 ms", "bucketEnd": "2 ms"}}}}}]}"#
            ],
            args: ["@m.json"],
            expected: [
                #"m.json: signpostMetrics[0].signpostIntervalData.histogrammedSignpostDurations.histogramValue["0"]: 'bucketCount' must be a whole number from 0 to 1000000000000, found 1e+19"#
            ]),
        Case(
            name: "an atrace time beyond 4e9 s",
            files: [
                "a.txt":
                    "# tracer: nop\n          main-1     (    1) [000] ...1 9999999999.000000: tracing_mark_write: B|1|a\n          main-1     (    1) [000] ...1 9999999999.000100: tracing_mark_write: E|1\n"
            ],
            args: ["@a.txt"],
            expected: ["a.txt"]),
        Case(
            name: "every file's problems at once",
            args: ["%chrome-negative-dur.json", "@missing.json", "%chrome-unbalanced.json"],
            expected: ["'dur' is negative", "missing.json: no such file", "an 'E' event with no open 'B'"]),
        Case(
            name: "missing ts and dur, wrong types",
            files: [
                "t.json": trace(
                    #"{"name": "a", "ph": "X", "pid": 1, "tid": 1, "dur": 5}"#,
                    #"{"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 5}"#,
                    #"{"name": "c", "ph": "X", "pid": 1, "tid": "main", "ts": 5, "dur": 1}"#,
                    #"{"name": "d", "ph": "X", "pid": 1, "tid": 1, "ts": 5, "dur": true}"#)
            ],
            args: ["@t.json"],
            expected: [
                "t.json:3: traceEvents[1] (ph 'X', name 'a', pid 1, tid 1): 'ts' is missing",
                "t.json:4: traceEvents[2] (ph 'X', name 'b', pid 1, tid 1, ts 5): an 'X' event without 'dur': a slice the recording cut",
                "traceEvents[3]", "'tid' must be an integer, found the string \"main\"",
                "traceEvents[4]", "'dur' must be a number (µs), found a boolean",
            ]),
        Case(
            name: "no traceEvents",
            files: ["t.json": #"{"events": []}"#],
            args: ["@t.json"],
            expected: ["t.json: a JSON object with no 'traceEvents' array (its keys: 'events'): not a Chrome trace"]),
        Case(
            name: "an unknown format",
            files: ["notes.txt": "hello\nworld\n"],
            args: ["@notes.txt"],
            expected: ["notes.txt: unknown format", "--from perfetto|chrome|atrace|metrickit"]),
        Case(
            name: "--from metrickit on a trace",
            args: ["%chrome-bare-array.json", "--from", "metrickit"],
            expected: ["chrome-bare-array.json: [0]: not a MetricKit payload: it has neither 'signpostMetrics'"]),
        Case(
            name: "--from chrome on a MetricKit payload",
            args: ["%metrickit-payload.json", "--from", "chrome"],
            expected: ["metrickit-payload.json: this is a MetricKit payload, not a Chrome trace"]),
        Case(
            name: "traces and MetricKit mixed",
            args: ["%chrome-bare-array.json", "%metrickit-payload.json"],
            expected: ["a MetricKit payload cannot be mixed with traces"]),
        Case(
            name: "a main thread that is not in the trace",
            args: ["%chrome-bare-array.json", "--main-thread", "9999"],
            expected: ["--main-thread '9999': no thread with tid 9999 in this trace", "tid 2210 of pid 2210"]),
        Case(
            name: "an invalid --match regex",
            args: ["%chrome-bare-array.json", "--match", "(unclosed"],
            expected: ["--match: '(unclosed' is not a valid regular expression"]),
        Case(
            name: "a map that is not an object of ids",
            files: ["map.json": #"{"a": 3, "b": ""}"#],
            args: ["%chrome-bare-array.json", "--map", "@map.json"],
            expected: [
                "map.json: a: the task id for slice 'a' must be a non-empty string, found a number",
                "map.json: b: the task id for slice 'b' must be a non-empty string",
            ]),
        Case(
            name: "flows that make a cycle",
            files: [
                "t.json": trace(
                    #"{"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 10}"#,
                    #"{"name": "b", "ph": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 10}"#,
                    #"{"name": "f", "ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 1}"#,
                    #"{"name": "f", "ph": "f", "bp": "e", "id": 1, "pid": 1, "tid": 2, "ts": 2}"#,
                    #"{"name": "f", "ph": "s", "id": 2, "pid": 1, "tid": 2, "ts": 3}"#,
                    #"{"name": "f", "ph": "f", "bp": "e", "id": 2, "pid": 1, "tid": 1, "ts": 4}"#)
            ],
            args: ["@t.json"],
            expected: ["do not make a valid scenario", "dependency cycle: a → b → a"]),
        Case(
            name: "a cost over an hour",
            files: ["t.json": trace(#"{"name": "forever", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 4e9}"#)],
            args: ["@t.json"],
            expected: ["task 'forever' would cost 4000000 ms, more than the model's limit of an hour"]),
        Case(
            name: "control characters in names are escaped",
            files: [
                "t.json": trace(
                    #"{"name": "evil\u001b[31mred", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": -1}"#)
            ],
            args: ["@t.json"],
            expected: [#"name 'evil\u{1B}[31mred'"#]),
        Case(
            name: "--into a scenario that is not JSON",
            files: ["s.json": "{ \"name\": "],
            args: ["%chrome-bare-array.json", "--into", "@s.json"],
            expected: ["s.json:1:", "invalid JSON"]),
        Case(
            name: "--into a scenario none of whose tasks is in the trace",
            files: ["s.json": #"{"name": "x", "tasks": [{"id": "other", "cost": 1}]}"#],
            args: ["%chrome-bare-array.json", "--into", "@s.json"],
            expected: ["s.json: no task of the scenario is in", "'root-vc' (24.5 ms)"]),
    ]

    @Test(arguments: cases)
    func badInputExitsTwoWithEveryProblemAndWritesNothing(_ c: Case) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, content) in c.files { try folder.write(name, content) }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        let out = folder.path("out.json")
        let args =
            ["import"]
            + c.args.map { arg in
                arg.hasPrefix("@")
                    ? folder.path(String(arg.dropFirst()))
                    : arg.hasPrefix("%") ? ImportTests.fixture(String(arg.dropFirst())) : arg
            } + ["--out", out]
        var streams: any OutputStreams = CapturedStreams()
        let status = LaunchflowCommand.main(args, streams: &streams)
        let captured = streams as! CapturedStreams
        #expect(status == c.status)
        for text in c.expected {
            #expect(captured.error.contains(text), "missing: \(text)\nstderr:\n\(captured.error)")
        }
        #expect(captured.output.isEmpty)
        #expect(!captured.error.contains("\u{1B}"))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        #expect(after == before, "files written: \(after.subtracting(before))")
        for (name, content) in c.files {
            #expect(try String(contentsOfFile: folder.path(name), encoding: .utf8) == content)
        }
        for line in captured.error.split(separator: "\n") {
            #expect(line.hasPrefix("error: ") || line.hasPrefix("warning: ") || line.hasPrefix("note: "))
        }
    }

    @Test func terminalTextEscapesControlAndBidiCharacters() {
        #expect(TerminalText.escape("plain → text") == "plain → text")
        #expect(TerminalText.escape("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(TerminalText.escape("x\ny\u{7F}\u{9B}") == #"x\ny\u{7F}\u{9B}"#)
        #expect(TerminalText.escape("abc\u{202E}def") == #"abc\u{202E}def"#)
    }
}
