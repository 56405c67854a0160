import Foundation
import Testing

@testable import LaunchflowCore

/// `validate`'s warnings: each rule, where it is reported, and `--strict`.
struct LintTests {
    func warnings(_ json: String) throws -> [String] {
        Lint.warnings(try scenario(json, file: "s.json"), file: "s.json").map(\.description)
    }

    func rules(_ json: String) throws -> [LintWarning.Rule] {
        Lint.warnings(try scenario(json, file: "s.json"), file: "s.json").map(\.rule)
    }

    /// A scenario of `tasks` and, last, a zero-cost task in a tier of its own: with a
    /// single tier the tier rules would be skipped (`LintRelevanceTests`).
    static func doc(_ tasks: String) -> String {
        #"{"name": "x", "tasks": [\#(tasks), {"id": "zz-other-tier", "cost": 0, "priority": 99}]}"#
    }

    @Test func aDependencyOnALaterTierIsAGuaranteedViolation() throws {
        let json = Self.doc(
            #"{"id": "config", "cost": 5, "priority": 1}, {"id": "net", "cost": 3, "dependsOn": ["config"]}"#)
        #expect(
            try warnings(json) == [
                "warning: s.json: tasks[1].dependsOn[0] (task 'net'): depends on 'config' in a later priority tier (priority 1 > 0): "
                    + "under the priority strategy it always starts before 'config' ends (a guaranteed dependency violation)"
            ])
        // And it is one: priority reports the violation.
        let result = SimulationResult(try scenario(json), strategy: .priority)
        #expect(result.metrics.dependencyViolations == 1)
    }

    @Test func aDependencyOnAnEarlierTierIsFine() throws {
        #expect(
            try warnings(
                Self.doc(#"{"id": "a", "cost": 5}, {"id": "b", "cost": 3, "priority": 2, "dependsOn": ["a"]}"#)
            ).isEmpty)
    }

    @Test func twoWorkerTasksInOneTierMayRunAtOnce() throws {
        let json = Self.doc(#"{"id": "a", "cost": 5}, {"id": "b", "cost": 3, "dependsOn": ["a"]}"#)
        #expect(
            try warnings(json) == [
                "warning: s.json: tasks[1].dependsOn[0] (task 'b'): depends on 'a' in the same priority tier (priority 0), both worker tasks: "
                    + "under the priority strategy they may run at the same time (a possible dependency violation)"
            ])
    }

    @Test func aMainThreadTaskAndAWorkerTaskInOneTierMayRunAtOnce() throws {
        let json = Self.doc(
            #"{"id": "cache", "cost": 5}, {"id": "ui", "cost": 3, "mainThreadOnly": true, "dependsOn": ["cache"]}"#)
        #expect(try rules(json) == [.sameTierDependency])
        #expect(try warnings(json)[0].contains("'ui' runs on the main thread while 'cache' runs on a worker"))
    }

    @Test func mainThreadTasksOfOneTierRunInFileOrder() throws {
        let fine = Self.doc(
            #"{"id": "a", "cost": 1, "mainThreadOnly": true}, {"id": "b", "cost": 1, "mainThreadOnly": true, "dependsOn": ["a"]}"#
        )
        #expect(try warnings(fine).isEmpty)
        let backwards = Self.doc(
            #"{"id": "b", "cost": 1, "mainThreadOnly": true, "dependsOn": ["a"]}, {"id": "a", "cost": 1, "mainThreadOnly": true}"#
        )
        #expect(
            try warnings(backwards) == [
                "warning: s.json: tasks[0].dependsOn[0] (task 'b'): depends on 'a', a main-thread task later in the file in the same "
                    + "priority tier (priority 0): the priority strategy runs a tier's main-thread tasks in file order (a guaranteed dependency violation)"
            ])
        #expect(SimulationResult(try scenario(backwards), strategy: .priority).metrics.dependencyViolations == 1)
    }

