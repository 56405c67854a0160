import Foundation
import Testing

@testable import LaunchflowCLI
@testable import LaunchflowCore

/// The text-level editor of a scenario the user owns (`advise --out`): only
/// the changed keys change, every other byte stays.
@Suite struct ScenarioTextEditTests {
    // MARK: The plan file differs from the input only in the changed keys

    /// A line diff (longest common subsequence): the lines only in `old`, the lines only in `new`.
    static func lineDiff(_ old: String, _ new: String) -> (removed: [String], added: [String]) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var (i, j) = (0, 0)
        var removed: [String] = []
        var added: [String] = []
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                i += 1
                j += 1
            } else if j < b.count, i == a.count || table[i][j + 1] >= table[i + 1][j] {
                added.append(b[j])
                j += 1
            } else {
                removed.append(a[i])
                i += 1
            }
        }
        return (removed, added)
    }

    /// `line` without any `"key": value` member of a scheduling key (with the
    /// separator before or after it), for comparing a changed line with its old self.
    static func withoutSchedulingKeys(_ line: String) -> String {
        let member = #""(after|priority|idle|anchor|qos|strategy)"\s*:\s*("(\\.|[^"\\])*"|true|false|null|[0-9.]+)"#
        return line.replacingOccurrences(of: #",\s*"# + member, with: "", options: .regularExpression)
            .replacingOccurrences(of: member + #"\s*,\s*"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: member, with: "", options: .regularExpression)
    }

    /// The lines of `new` that are not an edit of `changes` into `old`: each
    /// added line must be a member of a changed key on a line of its own, or
    /// a removed line with only scheduling members changed; no more lines
    /// change than two per change, and every change's new value is written.
    /// `strategy`: the plan's switch of strategy (the top-level `"strategy"`), if any.
    static func problems(
        _ old: String, _ new: String, changes: [AdviseChange], tasks: [LaunchTask], strategy: Strategy? = nil
    ) -> [String] {
        let (removed, added) = lineDiff(old, new)
        var problems: [String] = []
        var unmatched = removed.map(withoutSchedulingKeys)
        for line in added {
            let stripped = withoutSchedulingKeys(line)
            if stripped.trimmingCharacters(in: .whitespaces).isEmpty { continue }  // a member on a line of its own
            if let k = unmatched.firstIndex(of: stripped) {
                unmatched.remove(at: k)
            } else {
                problems.append("changed line not one of the plan's edits: \(line)")
            }
        }
        // Lines only removed: a member on its own line taken out (after returning to none).
        for line in unmatched where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("removed line not one of the plan's edits: \(line)")
        }
        // Every change is one member more, one member replaced (0), or one removed: at most one per change.
        if added.count + removed.count > 2 * (changes.count + (strategy == nil ? 0 : 1)) {
            problems.append("more lines changed than the plan's edits")
        }
        if let strategy, !new.contains(#""strategy": "\#(strategy.rawValue)""#) {
            problems.append("the switch to \(strategy.rawValue) not written")
        }
        for change in changes {
            let id = tasks[change.task].id
            if !new.contains(change.to) && change.to != "null" { problems.append("\(id).\(change.key) not written") }
        }
        return problems
    }

    @Test(arguments: [
        ["--allow", "after,priority,idle,anchor"], ["--strategy", "priority"], ["--allow", "anchor"],
    ])
    func thePlanFileDiffersOnlyInTheChangedKeys(_ options: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try String(contentsOf: fixtureURL("messy-edit.json"), encoding: .utf8)
        let path = try folder.write("messy.json", input)
        let out = folder.path("plan.json")
        let result = Launchflow.runInProcess(["advise", path, "--out", out, "--format", "json"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let scenario = try ScenarioLoader.load(path: path)
        let plan = try Advise.plan(scenario, configuration(options, scenario))
        #expect(!plan.changes.isEmpty)
        #expect(written != input)
        #expect(Self.problems(input, written, changes: plan.changes, tasks: scenario.tasks) == [])
        // The file is the plan.
        #expect(try ScenarioLoader.load(path: out).jsonBytes() == plan.scenario.jsonBytes())
        // The check fails on the old behaviour (the whole scenario re-written).
        let rewritten = String(decoding: plan.scenario.jsonBytes(), as: UTF8.self)
        #expect(!Self.problems(input, rewritten, changes: plan.changes, tasks: scenario.tasks).isEmpty)
        // Same input, same bytes.
        let again = Launchflow.runInProcess(["advise", path, "--out", out] + options)
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == written)
    }

    /// The same on a bundled scenario of 68 tasks: the plan's lines, nothing else.
    @Test func largeAppsPlanIsOnlyItsChanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try String(
            contentsOf: repositoryRoot.appendingPathComponent("scenarios/large-app.json"), encoding: .utf8)
        let path = try folder.write("large-app.json", input)
        let out = folder.path("plan.json")
        // Under dag, where the plan is many key changes (allowed to switch, it goes to anchored with none).
        let options = ["--strategy", "dag"]
        let result = Launchflow.runInProcess(["advise", path, "--out", out] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let scenario = try ScenarioLoader.load(path: path)
        let plan = try Advise.plan(scenario, configuration(options, scenario))
        #expect(plan.changes.count > 5)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        let switched = plan.strategyChange?.to
        #expect(Self.problems(input, written, changes: plan.changes, tasks: scenario.tasks, strategy: switched) == [])
        let (removed, added) = Self.lineDiff(input, written)
        #expect(removed.count + added.count <= 2 * plan.changeCount)
    }

    /// advise's settings for these options, as the command makes them: the
    /// scenario's strategy unless `--strategy`, which also takes the switch
    /// of strategy out of the default knobs.
    func configuration(_ options: [String], _ scenario: Scenario) -> AdviseConfiguration {
        var configuration = AdviseConfiguration()
        configuration.knobs = AdviseKnob.defaults(strategyPinned: options.contains("--strategy"))
        if let k = options.firstIndex(of: "--allow") {
            configuration.knobs = options[k + 1].split(separator: ",").compactMap { AdviseKnob(rawValue: String($0)) }
        }
        configuration.strategy = scenario.strategy ?? .dag
        if let k = options.firstIndex(of: "--strategy") { configuration.strategy = Strategy(rawValue: options[k + 1])! }
        return configuration
    }

    /// The exact edits on the fixture: a member appended to a compact inline
    /// object, one on a line of its own in a `" : "` object, one after the
    /// last member of a two-line object.
    @Test func theFixturesDeferralIsThreeMembers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try String(contentsOf: fixtureURL("messy-edit.json"), encoding: .utf8)
        let path = try folder.write("messy.json", input)
        let out = folder.path("plan.json")
        let result = Launchflow.runInProcess(["advise", path, "--out", out, "--allow", "after"])
        #expect(result.status == 0, "\(result.stderr)")
        let (removed, added) = Self.lineDiff(input, try String(contentsOfFile: out, encoding: .utf8))
        #expect(
            removed == [
                #"    {"id":"analytics","cost":20,"mainThreadOnly":true,"idle":false,"priority":0},"#,
                #"      "priority": 0, "group": "a, \"b\": {c}" }"#,
            ])
        #expect(
            added == [
                #"    {"id":"analytics","cost":20,"mainThreadOnly":true,"idle":false,"priority":0,"after":"firstFrame"},"#,
                #"        "after" : "firstFrame","#,
                #"      "priority": 0, "group": "a, \"b\": {c}", "after": "firstFrame" }"#,
            ])
    }

    // MARK: Insert, remove, replace

    static func edit(_ text: String, _ edits: [ScenarioText.KeyEdit]) throws -> String {
        let file = try ScenarioText(Array(text.utf8))
        return String(decoding: try file.editing(edits), as: UTF8.self)
    }

    static func task(_ object: String) -> String { #"{"name": "n", "tasks": ["# + object + "]}" }

    @Test func insertsInTheObjectsOwnStyle() throws {
        // Inline, compact, after the last member.
        #expect(
            try Self.edit(Self.task(#"{ "id": "a", "cost": 3 }"#), [.init(.task(0), "priority", "2")])
                == Self.task(#"{ "id": "a", "cost": 3, "priority": 2 }"#))
        #expect(
            try Self.edit(Self.task(#"{"id":"a","cost":3}"#), [.init(.task(0), "idle", "true")])
                == Self.task(#"{"id":"a","cost":3,"idle":true}"#))
        // One key a line, tabs: a line of its own before the last member's.
        #expect(
            try Self.edit(
                Self.task("{\n\t\t\"id\": \"a\",\n\t\t\"cost\"\t:\t3\n\t}"),
                [.init(.task(0), "after", "\"firstFrame\""), .init(.task(0), "anchor", "true")])
                == Self.task(
                    "{\n\t\t\"id\": \"a\",\n\t\t\"after\"\t:\t\"firstFrame\",\n\t\t\"anchor\"\t:\ttrue,\n\t\t\"cost\"\t:\t3\n\t}"
                ))
        // The only key: inline after it, one a line before it.
        #expect(try Self.edit(#"{ "name": "n" }"#, [.init(.root, "x", "1")]) == #"{ "name": "n", "x": 1 }"#)
        #expect(
            try Self.edit("{\n  \"name\": \"n\"\n}", [.init(.root, "x", "1")]) == "{\n  \"x\": 1,\n  \"name\": \"n\"\n}"
        )
        // An empty object.
        #expect(try Self.edit(#"{}"#, [.init(.root, "x", "1")]) == #"{ "x": 1 }"#)
        // A last member whose value spans lines (an array): the new key before it, no line touched.
        #expect(
            try Self.edit(
                Self.task("{\n  \"id\": \"a\",\n  \"dependsOn\": [\n    \"b\"\n  ]\n}"),
                [.init(.task(0), "priority", "1")])
                == Self.task("{\n  \"id\": \"a\",\n  \"priority\": 1,\n  \"dependsOn\": [\n    \"b\"\n  ]\n}"))
    }

    @Test func removesWithItsSeparator() throws {
        let inline = #"{ "id": "a", "after": "firstFrame", "cost": 3 }"#
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "after", nil)]) == Self.task(#"{ "id": "a", "cost": 3 }"#)
        )
        // First, last, only.
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "id", nil)])
                == Self.task(#"{ "after": "firstFrame", "cost": 3 }"#))
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "cost", nil)])
                == Self.task(#"{ "id": "a", "after": "firstFrame" }"#))
        #expect(try Self.edit(Self.task(#"{ "after": "x" }"#), [.init(.task(0), "after", nil)]) == Self.task("{ }"))
        // The last of one key a line: no comma left behind.
        #expect(
            try Self.edit(
                Self.task("{\n  \"id\": \"a\",\n  \"after\": \"firstFrame\"\n}"), [.init(.task(0), "after", nil)])
                == Self.task("{\n  \"id\": \"a\"\n}"))
        // Two neighbours, the last two, everything.
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "id", nil), .init(.task(0), "after", nil)])
                == Self.task(#"{ "cost": 3 }"#))
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "cost", nil), .init(.task(0), "after", nil)])
                == Self.task(#"{ "id": "a" }"#))
        #expect(
            try Self.edit(
                Self.task(inline),
                [.init(.task(0), "cost", nil), .init(.task(0), "after", nil), .init(.task(0), "id", nil)])
                == Self.task("{ }"))
        // A key the object does not have: nothing to do.
        #expect(try Self.edit(Self.task(inline), [.init(.task(0), "idle", nil)]) == Self.task(inline))
        // Removed and added in one object: the new key where the style puts it.
        #expect(
            try Self.edit(Self.task(inline), [.init(.task(0), "cost", nil), .init(.task(0), "priority", "4")])
                == Self.task(#"{ "id": "a", "after": "firstFrame", "priority": 4 }"#))
        #expect(
            try Self.edit(
                Self.task("{\n  \"id\": \"a\",\n  \"cost\": 1,\n  \"after\": \"firstFrame\"\n}"),
                [.init(.task(0), "after", nil), .init(.task(0), "idle", "true"), .init(.task(0), "cost", "2")])
                == Self.task("{\n  \"id\": \"a\",\n  \"idle\": true,\n  \"cost\": 2\n}"))
    }

    @Test func replacesAValueOfAnyShape() throws {
        let tricky =
            #"{ "id": "x\"}{,", "group": "a, \"b\": {c} ]", "after": [["nested", {"a": [1, 2]}], "}"], "cost": 1 }"#
        #expect(
            try Self.edit(Self.task(tricky), [.init(.taskID(#"x"}{,"#), "after", "\"firstFrame\"")])
                == Self.task(#"{ "id": "x\"}{,", "group": "a, \"b\": {c} ]", "after": "firstFrame", "cost": 1 }"#))
        #expect(
            try Self.edit(
                Self.task(tricky), [.init(.task(0), "after", nil), .init(.task(0), "cost", "[1, {\"b\": 2}]")])
                == Self.task(#"{ "id": "x\"}{,", "group": "a, \"b\": {c} ]", "cost": [1, {"b": 2}] }"#))
        // Unicode around the edit stays as it was.
        let unicode = #"{ "id": "根 ✨", "group": "«ü»", "priority": 0 }"#
        #expect(
            try Self.edit(Self.task(unicode), [.init(.taskID("根 ✨"), "priority", "3")])
                == Self.task(#"{ "id": "根 ✨", "group": "«ü»", "priority": 3 }"#))
        // An escaped key is found by its text.
        #expect(
            try Self.edit(Self.task(#"{ "id": "a", "pr\u0069ority": 1 }"#), [.init(.task(0), "priority", "2")])
                == Self.task(#"{ "id": "a", "pr\u0069ority": 2 }"#))
        // No edits: the same bytes.
        #expect(try Self.edit(Self.task(tricky), []) == Self.task(tricky))
    }

    @Test func badTargetsAndBadTextAreErrorsNotTraps() throws {
        let text = try ScenarioText(Array(Self.task(#"{ "id": "a", "cost": 1 }"#).utf8))
        #expect(throws: ScenarioText.KeyEditError.self) { try text.editing([.init(.task(1), "priority", "1")]) }
        #expect(throws: ScenarioText.KeyEditError.self) { try text.editing([.init(.taskID("b"), "priority", "1")]) }
        #expect(throws: ScenarioText.KeyEditError.self) {
            try text.editing([.init(.task(0), "priority", "1"), .init(.taskID("a"), "priority", "2")])
        }
        let notObject = try ScenarioText(Array(Self.task("3").utf8))
        #expect(throws: ScenarioText.KeyEditError.self) { try notObject.editing([.init(.task(0), "priority", "1")]) }
        // A trailing comma is not JSON: a syntax error with its offset.
        #expect(throws: JSONSyntaxError.self) { try ScenarioText(Array(Self.task(#"{ "id": "a", "cost": 1, }"#).utf8)) }
        #expect(throws: JSONSyntaxError.self) { try ScenarioText(Array(#"{"tasks": [{"id": "a"},]}"#.utf8)) }
    }

    // MARK: From a scenario to a target

    static let written = """
        {
          "name": "n",
          "tasks": [
            { "id": "a", "cost": 1, "priority": 3, "idle": false, "mainThreadOnly": true, "after": "firstFrame" },
            { "id": "ui", "cost": 2, "mainThreadOnly": true, "firstFrame": true, "dependsOn": ["a0"] },
            { "id": "a0", "cost": 1 }
          ]
        }
        """

    @Test func aKeyBackAtItsDefaultStaysWrittenOutUnlessItsDefaultIsNone() throws {
        let scenario = try ScenarioLoader.decode(Array(Self.written.utf8), file: "s.json")
        var target = scenario
        target.tasks[0].priority = 0  // written out: stays, as 0
        target.tasks[0].idle = true  // written out: replaced
        target.tasks[0].after = nil  // its default is none: removed
        target.tasks[2].anchor = true  // not there: added
        let text = try ScenarioText(Array(Self.written.utf8))
        #expect(
            try text.keyEdits(from: scenario, to: target) == [
                .init(.task(0), "priority", "0"), .init(.task(0), "idle", "true"), .init(.task(0), "after", nil),
                .init(.task(2), "anchor", "true"),
            ])
        let edited = String(decoding: try text.edited(from: scenario, to: target, file: "p.json"), as: UTF8.self)
        #expect(
            edited
                == Self.written.replacingOccurrences(
                    of: #""priority": 3, "idle": false, "mainThreadOnly": true, "after": "firstFrame" }"#,
                    with: #""priority": 0, "idle": true, "mainThreadOnly": true }"#
                ).replacingOccurrences(
                    of: #"{ "id": "a0", "cost": 1 }"#, with: #"{ "id": "a0", "cost": 1, "anchor": true }"#))
    }

    @Test func aTargetThatKeysCannotReachFailsTheCheck() throws {
        let scenario = try ScenarioLoader.decode(Array(Self.written.utf8), file: "s.json")
        var target = scenario
        target.device.cores = 2  // nested: not edited in place
        let text = try ScenarioText(Array(Self.written.utf8))
        #expect(throws: ScenarioText.KeyEditError.self) { try text.edited(from: scenario, to: target, file: "p.json") }
        var fewer = scenario
        fewer.tasks.removeLast()
        #expect(throws: ScenarioText.KeyEditError.self) { try text.keyEdits(from: scenario, to: fewer) }
    }

    /// When the input cannot be edited (it changed since advise read it), the
    /// plan is written whole, with a warning; it is still the plan.
    @Test func anInputChangedMeanwhileFallsBackToTheWholePlan() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("s.json", Self.written)
        let scenario = try ScenarioLoader.load(path: path)
        let plan = try Advise.plan(scenario, AdviseConfiguration())
        try folder.write("s.json", "{ not json")
        var streams: any OutputStreams = CapturedStreams()
        let bytes = AdviseCommand.planFile(plan, plan.scenario, input: path, out: "p.json", &streams)
        #expect(bytes == plan.scenario.jsonBytes())
        #expect((streams as! CapturedStreams).error.contains("could not be edited in place (invalid JSON at 1:3"))
    }
}
