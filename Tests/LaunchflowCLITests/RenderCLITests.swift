import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// End-to-end: `render` and `compare --out` write complete pictures, atomically,
/// and fail cleanly (exit 2, nothing written) when they cannot.
@Suite(.serialized)
struct RenderCLITests {
    /// Issue 19 (found by the fuzzer): a 4,096-character id made a label wider than its fixed-size
    /// box; Graphviz 2.43 warned with a bad node-name pointer and crashed (SIGSEGV) formatting it.
    @Test func aLabelWiderThanItsBoxDoesNotCrashGraphviz() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("scenarios/tiers-only.json"), encoding: .utf8)
        let long = text.replacingOccurrences(
            of: "\"feed-prefetch\"", with: "\"\(String(repeating: "a", count: 4096))\"")
        #expect(long != text)
        let scenario = try folder.write("long.json", long)
        let out = try Launchflow.runBinary(["render", scenario, "--out", folder.path("out")])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).count == 6)
    }

    @Test func renderWritesAndListsEveryPicture() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url
        do {
            let out = folder.appendingPathComponent("pictures")
            let result = try Launchflow.run(["render", "scenarios/article.json", "--out", out.path])
            #expect(result.status == 0, "\(result.stderr)")
            let listed = result.stdout.split(separator: "\n").map(String.init)
            let expected = ["graph", "serial-gantt", "priority-gantt", "dag-gantt", "anchored-gantt", "compare-gantt"]
                .map {
                    out.appendingPathComponent("article-\($0).svg").path
                }
            #expect(listed == expected.map { "wrote " + $0 })
            let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(written == expected.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted())
            for path in expected {
                // A complete, well-formed SVG whose task elements carry the task ids.
                let document = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [])
                #expect(document.rootElement()?.name == "svg")
                let ids = try document.nodes(forXPath: "//@id").compactMap(\.stringValue)
                let expectedID = path.hasSuffix("compare-gantt.svg") ? "lf-dag-task-launch-page" : "launch-page"
                #expect(ids.contains(expectedID), "\(path)")
            }
        }
    }

    /// `--from` and `--to` take ms or a named instant; by default the launch is framed and later work folded.
    @Test func fromAndToFrameTheGanttCharts() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let out = temporary.url.path
        func gantt(_ extra: [String]) throws -> String {
            let result = try Launchflow.run(
                ["render", "scenarios/modules.json", "--strategy", "dag", "--out", out] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: out + "/modules-dag-gantt.svg", encoding: .utf8)
        }
        let framed = try gantt([])
        #expect(framed.contains("later, not to scale") && framed.contains("ads.sdk 3,630.7 ms"))
        #expect(framed.contains("(pre&#45;main) folded") || framed.contains("(pre-main) folded"))
        let whole = try gantt(["--from", "0", "--to", "end"])
        #expect(!whole.contains("later, not to scale") && !whole.contains("folded"))
        let early = try gantt(["--from", "t0", "--to", "ttff"])
        #expect(early.contains("later, not to scale") && early.contains("full display 391.651 ms ›"))
        let bad = try Launchflow.run(["render", "scenarios/modules.json", "--to", "soon", "--out", out])
        #expect(bad.status == 2 && bad.stderr.contains("--to takes a time in ms"))
    }

    /// `--from` and `--to` refuse exactly the names their help does not list, and say which they take (issue 26).
    @Test func fromAndToTakeTheNamesTheirHelpLists() throws {
        let help = try Launchflow.run(["render", "--help"]).stdout
        #expect(help.contains("t0 (the run loop), ttff, ttfd."))
        #expect(help.contains("Where it ends: ms, ttff, ttfd, launch or end"))
        for (option, value, names) in [
            ("--to", "t0", "ttff, ttfd, launch, end"), ("--from", "end", "t0, ttff, ttfd"),
            ("--from", "launch", "t0, ttff, ttfd"),
        ] {
            let out = try Launchflow.run(["render", "scenarios/modules.json", option, value, "--out", "/nonexistent/x"])
            #expect(out.status == 2, "\(option) \(value)")
            #expect(
                out.stderr.hasPrefix("error: \(option) takes a time in ms (0 … 3600000) or \(names); got '\(value)'"))
        }
    }

    @Test func compareOutWritesThePicturesAndAReport() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url
        do {
            let result = try Launchflow.run([
                "compare", "scenarios/tiers-only.json", "--out", folder.path, "--format", "json",
            ])
            #expect(result.status == 0)
            // The JSON on stdout stays clean; the paths go to stderr.
            #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any])
            let report = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
            #expect(report.contains("| metric |"))
            #expect(report.contains("tiers-only-compare-gantt.svg"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tiers-only-graph.svg").path))
        }
    }

    @Test func aBrokenGraphvizExitsTwoNamingThePackageAndWritesNothing() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url
        do {
            let plugins = folder.appendingPathComponent("no-plugins")
            try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
            let out = folder.appendingPathComponent("out")
            let result = try Launchflow.run(
                ["render", "scenarios/article.json", "--out", out.path], environment: ["GVBINDIR": plugins.path])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("error: "))
            #expect(result.stderr.contains("apt-get install libgraphviz-dev"))
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test func badRenderInvocationsExitTwo() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url
        do {
            let file = folder.appendingPathComponent("a-file")
            try Data("x".utf8).write(to: file)
            let cases: [([String], String)] = [
                (
                    ["render", "scenarios/article.json", "--tiers", "bandz"],
                    "error: invalid value 'bandz' for '--tiers'"
                ),
                (["render", "scenarios/article.json", "--out", file.path], "error: "),
                (
                    ["render", "scenarios/article.json", "--strategy", "al"],
                    "error: invalid value 'al' for '--strategy'"
                ),
            ]
            for (args, prefix) in cases {
                let result = try Launchflow.run(args)
                #expect(result.status == 2, "\(args)")
                #expect(result.stderr.hasPrefix(prefix), "\(args): \(result.stderr)")
                #expect(try Data(contentsOf: file) == Data("x".utf8))
            }
        }
    }
}