    @Test func aFirstFrameTaskThatNeedsALaterTier() throws {
        let json = Self.doc(
            """
            {"id": "feed", "cost": 20, "priority": 2},
            {"id": "feed-ui", "cost": 4, "priority": 0, "mainThreadOnly": true, "dependsOn": ["feed"]},
            {"id": "home", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["feed-ui"]}
            """)
        #expect(
            try warnings(json) == [
                "warning: s.json: tasks[1].dependsOn[0] (task 'feed-ui'): depends on 'feed' in a later priority tier (priority 2 > 0): "
                    + "under the priority strategy it always starts before 'feed' ends (a guaranteed dependency violation)",
                "warning: s.json: tasks[2].dependsOn[0] (task 'home'): the first frame needs 'feed' (through 'feed-ui'), which is in a "
                    + "later priority tier (priority 2 > 0): under the priority strategy the first frame is drawn before 'feed' ends",
            ])
    }

    @Test func aFirstFrameTasksOwnLaterTierDependencyIsReportedOnce() throws {
        let json = Self.doc(
            """
            {"id": "images", "cost": 20, "priority": 1},
            {"id": "home", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["images"]}
            """)
        #expect(try rules(json) == [.firstFrameNeedsLaterTier])
        #expect(
            try warnings(json)[0].hasPrefix(
                "warning: s.json: tasks[1].dependsOn[0] (task 'home'): the first frame needs 'images', which"))
    }

    @Test func aTaskNothingNeedsThatSerialRunsBeforeTheFirstFrame() throws {
        let json = Self.doc(
            """
            {"id": "analytics", "cost": 5},
            {"id": "window", "cost": 0, "mainThreadOnly": true},
            {"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["window"]}
            """)
        #expect(
            try warnings(json) == [
                "warning: s.json: tasks[0].priority (task 'analytics'): nothing depends on 'analytics' and the first frame does not need it, "
                    + "yet the serial strategy runs it before 'root' (the last first-frame task), delaying the first frame by 5 ms; "
                    + "a larger priority value moves it later"
            ])
        // Following the advice removes the warning.
        let fixed = Self.doc(
            """
            {"id": "analytics", "cost": 5, "priority": 1},
            {"id": "window", "cost": 0, "mainThreadOnly": true},
            {"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["window"]}
            """)
        #expect(try warnings(fixed).isEmpty)
    }

    @Test func serialRuleSkipsNeededFreeAndFirstFrameLessTasks() throws {
        // Needed by the first frame, zero cost, or no first frame at all: nothing to say.
        #expect(
            try warnings(
                Self.doc(
                    """
                    {"id": "db", "cost": 5, "mainThreadOnly": true},
                    {"id": "noop", "cost": 0},
                    {"id": "root", "cost": 10, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["db"]}
                    """)
            ).isEmpty)
        #expect(
            try warnings(Self.doc(#"{"id": "a", "cost": 5}, {"id": "b", "cost": 1, "mainThreadOnly": true}"#)).isEmpty)
    }

    @Test func warningsAreOrderedByTaskThenDependency() throws {
        let json = Self.doc(
            """
            {"id": "late", "cost": 1, "priority": 3},
            {"id": "x", "cost": 1, "dependsOn": ["late", "y"]},
            {"id": "y", "cost": 1}
            """)
        let paths = Lint.warnings(try scenario(json), file: "s.json").map(\.problem.path)
        #expect(paths == ["tasks[1].dependsOn[0]", "tasks[1].dependsOn[1]"])
    }

    @Test func theArticleScenarioHasTwoPossibleViolationsAndATaskToDefer() throws {
        let path = repositoryRoot.appendingPathComponent("scenarios/article.json").path
        let warnings = Lint.warnings(try ScenarioLoader.load(path: path), file: "article.json")
        #expect(warnings.map(\.problem.path) == ["tasks[2].dependsOn[0]", "tasks[5].dependsOn[0]", "tasks[7]"])
        #expect(warnings.map(\.rule) == [.sameTierDependency, .sameTierDependency, .couldRunAfterFirstFrame])
        // push-registration (3 ms on main before the frame): ready 2 ms sooner once deferred.
        #expect(warnings[2].problem.message.contains("ready 2 ms sooner"))
    }

    @Test func aMainThreadTaskNothingWaitsForIsSuggestedAfterOnlyWhenItGains() throws {
        // 'log' runs on main before 'ui' (rank order) though nothing needs it; 'late' runs after the frame anyway.
        let json = Self.doc(
            """
            {"id": "net", "cost": 5},
            {"id": "log", "cost": 2, "mainThreadOnly": true},
            {"id": "ui", "cost": 3, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["net"]},
            {"id": "late", "cost": 4, "mainThreadOnly": true, "dependsOn": ["ui"]}
            """)
        let warnings = Lint.warnings(try scenario(json), file: "s.json").filter { $0.rule == .couldRunAfterFirstFrame }
        // Under dag: log 0–2 in iteration 1 while net runs; ui runs at 5 in iteration 2 either way: no gain.
        #expect(warnings.isEmpty)
        let busy = Self.doc(
            """
            {"id": "cfg", "cost": 0},
            {"id": "log", "cost": 2, "mainThreadOnly": true},
            {"id": "ui", "cost": 3, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["cfg"]}
            """)
        let found = Lint.warnings(try scenario(busy), file: "s.json").filter { $0.rule == .couldRunAfterFirstFrame }
        #expect(found.count == 1)
        // log and ui share iteration 1 (log first, by rank); deferred, log runs after the frame.
        #expect(found.first?.problem.path == "tasks[1]" && found.first?.problem.message.contains("2 ms sooner") == true)
    }

    // MARK: The command

    @Test func validatePrintsWarningsOnStderrAndExitsZero() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(
            "s.json", Self.doc(#"{"id": "a", "cost": 5, "priority": 1}, {"id": "b", "cost": 3, "dependsOn": ["a"]}"#))
        let out = try Launchflow.run(["validate", file])
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("ok: \(file): x — 3 tasks") && out.stdout.hasSuffix("; 1 warning\n"))
        #expect(
            out.stderr.hasPrefix(
                "warning: \(file): tasks[1].dependsOn[0] (task 'b'): depends on 'a' in a later priority tier"))
    }

    @Test func strictMakesWarningsErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write(
            "s.json", Self.doc(#"{"id": "a", "cost": 5}, {"id": "b", "cost": 3, "dependsOn": ["a"]}"#))
        let out = try Launchflow.run(["validate", file, "--strict"])
        #expect(out.status == 2)
        #expect(out.stdout.isEmpty)
        let lines = out.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("error: \(file): ") })
        #expect(lines.last == "error: \(file): 1 warning (--strict makes warnings errors)")
        let clean = try folder.write("clean.json", Self.doc(#"{"id": "a", "cost": 5}"#))
        let ok = try Launchflow.run(["validate", clean, "--strict"])
        #expect(ok.status == 0 && ok.stderr.isEmpty && ok.stdout.hasPrefix("ok: "))
    }
}

