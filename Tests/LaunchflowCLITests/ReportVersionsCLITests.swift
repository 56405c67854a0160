import Foundation
import Testing

/// `launchflow report --baseline OLD` and `report --advise` from the command
/// line: bad input exits 2 and writes nothing, the page is byte-identical on
/// every run, and the advice section's numbers are `advise --format json`'s.
@Suite struct ReportVersionsCLITests {
    static let badInvocations: [(args: [String], stderr: String)] = [
        (["--baseline", "no-such.json"], "error: no-such.json: no such file"),
        (
            ["--baseline", "scenarios/post-frame.jsn"],
            "error: scenarios/post-frame.jsn: no such file; did you mean 'scenarios/post-frame.json'?"
        ),
        (["--baseline", "scenarios"], "error: scenarios: is a directory, expected a scenario file (.json)"),
        (["--baseline", "BAD"], "error: BAD: tasks[0].cost (task 'a'): must be between 0 and 3600000 ms, found -1"),
        (["--baseline", "BROKEN"], "error: BROKEN:2:1: invalid JSON"),
        (["--baseline"], "error: option '--baseline' needs a value <old.json>"),
        (["--allow", "after"], "error: '--allow' is an option of '--advise', which is not given"),
        (["--strategy", "dag"], "error: '--strategy' is an option of '--advise' and '--baseline', neither is given"),
        (
            ["--advise", "--allow", "aftr"],
            "error: unknown knob 'aftr' in '--allow': expected some of after, priority, idle, anchor, qos, strategy; did you mean 'after'?"
        ),
        (["--advise", "--keep", "nosuch"], "error: unknown task 'nosuch' in '--keep'"),
        (
            ["--advise", "--objective", "fullDisplya"],
            "error: invalid value 'fullDisplya' for '--objective': expected one of firstFrame, fullDisplay"
        ),
        (
            ["--advise", "--strategy", "anchored", "--max-blocked", "0"],
            "error: no plan keeps the main thread blocked ≤ 0 ms under anchored"
        ),
        (["--max-blocked", "5"], "error: '--max-blocked' is an option of '--advise', which is not given"),
        (
            ["--advise", "--max-regression", "launchComplete=ten"],
            "error: invalid limit 'ten' for 'launchComplete' in '--max-regression'"
        ),
    ]

    @Test(arguments: badInvocations.indices)
    func badInputExitsTwoAndWritesNothing(_ k: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bad = try folder.write("bad.json", #"{"name": "bad", "tasks": [{"id": "a", "cost": -1}]}"#)
        let broken = try folder.write("broken.json", "{\"name\": \n")
        let page = folder.path("page.html")
        let (args, expected) = Self.badInvocations[k]
        let given = args.map { $0 == "BAD" ? bad : $0 == "BROKEN" ? broken : $0 }
        let out = try Launchflow.runBinary(["report", "scenarios/post-frame.json", "--out", page] + given)
        let message = expected.replacingOccurrences(of: "BAD", with: bad).replacingOccurrences(
            of: "BROKEN", with: broken)
        #expect(out.status == 2, "\(args)")
        #expect(out.stderr.hasPrefix(message), "\(args): \(out.stderr)")
        #expect(out.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: page), "\(args) wrote the page")
    }

    @Test func theSamePageOnEveryRun() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var pages: [Data] = []
        for (k, jobs) in ["1", "2"].enumerated() {
            let page = folder.path("page\(k).html")
            let out = try Launchflow.run([
                "report", "docs/examples/post-frame-slow.json", "--baseline", "scenarios/post-frame.json", "--advise",
                "--jobs", jobs, "--out", page,
            ])
            #expect(out.status == 0, "\(out.stderr)")
            pages.append(try Data(contentsOf: URL(fileURLWithPath: page)))
        }
        #expect(pages[0] == pages[1])
        let html = String(decoding: pages[0], as: UTF8.self)
        #expect(html.contains("<section id=\"lf-versus\">") && html.contains("<section id=\"lf-advice\">"))
    }

