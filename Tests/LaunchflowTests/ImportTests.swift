import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore
@testable import LaunchflowImport

/// `launchflow import`: every format's fixture gives the result its README
/// (Fixtures/import/README.md) states, and launchflow's own traces round-trip.
struct ImportTests {
    /// One imported task, as the scenario file states it.
    struct Task: Equatable, CustomStringConvertible {
        var id: String
        var cost: Double
        var costP90: Double?
        var mainThreadOnly: Bool
        var dependsOn: [String]

        var description: String {
            "\(id) \(cost)\(costP90.map { "/\($0)" } ?? "")\(mainThreadOnly ? " main" : "") ← \(dependsOn)"
        }
    }

    struct Imported {
        var object: [String: Any]
        var tasks: [Task]
        var preMain: [(String, Double)]
        var log: ImportLog

        var warnings: [String] { log.diagnostics.filter { $0.severity == .warning }.map(\.description) }
        var notes: [String] { log.diagnostics.filter { $0.severity == .note }.map(\.description) }
        func task(_ id: String) -> Task? { tasks.first { $0.id == id } }
    }

    static func fixture(_ name: String) -> String { fixtureURL("import/" + name).path }

    static func run(_ files: [String], _ options: ImportOptions = ImportOptions()) throws -> Imported {
        let outcome = try TraceImport.run(ImportRequest(traces: files, options: options))
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        let tasks = (object["tasks"] as? [[String: Any]] ?? []).map { t in
            Task(
                id: t["id"] as! String, cost: (t["cost"] as! NSNumber).doubleValue,
                costP90: (t["costP90"] as? NSNumber)?.doubleValue,
                mainThreadOnly: t["mainThreadOnly"] as? Bool ?? false,
                dependsOn: t["dependsOn"] as? [String] ?? [])
        }
        let preMain = (object["preMain"] as? [[String: Any]] ?? []).map {
            ($0["name"] as! String, ($0["cost"] as! NSNumber).doubleValue)
        }
        // The result is a valid scenario.
        _ = try ScenarioLoader.decode(outcome.scenario, file: "imported.json")
        return Imported(object: object, tasks: tasks, preMain: preMain, log: outcome.log)
    }

    // MARK: Chrome

