import Foundation
import Testing

@testable import LaunchflowCore

/// `launchflow check` and `baseline`: exit codes and tables for a pass, a
/// regression, an improvement, a baseline missing a metric, malformed
/// baselines and bad options; the rules of budgets and tolerances.
@Suite(.serialized)
struct CheckTests {
    /// A network fetch on the worker, then the UI on main: TTFF 16.667 ms under dag.
    static func tiny(netCost: Double = 10, budgets: String = "") -> String {
        #"{"name": "tiny", "device": {"cores": 2}, \#(budgets) "tasks": [{"id": "net", "cost": \#(formatNumber(netCost))}, {"id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["net"]}]}"#
    }

    /// Writes the scenario and a baseline recorded from `baselineCost`; returns (folder, scenario, baseline).
    static func setUp(netCost: Double, baselineCost: Double = 10, baselineArgs: [String] = []) throws
        -> (TemporaryFolder, String, String)
    {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.json", tiny(netCost: baselineCost))
        let recorded = try Launchflow.run(["baseline", old] + baselineArgs)
        #expect(recorded.status == 0 && recorded.stderr.isEmpty)
        let baseline = try folder.write("launch-baseline.json", recorded.stdout)
        return (folder, try folder.write("app.json", tiny(netCost: netCost)), baseline)
    }

    // MARK: Exit codes and tables

