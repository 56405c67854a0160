import Foundation
import Testing

@testable import LaunchflowCore

/// `sweep`: determinism across threads, agreement with the deterministic
/// engine, percentiles, best counts, and the command line end to end.
@Suite(.serialized)
struct SweepTests {
    static let bundled = ["article", "tiers-only", "dependencies-only", "large-app"]

    func bundledScenario(_ name: String) throws -> Scenario {
        try ScenarioLoader.load(path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path)
    }

    func sweep(_ scenario: Scenario, jitter: Double? = nil, _ configuration: SweepConfiguration) throws -> SweepResult {
        Sweep(engine: LaunchEngine(scenario), sampler: try CostSampler(scenario, jitter: jitter)).run(configuration)
    }

    func bytes(_ result: SweepResult) -> [UInt8] {
        var writer = JSONWriter()
        writer.sweep(result)
        return writer.bytes + Array(UncertaintyReport.sweep(result).utf8)
    }

    // MARK: Determinism

    @Test func theSameSeedGivesByteIdenticalOutputForAnyNumberOfThreads() throws {
        let scenario = try bundledScenario("large-app")
        var configuration = SweepConfiguration(runs: 1_000, seed: 77, jobs: 1)
        let one = bytes(try sweep(scenario, jitter: 0.3, configuration))
        for jobs in [2, 3, 8] {
            configuration.jobs = jobs
            #expect(bytes(try sweep(scenario, jitter: 0.3, configuration)) == one, "jobs \(jobs)")
        }
        configuration.seed = 78
        #expect(bytes(try sweep(scenario, jitter: 0.3, configuration)) != one)
    }

    @Test func runsAreSplitIntoChunksWithoutChangingThem() throws {
        // Run counts that are not a multiple of the chunk size.
        let scenario = try bundledScenario("article")
        for runs in [1, 63, 64, 65, 130] {
            let serial = try sweep(scenario, jitter: 0.2, SweepConfiguration(runs: runs, jobs: 1))
            let parallel = try sweep(scenario, jitter: 0.2, SweepConfiguration(runs: runs, jobs: 4))
            #expect(serial.firstFrame == parallel.firstFrame && serial.launchComplete == parallel.launchComplete)
            #expect(serial.firstFrame.allSatisfy { $0.count == runs })
        }
    }

    // MARK: Agreement with the engine