    @Test func chromeAppLaunchGivesTheREADMEsTasksPreMainAndFlows() throws {
        let result = try Self.run([Self.fixture("chrome-app-launch.json")], ImportOptions(premain: "dyld|load"))
        #expect(result.preMain.map(\.0) == ["dyld: load dylibs", "+load methods", "dyld: run static initializers"])
        // The README's exact costs (7.32525, 12.2295, …) to the microsecond, as the scenario holds them.
        #expect(result.preMain.map(\.1) == [61.25, 7.325, 12.23])
        let expected = [
            Task(id: "crash-reporter", cost: 5.641, mainThreadOnly: true, dependsOn: []),
            Task(id: "device-info", cost: 3.75, mainThreadOnly: false, dependsOn: []),
            Task(id: "db-migrate", cost: 12.735, mainThreadOnly: false, dependsOn: []),
            Task(
                id: "network-config", cost: 9.376, mainThreadOnly: false, dependsOn: ["crash-reporter", "device-info"]),
            Task(id: "image-cache", cost: 10.88, mainThreadOnly: false, dependsOn: ["crash-reporter"]),
            Task(id: "feature-flags", cost: 9.42, mainThreadOnly: false, dependsOn: ["network-config"]),
            Task(id: "analytics", cost: 9.75, mainThreadOnly: false, dependsOn: []),
            Task(id: "root-vc", cost: 28.126, mainThreadOnly: true, dependsOn: ["db-migrate", "image-cache"]),
            Task(id: "home-feed", cost: 22.81, mainThreadOnly: true, dependsOn: ["feature-flags"]),
            Task(id: "push-registration", cost: 2.955, mainThreadOnly: true, dependsOn: ["network-config"]),
        ]
        #expect(result.tasks == expected)
        // Exactly one warning: flow 9 starts in another process.
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("flow id 9") == true)
        #expect(result.warnings.first?.contains("another process (pid 97)") == true)
        // The repeated name is summed, with a note.
        #expect(
            result.notes.contains(where: { $0.contains("'analytics' has 2 slices") && $0.contains("6.25 + 3.5 = 9.75") }
            ))
        #expect(result.object["name"] as? String == "com.example.shop")
        #expect((result.object["device"] as? [String: Any])?["cores"] as? Int == 4)
    }

    @Test func withoutPremainThePreMainSlicesAreMainThreadTasks() throws {
        let result = try Self.run([Self.fixture("chrome-app-launch.json")])
        #expect(result.preMain.isEmpty)
        #expect(
            Array(result.tasks.prefix(3).map(\.id)) == [
                "dyld: load dylibs", "+load methods", "dyld: run static initializers",
            ])
        #expect(Array(result.tasks.prefix(3).map(\.cost)) == [61.25, 7.325, 12.23])
        #expect(result.tasks.prefix(3).allSatisfy({ $0.mainThreadOnly }))
        // The daemon's 'analytics' is not added to the app's.
        #expect(result.task("analytics")?.cost == 9.75)
    }

    @Test func bareArrayFindsTheMainThreadByTidEqualsPid() throws {
        let result = try Self.run([Self.fixture("chrome-bare-array.json")])
        #expect(
            result.tasks == [
                Task(id: "setup-logging", cost: 1.8, mainThreadOnly: true, dependsOn: []),
                Task(id: "config-fetch", cost: 8.25, mainThreadOnly: false, dependsOn: []),
                Task(id: "cache-warmup", cost: 6.125, mainThreadOnly: false, dependsOn: []),
                Task(id: "root-vc", cost: 24.5, mainThreadOnly: true, dependsOn: ["config-fetch"]),
            ])
        #expect(result.warnings.isEmpty)
    }

    @Test func severalRunsGiveTheMedianAndTheInterpolatedP90() throws {
        let runs = (1...5).map { Self.fixture("chrome-several-runs/run\($0).json") }
        let result = try Self.run(runs, ImportOptions(premain: "dyld|load"))
        #expect(result.preMain.map(\.1) == [61, 7.2])
        let expected = [
            Task(id: "crash-reporter", cost: 5.65, costP90: 7.21, mainThreadOnly: true, dependsOn: []),
            Task(
                id: "network-config", cost: 10.25, costP90: 13.36, mainThreadOnly: false, dependsOn: ["crash-reporter"]),
            Task(id: "image-cache", cost: 10.8, costP90: 11.78, mainThreadOnly: false, dependsOn: []),
            Task(
                id: "root-vc", cost: 29, costP90: 33.16, mainThreadOnly: true,
                dependsOn: ["network-config", "image-cache"]),
            Task(id: "home-feed", cost: 22.6, costP90: 24.2, mainThreadOnly: true, dependsOn: []),
        ]
        #expect(result.tasks == expected)
        #expect(result.warnings.isEmpty)
    }

    @Test func namingTheMainThreadPicksTheAppProcess() throws {
        let result = try Self.run([Self.fixture("chrome-no-thread-names.json")], ImportOptions(mainThread: "5301"))
        #expect(
            result.tasks == [
                Task(id: "crash-reporter", cost: 5.4, mainThreadOnly: true, dependsOn: []),
                Task(id: "network-config", cost: 9.1, mainThreadOnly: false, dependsOn: []),
                Task(id: "image-cache", cost: 10.4, mainThreadOnly: false, dependsOn: []),
                Task(id: "root-vc", cost: 28.25, mainThreadOnly: true, dependsOn: []),
            ])
    }

    @Test func mapRulesSendSeveralSlicesToOneTask() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The fixture's map without the rule that makes one slice ambiguous, plus --match to skip that slice.
        let map = try folder.write(
            "map.json",
            #"{"rules": [{"match": "^NetworkConfig\\.", "task": "network-config"}, {"match": "^ImageCache\\.warm", "task": "image-cache"}, {"match": "^Analytics", "task": "analytics"}, {"match": "^RootViewController\\.", "task": "root-vc"}]}"#
        )
        let options = ImportOptions(match: "^(?!ImageCache\\.prefetch)", map: try NameMap.load(path: map))
        let result = try Self.run([Self.fixture("chrome-ambiguous-map.json")], options)
        #expect(result.tasks.map(\.id) == ["network-config", "image-cache", "analytics", "root-vc"])
        #expect(result.tasks.map(\.cost) == [8.75, 10, 3, 24])
        #expect(result.task("root-vc")?.mainThreadOnly == true)
    }

    @Test func anExactMapRenamesSlices() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let map = try folder.write("map.json", #"{"setup-logging": "logging", "root-vc": "root"}"#)
        let result = try Self.run(
            [Self.fixture("chrome-bare-array.json")], ImportOptions(map: try NameMap.load(path: map)))
        #expect(result.tasks.map(\.id) == ["logging", "config-fetch", "cache-warmup", "root"])
        #expect(result.task("root")?.dependsOn == ["config-fetch"])
    }

    @Test func matchSelectsOutermostMatchingSlicesAtAnyDepth() throws {
        // viewDidLoad is nested in root-vc: alone it is selected, with root-vc it is part of it.
        let alone = try Self.run([Self.fixture("chrome-bare-array.json")], ImportOptions(match: "^viewDidLoad$"))
        #expect(alone.tasks == [Task(id: "viewDidLoad", cost: 20, mainThreadOnly: true, dependsOn: [])])
        let both = try Self.run(
            [Self.fixture("chrome-bare-array.json")], ImportOptions(match: "^(root-vc|viewDidLoad)$"))
        #expect(both.tasks.map(\.id) == ["root-vc"])
    }

    // MARK: atrace, MetricKit

    @Test func atraceGivesTheREADMEsSections() throws {
        let result = try Self.run([Self.fixture("atrace-launch.txt")])
        // Android's launch markers (issue 37): bindApplication, activityStart and activityResume are
        // launch phases, the sections nested in them tasks, the first frame's doFrame not a task.
        let expected: [(String, Double, Bool)] = [
            ("OpenDexFilesFromOat(/data/app/~~Qx3vT1pA==/com.acme.shop-1/base.apk)", 8.645, true),
            ("Application.onCreate", 8.6, true), ("crash-reporter", 5.671, true), ("network-config", 9.426, false),
            ("image-cache", 11.2, false), ("feature-flags", 9.485, false), ("config-fetch", 24.6, false),
            ("analytics", 5.375, false), ("MainActivity.onCreate", 27.6, true),
        ]
        // launching: com.acme.shop 2841.300300–2841.404100; bindApplication 2841.300512–.338930
        // (38.418 ms, 8.645 + 8.6 inside), activityStart .352010–.381433 (29.423, 27.6 inside),
        // activityResume .381600–.384115.
        #expect(result.preMain.map(\.0) == ["process start (to bindApplication)"])
        #expect(result.preMain.map(\.1) == [0.212])
        let phases = (result.object["launchPhases"] as? [[String: Any]] ?? []).map {
            ($0["name"] as! String, ($0["cost"] as! NSNumber).doubleValue)
        }
        #expect(phases.map(\.0) == ["bindApplication", "activityStart", "activityResume"])
        #expect(phases.map(\.1) == [21.173, 1.823, 2.515])
        #expect(result.log.text.contains("the measured first frame is at 103.8 ms"))
        #expect(result.tasks.map(\.id) == expected.map(\.0))
        #expect(result.tasks.map(\.cost) == expected.map(\.1))
        #expect(result.tasks.map(\.mainThreadOnly) == expected.map(\.2))
        #expect(result.tasks.allSatisfy({ $0.dependsOn.isEmpty }))
        #expect(result.warnings.isEmpty)
        #expect(result.object["name"] as? String == "com.acme.shop")
        let premain = try Self.run([Self.fixture("atrace-launch.txt")], ImportOptions(premain: "bindApplication"))
        #expect(premain.preMain.map(\.0) == ["bindApplication"])
        #expect(premain.preMain.map(\.1) == [38.418])
        // By name or by tid, the same app.
        let byName = try Self.run([Self.fixture("atrace-launch.txt")], ImportOptions(mainThread: "com.acme.shop"))
        #expect(byName.tasks == result.tasks)
    }

    @Test func metricKitGivesEachSignpostsHistogramMedianAndP90() throws {
        let result = try Self.run([Self.fixture("metrickit-payload.json")])
        let expected = [
            Task(id: "crash-reporter", cost: 7.5, costP90: 12.5, mainThreadOnly: false, dependsOn: []),
            Task(id: "network-config", cost: 15, costP90: 35, mainThreadOnly: false, dependsOn: []),
            Task(id: "image-cache", cost: 9, costP90: 15, mainThreadOnly: false, dependsOn: []),
            Task(id: "root-vc", cost: 30.5, costP90: 50.5, mainThreadOnly: false, dependsOn: []),
            Task(id: "home-feed", cost: 25, costP90: 35, mainThreadOnly: false, dependsOn: []),
        ]
        #expect(result.tasks == expected)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("'app-became-active'") == true)
    }

    @Test func histogramPercentilesUseTheBucketMidpointAtRankCeilPN() {
        let histogram = Histogram(buckets: [
            .init(start: 0, end: 10, count: 1), .init(start: 10, end: 20, count: 8),
            .init(start: 20, end: 40, count: 1),
        ])
        #expect(histogram.percentile(50) == 15)
        #expect(histogram.percentile(90) == 15)  // rank 9 is the last of the second bucket
        #expect(histogram.percentile(91) == 30)
        #expect(Histogram.duration(.string("1,000 ms")) == 1_000_000_000)
        #expect(Histogram.duration(.string("1.5 sec")) == 1_500_000_000)
        #expect(Histogram.duration(.string("250 µs")) == 250_000)
    }

    @Test func interpolatedPercentilesAreExactOnIntegers() {
        #expect(Percentile.interpolated(50, ofSorted: [10, 20, 30, 40]) == 25)
        #expect(Percentile.interpolated(90, ofSorted: [1000, 2000, 3000, 4000, 5000]) == 4600)
        #expect(Percentile.interpolated(90, ofSorted: [7]) == 7)
        #expect(Percentile.interpolated(50, ofSorted: [329.8, 333.6, 400].map { $0 }) == 333.6)
    }

    // MARK: launchflow traces

    /// simulate → `--format trace` → import gives back every task's cost,
    /// thread, dependencies (in order), tier and first-frame flag, the
    /// pre-main phases and the cores — for random scenarios under every strategy.
    @Test(arguments: 1...12)
    func launchflowTracesRoundTrip(seed: Int) throws {
        var generator = RandomScenario(taskCount: 40 + seed * 7)
        generator.zeroCostShare = 0.15
        let scenario = try generator.make(seed: UInt64(seed))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for strategy in [Strategy.serial, .priority, .dag] {
            let path = folder.path("trace-\(strategy).json")
            try Data(TraceExport.json(SimulationResult(scenario, strategy: strategy))).write(
                to: URL(fileURLWithPath: path))
            let outcome = try TraceImport.run(ImportRequest(traces: [path]))
            let back = try ScenarioLoader.decode(outcome.scenario, file: path)
            #expect(back.device.cores == scenario.device.cores, "seed \(seed) \(strategy)")
            #expect(back.preMain == scenario.preMain, "seed \(seed) \(strategy)")
            #expect(back.strategy == strategy, "seed \(seed): the trace's strategy is kept")
            #expect(back.tasks.count == scenario.tasks.count, "seed \(seed) \(strategy)")
            let byID = Dictionary(uniqueKeysWithValues: back.tasks.map { ($0.id, $0) })
            for task in scenario.tasks {
                guard let imported = byID[task.id] else {
                    Issue.record("seed \(seed) \(strategy): \(task.id) missing")
                    continue
                }
                #expect(imported.cost == task.cost, "seed \(seed) \(strategy) \(task.id)")
                #expect(imported.mainThreadOnly == task.mainThreadOnly, "seed \(seed) \(strategy) \(task.id)")
                #expect(imported.priority == task.priority, "seed \(seed) \(strategy) \(task.id)")
                #expect(imported.firstFrame == task.firstFrame, "seed \(seed) \(strategy) \(task.id)")
                #expect(
                    imported.dependsOn.map { back.tasks[$0].id } == task.dependsOn.map { scenario.tasks[$0].id },
                    "seed \(seed) \(strategy) \(task.id)")
            }
            #expect(outcome.log.diagnostics.filter { $0.severity != .note }.isEmpty)
        }
    }

    /// (v2.1) `after` and `fullyDrawn` come back, and so does the whole device
    /// (refresh rate, commit and render time): simulating the imported scenario
    /// under the trace's strategy gives the trace's metrics.
    @Test(arguments: 1...6)
    func launchflowTracesKeepAfterFullyDrawnAndTheDevice(seed: Int) throws {
        var generator = RandomScenario(taskCount: 20 + seed * 5)
        generator.latencyShare = 0.2
        generator.delayShare = 0.2
        generator.afterShare = 0.5
        generator.fullyDrawnShare = 0.3
        let scenario = try generator.make(seed: UInt64(seed))
        #expect(scenario.tasks.contains { $0.after != nil } && scenario.tasks.contains(where: \.fullyDrawn))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for strategy in Strategy.allCases {
            let label = "seed \(seed) \(strategy)"
            let path = folder.path("trace-\(strategy).json")
            let original = SimulationResult(scenario, strategy: strategy)
            try Data(TraceExport.json(original)).write(to: URL(fileURLWithPath: path))
            let back = try ScenarioLoader.decode(
                try TraceImport.run(ImportRequest(traces: [path])).scenario, file: path)
            #expect(back.device == scenario.device, "\(label)")
            let byID = Dictionary(uniqueKeysWithValues: back.tasks.map { ($0.id, $0) })
            for task in scenario.tasks {
                #expect(byID[task.id]?.after == task.after, "\(label) \(task.id)")
                #expect(byID[task.id]?.fullyDrawn == task.fullyDrawn, "\(label) \(task.id)")
            }
            #expect(SimulationResult(back, strategy: strategy).metrics == original.metrics, "\(label)")
        }
    }

    /// The same with every v2 key: latency, queue, idle, anchor and group come
    /// back under every strategy; `delay` is the delay the strategy applied
    /// (all of it under priority, dag and anchored; none under serial, which
    /// ignores delays); the inputs come back in `at` order (then file order),
    /// which is the order the run loop takes them in. Zero-cost tasks, idle
    /// tasks and inputs survive. `idleMode` is not in the trace.
    @Test(arguments: 1...8)
    func launchflowTracesRoundTripEveryV2Key(seed: Int) throws {
        var generator = RandomScenario(taskCount: 30 + seed * 6).usingEveryV2Key()
        generator.zeroCostShare = 0.15
        generator.anchorShare = 0.05
        var scenario = try generator.make(seed: UInt64(seed))
        // At least one zero-cost idle task, one anchor, a zero-cost input and
        // two inputs arriving at the same instant.
        let idle = try #require(scenario.tasks.lastIndex { $0.mainThreadOnly && !$0.firstFrame })
        scenario.tasks[idle].idle = true
        scenario.tasks[idle].cost = 0
        scenario.tasks[seed % scenario.tasks.count].anchor = true
        scenario.inputs.append(UserInput(name: "late twin", at: scenario.inputs[2].at, cost: 0))
        scenario.inputs.insert(UserInput(name: "early twin", at: scenario.inputs[2].at, cost: 2000), at: 1)
        let inputsInOrder = scenario.inputs.enumerated().sorted {
            ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
        }
        .map { "\($0.element.name) \($0.element.at) \($0.element.cost)" }

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for strategy in Strategy.allCases {
            let label = "seed \(seed) \(strategy)"
            let path = folder.path("trace-\(strategy).json")
            try Data(TraceExport.json(SimulationResult(scenario, strategy: strategy))).write(
                to: URL(fileURLWithPath: path))
            let outcome = try TraceImport.run(ImportRequest(traces: [path]))
            let back = try ScenarioLoader.decode(outcome.scenario, file: path)
            #expect(outcome.log.diagnostics.filter { $0.severity != .note }.isEmpty, "\(label)")
            #expect(back.device.cores == scenario.device.cores, "\(label)")
            #expect(back.preMain == scenario.preMain, "\(label)")
            #expect(back.inputs.map { "\($0.name) \($0.at) \($0.cost)" } == inputsInOrder, "\(label)")
            #expect(back.tasks.count == scenario.tasks.count, "\(label)")
            let byID = Dictionary(uniqueKeysWithValues: back.tasks.map { ($0.id, $0) })
            for task in scenario.tasks {
                guard let imported = byID[task.id] else {
                    Issue.record("\(label): \(task.id) missing")
                    continue
                }
                var expected = task
                expected.dependsOn = []
                if strategy == .serial { expected.delay = 0 }
                var got = imported
                got.dependsOn = []
                #expect(got == expected, "\(label)")
                #expect(
                    imported.dependsOn.map { back.tasks[$0].id } == task.dependsOn.map { scenario.tasks[$0].id },
                    "\(label) \(task.id)")
            }
        }
    }

    /// Several launchflow traces: latency is the median with its p90 (as
    /// cost), delay the largest any strategy applied; `--into` refreshes the
    /// costs only and adds no v2 key.
    @Test func severalLaunchflowTracesAndIntoKeepTheirRules() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = repositoryRoot.appendingPathComponent("scenarios/permission-alerts.json").path
        var scenario = try ScenarioLoader.load(path: source)
        let alert = try #require(scenario.tasks.firstIndex { $0.id == "push-permission-alert" })
        scenario.tasks[alert].delay = 250_000
        var paths: [String] = []
        for (k, latency) in [2_000_000, 2_500_000, 4_000_000].enumerated() {
            var run = scenario
            run.tasks[alert].latency = latency
            let path = folder.path("run\(k).json")
            try Data(TraceExport.json(SimulationResult(run, strategy: k == 0 ? .serial : .dag))).write(
                to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let back = try ScenarioLoader.decode(
            try TraceImport.run(ImportRequest(traces: paths)).scenario, file: "merged.json")
        let merged = try #require(back.tasks.first { $0.id == "push-permission-alert" })
        #expect(merged.latency == 2_500_000)
        #expect(merged.latencyP90 == 3_700_000)
        #expect(merged.delay == 250_000)
        #expect(merged.queue == "alerts" && merged.group == "permissions")
        #expect(back.inputs == scenario.inputs)

        // --into: the scenario's own file with one cost changed comes back byte for byte.
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let edited = String(decoding: original, as: UTF8.self).replacingOccurrences(
            of: #"{ "id": "crash-reporter", "cost": 4,"#, with: #"{ "id": "crash-reporter", "cost": 4.5,"#)
        #expect(edited.utf8.count == original.count + 2)
        let into = folder.path("into.json")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: into))
        let trace = folder.path("original.json")
        try Data(TraceExport.json(SimulationResult(try ScenarioLoader.load(path: source), strategy: .dag))).write(
            to: URL(fileURLWithPath: trace))
        let refreshed = try TraceImport.run(ImportRequest(traces: [trace], into: into))
        #expect(Data(refreshed.scenario) == original)
        #expect(refreshed.changes.map(\.name) == ["crash-reporter"])
    }

    @Test func theBundledScenariosRoundTripThroughTheCommand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["article", "large-app"] {
            let source = repositoryRoot.appendingPathComponent("scenarios/\(name).json").path
            var streams: any OutputStreams = CapturedStreams()
            #expect(LaunchflowCommand.main(["simulate", source, "--format", "trace"], streams: &streams) == 0)
            let trace = folder.path("\(name).trace.json")
            try Data((streams as! CapturedStreams).output).write(to: URL(fileURLWithPath: trace))
            let out = folder.path("\(name).json")
            var importStreams: any OutputStreams = CapturedStreams()
            #expect(LaunchflowCommand.main(["import", trace, "--out", out], streams: &importStreams) == 0)
            let original = try ScenarioLoader.load(path: source)
            let back = try ScenarioLoader.load(path: out)
            #expect(back.name == original.name)
            #expect(
                Set(back.tasks.map { "\($0.id) \($0.cost) \($0.mainThreadOnly) \($0.priority)" })
                    == Set(original.tasks.map { "\($0.id) \($0.cost) \($0.mainThreadOnly) \($0.priority)" }))
        }
    }
}