    @Test func anUnchangedLaunchPasses() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 10)
        defer { folder.remove() }
        let out = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(out.status == 0 && out.stderr.isEmpty)
        #expect(
            out.stdout == """
                check: \(app) (tiny) — dag
                Times in ms; cpuUtilization as a fraction of all cores.

                Baseline \(baseline), tolerance 0
                  metric                strategy  baseline     limit     now  delta  verdict
                  timeToFirstFrameMs    dag         16.667  ≤ 16.667  16.667     ±0  same
                  firstFrameReadyMs     dag         15.000  ≤ 15.000  15.000     ±0  same
                  firstDrawMs           dag          0.000   ≤ 0.000   0.000     ±0  same
                  prewarmedFirstDrawMs  dag          0.000   ≤ 0.000   0.000     ±0  same
                  timeToFullDisplayMs   dag         16.667  ≤ 16.667  16.667     ±0  same
                  launchCompleteMs      dag         15.000  ≤ 15.000  15.000     ±0  same
                  mainThreadBusyMs      dag          5.000   ≤ 5.000   5.000     ±0  same
                  mainThreadBlockedMs   dag          0.000   ≤ 0.000   0.000     ±0  same
                  cpuUtilization        dag            0.5         —     0.5     ±0  same
                  frames                dag              2         —       2     ±0  same
                  maxInputDelayMs       dag          0.000   ≤ 0.000   0.000     ±0  same
                  inputLatencyMaxMs     dag          0.000   ≤ 0.000   0.000     ±0  same
                  criticalPathMs        dag         15.000         —  15.000     ±0  same
                  lowerBoundMs          dag         15.000         —  15.000     ±0  same
                  firstFrameBoundMs     dag         16.667         —  16.667     ±0  same
                  dependencyViolations  dag              0       ≤ 0       0     ±0  same

                PASS: all 16 checks hold.

                """)
        // All three strategies by default.
        let all = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline])
        #expect(all.status == 0 && all.stdout.contains("PASS: all 64 checks hold."))
    }

    @Test func aRegressionExitsOneAndSaysWhatMovedAndWhy() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 20)
        defer { folder.remove() }
        let out = try Launchflow.run([
            "check", "--verbose", app, "--baseline", baseline, "--strategies", "dag", "--budget", "launchCompleteMs=30",
        ])
        #expect(out.status == 1 && out.stderr.isEmpty)
        #expect(
            out.stdout == """
                check: \(app) (tiny) — dag
                Times in ms; cpuUtilization as a fraction of all cores.

                Budgets
                  metric            strategy  from        budget     now  headroom  verdict
                  launchCompleteMs  dag       --budget  ≤ 30.000  25.000     5.000  ok

                Baseline \(baseline), tolerance 0
                  metric                strategy  baseline     limit     now            delta  verdict
                  timeToFirstFrameMs    dag         16.667  ≤ 16.667  33.334  +16.667 (+100%)  REGRESSED
                  firstFrameReadyMs     dag         15.000  ≤ 15.000  25.000     +10 (+66.7%)  REGRESSED
                  firstDrawMs           dag          0.000   ≤ 0.000   0.000               ±0  same
                  prewarmedFirstDrawMs  dag          0.000   ≤ 0.000   0.000               ±0  same
                  timeToFullDisplayMs   dag         16.667  ≤ 16.667  33.334  +16.667 (+100%)  REGRESSED
                  launchCompleteMs      dag         15.000  ≤ 15.000  25.000     +10 (+66.7%)  REGRESSED
                  mainThreadBusyMs      dag          5.000   ≤ 5.000   5.000               ±0  same
                  mainThreadBlockedMs   dag          0.000   ≤ 0.000   0.000               ±0  same
                  cpuUtilization        dag            0.5         —     0.5               ±0  same
                  frames                dag              2         —       2               ±0  same
                  maxInputDelayMs       dag          0.000   ≤ 0.000   0.000               ±0  same
                  inputLatencyMaxMs     dag          0.000   ≤ 0.000   0.000               ±0  same
                  criticalPathMs        dag         15.000         —  25.000     +10 (+66.7%)  changed (not gated)
                  lowerBoundMs          dag         15.000         —  25.000     +10 (+66.7%)  changed (not gated)
                  firstFrameBoundMs     dag         16.667         —  33.334  +16.667 (+100%)  changed (not gated)
                  dependencyViolations  dag              0       ≤ 0       0               ±0  same

                Changed since the baseline (from its recorded schedule; 'launchflow diff OLD NEW' also shows dependencies)
                  'net': cost 10 → 20 ms (+10)

                FAIL: 4 of 17 checks failed: timeToFirstFrameMs REGRESSED under dag; firstFrameReadyMs REGRESSED under dag; timeToFullDisplayMs REGRESSED under dag; launchCompleteMs REGRESSED under dag.

                """)
    }

    @Test func gettingFasterNeverFails() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 2)
        defer { folder.remove() }
        let out = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(out.status == 0)
        let row = out.stdout.split(separator: "\n").first { $0.contains("launchCompleteMs") }
        #expect(row?.hasSuffix("7.000  −8 (−53.3%)  improved") == true, "\(out.stdout)")
        #expect(out.stdout.contains("PASS: all 16 checks hold (2 improved)."))
    }

    @Test func theToleranceAllowsSomeGrowth() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 11)
        defer { folder.remove() }
        // launchComplete 15 → 16 ms (+6.7%); time to first frame stays on its vsync.
        let strict = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(strict.status == 1)
        for tolerance in ["10%", "1ms", "1.5ms"] {
            let out = try Launchflow.run([
                "check", "--verbose", app, "--baseline", baseline, "--strategies", "dag", "--tolerance", tolerance,
            ])
            #expect(out.status == 0, "\(tolerance): \(out.stdout)")
            #expect(out.stdout.contains("within tolerance"))
        }
        let tight = try Launchflow.run([
            "check", "--verbose", app, "--baseline", baseline, "--strategies", "dag", "--tolerance", "5%",
        ])
        #expect(tight.status == 1)
        #expect(tight.stdout.contains("launchCompleteMs      dag         15.000  ≤ 15.750  16.000"))
    }

    @Test func aPassingCheckIsShortWithoutVerbose() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 2)
        defer { folder.remove() }
        let out = try Launchflow.run([
            "check", app, "--baseline", baseline, "--strategies", "dag", "--budget", "launchCompleteMs=30",
        ])
        #expect(out.status == 0)
        #expect(
            out.stdout == """
                check: \(app) (tiny) — dag
                budgets: 1 metric × 1 strategy within their limits; least headroom: launchCompleteMs under dag, 7.000 ms against ≤ 30.000 ms (23.000 ms left)
                baseline \(baseline), tolerance 0: 11 gated metric checks hold; improved: firstFrameReadyMs (dag), launchCompleteMs (dag); 2 context metrics changed (not gated)
                PASS: all 17 checks hold (2 improved) (--verbose shows every check).

                """)
        // A failure prints every check, as --verbose does.
        let (slow, slowApp, slowBaseline) = try Self.setUp(netCost: 20)
        defer { slow.remove() }
        let failed = try Launchflow.run(["check", slowApp, "--baseline", slowBaseline, "--strategies", "dag"])
        #expect(failed.status == 1 && failed.stdout.contains("  metric                strategy  baseline"))
    }

    /// `--tolerance 2%,1ms`: the larger allowance, so a small time may move by the milliseconds.
    @Test(arguments: [("2%", 1), ("1ms", 0), ("2%,1ms", 0), ("1ms,2%", 0), ("2%,0.5ms", 1), ("0.5ms,50%", 0)])
    func bothTolerancesAllowTheLarger(_ tolerance: String, _ status: Int32) throws {
        // launchComplete 15 → 16 ms: +1 ms, +6.7%.
        let (folder, app, baseline) = try Self.setUp(netCost: 11)
        defer { folder.remove() }
        let out = try Launchflow.run([
            "check", app, "--baseline", baseline, "--strategies", "dag", "--tolerance", tolerance,
        ])
        #expect(out.status == status, "\(tolerance): \(out.stdout)")
    }

    @Test func aMetricMissingFromTheBaselineIsReportedNotChecked() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 10)
        defer { folder.remove() }
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        let edited = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("\"maxInputDelayMs\"") }.joined(separator: "\n")
        try folder.write("launch-baseline.json", edited)
        let out = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(
            out.stdout.contains("maxInputDelayMs       dag              —         —   0.000      —  not in baseline"))
        #expect(out.stdout.contains("Metrics not in the baseline are not checked"))
    }

    static let malformed: [(name: String, content: String?, stderr: String)] = [
        (
            "not JSON", "{\n  \"scenario\": \"tiny\",\n  \"results\": [ nope ]\n}",
            "error: {b}:3:16: baseline: invalid JSON: "
        ),
        ("empty", "", "error: {b}:1:1: baseline: invalid JSON: unexpected end of input, expected a value"),
        (
            "an array", "[]",
            "error: {b}: baseline: expected a JSON object (the output of 'launchflow baseline'), found an array"
        ),
        ("a scenario", tiny(), "error: {b}: baseline: not a baseline: expected an object with 'results'"),
        (
            "results not an array", #"{"results": {}}"#,
            "error: {b}: baseline results: expected an array, found an object"
        ),
        (
            "result without metrics", #"{"results": [{"strategy": "dag"}]}"#,
            "error: {b}: baseline results[0]: missing key 'metrics'"
        ),
        (
            "strategy not a string", #"{"results": [{"strategy": 1, "metrics": {"frames": 1}}]}"#,
            "error: {b}: baseline results[0].strategy: expected a string, found a number"
        ),
        (
            "metric not a number", #"{"results": [{"strategy": "dag", "metrics": {"frames": "2"}}]}"#,
            "error: {b}: baseline results[0].metrics.frames: expected a number, found a string"
        ),
        (
            "a metric of 1e308 (issue 19: it trapped when printed)",
            #"{"results": [{"strategy": "dag", "metrics": {"timeToFirstFrameMs": 1e308}}]}"#,
            "error: {b}: baseline results[0].metrics.timeToFirstFrameMs: expected a number from 0 to 1000000000000, found 1e+308"
        ),
        (
            "no known metric", #"{"results": [{"strategy": "dag", "metrics": {"fooMs": 1}}]}"#,
            "error: {b}: baseline results[0].metrics: has none of launchflow's metrics"
        ),
        (
            "strategy twice",
            #"{"results": [{"strategy": "dag", "metrics": {"frames": 1}}, {"strategy": "dag", "metrics": {"frames": 1}}]}"#,
            "error: {b}: baseline results[1].strategy: strategy 'dag' appears twice"
        ),
        (
            "strategy missing", #"{"results": [{"strategy": "serial", "metrics": {"frames": 1}}]}"#,
            "error: {b}: the baseline has no result for 'dag' (it has serial); record it again with 'launchflow baseline {s}' or pass --strategies serial"
        ),
        ("no file", nil, "error: {b}: baseline: no such file (record one with 'launchflow baseline SCENARIO > {b}')"),
    ]

    @Test(arguments: malformed.indices)
    func aMalformedBaselineExitsTwo(_ k: Int) throws {
        let (name, content, expected) = Self.malformed[k]
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = try folder.write("app.json", Self.tiny())
        let baseline = folder.path("base.json")
        if let content { try folder.write("base.json", content) }
        let out = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(out.status == 2, "\(name)")
        #expect(out.stdout.isEmpty, "\(name)")
        let message = expected.replacingOccurrences(of: "{b}", with: baseline).replacingOccurrences(
            of: "{s}", with: app)
        #expect(out.stderr.hasPrefix(message), "\(name): \(out.stderr)")
    }

    /// Issue 19: a task's time of 1e300 ms in a baseline trapped (ms → µs); such spans are not read.
    @Test func aBaselineSpanBeyondRangeIsNotRead() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 10, baselineArgs: ["--strategies", "dag"])
        defer { folder.remove() }
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        let huge = text.replacingOccurrences(of: #""endMs": "#, with: #""endMs": 1e300, "was": "#)
        #expect(huge != text)
        try huge.write(toFile: baseline, atomically: true, encoding: .utf8)
        let out = try Launchflow.run(["check", app, "--baseline", baseline, "--strategies", "dag"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test func aBaselineRecordedForFewerStrategiesNamesThem() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 10, baselineArgs: ["--strategies", "dag"])
        defer { folder.remove() }
        let out = try Launchflow.run(["check", "--verbose", app, "--baseline", baseline])
        #expect(out.status == 2)
        #expect(
            out.stderr
                == "error: \(baseline): the baseline has no result for 'serial', 'priority', 'anchored' (it has dag); record it again with 'launchflow baseline \(app)' or pass --strategies dag\n"
        )
    }

    static let badOptions: [(args: [String], stderr: String)] = [
        (
            ["--budget", "timeToFirstFrame=400"],
            "error: unknown metric 'timeToFirstFrame' in budget 'timeToFirstFrame=400'; did you mean 'timeToFirstFrameMs'?"
        ),
        (
            ["--budget", "ttff=400"],
            "error: unknown metric 'ttff' in budget 'ttff=400'; metrics: timeToFirstFrameMs, firstFrameReadyMs"
        ),
        (
            ["--budget", "timeToFirstFrameMs"],
            "error: invalid budget 'timeToFirstFrameMs': expected METRIC=VALUE, e.g. timeToFirstFrameMs=400"
        ),
        (
            ["--budget", "timeToFirstFrameMs=-1"],
            "error: invalid budget 'timeToFirstFrameMs=-1': expected a number from 0 to 1000000000000 (milliseconds) after '='"
        ),
        (
            ["--budget", "timeToFirstFrameMs=1e300"],
            "error: invalid budget 'timeToFirstFrameMs=1e300': expected a number from 0 to 1000000000000 (milliseconds) after '='"
        ),
        (["--budget", "frames=2", "--budget", "frames=3"], "error: '--budget frames=…' given more than once"),
        (["--budget", "frames=2", "--tolerance", "5%"], "error: '--tolerance' applies to '--baseline' only"),
        (
            ["--baseline", "b.json", "--tolerance", "5"],
            "error: invalid value '5' for '--tolerance': expected a percentage (5%, at most 1000%), milliseconds (3ms, at most 3600000ms) or both (2%,1ms)"
        ),
        (["--baseline", "b.json", "--tolerance", "1e308%"], "error: invalid value '1e308%' for '--tolerance'"),
        (["--baseline", "b.json", "--tolerance", "-2%"], "error: invalid value '-2%' for '--tolerance'"),
        (
            [],
            "error: nothing to check: give --baseline FILE or --budget METRIC=VALUE, or add \"budgets\" to the scenario"
        ),
        (["--budget", "frames=2", "--strategies", "dag,dga"], "error: unknown strategy 'dga' in '--strategies'"),
    ]

    @Test(arguments: badOptions.indices)
    func badOptionsExitTwo(_ k: Int) throws {
        let (args, expected) = Self.badOptions[k]
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = try folder.write("app.json", Self.tiny())
        let out = try Launchflow.run(["check", app] + args)
        #expect(out.status == 2, "\(args)")
        #expect(out.stdout.isEmpty)
        #expect(out.stderr.hasPrefix(expected), "\(args): \(out.stderr)")
        #expect(out.stderr.contains("usage: launchflow check"))
    }

    @Test func budgetsComeFromTheScenarioAndTheOptionWins() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let app = try folder.write(
            "app.json", Self.tiny(budgets: #""budgets": {"timeToFirstFrameMs": 10, "launchCompleteMs": 100},"#))
        let fails = try Launchflow.run(["check", "--verbose", app, "--strategies", "dag"])
        #expect(fails.status == 1)
        #expect(
            fails.stdout.contains("timeToFirstFrameMs  dag       scenario   ≤ 10.000  16.667    −6.667  OVER BUDGET"))
        let overridden = try Launchflow.run([
            "check", "--verbose", app, "--strategies", "dag", "--budget", "timeToFirstFrameMs=16.667ms",
        ])
        #expect(overridden.status == 0)
        #expect(overridden.stdout.contains("timeToFirstFrameMs  dag       --budget   ≤ 16.667  16.667     0.000  ok"))
        #expect(overridden.stdout.contains("launchCompleteMs    dag       scenario"))
    }

    @Test func jsonReportForMachines() throws {
        let (folder, app, baseline) = try Self.setUp(netCost: 20)
        defer { folder.remove() }
        let out = try Launchflow.run([
            "check", "--verbose", app, "--baseline", baseline, "--format", "json", "--tolerance", "3ms",
        ])
        #expect(out.status == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        #expect((object["tolerance"] as? [String: Any])?["ms"] as? Double == 3)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.count == 64)
        let ttff = try #require(
            checks.first { $0["metric"] as? String == "timeToFirstFrameMs" && $0["strategy"] as? String == "dag" })
        #expect(
            ttff["baseline"] as? Double == 16.667 && ttff["value"] as? Double == 33.334
                && ttff["limit"] as? Double == 19.667)
        #expect(ttff["verdict"] as? String == "regressed" && ttff["fails"] as? Bool == true)
        #expect((object["changesSinceBaseline"] as? [String]) == ["'net': cost 10 → 20 ms (+10)"])
    }

    @Test func baselineIsTheCompareJSON() throws {
        let baseline = try Launchflow.run(["baseline", "scenarios/article.json", "--max-concurrent", "2"])
        let compare = try Launchflow.run([
            "compare", "scenarios/article.json", "--format", "json", "--max-concurrent", "2",
        ])
        #expect(baseline.status == 0 && baseline.stdout == compare.stdout)
        #expect(try Launchflow.run(["check", "scenarios/article.json", "--baseline", "/dev/null"]).status == 2)
    }

    // MARK: Rules, in process

    @Test func tolerances() {
        #expect(Tolerance(parsing: "5%") == .percent(5))
        #expect(Tolerance(parsing: "2.5%") == .percent(2.5))
        #expect(Tolerance(parsing: "3ms") == .milliseconds(3000))
        #expect(Tolerance(parsing: "0.5 ms") == .milliseconds(500))
        #expect(Tolerance(parsing: "0") == .zero)
        for bad in ["5", "ms", "%", "-1%", "nan%", "inf%", "3s", "5 %x", ""] {
            #expect(Tolerance(parsing: bad) == nil, "\(bad)")
        }
        // An absolute tolerance applies to times only.
        #expect(Tolerance.milliseconds(3000).allowance(.frames, baseline: 4) == 0)
        #expect(Tolerance.milliseconds(3000).allowance(.launchCompleteMs, baseline: 4) == 3)
        #expect(Tolerance.percent(50).allowance(.frames, baseline: 4) == 2)
    }

    @Test func directionDecidesWhatARegressionIs() {
        func verdict(_ metric: Metric, _ value: Double, _ baseline: Double, _ tolerance: Tolerance = .zero)
            -> CheckVerdict
        {
            Check.baselineRow(metric, strategy: .dag, value: value, baseline: baseline, tolerance: tolerance).verdict
        }
        #expect(verdict(.timeToFirstFrameMs, 10.001, 10) == .regressed)
        #expect(verdict(.timeToFirstFrameMs, 9, 10) == .improved)
        // cpuUtilization is context unless gated; gated, higher is better.
        #expect(verdict(.cpuUtilization, 0.4, 0.5) == .changed)
        func gated(_ metric: Metric, _ value: Double, _ baseline: Double, _ tolerance: Tolerance = .zero)
            -> CheckVerdict
        {
            Check.baselineRow(
                metric, strategy: .dag, value: value, baseline: baseline, tolerance: tolerance, gated: true
            ).verdict
        }
        #expect(gated(.cpuUtilization, 0.4, 0.5) == .regressed)
        #expect(gated(.cpuUtilization, 0.6, 0.5) == .improved)
        #expect(gated(.cpuUtilization, 0.49, 0.5, .percent(5)) == .withinTolerance)
        #expect(gated(.frames, 9, 3) == .regressed)
        #expect(gated(.frames, 2, 3) == .improved)
        #expect(verdict(.frames, 9, 3) == .changed)
        #expect(verdict(.criticalPathMs, 30, 15) == .changed)
        #expect(verdict(.dependencyViolations, 3, 2, .percent(10)) == .regressed)
        #expect(!CheckVerdict.changed.fails && !CheckVerdict.notInBaseline.fails && !CheckVerdict.withinTolerance.fails)
        // 2% of 133.336 ms allows 136.00272 ms: whole-µs values pass up to 136.002.
        let row = Check.baselineRow(
            .timeToFirstFrameMs, strategy: .dag, value: 136.003, baseline: 133.336, tolerance: .percent(2))
        #expect(row.limit == 136.002 && row.verdict == .regressed)
    }

    @Test func budgetsAreUpperLimitsExceptForUtilisation() throws {
        func verdict(_ metric: Metric, _ limit: Double, _ value: Double) -> CheckVerdict {
            Check.budgetRow(CheckBudget(metric: metric, limit: limit, source: .option), value, strategy: .dag).verdict
        }
        #expect(verdict(.launchCompleteMs, 100, 100) == .ok)
        #expect(verdict(.launchCompleteMs, 100, 100.001) == .overBudget)
        #expect(verdict(.frames, 3, 4) == .overBudget)  // direction 'neither': fails only above the budget
        #expect(verdict(.frames, 3, 1) == .ok)
        #expect(verdict(.cpuUtilization, 0.4, 0.3) == .overBudget)
        #expect(verdict(.cpuUtilization, 0.4, 0.5) == .ok)
        #expect(try CheckBudget.parse("cpuUtilization=40%").get().limit == 0.4)
        #expect(
            try CheckBudget.parse("launchCompleteMs = 900ms").get()
                == CheckBudget(metric: .launchCompleteMs, limit: 900, source: .option))
        let merged = Check.budgets(
            scenario: [Budget(metric: .launchCompleteMs, limit: 1), Budget(metric: .timeToFirstFrameMs, limit: 2)],
            options: [CheckBudget(metric: .launchCompleteMs, limit: 9, source: .option)])
        #expect(
            merged == [
                CheckBudget(metric: .timeToFirstFrameMs, limit: 2, source: .scenario),
                CheckBudget(metric: .launchCompleteMs, limit: 9, source: .option),
            ])
    }

    @Test func aSimulateResultIsAOneStrategyBaseline() throws {
        var writer = JSONWriter()
        writer.result(SimulationResult(try scenario(Self.tiny()), strategy: .priority))
        let baseline = try Baseline.parse(writer.bytes, file: "b.json")
        #expect(baseline.results.map(\.strategy) == [.priority])
        #expect(baseline.result(for: .priority)?.metrics[.timeToFirstFrameMs] == 16.667)
        #expect(baseline.result(for: .priority)?.taskCosts?.map(\.cost) == [10_000, 5_000])
        // Unknown strategies and metrics (a newer launchflow) are ignored.
        let newer = try Baseline.parse(
            Array(
                #"{"results": [{"strategy": "greedy", "metrics": {}}, {"strategy": "dag", "metrics": {"fooMs": "x", "frames": 2}}]}"#
                    .utf8), file: "b")
        #expect(newer.results.map(\.strategy) == [.dag] && newer.results[0].metrics == [.frames: 2])
    }
}

