import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// `launchflow import` of Xcode Instruments exports (`xctrace export` XML):
/// the exports that Tools/instruments-fixtures/write_exports.py writes (an
/// independent writer, with the values each must import to in expected.json)
/// give back every task to the microsecond, whatever the row order; broken
/// exports are errors that say where, never a trap.
struct XctraceImportTests {
    static let folder = "import/xctrace/"

    static func path(_ name: String) -> String { fixtureURL(folder + name).path }

    struct Expected: Decodable {
        struct Task: Decodable {
            struct Slice: Decodable {
                var tid: Int
                var startNs: Int64
                var durationNs: Int64
            }
            var id: String
            var onMain: Bool
            var slices: [Slice]
            var wallNs: Int64
            var costMicros: Int64
            var runningNs: Int64
            var runnableNs: Int64
            var blockedNs: Int64
            var unknownNs: Int64
            var runningCostMicros: Int64
        }
        struct Phase: Decodable {
            var name: String
            var startNs: Int64
            var durationNs: Int64
            var costMicros: Int64
        }
        var tasks: [Task]
        var preMain: [Phase]
        /// (§3.12) The app's callbacks of the first run-loop turn.
        var launchPhases: [Phase]
        var firstFrameFromProcessStartNs: Int64
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixtureURL(folder + "expected.json")))
    }

    /// The import of `files` as `launchflow import` runs it: the scenario, and the run before it.
    static func run(_ files: [String], _ options: ImportOptions = ImportOptions()) throws -> (
        run: ImportedRun, scenario: [String: Any], log: ImportLog
    ) {
        let outcome = try TraceImport.run(ImportRequest(traces: files, options: options))
        _ = try ScenarioLoader.decode(outcome.scenario, file: "imported.json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        var log = ImportLog()
        var exports: [XctraceExport] = []
        for file in files {
            let bytes = try readInputFile(file, what: "a trace")
            guard
                case .xctrace(let export)? = TraceImport.readInput(
                    bytes, file: file, format: nil, log: &log, progress: nil)
            else {
                Issue.record("\(file) is not read as an Instruments export: \(log.text)")
                throw ImportError(log)
            }
            exports.append(export)
        }
        var trace = XctraceExport.trace(of: exports)
        let rules = try SelectionRules(options)
        let run = try #require(
            SliceSelection.run(
                of: &trace, rules: rules, mainThread: options.mainThread, process: options.process, log: &log))
        return (run, object, outcome.log)
    }

    /// LaunchflowRuntime's SignpostTraceSink (docs/runtime.md, "On Apple
    /// platforms"): every interval is named `launchflow-task` with the task's
    /// id as its message, and imports as that task — even when only one
    /// interval has the name — beside the app's own signposts, named as before.
    @Test func theRuntimeSinksIntervalsAreItsTasks() throws {
        struct Sink: Decodable {
            struct Task: Decodable {
                var id: String
                var onMain: Bool
                var costMicros: Int64
            }
            var tasks: [Task]
        }
        struct Want: Decodable { var runtimeSink: Sink }
        let want = try JSONDecoder().decode(
            Want.self, from: Data(contentsOf: fixtureURL(Self.folder + "expected.json"))
        ).runtimeSink
        let (_, scenario, _) = try Self.run([Self.path("runtime-sink-intervals.xml")])
        let tasks = try #require(scenario["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["id"] as? String } == want.tasks.map(\.id))
        for (task, expected) in zip(tasks, want.tasks) {
            #expect((task["cost"] as? NSNumber)?.doubleValue == Double(expected.costMicros) / 1000, "\(expected.id)")
            #expect((task["mainThreadOnly"] as? Bool ?? false) == expected.onMain, "\(expected.id) main")
        }
    }

    static let recordings: [[String]] = [
        ["launch-intervals.xml"],
        ["launch-intervals-shuffled-7.xml"],
        ["launch-signposts.xml", "split-lifecycle.xml", "split-thread-state.xml"],
        ["launch-signposts-shuffled-7.xml", "split-thread-state.xml", "split-lifecycle.xml"],
    ]

    @Test(arguments: recordings)
    func everyTaskToTheMicrosecond(files: [String]) throws {
        let want = try Self.expected()
        let (run, scenario, log) = try Self.run(files.map(Self.path))
        let tasks = try #require(scenario["tasks"] as? [[String: Any]])
        #expect(
            tasks.map { $0["id"] as? String } == want.tasks.map(\.id),
            "\(files): the tasks, in the order of their starts")
        for (task, expected) in zip(tasks, want.tasks) {
            let cost = (task["cost"] as? NSNumber)?.doubleValue
            #expect(cost == Double(expected.costMicros) / 1000, "\(files): \(expected.id) cost")
            #expect((task["mainThreadOnly"] as? Bool ?? false) == expected.onMain, "\(files): \(expected.id) main")
        }
        // Before rounding: the exact nanoseconds and spans.
        for (task, expected) in zip(run.tasks, want.tasks) {
            #expect(task.cost == expected.wallNs, "\(files): \(expected.id) wall time")
            #expect(task.slices == expected.slices.count, "\(files): \(expected.id) slices")
            let first = expected.slices.map(\.startNs).min()!
            let last = expected.slices.map { $0.startNs + $0.durationNs }.max()!
            #expect(task.span == first...last, "\(files): \(expected.id) span")
        }
        let phases = try #require(scenario["preMain"] as? [[String: Any]])
        #expect(phases.map { $0["name"] as? String } == want.preMain.map(\.name), "\(files)")
        #expect(
            phases.map { ($0["cost"] as? NSNumber)?.doubleValue } == want.preMain.map { Double($0.costMicros) / 1000 })
        #expect(run.preMain.map(\.span) == want.preMain.map { $0.startNs...($0.startNs + $0.durationNs) })
        // (§3.12) The callbacks after UIKit's set-up are launch phases, each its time less the tasks inside it.
        let launchPhases = try #require(scenario["launchPhases"] as? [[String: Any]])
        #expect(launchPhases.map { $0["name"] as? String } == want.launchPhases.map(\.name), "\(files)")
        #expect(
            launchPhases.map { ($0["cost"] as? NSNumber)?.doubleValue }
                == want.launchPhases.map { Double($0.costMicros) / 1000 }, "\(files)")
        #expect(scenario["startsIn"] == nil, "\(files): didFinishLaunching, the default")
        #expect(run.launchPhases.map(\.span) == want.launchPhases.map { $0.startNs...($0.startNs + $0.durationNs) })
        #expect(run.measuredFirstFrame == want.firstFrameFromProcessStartNs, "\(files)")
        #expect(scenario["name"] as? String == "com.example.shop")
        #expect(run.app?.contains("main thread 'Main Thread' (tid 4778)") == true, "\(String(describing: run.app))")
        #expect(!log.hasErrors)
    }

    @Test(arguments: recordings)
    func costRunningIsTheTimeTheThreadRan(files: [String]) throws {
        let want = try Self.expected()
        var options = ImportOptions()
        options.cost = .running
        let (_, scenario, log) = try Self.run(files.map(Self.path), options)
        let tasks = try #require(scenario["tasks"] as? [[String: Any]])
        for (task, expected) in zip(tasks, want.tasks) {
            #expect(
                (task["cost"] as? NSNumber)?.doubleValue == Double(expected.runningCostMicros) / 1000,
                "\(files): \(expected.id) running")
        }
        for expected in want.tasks {
            let wall = formatMillis(nanos: expected.wallNs)
            let note = log.diagnostics.first { $0.message.hasPrefix("'\(expected.id)' \(wall) ms: running") }
            let text = try #require(note, "\(files): a note for \(expected.id)").message
            #expect(text.contains("running \(formatMillis(nanos: expected.runningNs))"), "\(text)")
            #expect(text.contains("runnable \(formatMillis(nanos: expected.runnableNs))"), "\(text)")
            #expect(text.contains("blocked \(formatMillis(nanos: expected.blockedNs))"), "\(text)")
            #expect(
                (expected.unknownNs > 0) == text.contains("unknown (no thread-state row)"), "\(files): \(text)")
        }
    }

    @Test func unpairedBeginAndEndAreReported() throws {
        let (_, _, log) = try Self.run([Self.path("launch-signposts.xml")])
        let warnings = log.diagnostics.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.contains { $0.contains("a Begin of signpost 'late-task'") && $0.contains("never ends") })
        #expect(warnings.contains { $0.contains("an End of signpost 'early-task'") && $0.contains("no Begin") })
        #expect(warnings.allSatisfy { $0.contains("table 'os-signpost', row ") })
    }

    @Test func bothIntervalTablesCountOnce() throws {
        let (run, _, log) = try Self.run([Self.path("launch-intervals.xml"), Self.path("launch-signposts.xml")])
        #expect(run.tasks.map(\.id) == (try Self.expected()).tasks.map(\.id))
        #expect(log.diagnostics.contains { $0.message.contains("Begin/End rows are not counted") })
    }

    /// The writer's rows in other orders (across threads and tables; the ids
    /// follow the new order): the same scenario, byte for byte.
    @Test func theSameScenarioWhateverTheRowOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = repositoryRoot.appendingPathComponent("Tools/instruments-fixtures/write_exports.py").path
        let reference = try TraceImport.run(ImportRequest(traces: [Self.path("launch-intervals.xml")]))
        let referenceSignposts = try TraceImport.run(ImportRequest(traces: [Self.path("launch-signposts.xml")]))
        func body(_ bytes: [UInt8]) -> String {
            String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"description\"") }
                .joined(separator: "\n")
        }
        for seed in 1...6 {
            let result = try runProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, folder.path(""), "--shuffle-seed", "\(seed)"])
            try #require(result.status == 0, "write_exports.py: \(result.stderr)")
            let intervals = try TraceImport.run(
                ImportRequest(traces: [folder.path("launch-intervals-shuffled-\(seed).xml")]))
            #expect(body(intervals.scenario) == body(reference.scenario), "seed \(seed)")
            let signposts = try TraceImport.run(
                ImportRequest(traces: [folder.path("launch-signposts-shuffled-\(seed).xml")]))
            #expect(body(signposts.scenario) == body(referenceSignposts.scenario), "seed \(seed)")
        }
    }

    // MARK: Errors

    struct BrokenExport: CustomStringConvertible, Sendable {
        var description: String
        var file = "launch-intervals.xml"
        /// (from, to): the first occurrence replaced.
        var edit: (String, String)
        var options: [String: String] = [:]
        /// Each must be in the error text.
        var errors: [String]
    }

    static let broken: [BrokenExport] = [
        BrokenExport(
            description: "a ref to an unknown id", edit: ("<thread ref=\"11\"/>", "<thread ref=\"9999\"/>"),
            errors: [
                "launch-intervals.xml:4: table 'os-signpost-interval', row 1, cell 11 ('end-thread')",
                "refers to id 9999, which no earlier element defines",
            ]),
        BrokenExport(
            description: "a row with a cell too few", edit: ("<sentinel/><sentinel/></row>", "<sentinel/></row>"),
            errors: [
                "table 'os-signpost-interval', row 1: has 12 cells, the table's schema has 13 columns"
            ]),
        BrokenExport(
            description: "a time that is not a number", edit: (">211000000</start-time>", ">211,000 ms</start-time>"),
            errors: [
                "table 'os-signpost-interval', row 1, cell 1 ('start'): '211,000 ms' is not a time in nanoseconds"
            ]),
        BrokenExport(
            description: "a negative duration", edit: (">5640500</duration>", ">-5640500</duration>"),
            errors: ["row 1, cell 2 ('duration'): '-5640500' is not a time in nanoseconds"]),
        BrokenExport(
            description: "a schema without a column the table needs",
            edit: (
                "<mnemonic>duration</mnemonic><name>Duration</name><engineering-type>duration</engineering-type>",
                "<mnemonic>length</mnemonic><name>Length</name><engineering-type>length</engineering-type>"
            ),
            errors: ["table 'os-signpost-interval' (node 1): its schema has no column 'duration'"]),
        BrokenExport(
            description: "a thread without a tid", edit: ("<tid id=\"12\" fmt=\"0x12aa\">4778</tid>", ""),
            errors: ["row 1, cell 10 ('start-thread'): this <thread> has no <tid> with a number"]),
        BrokenExport(
            description: "the table of contents", edit: ("<trace-query-result>", "<trace-toc>"),
            errors: ["not an Instruments export: the root element is <trace-toc>: this is a table of contents"]),
        BrokenExport(
            description: "a document cut short", edit: ("</trace-query-result>", ""),
            errors: ["not well-formed XML", "nothing was imported"]),
        BrokenExport(
            description: "no rows for the process", file: "split-lifecycle.xml", edit: ("", ""),
            errors: ["the exports have no signpost intervals of process 'com.example.shop' (pid 581)"]),
        BrokenExport(
            description: "thread states alone", file: "split-thread-state.xml", edit: ("", ""),
            errors: [
                "the exports have no signpost intervals (no os-signpost-interval rows, no os-signpost Begin/End pairs)"
            ]
        ),
        BrokenExport(
            description: "--cost running without thread states", file: "launch-signposts.xml", edit: ("", ""),
            options: ["cost": "running"], errors: ["--cost running needs thread states"]),
        BrokenExport(
            description: "--process that is not in the export", edit: ("", ""), options: ["process": "Mail"],
            errors: ["--process 'Mail': no process has that name"]),
    ]

    @Test(arguments: broken)
    func brokenExportsAreErrorsThatSayWhere(_ broken: BrokenExport) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var text = try String(contentsOfFile: Self.path(broken.file), encoding: .utf8)
        if !broken.edit.0.isEmpty {
            let range = try #require(text.range(of: broken.edit.0), "\(broken): the fixture has '\(broken.edit.0)'")
            text.replaceSubrange(range, with: broken.edit.1)
        }
        let file = try folder.write(broken.file, text)
        var options = ImportOptions()
        options.process = broken.options["process"]
        options.cost = broken.options["cost"].flatMap(ImportCost.init(rawValue:)) ?? .wall
        do {
            _ = try TraceImport.run(ImportRequest(traces: [file], options: options))
            Issue.record("\(broken): imported")
        } catch {
            let errors = error.log.diagnostics.filter { $0.severity == .error }.map(\.description).joined(
                separator: "\n")
            for expected in broken.errors {
                #expect(errors.contains(expected), "\(broken): \(errors)")
            }
            #expect(errors.contains(broken.file), "\(broken): the file is named")
        }
    }

    @Test func aBrokenExportExitsTwoAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(contentsOfFile: Self.path("launch-intervals.xml"), encoding: .utf8)
        let file = try folder.write("cut.xml", String(text.prefix(text.count / 2)))
        let out = folder.path("out.json")
        let result = Launchflow.runInProcess(["import", file, "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(file):"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// Cut at many byte offsets, and with bytes overwritten: an error or an
    /// import, never a trap (this test would crash) or a hang.
    @Test func truncatedAndCorruptExportsNeverTrap() throws {
        let bytes = try readInputFile(Self.path("launch-signposts.xml"), what: "a trace")
        var cuts = Array(stride(from: 0, to: bytes.count, by: 7))
        cuts += Array(max(0, bytes.count - 64)..<bytes.count)
        var errors = 0
        for length in cuts {
            var log = ImportLog()
            let input = TraceImport.readInput(
                Array(bytes.prefix(length)), file: "cut.xml", format: nil, log: &log, progress: nil)
            if input == nil {
                errors += 1
                #expect(log.hasErrors, "cut at \(length): no export and no error")
            }
        }
        #expect(errors >= cuts.count - 2, "a cut export is an error (\(errors) of \(cuts.count))")
        var random = SplitMix64(seed: 27)
        for _ in 0..<600 {
            var corrupt = bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let k = Int(random.next() % UInt64(corrupt.count))
                corrupt[k] = UInt8(truncatingIfNeeded: random.next())
            }
            var log = ImportLog()
            if case .xctrace(let export)? = TraceImport.readInput(
                corrupt, file: "corrupt.xml", format: .xctrace, log: &log, progress: nil)
            {
                var trace = XctraceExport.trace(of: [export])
                _ = SliceSelection.run(
                    of: &trace, rules: try SelectionRules(ImportOptions()), mainThread: nil, log: &log)
            }
        }
    }

    /// `import FILE` parses an export as it reads it (CheckedFileStream): the
    /// same export as from the bytes in memory, a UTF-8 sequence cut by a read
    /// joined again, a byte that is not UTF-8 the same error at the same place,
    /// cuts an error — never a trap.
    @Test func aFileIsReadAsItIsParsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = try String(contentsOfFile: Self.path("launch-intervals.xml"), encoding: .utf8)
        let reference = try TraceImport.run(ImportRequest(traces: [Self.path("launch-intervals.xml")]))
        // A category (not read) of 1.2 MB of "é" (2 bytes each), at both parities:
        // one of them straddles the end of the first 1 MiB read.
        for prefix in ["", "a"] {
            let long = prefix + String(repeating: "é", count: 600_000)
            let file = try folder.write(
                "long\(prefix).xml", text.replacingOccurrences(of: ">PointsOfInterest<", with: ">\(long)<"))
            #expect(XctraceReader.streams(file, format: nil))
            let outcome = try TraceImport.run(ImportRequest(traces: [file]))
            #expect(Self.body(outcome.scenario) == Self.body(reference.scenario))
        }
        var bytes = Array(text.utf8)
        let bad = try #require(
            text.utf8.firstIndex(of: UInt8(ascii: "z")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
        bytes[bad] = 0xFF
        var log = ImportLog()
        #expect(XctraceReader.read(bytes, file: "bad.xml", log: &log) == nil)
        let file = folder.path("bad.xml")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        do {
            _ = try TraceImport.run(ImportRequest(traces: [file]))
            Issue.record("a byte that is not UTF-8 was imported")
        } catch {
            let streamed = error.log.diagnostics.filter { $0.severity == .error }
            let inMemory = log.diagnostics.filter { $0.severity == .error }
            #expect(streamed.count == 1 && inMemory.count == 1)
            #expect(streamed.first?.message == inMemory.first?.message)
            #expect(streamed.first?.line == inMemory.first?.line)
            #expect(streamed.first?.message.contains("byte \(bad) is not UTF-8") == true, "\(streamed)")
        }
        let whole = Array(text.utf8)
        for length in stride(from: 0, to: whole.count, by: 211) {
            let cut = folder.path("cut-\(length).xml")
            try Data(whole.prefix(length)).write(to: URL(fileURLWithPath: cut))
            #expect(throws: ImportError.self, "cut at \(length)") {
                _ = try TraceImport.run(
                    ImportRequest(
                        traces: [cut],
                        options: {
                            var options = ImportOptions()
                            options.format = .xctrace
                            return options
                        }()))
            }
        }
    }

    /// Only the values a ref can reach are kept after their row, moved down
    /// (ids inside nested elements too), and an id far past the others costs
    /// no memory: the same scenario as from the fixture as written.
    @Test func idsAnywhereGiveTheSameScenario() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let reference = try TraceImport.run(ImportRequest(traces: [Self.path("launch-intervals.xml")]))
        var text = try String(contentsOfFile: Self.path("launch-intervals.xml"), encoding: .utf8)
        // The main thread (defined inside row 1, with its tid and process inside it) gets a huge id.
        text = text.replacingOccurrences(of: "<thread id=\"11\"", with: "<thread id=\"4000000000\"")
        text = text.replacingOccurrences(of: "<thread ref=\"11\"/>", with: "<thread ref=\"4000000000\"/>")
        #expect(text.contains("4000000000\"/>"))
        let file = try folder.write("huge-id.xml", text)
        let outcome = try TraceImport.run(ImportRequest(traces: [file]))
        #expect(Self.body(outcome.scenario) == Self.body(reference.scenario))
    }

    /// A scenario's lines but its description (which names the file).
    static func body(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"description\"") }
            .joined(separator: "\n")
    }

    /// `calibrate --trace` and `report --trace` with an Instruments export: the
    /// measured first frame (App Launch's end of Initial Frame Rendering, from
    /// the start of Process Creation) beside the model's time to first frame.
    @Test func calibrateTraceComparesTheMeasuredFirstFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let export = Self.path("launch-intervals.xml")
        let imported = try TraceImport.run(ImportRequest(traces: [export]))
        let scenarioFile = try folder.write("imported.json", String(decoding: imported.scenario, as: UTF8.self))
        let scenario = try ScenarioLoader.load(path: scenarioFile)
        let comparison = try TraceComparison.run(scenario, trace: export)
        let expected = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: fixtureURL(Self.folder + "expected.json")))
                as? [String: Any])
        let ns = try #require(expected["firstFrameFromProcessStartNs"] as? Int)
        let measured = Micros((ns + 500) / 1000)
        #expect(comparison.measuredFirstFrame == measured)
        let line =
            "First frame from process start (Instruments App Launch: the end of Initial Frame Rendering): measured \(formatMillis(measured)) ms, simulated \(formatMillis(comparison.simulatedTimeToFirstFrame)) ms"
        #expect(comparison.text().contains(line), "\(comparison.text())")
        let text = Launchflow.runInProcess(["calibrate", scenarioFile, "--trace", export])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(line), "\(text.stdout)")
        let json = Launchflow.runInProcess(["calibrate", scenarioFile, "--trace", export, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let frame = try #require(object["appLaunchFirstFrame"] as? [String: Any], "\(json.stdout)")
        #expect((frame["measuredMs"] as? Double).map { abs($0 - Double(measured) / 1000) < 1e-9 } == true)
        let page = folder.path("report.html")
        let report = Launchflow.runInProcess(["report", scenarioFile, "--trace", export, "--out", page, "--jobs", "1"])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("First frame from process start (Instruments App Launch"), "the report says it")
    }

    @Test func anExportIsRecognisedByItsStructure() throws {
        let bytes = try readInputFile(Self.path("launch-intervals.xml"), what: "a trace")
        #expect(TraceImport.detect(bytes) == .xctrace)
        #expect(TraceImport.detect(Array("\u{FEFF}\n  <trace-query-result>".utf8)) == .xctrace)
        #expect(TraceImport.detect(Array("  <...>-1234 [000] ....".utf8)) != .xctrace)
    }

    @Test func threadNamesAsInstrumentsShowsThem() {
        #expect(CellReader.threadName("Main Thread 0x12aa (App, pid: 581)") == "Main Thread")
        #expect(CellReader.threadName("main  0x8480c1 (rust_test2, pid: 49374)") == "main")
        #expect(CellReader.threadName("com.example.worker 0x1f (App (Beta), pid: 5)") == "com.example.worker")
        #expect(CellReader.processName("com.example.shop (581)") == "com.example.shop")
    }
}
