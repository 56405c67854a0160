import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// End-to-end: the built binary's stdout, stderr and exit status.
@Suite(.serialized)
struct CLITests {
    let example = "scenarios/article.json"

    @Test func simulateJSONIsTheModelFormat() throws {
        let out = try Launchflow.run(["simulate", example, "--strategy", "dag", "--format", "json"])
        #expect(out.status == 0 && out.stderr.isEmpty)
        let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect(
            Set(object.keys).isSuperset(of: [
                "scenario", "strategy", "metrics", "preMain", "tasks", "commits", "violations",
            ]))
        #expect(object["strategy"] as? String == "dag")
        #expect((object["tasks"] as? [Any])?.count == 9)
    }

    @Test func simulateJSONIsByteIdenticalOnEveryRunAndInProcess() throws {
        // End to end: the executable, twice, and the CLI in process.
        let args = ["simulate", "scenarios/large-app.json", "--strategy", "priority", "--format", "json"]
        let first = try Launchflow.runBinary(args)
        #expect(first.status == 0)
        #expect(try Launchflow.runBinary(args).stdout == first.stdout)
        #expect(Launchflow.runInProcess(args).stdout == first.stdout)
    }

    @Test func simulateTextReportsMetricsWithUnitsAndEveryTask() throws {
        let out = try Launchflow.run(["simulate", example])
        #expect(out.status == 0)
        #expect(out.stdout.contains("strategy dag"))
        #expect(out.stdout.contains("time to first frame"))
        #expect(out.stdout.contains(" ms"))
        for id in ["crash-reporter", "launch-page", "content-page"] { #expect(out.stdout.contains(id)) }
        #expect(out.stdout.contains("wait"))
    }

    @Test func compareJSONListsTheStrategiesInOrder() throws {
        let out = try Launchflow.run(["compare", example, "--format", "json"])
        #expect(out.status == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["strategy"] as? String } == ["serial", "priority", "dag", "anchored"])
    }

    @Test func compareMarksTheBestAndShowsDeltas() throws {
        let text = try Launchflow.run(["compare", example]).stdout
        #expect(text.contains("*"))
        #expect(text.contains("(−"))
        let markdown = try Launchflow.run(["compare", example, "--format", "markdown", "--strategies", "dag,serial"])
            .stdout
        #expect(markdown.contains("| metric | dag | serial |"))
        #expect(markdown.contains("**"))
    }

    /// Issue 19: a scenario's name reached Markdown as raw HTML.
    static let markdownNames: [(name: String, heading: String)] = [
        ("App <img src=x onerror=alert(1)>", "## App &lt;img src=x onerror=alert(1)&gt;\n"),
        ("*bold* | [link](x) & ~del~", #"## \*bold\* \| \[link\](x) &amp; \~del\~"# + "\n"),
        (#"back\slash `code` #1 __u__"#, ##"## back\\slash \`code\` \#1 \_\_u\_\_"## + "\n"),
    ]

    @Test(arguments: markdownNames)
    func markdownEscapesTheScenarioName(_ name: String, _ heading: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try folder.write(
            "s.json",
            #"{"name": "\#(name.replacingOccurrences(of: "\\", with: "\\\\"))", "tasks": [{"id": "a", "cost": 1, "mainThreadOnly": true, "firstFrame": true}]}"#
        )
        let printed = try Launchflow.run(["compare", scenario, "--format", "markdown"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.hasPrefix(heading), "\(printed.stdout)")
        #expect(!printed.stdout.contains("<img"))
        let written = try Launchflow.run(["compare", scenario, "--out", folder.path("out")])
        #expect(written.status == 0, "\(written.stderr)")
        let report = try String(contentsOfFile: folder.path("out/report.md"), encoding: .utf8)
        #expect(report.contains("\n" + heading), "\(report)")
        #expect(!report.contains("<img"))
    }

    /// Runs the executable with its standard output on `output`; returns the status and stderr.
    static func run(_ args: [String], stdout output: FileHandle) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = Launchflow.url
        process.arguments = args
        process.currentDirectoryURL = repositoryRoot
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Issue 19: `> /dev/full` exited 0 having written nothing.
    static let outputCommands: [[String]] = [
        ["simulate", "scenarios/article.json", "--format", "json"], ["compare", "scenarios/article.json"],
        ["import", "Tests/LaunchflowTests/Fixtures/import/chrome-app-launch.json"],
        ["validate", "scenarios/article.json"],
    ]

    @Test(arguments: outputCommands)
    func aFailedWriteToStandardOutputIsAnError(_ args: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try Self.run(args, stdout: full)
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("error: cannot write to standard output: No space left on device\n"))
    }

    @Test(arguments: outputCommands)
    func aClosedPipeEndsQuietly(_ args: [String]) throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()  // the reader is gone before the first byte
        let result = try Self.run(args, stdout: pipe.fileHandleForWriting)
        #expect(result.status == 0)
        #expect(!result.stderr.contains("standard output"), "\(result.stderr)")
    }

    @Test func validatePrintsOkAndASummary() throws {
        let out = try Launchflow.run(["validate", example])
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("ok: scenarios/article.json: Article app"))
        #expect(out.stdout.contains("9 tasks"))
    }

    static let badInvocations: [(args: [String], stderr: String)] = [
        (["simulat", "x.json"], "error: unknown command 'simulat'; did you mean 'simulate'?"),
        (
            ["simulate", "scenarios/article.json", "--stratgy", "dag"],
            "error: unknown option '--stratgy'; did you mean '--strategy'?"
        ),
        (
            ["simulate", "scenarios/article.json", "--strategy", "dga"],
            "error: invalid value 'dga' for '--strategy': expected one of serial, priority, dag, anchored; did you mean 'dag'?"
        ),
        (["simulate"], "error: missing argument <scenario>"),
        (["simulate", "a.json", "b.json"], "error: unexpected argument 'b.json'"),
        (
            ["simulate", "scenarios/article.json", "--max-concurrent", "0"],
            "error: invalid value '0' for '--max-concurrent': expected an integer ≥ 1"
        ),
        (["simulate", "scenarios/article.json", "--format"], "error: option '--format' needs a value <format>"),
        (
            ["compare", "scenarios/article.json", "--strategies", "serial,dgа"],
            "error: unknown strategy 'dgа' in '--strategies'"
        ),
        (["validate", "no-such-file.json"], "error: no-such-file.json: no such file"),
        (
            ["validate", "scenarios/articel.json"],
            "error: scenarios/articel.json: no such file; did you mean 'scenarios/article.json'?"
        ),
        (
            ["import", "scenarios/modules.jsn"],
            "error: scenarios/modules.jsn: no such file; did you mean 'scenarios/modules.json'?"
        ),
        (
            ["import", "Tests/LaunchflowTests/Fixtures/import/chrome-app-launch.json", "--cpus", "0"],
            "error: invalid value '0' for '--cpus'"
        ),
        (
            [
                "import", "Tests/LaunchflowTests/Fixtures/import/chrome-app-launch.json", "--cpus", "2", "--into",
                "scenarios/article.json",
            ],
            "error: --cpus sets the imported scenario's device, and --into keeps the target's"
        ),
        (["validate", "scenarios"], "error: scenarios: is a directory, expected a scenario file (.json)"),
        (
            ["validate", "scenario/article.json"],
            "error: scenario/article.json: no such file; did you mean 'scenarios/article.json'?"
        ),
        (
            ["validate", "scenario/articel.json"],
            "error: scenario/articel.json: no such file; did you mean 'scenarios/article.json'?"
        ),
        (
            ["validate", "no-such-folder-at-all/article.json"],
            "error: no-such-folder-at-all/article.json: no such file\n"
        ),
    ]

    @Test(arguments: badInvocations.indices)
    func badInputExitsTwoWithAClearError(_ k: Int) throws {
        let (args, expected) = Self.badInvocations[k]
        // End to end: the executable, so that a trap would show as a crash.
        let out = try Launchflow.runBinary(args)
        #expect(out.status == 2, "\(args)")
        #expect(out.stderr.hasPrefix(expected), "\(args): \(out.stderr)")
        #expect(out.stdout.isEmpty)
        #expect(!out.stderr.contains("Fatal error") && !out.stderr.contains("Stack dump"))
    }

    @Test func anInvalidScenarioListsEveryProblemAndWritesNothingElse() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = URL(
            fileURLWithPath: try folder.write(
                "bad.json",
                #"{"name": "bad", "device": {"cores": 1}, "tasks": [{"id": "a", "cost": -1, "dependsOn": ["b"]}, {"id": "b", "cost": 1, "dependsOn": ["a"]}]}"#
            ))
        for command in ["simulate", "compare", "validate"] {
            let out = try Launchflow.run([command, file.path])
            #expect(out.status == 2)
            #expect(out.stdout.isEmpty)
            let lines = out.stderr.split(separator: "\n")
            #expect(lines.count == 3, "\(out.stderr)")
            #expect(lines.allSatisfy { $0.hasPrefix("error: \(file.path): ") })
            #expect(out.stderr.contains("dependency cycle: a → b → a"))
        }
    }