/// `check`'s defaults gate what has a direction (issue 11): a uniform speed-up passes.
@Suite struct CheckDefaultsTests {
    static let app = """
        {"name": "app", "device": {"cores": 4}, "preMain": [{"name": "dyld", "cost": 40}], "tasks": [
          {"id": "config", "cost": 12}, {"id": "net", "cost": 20, "dependsOn": ["config"]},
          {"id": "db", "cost": 16}, {"id": "cache", "cost": 10, "dependsOn": ["db"], "priority": 1},
          {"id": "root", "cost": 24, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["net"]},
          {"id": "feed", "cost": 30, "mainThreadOnly": true, "priority": 1, "dependsOn": ["cache", "root"]}]}
        """

    /// `app` with every task's cost halved.
    static let halved = app.replacingOccurrences(of: "\"cost\": 12}", with: "\"cost\": 6}")
        .replacingOccurrences(of: "\"cost\": 20,", with: "\"cost\": 10,")
        .replacingOccurrences(of: "\"cost\": 16}", with: "\"cost\": 8}")
        .replacingOccurrences(of: "\"cost\": 10,", with: "\"cost\": 5,")
        .replacingOccurrences(of: "\"cost\": 24,", with: "\"cost\": 12,")
        .replacingOccurrences(of: "\"cost\": 30,", with: "\"cost\": 15,")

