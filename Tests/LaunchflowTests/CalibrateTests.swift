import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore
@testable import LaunchflowImport

/// `launchflow calibrate`: the measured formats' statistics, fits with a known
/// answer, the calibrated scenario, the report and the errors.
@Suite(.serialized)
struct CalibrateTests {
    /// A scale far from 1 is a sign that scenario and measurement are not the
    /// same launch: calibrate says so, with what the measurement may count (issue 18).
    @Test func aScaleFarFromOneIsAWarningNotACalibration() throws {
        let out = try Launchflow.run([
            "calibrate", "scenarios/article.json", "--measured",
            ImportTests.fixture("macrobenchmark-benchmarkData.json"),
            "--fit",
        ])
        #expect(out.status == 0)
        #expect(out.stdout.contains("warning: a cost scale of ×7.41 is not a calibration"))
        #expect(out.stdout.contains("Application.onCreate"))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let near = try folder.write("near.json", #"{"timeToFirstFrameMs": [170, 185, 180, 200, 175]}"#)
        let close = try Launchflow.run(["calibrate", "scenarios/article.json", "--measured", near, "--fit"])
        #expect(close.status == 0 && close.stdout.contains("Fit: costScale 1."), "\(close.stdout)")
        #expect(!close.stdout.contains("is not a calibration"), "\(close.stdout)")
    }