    /// Every time in a comparison table has three decimals, so the columns line up (issue 18).
    @Test func comparisonTimesHaveThreeDecimals() throws {
        let out = try Launchflow.run(["compare", "scenarios/article.json"])
        let timeRows = out.stdout.split(separator: "\n").filter { $0.contains("(ms)") }
        #expect(timeRows.count == 13)
        for row in timeRows {
            let cells = row.split(separator: "  ").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            for cell in cells where !cell.isEmpty {
                let value = cell.prefix { $0.isNumber || $0 == "." }
                #expect(value.split(separator: ".").last?.count == 3, "\(row)")
            }
        }
    }

    @Test func everyCommandHasHelp() throws {
        let names = LaunchflowCommand.commands.map(\.spec.name)
        #expect(names.count >= 12)
        for command in names {
            let out = try Launchflow.run([command, "--help"])
            #expect(out.status == 0)
            for section in ["OVERVIEW:", "USAGE: launchflow \(command)", "OPTIONS:"] {
                #expect(out.stdout.contains(section))
            }
            #expect(try Launchflow.run(["help", command]).stdout == out.stdout)
        }
        let top = try Launchflow.run(["--help"])
        #expect(top.status == 0 && top.stdout.contains("COMMANDS:"))
        for command in names { #expect(top.stdout.contains("  \(command) "), "\(command) is not in the command list") }
        #expect(try Launchflow.run(["--version"]).stdout.hasPrefix("launchflow "))
    }
}