    func files() throws -> (folder: URL, baseline: String, halved: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let app = folder.appendingPathComponent("app.json")
        let fast = folder.appendingPathComponent("fast.json")
        try Data(Self.app.utf8).write(to: app)
        try Data(Self.halved.utf8).write(to: fast)
        let baseline = try Launchflow.run(["baseline", app.path])
        let baselinePath = folder.appendingPathComponent("baseline.json")
        try Data(baseline.stdout.utf8).write(to: baselinePath)
        return (folder, baselinePath.path, fast.path)
    }

    @Test func aUniformSpeedUpPasses() throws {
        let (folder, baseline, fast) = try files()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!Self.halved.contains("\"cost\": 20") && !Self.halved.contains("\"cost\": 30"))
        let out = try Launchflow.run(["check", "--verbose", fast, "--baseline", baseline])
        #expect(out.status == 0, "\(out.stdout)")
        #expect(out.stdout.contains("PASS: all"))
        // The utilisation dropped: reported, not gated.
        #expect(out.stdout.contains("changed (not gated)"))
        #expect(!out.stdout.contains("REGRESSED"))
    }

    @Test func gateMakesAnyMetricCount() throws {
        let (folder, baseline, fast) = try files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = try Launchflow.run(["check", "--verbose", fast, "--baseline", baseline, "--gate", "cpuUtilization"])
        #expect(out.status == 1)
        #expect(out.stdout.contains("FAIL: ") && out.stdout.contains("cpuUtilization REGRESSED"))
        let typo = try Launchflow.run(["check", "--verbose", fast, "--baseline", baseline, "--gate", "cpuUtilisation"])
        #expect(typo.status == 2)
        #expect(
            typo.stderr.hasPrefix("error: unknown metric 'cpuUtilisation' for '--gate'; did you mean 'cpuUtilization'?")
        )
        let noBaseline = try Launchflow.run(["check", "--verbose", fast, "--budget", "frames=10", "--gate", "frames"])
        #expect(noBaseline.status == 2)
    }
}