/// `validate` keeps its output short: two warnings of each kind and a count (issue 18).
@Suite struct ValidateListingTests {
    static let bundled: [String] = {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: repositoryRoot.appendingPathComponent("scenarios").path)) ?? []
        return names.filter { $0.hasSuffix(".json") && $0 != "scenario.schema.json" }.sorted().map { "scenarios/\($0)" }
    }()

    @Test(arguments: bundled)
    func everyBundledScenarioValidatesInAtMostFifteenLines(_ path: String) throws {
        let out = try Launchflow.run(["validate", path])
        #expect(out.status == 0)
        let lines = (out.stdout + out.stderr).split(separator: "\n")
        #expect(lines.count <= 15, "\(path): \(lines.count) lines")
        // --verbose lists every warning the summary counts.
        let verbose = try Launchflow.run(["validate", path, "--verbose"])
        let warnings = verbose.stderr.split(separator: "\n").filter { !$0.contains(": … and ") }
        let last = out.stdout.split(separator: ";").last.map(String.init) ?? ""
        let counted = last.contains("warning") ? Int(last.filter(\.isNumber)) ?? -1 : 0
        #expect(warnings.count == counted, "\(path)")
    }

    @Test func moreThanTwoOfAKindAreCounted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tasks = (0..<5).map { #"{"id": "t\#($0)", "cost": 1, "priority": 1, "dependsOn": ["late"]}"# }
        let file = try folder.write(
            "s.json", LintTests.doc(#"{"id": "late", "cost": 1, "priority": 2}, "# + tasks.joined(separator: ", ")))
        let out = try Launchflow.run(["validate", file])
        let lines = out.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines.last
                == "warning: \(file): … and 3 more dependencies on a task in a later priority tier (--verbose lists them)"
        )
        #expect(out.stdout.hasSuffix("; 5 warnings\n"))
    }
}

/// Lint only what matters for the scenario at hand (issue 11).
@Suite struct LintRelevanceTests {
    @Test func aSingleTierScenarioGetsNoTierWarnings() throws {
        let json = """
            {"name": "one tier", "tasks": [
              {"id": "a", "cost": 5}, {"id": "b", "cost": 5, "dependsOn": ["a"]},
              {"id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["b"]}]}
            """
        #expect(Lint.warnings(try scenario(json), file: "s.json").isEmpty)
    }