    @Test func theUsageSaysOneOfMeasuredAndTraceIsNeeded() throws {
        let out = try Launchflow.run(["calibrate", "--help"])
        #expect(
            out.stdout.contains("USAGE: launchflow calibrate <scenario> (--measured <file> | --trace <file>) [--gantt"))
    }

    /// A 1000 Hz scenario (frames of 1 ms, so the fit can be exact to about
    /// 1 ms in 200); one task has a costP90 (scaled too), so the model is a
    /// sweep whose median is the fixed-cost launch's.
    static let scenarioText = """
        {
          "name": "Known answer",
          "description": "keep me",
          "device": { "cores": 3, "refreshRate": 1000 },
          "preMain": [ { "name": "dyld", "cost": 40 } ],
          "tasks": [
            { "id": "a", "cost": 20 },
            { "id": "b", "cost": 35, "dependsOn": ["a"], "costP90": 50 },
            { "id": "c", "cost": 60, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["b"] },
            { "id": "d", "cost": 80 }
          ]
        }

        """

    func run(_ args: [String]) -> (status: Int32, out: String, err: String) {
        var streams: any OutputStreams = CapturedStreams()
        let status = LaunchflowCommand.main(["calibrate"] + args, streams: &streams)
        let captured = streams as! CapturedStreams
        return (status, captured.outputText, captured.error)
    }

    /// The time to first frame of `scenario` with its costs × `factor` (fixed costs: one launch), ms.
    static func firstFrame(_ scenario: Scenario, factor: Double = 1, overhead: Micros? = nil) -> Double {
        var changed = Calibration.scaled(scenario, by: factor)
        if let overhead { changed = Calibration.withOverhead(changed, overhead) }
        // Fixed costs: without costP90 nothing is sampled.
        for k in changed.tasks.indices { changed.tasks[k].costP90 = nil }
        return Double(LaunchEngine(changed).metrics(.dag).timeToFirstFrame) / 1000
    }

    // MARK: Measured formats

    @Test func macrobenchmarkUsesTheStartupBenchmarksTimeToInitialDisplay() throws {
        let measured = try MeasuredLaunches.load(path: ImportTests.fixture("macrobenchmark-benchmarkData.json"))
        #expect(measured.source == .macrobenchmark)
        #expect(measured.count == 10)
        #expect(abs(measured.median - 407.2895) < 1e-9)
        #expect(abs(measured.p90 - 443.8572) < 1e-9)
        #expect(measured.min == 389.554 && measured.max == 463.902)
        #expect(measured.what == "StartupBenchmark.startupCompilationNone, timeToInitialDisplayMs")
        // Picking it by name works; a name that measures nothing is an error.
        #expect(
            try MeasuredLaunches.load(
                path: ImportTests.fixture("macrobenchmark-benchmarkData.json"), benchmark: "startupCompilationNone"
            ).count == 10)
        #expect(throws: ImportError.self) {
            try MeasuredLaunches.load(
                path: ImportTests.fixture("macrobenchmark-benchmarkData.json"), benchmark: "scrollHomeFeed")
        }
    }

    @Test func metricKitUsesTheColdLaunchTimeToFirstDrawHistogram() throws {
        let measured = try MeasuredLaunches.load(path: ImportTests.fixture("metrickit-payload.json"))
        #expect(measured.source == .metricKit)
        #expect(measured.count == 198)
        #expect(measured.median == 345)
        #expect(measured.p90 == 385)
        #expect(measured.samples.last?.ms == 1005)  // the "1,000 ms" bucket parsed
    }

    @Test func aPlainListGivesTheInterpolatedMedianAndP90() throws {
        let measured = try MeasuredLaunches.load(path: ImportTests.fixture("measured-ttff.json"))
        #expect(measured.count == 20)
        #expect(abs(measured.median - 350.75) < 1e-9)
        #expect(abs(measured.p90 - 389.84) < 1e-9)
    }

    // MARK: Fits with a known answer

    @Test func theScaleFitFindsTheFactorTheMeasurementsWereMadeWith() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("s.json", Self.scenarioText)
        let scenario = try ScenarioLoader.load(path: path)
        // "Reality" is the model with every cost × 1.25: all launches alike.
        let truth = Self.firstFrame(scenario, factor: 1.25)
        let measured = try folder.write(
            "m.json",
            "{\"timeToFirstFrameMs\": [\(Array(repeating: formatNumber(truth), count: 9).joined(separator: ", "))]}")
        let out = folder.path("calibrated.json")
        let result = run([path, "--measured", measured, "--fit", "--format", "json", "--out", out, "--runs", "101"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let fit = try #require(object["fit"] as? [String: Any])
        let scale = try #require((fit["costScale"] as? NSNumber)?.doubleValue)
        #expect(abs(scale - 1.25) < 0.01, "costScale \(scale)")
        let range = try #require(fit["range"] as? [Double])
        #expect(range[0] <= 1.25 && 1.25 <= range[1])
        let error = try #require(fit["error"] as? [String: Any])
        #expect(abs((error["medianMs"] as! NSNumber).doubleValue) < 0.001)
        // The calibrated scenario: costs × the factor, everything else as written.
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let k = scale
        var expected = Self.scenarioText
        for (id, cost) in [("a", 20.0), ("b", 35.0), ("c", 60.0), ("d", 80.0)] {
            expected = expected.replacingOccurrences(
                of: "\"id\": \"\(id)\", \"cost\": \(formatNumber(cost))",
                with: "\"id\": \"\(id)\", \"cost\": \(formatMillis(microseconds(fromMilliseconds: cost * k)))")
        }
        expected = expected.replacingOccurrences(
            of: "\"costP90\": 50", with: "\"costP90\": \(formatMillis(microseconds(fromMilliseconds: 50 * k)))")
        #expect(written == expected)
        // Calibrating the calibrated scenario finds nothing more to do.
        let again = run([out, "--measured", measured, "--fit", "--format", "json", "--runs", "101"])
        let againFit = try #require(
            (try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any])?["fit"] as? [String: Any])
        let rangeAgain = try #require(againFit["range"] as? [Double])
        #expect(rangeAgain[0] <= 1 && 1 <= rangeAgain[1] + 1e-4)
    }

    @Test func theOverheadFitFindsTheMissingMainThreadTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("s.json", Self.scenarioText)
        let scenario = try ScenarioLoader.load(path: path)
        let truth = Self.firstFrame(scenario, overhead: 25_000)
        let measured = try folder.write("m.json", "{\"timeToFirstFrameMs\": [\(formatNumber(truth))]}")
        let out = folder.path("calibrated.json")
        let result = run([
            path, "--measured", measured, "--fit", "overhead", "--format", "json", "--out", out, "--runs", "101",
        ])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let fit = try #require(object["fit"] as? [String: Any])
        let overhead = try #require((fit["overheadMs"] as? NSNumber)?.doubleValue)
        #expect(abs(overhead - 25) <= 1, "overheadMs \(overhead)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            written
                == Self.scenarioText.replacingOccurrences(
                    of: #"{ "name": "dyld", "cost": 40 } ]"#,
                    with:
                        #"{ "name": "dyld", "cost": 40 }, { "name": "calibrated overhead", "cost": \#(formatNumber(overhead)) } ]"#
                ))
        // The fitted overhead is updated in place next time, not added twice.
        let again = run([out, "--measured", measured, "--fit", "overhead", "--out", out, "--runs", "101"])
        #expect(again.status == 0)
        #expect(
            try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "calibrated overhead").count == 2)
    }

    @Test func anOverheadCannotMakeAFastModelSlowerThanNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("s.json", Self.scenarioText)
        let measured = try folder.write("m.json", #"{"timeToFirstFrameMs": [50]}"#)
        let result = run([path, "--measured", measured, "--fit", "overhead"])
        #expect(result.status == 0)
        #expect(result.out.contains("Fit: overheadMs 0"))
        #expect(result.out.contains("an overhead cannot help; try --fit scale"))
    }

    @Test func uncertainCostsAreComparedAsASweepsDistribution() throws {
        let measured = ImportTests.fixture("macrobenchmark-benchmarkData.json")
        let example = repositoryRoot.appendingPathComponent("docs/examples/article-uncertain.json").path
        let result = run([example, "--measured", measured, "--runs", "300", "--seed", "3", "--format", "json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let simulated = try #require(object["simulated"] as? [String: Any])
        #expect(simulated["runs"] as? Int == 300)
        #expect(simulated["sampled"] as? Bool == true)
        #expect(simulated["seed"] as? Int == 3)
        #expect((simulated["p90Ms"] as! NSNumber).doubleValue >= (simulated["medianMs"] as! NSNumber).doubleValue)
        #expect(object["fit"] is NSNull)
        // The same seed gives the same report.
        #expect(
            run([example, "--measured", measured, "--runs", "300", "--seed", "3", "--format", "json"]).out == result.out
        )
    }

    @Test func theTextReportAndThePlot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plot = folder.path("calibration.svg")
        let result = run([
            repositoryRoot.appendingPathComponent("scenarios/article.json").path, "--measured",
            ImportTests.fixture("measured-ttff.json"), "--fit", "--plot", plot,
        ])
        #expect(result.status == 0, "\(result.err)")
        for text in [
            "Calibration of 'Article app (design article flow)' under dag", "median (ms)   350.750    166.670",
            "Fit: costScale", "Plot: \(plot)",
        ] {
            #expect(result.out.contains(text), "missing \(text) in\n\(result.out)")
        }
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        for id in ["lf-measured-p50", "lf-simulated-p90", "lf-fitted-p50", "lf-title"] {
            #expect(svg.contains("id=\"\(id.replacingOccurrences(of: "-", with: "&#45;"))\""), "no \(id)")
        }
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        var name: String
        var measured: String?
        var args: [String] = []
        var expected: String
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase(name: "no --measured", measured: nil, expected: "missing option '--measured <file>'"),
        BadCase(
            name: "--out without --fit", measured: #"{"timeToFirstFrameMs": [1]}"#, args: ["--out", "@x.json"],
            expected: "'--out' writes the calibrated scenario: it needs '--fit'"),
        BadCase(
            name: "an empty list", measured: #"{"timeToFirstFrameMs": []}"#,
            expected: "timeToFirstFrameMs: no launches: the list is empty"),
        BadCase(
            name: "a negative time", measured: #"{"timeToFirstFrameMs": [300, -2, "x"]}"#,
            expected: "timeToFirstFrameMs[1]: expected a time in ms between 0 and 3600000 (an hour), found -2"),
        // Issue 19: numbers beyond what a launch can take trapped in the charts (Double → Int) or printed -inf%.
        BadCase(
            name: "a time of 1e308 ms", measured: #"{"timeToFirstFrameMs": [350, 1e308]}"#,
            expected: "timeToFirstFrameMs[1]: expected a time in ms between 0 and 3600000 (an hour), found 1e+308"),
        BadCase(
            name: "a time beyond 2^53 ms", measured: #"{"timeToFirstFrameMs": [350, 9007199254740993]}"#,
            expected:
                "timeToFirstFrameMs[1]: expected a time in ms between 0 and 3600000 (an hour), found 9007199254740992"
        ),
        BadCase(
            name: "a Macrobenchmark run beyond an hour",
            measured: #"{"benchmarks": [{"name": "a", "metrics": {"timeToInitialDisplayMs": {"runs": [300, 4e6]}}}]}"#,
            expected:
                "benchmarks[0].metrics.timeToInitialDisplayMs.runs[1]: expected a time in ms between 0 and 3600000"),
        BadCase(
            name: "a MetricKit bucketCount of 1e+19",
            measured:
                #"{"applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {"0": {"bucketCount": 1e+19, "bucketStart": "300 ms", "bucketEnd": "310 ms"}}}}}"#,
            expected:
                #"histogramValue["0"]: 'bucketCount' must be a whole number from 0 to 1000000000000, found 1e+19"#),
        BadCase(
            name: "a MetricKit bucket beyond an hour",
            measured:
                #"{"applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {"0": {"bucketCount": 1, "bucketStart": "300 ms", "bucketEnd": "1e300 ms"}}}}}"#,
            expected: "'bucketStart' and 'bucketEnd' must be durations such as \"5 ms\", at most an hour"),
        BadCase(name: "not JSON", measured: "{ 1", expected: "m.json:1:3: not valid JSON"),
        BadCase(name: "some other JSON", measured: #"{"runs": [1]}"#, expected: "expected Macrobenchmark output"),
        BadCase(
            name: "a MetricKit payload without launches",
            measured: #"{"signpostMetrics": [], "applicationLaunchMetrics": {}}"#,
            expected: "has no applicationLaunchMetrics.histogrammedTimeToFirstDrawKey"),
        BadCase(
            name: "two startup benchmarks",
            measured:
                #"{"benchmarks": [{"name": "a", "metrics": {"timeToInitialDisplayMs": {"runs": [1]}}}, {"name": "b", "metrics": {"timeToInitialDisplayMs": {"runs": [2]}}}]}"#,
            expected: "several benchmarks measure the time to initial display: 'a', 'b'; pick one with --benchmark NAME"
        ),
        BadCase(
            name: "no scale can fit", measured: #"{"timeToFirstFrameMs": [10]}"#, args: ["--fit"],
            expected: "no cost scale fits: even with (almost) no task costs"),
    ]

    @Test(arguments: badCases)
    func badInputExitsTwoAndWritesNothing(_ c: BadCase) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try folder.write("s.json", Self.scenarioText)
        var args = [scenario] + c.args.map { $0.hasPrefix("@") ? folder.path(String($0.dropFirst())) : $0 }
        if let measured = c.measured { args += ["--measured", try folder.write("m.json", measured)] }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        let result = run(args + ["--plot", folder.path("p.svg")])
        #expect(result.status == 2)
        #expect(result.err.contains(c.expected), "stderr:\n\(result.err)")
        #expect(result.out.isEmpty)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == before)
        #expect(try String(contentsOfFile: scenario, encoding: .utf8) == Self.scenarioText)
    }
}
