import Foundation
import Testing

@testable import LaunchflowCore

/// Output hygiene (issue 11): control characters from a scenario never reach
/// the terminal raw, a misspelt --help is recognised, the task table can
/// follow the launch.
@Suite struct OutputHygieneTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(displayEscaped("a\u{0C}b\u{1B}[2Jc") == "a\\fb\\u{1B}[2Jc")
        #expect(displayEscaped("tab\there\nline\r\u{7F}\u{9B}") == "tab\\there\\nline\\r\\u{7F}\\u{9B}")
        #expect(displayEscaped("two\nlines", keepingLineFeeds: true) == "two\nlines")
        #expect(displayEscaped("plain ☃ é") == "plain ☃ é")
    }

    @Test func errorsAndReportsEscapeWhatAFileHolds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-ctl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json")
        try Data(#"{"name": "x", "tasks": [{"id": "ab", "cost": 1, "dependsOn": ["zz\u001b[31m"]}]}"#.utf8)
            .write(to: broken)
        let error = try Launchflow.run(["validate", broken.path])
        #expect(error.status == 2)
        #expect(!error.stderr.contains("\u{1B}") && !error.stderr.contains("\u{0C}"))
        #expect(error.stderr.contains("(task 'ab'): unknown task 'zz\\u{1B}[31m'"))
        #expect(error.stderr.split(separator: "\n").count == 1)

        // Control characters other than line feeds and tabs cannot be in a scenario's ids and names
        // (issue 19): each string holding one is an error.
        let controls = folder.appendingPathComponent("controls.json")
        try Data(
            #"{"name": "app\u001b]0;title\u0007", "tasks": [{"id": "x\u001b[2J", "cost": 1}, {"id": "two\nlines", "cost": 2}]}"#
                .utf8
        ).write(to: controls)
        let refused = try Launchflow.run(["validate", controls.path])
        #expect(refused.status == 2)
        #expect(!refused.stderr.contains("\u{1B}") && !refused.stderr.contains("\u{07}"))
        #expect(
            refused.stderr.components(separatedBy: "must not hold control characters").count == 3, "\(refused.stderr)")

        // Bidirectional controls are allowed (right-to-left names need marks) and are shown escaped.
        let valid = folder.appendingPathComponent("valid.json")
        try Data(
            #"{"name": "app\u202eevil", "tasks": [{"id": "x\u2066y", "cost": 1}, {"id": "right\u200fleft", "cost": 2}]}"#
                .utf8
        ).write(to: valid)
        for args in [["simulate"], ["compare"], ["whatif"], ["validate"], ["sweep", "--runs", "5"]] {
            let out = try Launchflow.run([args[0], valid.path] + args.dropFirst())
            #expect(out.status == 0, "\(args): \(out.stderr)")
            for raw in ["\u{202E}", "\u{2066}", "\u{200F}"] { #expect(!out.stdout.contains(raw), "\(args)") }
        }
        let table = try Launchflow.run(["simulate", valid.path])
        #expect(table.stdout.contains("x\\u{2066}y"))
    }

    @Test func aMisspeltHelpIsRecognised() throws {
        let out = try Launchflow.run(["--hlep"])
        #expect(out.status == 2)
        #expect(out.stderr.hasPrefix("error: unknown option '--hlep'; did you mean '--help'?\n"))
        #expect(try Launchflow.run(["--verison"]).stderr.contains("did you mean '--version'?"))
    }

    @Test func theTaskTableCanFollowStartTimes() throws {
        let out = try Launchflow.run(["simulate", "scenarios/article.json", "--sort", "start"])
        #expect(out.status == 0)
        let rows = out.stdout.components(separatedBy: "Tasks (")[1].split(
            separator: "\n", omittingEmptySubsequences: false
        ).dropFirst(2)
            .prefix { !$0.isEmpty }
        let starts = rows.map { Double($0.split(separator: " ", omittingEmptySubsequences: true)[3])! }
        #expect(starts.count == 9 && starts == starts.sorted())
    }
}