    @Test func aScenarioWithoutDependenciesGetsNoSerialWarnings() throws {
        let json = """
            {"name": "no dependencies", "tasks": [
              {"id": "crash-reporter", "cost": 5}, {"id": "later", "cost": 5, "priority": 1},
              {"id": "ui", "cost": 5, "mainThreadOnly": true, "firstFrame": true, "priority": 1}]}
            """
        #expect(Lint.warnings(try scenario(json), file: "s.json").isEmpty)
    }

    @Test(arguments: ["scenarios/dependencies-only.json", "scenarios/tiers-only.json"])
    func bundledScenariosWithoutPurposeFlawsAreStrictlyClean(_ path: String) throws {
        let out = try Launchflow.run(["validate", "--strict", path])
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test(arguments: ["scenarios/article.json", "scenarios/large-app.json", "docs/examples/article-uncertain.json"])
    func bundledScenariosThatAreNotCleanSayWhy(_ path: String) throws {
        let scenario = try ScenarioLoader.load(path: repositoryRoot.appendingPathComponent(path).path)
        #expect(!Lint.warnings(scenario, file: path).isEmpty)
        #expect(scenario.description.contains("not lint-clean on purpose"))
    }
}

/// A scenario that names the app's strategy is linted for that strategy only (issue 26: 39 warnings on a
/// clean model tiered like priority).
struct LintAppStrategyTests {
    /// large-app.json with `"strategy"` set, its warnings' rules (and how many of each).
    func rules(_ strategy: Strategy?) throws -> [LintWarning.Rule: Int] {
        var scenario = try ScenarioLoader.load(
            path: repositoryRoot.appendingPathComponent("scenarios/large-app.json").path)
        scenario.strategy = strategy
        return Lint.warnings(scenario, file: "large-app.json").reduce(into: [:]) { $0[$1.rule, default: 0] += 1 }
    }

    @Test func onlyTheAppsStrategyIsLinted() throws {
        let all = try rules(nil)
        // Without the key every strategy's rules speak (the scenario is tiered, has dependencies and
        // main-thread work dag could defer).
        for rule in [LintWarning.Rule.sameTierDependency, .laterTierDependency, .blocksFirstFrameUnderSerial] {
            #expect(all[rule, default: 0] > 0, "\(rule)")
        }
        let dag = try rules(.dag)
        #expect(Set(dag.keys) == [.couldRunAfterFirstFrame])
        #expect(dag[.couldRunAfterFirstFrame] == all[.couldRunAfterFirstFrame])
        let priority = try rules(.priority)
        #expect(priority[.sameTierDependency] == all[.sameTierDependency])
        #expect(priority[.blocksFirstFrameUnderSerial] == nil)
        // serial ignores `after`: nothing to defer; its own rule stays.
        let serial = try rules(.serial)
        #expect(Set(serial.keys) == [.blocksFirstFrameUnderSerial])
    }

    /// m (5 ms, main) delays f (the first frame, after the 1 ms worker task w). Under priority, one tier
    /// ignores f's dependency: f would start at 0 instead of 5, ready 5 ms sooner; under dag it waits for
    /// w (1 ms): 4 ms sooner. Serial ignores `after`: its own rule reports m.
    @Test(arguments: [("priority", "under priority,", "5 ms sooner"), ("dag", "under dag,", "4 ms sooner")])
    func theDeferralRuleSimulatesTheAppsStrategy(_ strategy: String, _ under: String, _ gain: String) throws {
        let json = """
            {"name": "x", "strategy": "\(strategy)", "tasks": [
              {"id": "w", "cost": 1},
              {"id": "m", "cost": 5, "mainThreadOnly": true},
              {"id": "f", "cost": 2, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["w"]}]}
            """
        let messages = Lint.warnings(try scenario(json, file: "s.json"), file: "s.json").map(\.description)
        #expect(messages.count == 1)
        #expect(messages.allSatisfy { $0.contains("task 'm'") && $0.contains(under) && $0.contains(gain) })
        let serial = json.replacingOccurrences(of: "\"\(strategy)\"", with: "\"serial\"")
        // Under serial, its own rule says the same of m instead.
        #expect(
            Lint.warnings(try scenario(serial, file: "s.json"), file: "s.json").map(\.rule) == [
                .blocksFirstFrameUnderSerial
            ])
    }
}