    /// `--strategy` chooses the strategy of the baseline's pair of Gantt charts (and of the advice).
    @Test func theStrategyOptionChoosesThePanels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = folder.path("page.html")
        for (args, heading) in [
            ([String](), "baseline · dag"), (["--strategy", "anchored"], "baseline · anchored"),
            (["--strategies", "serial,priority"], "baseline · serial"),
        ] {
            let out = try Launchflow.run(
                [
                    "report", "docs/examples/post-frame-slow.json", "--baseline", "scenarios/post-frame.json", "--out",
                    page,
                ]
                    + args)
            #expect(out.status == 0, "\(out.stderr)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains(">\(heading)</text>"), "\(args)")
            #expect(html.components(separatedBy: ">baseline · ").count == 2, "one pair of panels")
        }
    }

    /// The advice section shows what `advise --format json` prints: the
    /// metrics as written and of the plan, the bound and the gap, each change's gain.
    @Test(arguments: [
        ["scenarios/modules.json"], ["scenarios/modules.json", "--objective", "fullDisplay"],
        ["scenarios/modules.json", "--max-regression", "timeToFullDisplay=0ms"],
    ])
    func theAdviceNumbersAreAdvisesOwn(_ args: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = folder.path("page.html")
        let advise = try Launchflow.run(["advise"] + args + ["--format", "json"])
        #expect(advise.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(advise.stdout.utf8)) as? [String: Any])
        let report = try Launchflow.run(["report"] + args + ["--advise", "--out", page])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(html.range(of: "<section id=\"lf-advice\">"))
        let section = String(html[start.upperBound...].components(separatedBy: "</section>")[0])

        func ms(_ value: Any?) -> Int { Int((((value as? Double) ?? .nan) * 1000).rounded()) }
        let bound = ms(json["firstFrameBoundMs"])
        #expect(section.contains("data-bound=\"\(bound)\""))
        let plan = try #require((json["plan"] as? [String: Any])?["metrics"] as? [String: Any])
        let baseline = try #require((json["baseline"] as? [String: Any])?["metrics"] as? [String: Any])
        #expect(section.contains("data-gap=\"\(ms(plan["timeToFirstFrameMs"]) - bound)\""))
        // Each table row: as written, the plan (with its change), the best built-in.
        for key in ["timeToFirstFrameMs", "firstFrameReadyMs", "timeToFullDisplayMs", "launchCompleteMs"] {
            let row = try #require(section.range(of: "<tr data-metric=\"\(key)\">"))
            let cells = section[row.upperBound...].components(separatedBy: "</tr>")[0]
                .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            #expect(cells.contains(Self.fixed(ms(baseline[key]))), "\(key): \(cells)")
            #expect(cells.contains(Self.fixed(ms(plan[key]))), "\(key): \(cells)")
        }
        let changes = try #require(json["changes"] as? [[String: Any]])
        let gains = section.components(separatedBy: " data-gain=\"").dropFirst().map { Int($0.prefix { $0 != "\"" }) }
        #expect(gains == changes.map { ms($0["gainMs"]) })
        #expect(!changes.isEmpty)
        for change in changes {
            let task = try #require(change["task"] as? String)
            #expect(section.contains("<td class=\"lf-id\">\(task)</td><td>\(change["key"] as? String ?? "")</td>"))
        }
    }

    /// µs as the tables print ms: three decimals.
    static func fixed(_ micros: Int) -> String { String(format: "%d.%03d", micros / 1000, micros % 1000) }

    @Test func theHelpListsBothOptions() throws {
        let out = try Launchflow.run(["report", "--help"])
        for option in [
            "--baseline <old.json>", "--advise", "--allow <list>", "--keep <ids>", "--objective <metric>",
            "--max-blocked <ms>", "--max-regression <metric=limit>",
        ] {
            #expect(out.stdout.contains(option), "\(option)")
        }
    }
}