    @Test(arguments: bundled)
    func withoutUncertaintyEverySampleEqualsTheDeterministicRun(_ name: String) throws {
        let scenario = try bundledScenario(name)
        let engine = LaunchEngine(scenario)
        for maxConcurrent in [nil, 1] {
            let options = SimulationOptions(maxConcurrent: maxConcurrent)
            let result = try sweep(scenario, SweepConfiguration(runs: 50, options: options, jobs: 2))
            for (s, strategy) in Strategy.allCases.enumerated() {
                let metrics = engine.metrics(strategy, options: options)
                #expect(result.firstFrame[s].allSatisfy { $0 == metrics.timeToFirstFrame }, "\(name) \(strategy)")
                #expect(result.launchComplete[s].allSatisfy { $0 == metrics.launchComplete }, "\(name) \(strategy)")
                let summary = result.summaries[s]
                #expect(
                    summary.firstFrame.p99 == metrics.timeToFirstFrame
                        && summary.firstFrame.mean == metrics.timeToFirstFrame)
            }
        }
    }

    @Test func eachRunUsesTheSameSampledCostsForEveryStrategy() throws {
        let scenario = try bundledScenario("article")
        let sampler = try CostSampler(scenario, jitter: 0.4)
        let engine = LaunchEngine(scenario)
        let result = Sweep(engine: engine, sampler: sampler).run(SweepConfiguration(runs: 40, seed: 9, jobs: 2))
        var costs = sampler.medians
        for run in 0..<40 {
            sampler.sample(run: run, seed: 9, into: &costs)
            for (s, strategy) in Strategy.allCases.enumerated() {
                let metrics = engine.metrics(strategy, costs: costs)
                #expect(result.firstFrame[s][run] == metrics.timeToFirstFrame)
                #expect(result.launchComplete[s][run] == metrics.launchComplete)
            }
        }
    }

    @Test(arguments: 0..<25)
    func theRunnersTimesEqualTheFullMetrics(_ seed: Int) throws {
        var generator = RandomScenario(taskCount: 60)
        generator.cores = 2...5
        let scenario = try generator.make(seed: UInt64(seed))
        let engine = LaunchEngine(scenario)
        let sampler = try CostSampler(scenario, jitter: 0.5)
        var runner = engine.makeRunner()
        var costs = sampler.medians
        for run in 0..<4 {
            sampler.sample(run: run, seed: UInt64(seed), into: &costs)
            for strategy in Strategy.allCases {
                for maxConcurrent in [nil, 1, 2] {
                    let options = SimulationOptions(maxConcurrent: maxConcurrent)
                    let metrics = engine.metrics(strategy, costs: costs, options: options)
                    let times = runner.headlineTimes(strategy, costs: costs, options: options)
                    #expect(
                        times
                            == HeadlineTimes(
                                timeToFirstFrame: metrics.timeToFirstFrame, launchComplete: metrics.launchComplete,
                                firstFrameReady: metrics.firstFrameReady, timeToFullDisplay: metrics.timeToFullDisplay),
                        "seed \(seed) run \(run) \(strategy) maxConcurrent \(String(describing: maxConcurrent))")
                }
            }
        }
    }

    // MARK: Statistics

    @Test func percentilesByNearestRankMatchAHandCheckedCase() {
        // Sorted: 10 20 30 40. p50: rank ⌈2⌉ = 2 → 20; p90: ⌈3.6⌉ = 4 → 40; p99: ⌈3.96⌉ = 4 → 40.
        let four = Distribution([40, 10, 30, 20])
        #expect(four == Distribution.init(count: 4, min: 10, mean: 25, p50: 20, p90: 40, p99: 40, max: 40))
        // 1…10: p50 rank 5, p90 rank 9, p99 rank ⌈9.9⌉ = 10.
        let ten = Distribution(Array(1...10).reversed())
        #expect((ten.p50, ten.p90, ten.p99, ten.max, ten.mean) == (5, 9, 10, 10, 6))  // mean 5.5 rounds away from zero
        // 1…200: p99 is rank 198.
        #expect(Distribution(Array(1...200)).p99 == 198)
        #expect(Distribution([7]) == Distribution(count: 1, min: 7, mean: 7, p50: 7, p90: 7, p99: 7, max: 7))
        #expect(Distribution([]).count == 0)
    }

    @Test func percentilesAreOrderedInEverySweep() throws {
        for name in Self.bundled {
            let result = try sweep(try bundledScenario(name), jitter: 0.35, SweepConfiguration(runs: 300, seed: 5))
            for summary in result.summaries {
                for d in [summary.firstFrame, summary.launchComplete] {
                    #expect(d.min <= d.p50 && d.p50 <= d.p90 && d.p90 <= d.p99 && d.p99 <= d.max, "\(name)")
                    #expect(d.min <= d.mean && d.mean <= d.max)
                    #expect(d.count == 300)
                }
                #expect(summary.soleBestFirstFrame <= summary.bestFirstFrame && summary.bestFirstFrame <= 300)
            }
            let soleTotal = result.summaries.reduce(0) { $0 + $1.soleBestLaunchComplete }
            let bestTotal = result.summaries.reduce(0) { $0 + $1.bestLaunchComplete }
            #expect(soleTotal <= 300 && bestTotal >= 300)
        }
    }

    @Test func bestCountsTiesForEveryTiedStrategy() {
        // Runs (columns): 0: A alone; 1: A and B tie; 2: all tie; 3: C alone.
        let counts = BestCounts([[1, 2, 5, 9], [3, 2, 5, 9], [4, 6, 5, 1]])
        #expect(counts.best == [3, 2, 2])
        #expect(counts.sole == [1, 0, 1])
    }

    // MARK: The command line

    @Test func theCommandIsByteIdenticalWithOneAndTwoJobs() throws {
        for format in ["text", "json"] {
            let args = [
                "sweep", "scenarios/large-app.json", "--runs", "500", "--jitter", "0.3", "--seed", "11", "--format",
                format,
            ]
            let one = try Launchflow.run(args + ["--jobs", "1"])
            let two = try Launchflow.run(args + ["--jobs", "2"])
            #expect(one.status == 0 && one.stderr.isEmpty, "\(one.stderr)")
            #expect(one.stdout == two.stdout)
        }
    }

    @Test(arguments: bundled)
    func sweepWorksOnEveryBundledScenario(_ name: String) throws {
        let out = try Launchflow.run([
            "sweep", "scenarios/\(name).json", "--runs", "200", "--jitter", "0.2", "--format", "json",
        ])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stderr.isEmpty)  // no progress bar when stderr is not a terminal
        let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["strategy"] as? String } == ["serial", "priority", "dag", "anchored"])
        #expect(object["runs"] as? Int == 200 && object["percentiles"] as? String == "nearest-rank")
        let ttff = try #require(results[2]["timeToFirstFrameMs"] as? [String: Double])
        #expect(Set(ttff.keys) == ["mean", "p50", "p90", "p99", "min", "max"])
    }

    @Test func textSaysWhenNothingVaries() throws {
        let out = try Launchflow.run(["sweep", "scenarios/article.json", "--runs", "10"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("uncertainty: none"))
        #expect(out.stdout.contains("Time to first frame (ms)") && out.stdout.contains("sole best"))
    }

    @Test func outWritesTheDistributionPictureAtomically() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = try Launchflow.run([
            "sweep", "scenarios/article.json", "--runs", "300", "--jitter", "0.3", "--out",
            folder.appendingPathComponent("pics").path,
        ])
        #expect(out.status == 0, "\(out.stderr)")
        let picture = folder.appendingPathComponent("pics/article-sweep.svg")
        #expect(out.stdout.contains("wrote \(picture.path)"))
        let svg = try String(contentsOf: picture, encoding: .utf8)
        #expect(svg.contains("<svg"))
        // Graphviz writes '-' in ids as "&#45;".
        for id in ["lf-serial-box", "lf-priority-p90", "lf-dag-p50", "lf-tick-0", "lf-title"] {
            #expect(svg.contains("id=\"\(id.replacingOccurrences(of: "-", with: "&#45;"))\""), "\(id)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("pics").path)
        #expect(leftovers.sorted() == ["article-sweep.svg", "report.html"])
    }

    static let badInvocations: [(args: [String], stderr: String)] = [
        (["--runs", "0"], "error: invalid value '0' for '--runs': expected an integer from 1 to 1,000,000"),
        (["--runs", "ten"], "error: invalid value 'ten' for '--runs': expected an integer from 1 to 1,000,000"),
        (["--runs", "1000001"], "error: invalid value '1000001' for '--runs'"),
        (["--runs", "-5"], "error: invalid value '-5' for '--runs'"),
        (
            ["--seed", "-1"],
            "error: invalid value '-1' for '--seed': expected an integer from 0 to 18446744073709551615"
        ),
        (["--seed", "18446744073709551616"], "error: invalid value '18446744073709551616' for '--seed'"),
        (["--seed", "0x10"], "error: invalid value '0x10' for '--seed'"),
        (["--jitter", "-0.5"], "error: invalid value '-0.5' for '--jitter': expected a number ≥ 0"),
        (["--jitter", "nan"], "error: invalid value 'nan' for '--jitter'"),
        (["--jobs", "0"], "error: invalid value '0' for '--jobs': expected an integer from 1 to 1,024"),
        (["--strategies", "dag,dga"], "error: unknown strategy 'dga' in '--strategies'"),
        (["--format", "xml"], "error: invalid value 'xml' for '--format': expected one of text, json"),
        (["--max-concurrent", "0"], "error: invalid value '0' for '--max-concurrent': expected an integer ≥ 1"),
        (["--runz", "5"], "error: unknown option '--runz'; did you mean '--runs'?"),
    ]

    @Test(arguments: badInvocations.indices)
    func badOptionsExitTwoWithAClearError(_ k: Int) throws {
        let (args, expected) = Self.badInvocations[k]
        let out = try Launchflow.run(["sweep", "scenarios/article.json"] + args)
        #expect(out.status == 2, "\(args)")
        #expect(out.stderr.hasPrefix(expected), "\(args): \(out.stderr)")
        #expect(out.stderr.contains("usage: launchflow sweep"))
        #expect(out.stdout.isEmpty)
    }

    static let badScenarios: [(json: String, stderr: String)] = [
        (
            #"{"name": "x", "tasks": [{"id": "a", "cost": 10, "costP90": 5}]}"#,
            "tasks[0].costP90 (task 'a'): must be at least cost (10 ms), found 5 ms"
        ),
        (
            #"{"name": "x", "jitter": -0.1, "tasks": [{"id": "a", "cost": 1}]}"#,
            "jitter: must be at least 0, found -0.1"
        ),
    ]

    @Test(arguments: badScenarios.indices)
    func impossibleUncertaintyIsRejectedEndToEnd(_ k: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json")
        try Self.badScenarios[k].json.write(to: file, atomically: true, encoding: .utf8)
        let out = try Launchflow.run(["sweep", file.path, "--runs", "10"])
        #expect(out.status == 2)
        #expect(out.stdout.isEmpty)
        #expect(out.stderr.hasPrefix("error: \(file.path): \(Self.badScenarios[k].stderr)"), "\(out.stderr)")
        #expect(!out.stderr.contains("Fatal error"))
    }

    @Test func aP90OverAZeroMedianIsIgnoredWithAWarning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zero.json")
        try #"{"name": "x", "tasks": [{"id": "a", "cost": 0, "costP90": 3}, {"id": "b", "cost": 1}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let out = try Launchflow.run(["sweep", file.path, "--runs", "10"])
        #expect(out.status == 0)
        #expect(
            out.stderr
                == "warning: \(file.path): tasks[0].costP90 (task 'a'): the task's cost (its median) is 0, so it always costs 0 ms; costP90 is ignored\n"
        )
        #expect(out.stdout.contains("uncertainty: none"))
    }

    @Test func helpDescribesTheCommand() throws {
        let out = try Launchflow.run(["sweep", "--help"])
        #expect(out.status == 0)
        for text in [
            "OVERVIEW:", "USAGE: launchflow sweep <scenario>", "--runs <n>", "--seed <s>", "--jobs <n>", "--out <dir>",
            "nearest rank",
        ] {
            #expect(out.stdout.contains(text), "\(text)")
        }
        #expect(try Launchflow.run(["--help"]).stdout.contains("sweep"))
    }
}
