import Testing

@testable import LaunchflowCore

/// Every rule of MODEL.md §1, with its exact message.
struct ValidationTests {
    /// A minimal valid scenario with `tasks` spliced in.
    static func doc(_ tasks: String, extra: String = "") -> String {
        #"{"name": "x", \#(extra) "tasks": [\#(tasks)]}"#
    }

    static let rules: [(name: String, json: String, expected: [String])] = [
        (
            "invalid JSON, with line and column",
            "{\n  \"name\": \"x\",\n  \"tasks\": [ {\"id\": \"a\" \"cost\": 1} ]\n}",
            ["error: s.json:3:25: invalid JSON: expected ',' or '}' after an object member"]
        ),
        (
            "truncated JSON", #"{"name": "x", "tasks": ["#,
            ["error: s.json:1:25: invalid JSON: unexpected end of input, expected a value"]
        ),
        (
            "trailing garbage", #"{"name": "x", "tasks": [{"id": "a", "cost": 1}]} x"#,
            ["error: s.json:1:50: invalid JSON: unexpected 'x' after the top-level value"]
        ),
        ("not an object", "[1, 2]", ["error: s.json: the scenario must be a JSON object, found an array"]),
        ("empty file", "  \n", ["error: s.json: the file is empty, expected a JSON object"]),
        (
            "unknown key with a suggestion", doc(#"{"id": "a", "cots": 1}"#),
            [
                "error: s.json: tasks[0] (task 'a'): missing required key 'cost'",
                "error: s.json: tasks[0].cots (task 'a'): unknown key 'cots'; did you mean 'cost'?",
            ]
        ),
        (
            "unknown key without a suggestion", doc(#"{"id": "a", "cost": 1}"#, extra: #""colour": "red","#),
            ["error: s.json: colour: unknown key 'colour'"]
        ),
        (
            "unknown device key", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"core": 4},"#),
            ["error: s.json: device.core: unknown key 'core'; did you mean 'cores'?"]
        ),
        (
            "repeated key", #"{"name": "x", "name": "y", "tasks": [{"id": "a", "cost": 1}]}"#,
            ["error: s.json: name: key 'name' appears twice in this object"]
        ),
        (
            // Keys are matched by their bytes when they have no escape; an escaped
            // or non-ASCII key takes the string path, with the same messages.
            "repeated key, once escaped", doc(#"{"id": "a", "cost": 1, "c\u006fst": 2}"#),
            ["error: s.json: tasks[0].cost (task 'a'): key 'cost' appears twice in this object"]
        ),
        (
            "non-ASCII unknown key", doc(#"{"id": "a", "cöst": 1}"#),
            [
                "error: s.json: tasks[0] (task 'a'): missing required key 'cost'",
                "error: s.json: tasks[0].cöst (task 'a'): unknown key 'cöst'; did you mean 'cost'?",
            ]
        ),
        (
            "missing name and tasks", "{}",
            ["error: s.json: name: missing required key 'name'", "error: s.json: tasks: missing required key 'tasks'"]
        ),
        ("no tasks", doc(""), ["error: s.json: tasks: the scenario has no tasks"]),
        ("missing id", doc(#"{"cost": 1}"#), ["error: s.json: tasks[0]: missing required key 'id'"]),
        (
            "a task that is not an object", doc(#"null, {"id": "a", "cost": 1}"#),
            ["error: s.json: tasks[0]: expected an object, found null"]
        ),
        (
            "a pre-main phase that is not an object", doc(#"{"id": "a", "cost": 1}"#, extra: #""preMain": [null, 5],"#),
            [
                "error: s.json: preMain[0]: expected an object, found null",
                "error: s.json: preMain[1]: expected an object, found a number",
            ]
        ),
        (
            "null required key counts as missing", doc(#"{"id": "a", "cost": null}"#),
            ["error: s.json: tasks[0] (task 'a'): missing required key 'cost'"]
        ),
        (
            "wrong type", doc(#"{"id": "a", "cost": "8"}"#),
            ["error: s.json: tasks[0].cost (task 'a'): expected a number, found a string"]
        ),
        (
            "wrong type of bool", doc(#"{"id": "a", "cost": 1, "mainThreadOnly": 1}"#),
            ["error: s.json: tasks[0].mainThreadOnly (task 'a'): expected true or false, found a number"]
        ),
        ("empty id", doc(#"{"id": "", "cost": 1}"#), ["error: s.json: tasks[0].id: task id is empty"]),
        (
            "duplicate id", doc(#"{"id": "a", "cost": 1}, {"id": "a", "cost": 2}"#),
            ["error: s.json: tasks[1].id (task 'a'): duplicate task id 'a'; first defined at tasks[0]"]
        ),
        (
            "unknown dependency with a suggestion",
            doc(#"{"id": "crash-reporter", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["crash-reportr"]}"#),
            [
                "error: s.json: tasks[1].dependsOn[0] (task 'b'): unknown task 'crash-reportr'; did you mean 'crash-reporter'?"
            ]
        ),
        (
            "dependency listed twice", doc(#"{"id": "a", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["a", "a"]}"#),
            ["error: s.json: tasks[1].dependsOn[1] (task 'b'): 'a' is listed twice (also at dependsOn[0])"]
        ),
        (
            "self-dependency", doc(#"{"id": "a", "cost": 1, "dependsOn": ["a"]}"#),
            ["error: s.json: tasks[0].dependsOn[0] (task 'a'): the task depends on itself"]
        ),
        (
            "dependency that is not a string", doc(#"{"id": "a", "cost": 1, "dependsOn": [3]}"#),
            ["error: s.json: tasks[0].dependsOn[0] (task 'a'): expected a task id (a string), found a number"]
        ),
        (
            "a cycle, as a path in dependsOn direction",
            doc(
                #"{"id": "a", "cost": 1, "dependsOn": ["b"]}, {"id": "b", "cost": 1, "dependsOn": ["c"]}, {"id": "c", "cost": 1, "dependsOn": ["a"]}"#
            ),
            ["error: s.json: tasks[0].dependsOn (task 'a'): dependency cycle: a → b → c → a"]
        ),
        (
            "one cycle per group of tasks in a circle",
            doc(
                #"{"id": "a", "cost": 1, "dependsOn": ["b"]}, {"id": "b", "cost": 1, "dependsOn": ["a"]}, {"id": "c", "cost": 1, "dependsOn": ["d", "a"]}, {"id": "d", "cost": 1, "dependsOn": ["c"]}"#
            ),
            [
                "error: s.json: tasks[0].dependsOn (task 'a'): dependency cycle: a → b → a",
                "error: s.json: tasks[2].dependsOn (task 'c'): dependency cycle: c → d → c",
            ]
        ),
        (
            "negative cost", doc(#"{"id": "a", "cost": -1}"#),
            ["error: s.json: tasks[0].cost (task 'a'): must be between 0 and 3600000 ms, found -1"]
        ),
        (
            "cost over an hour", doc(#"{"id": "a", "cost": 3600000.5}"#),
            ["error: s.json: tasks[0].cost (task 'a'): must be between 0 and 3600000 ms, found 3600000.5"]
        ),
        (
            "a number beyond the double range", doc(#"{"id": "a", "cost": 1e400}"#),
            ["error: s.json: tasks[0].cost (task 'a'): number out of range (beyond the double range)"]
        ),
        (
            "negative commit cost", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"commitCost": -0.5},"#),
            ["error: s.json: device.commitCost: must be between 0 and 3600000 ms, found -0.5"]
        ),
        (
            "negative render time", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"renderTime": -2},"#),
            ["error: s.json: device.renderTime: must be between 0 and 3600000 ms, found -2"]
        ),
        (
            "negative pre-main cost",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""preMain": [{"name": "dyld", "cost": -3}],"#),
            ["error: s.json: preMain[0].cost: must be between 0 and 3600000 ms, found -3"]
        ),
        (
            "pre-main phase without a name", doc(#"{"id": "a", "cost": 1}"#, extra: #""preMain": [{"cost": 3}],"#),
            ["error: s.json: preMain[0]: missing required key 'name'"]
        ),
        (
            "non-integer priority", doc(#"{"id": "a", "cost": 1, "priority": 1.5}"#),
            ["error: s.json: tasks[0].priority (task 'a'): must be an integer, found 1.5"]
        ),
        (
            "negative priority", doc(#"{"id": "a", "cost": 1, "priority": -1}"#),
            ["error: s.json: tasks[0].priority (task 'a'): must be an integer between 0 and 1000000, found -1"]
        ),
        (
            "cores below 2", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"cores": 1},"#),
            ["error: s.json: device.cores: must be an integer between 2 and 1024, found 1"]
        ),
        (
            "refresh rate of 0", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"refreshRate": 0},"#),
            ["error: s.json: device.refreshRate: must be greater than 0 and at most 1000 (Hz), found 0"]
        ),
        (
            "refresh rate above 1000", doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"refreshRate": 1000.5},"#),
            ["error: s.json: device.refreshRate: must be greater than 0 and at most 1000 (Hz), found 1000.5"]
        ),
        (
            "a refresh rate so low the clock would overflow",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""device": {"refreshRate": 1e-15},"#),
            [
                "error: s.json: device.refreshRate: must be at least 1e-9 Hz (a frame every 31 years); a smaller rate overflows the microsecond clock, found 1e-15"
            ]
        ),
        (
            "firstFrame off the main thread", doc(#"{"id": "a", "cost": 1, "firstFrame": true}"#),
            [
                "error: s.json: tasks[0].firstFrame (task 'a'): a firstFrame task must be mainThreadOnly: only main-thread work puts pixels on screen (mark the main-thread task that shows the result)"
            ]
        ),
        (
            "costP90 below cost", doc(#"{"id": "a", "cost": 10, "costP90": 5}"#),
            ["error: s.json: tasks[0].costP90 (task 'a'): must be at least cost (10 ms), found 5 ms"]
        ),
        (
            "negative jitter", doc(#"{"id": "a", "cost": 1}"#, extra: #""jitter": -0.1,"#),
            ["error: s.json: jitter: must be at least 0, found -0.1"]
        ),
        (
            "unknown budget metric", doc(#"{"id": "a", "cost": 1}"#, extra: #""budgets": {"timeToFirstFrame": 5},"#),
            [
                "error: s.json: budgets.timeToFirstFrame: unknown metric 'timeToFirstFrame'; did you mean 'timeToFirstFrameMs'?"
            ]
        ),
        // v2 keys.
        (
            "negative latency", doc(#"{"id": "a", "cost": 1, "latency": -1}"#),
            ["error: s.json: tasks[0].latency (task 'a'): must be between 0 and 3600000 ms, found -1"]
        ),
        (
            "delay over an hour", doc(#"{"id": "a", "cost": 1, "delay": 3600001}"#),
            ["error: s.json: tasks[0].delay (task 'a'): must be between 0 and 3600000 ms, found 3600001"]
        ),
        (
            "latencyP90 below latency", doc(#"{"id": "a", "cost": 1, "latency": 300, "latencyP90": 200}"#),
            ["error: s.json: tasks[0].latencyP90 (task 'a'): must be at least latency (300 ms), found 200 ms"]
        ),
        (
            "empty queue name", doc(#"{"id": "a", "cost": 1, "queue": ""}"#),
            ["error: s.json: tasks[0].queue (task 'a'): queue name is empty"]
        ),
        (
            "a queue that is not a string", doc(#"{"id": "a", "cost": 1, "queue": 2}"#),
            ["error: s.json: tasks[0].queue (task 'a'): expected a string, found a number"]
        ),
        (
            "empty group name", doc(#"{"id": "a", "cost": 1, "group": ""}"#),
            ["error: s.json: tasks[0].group (task 'a'): group name is empty"]
        ),
        (
            "idle off the main thread", doc(#"{"id": "a", "cost": 1, "idle": true}"#),
            [
                "error: s.json: tasks[0].idle (task 'a'): an idle task must be mainThreadOnly: the run loop runs idle tasks on the main thread when it is about to sleep"
            ]
        ),
        (
            "anchor that is not a bool", doc(#"{"id": "a", "cost": 1, "anchor": "yes"}"#),
            ["error: s.json: tasks[0].anchor (task 'a'): expected true or false, found a string"]
        ),
        (
            "misspelt v2 task key", doc(#"{"id": "a", "cost": 1, "latncy": 5}"#),
            ["error: s.json: tasks[0].latncy (task 'a'): unknown key 'latncy'; did you mean 'latency'?"]
        ),
        // `before` (issue 26): advice only, validated like every key.
        (
            "before near miss", doc(#"{"id": "a", "cost": 1, "before": "firstframe"}"#),
            [
                "error: s.json: tasks[0].before (task 'a'): must be 'firstFrame' or 'launch', found 'firstframe'; did you mean 'firstFrame'?"
            ]
        ),
        (
            "before that is not a string", doc(#"{"id": "a", "cost": 1, "before": true}"#),
            ["error: s.json: tasks[0].before (task 'a'): expected a string, found a boolean"]
        ),
        (
            "before and after on one task", doc(#"{"id": "a", "cost": 1, "before": "launch", "after": "firstFrame"}"#),
            [
                "error: s.json: tasks[0].after (task 'a'): a task with \"before\": \"launch\" cannot wait for the first frame: it must be done before didFinishLaunching returns (remove 'after' or 'before')"
            ]
        ),
        (
            "a pinned task that needs an after task",
            doc(
                #"{"id": "log", "cost": 1, "after": "firstFrame"}, {"id": "lock", "cost": 1, "dependsOn": ["log"], "before": "firstFrame"}"#
            ),
            [
                "error: s.json: tasks[0].after (task 'log'): cannot wait for the first frame: 'lock' (\"before\": \"firstFrame\") must be done before the first frame and waits for this task through lock → log (remove 'after', 'before', or the dependency)"
            ]
        ),
        (
            "idleMode near miss", doc(#"{"id": "a", "cost": 1}"#, extra: #""idleMode": "onebyone","#),
            ["error: s.json: idleMode: must be 'batch' or 'oneByOne', found 'onebyone'; did you mean 'oneByOne'?"]
        ),
        (
            "idleMode far off", doc(#"{"id": "a", "cost": 1}"#, extra: #""idleMode": "lazy","#),
            ["error: s.json: idleMode: must be 'batch' or 'oneByOne', found 'lazy'"]
        ),
        (
            "idleMode that is not a string", doc(#"{"id": "a", "cost": 1}"#, extra: #""idleMode": 1,"#),
            ["error: s.json: idleMode: expected a string, found a number"]
        ),
        (
            "input without at and cost", doc(#"{"id": "a", "cost": 1}"#, extra: #""inputs": [{"name": "tap"}],"#),
            [
                "error: s.json: inputs[0]: missing required key 'at'",
                "error: s.json: inputs[0]: missing required key 'cost'",
            ]
        ),
        (
            "empty input name",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""inputs": [{"name": "", "at": 1, "cost": 1}],"#),
            ["error: s.json: inputs[0].name: input name is empty"]
        ),
        (
            "input that is not an object",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""inputs": [{"at": 1, "cost": 1}, 7],"#),
            ["error: s.json: inputs[1]: expected an object, found a number"]
        ),
        (
            "negative input time and a misspelt input key",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""inputs": [{"nam": "tap", "at": -5, "cost": 1}],"#),
            [
                "error: s.json: inputs[0].nam: unknown key 'nam'; did you mean 'name'?",
                "error: s.json: inputs[0].at: must be between 0 and 3600000 ms, found -5",
            ]
        ),
        (
            "inputs that is not an array", doc(#"{"id": "a", "cost": 1}"#, extra: #""inputs": {},"#),
            ["error: s.json: inputs: expected an array, found an object"]
        ),
        (
            "invalid UTF-8 is invalid JSON",
            "{\"name\": \"\u{FFFD}\", \"tasks\": []}".replacingOccurrences(of: "\u{FFFD}", with: "\\ud800"),
            ["error: s.json:1:11: invalid JSON: unpaired surrogate in \\u escape"]
        ),
        (
            "a budget beyond 1e12 (issue 19: it trapped when printed)",
            doc(#"{"id": "a", "cost": 1}"#, extra: #""budgets": {"timeToFirstFrameMs": 1e308},"#),
            ["error: s.json: budgets.timeToFirstFrameMs: must be between 0 and 1000000000000, found 1e+308"]
        ),
        // Issue 19: what a string may hold (shown in terminals, SVG, HTML, Markdown).
        (
            "control characters in ids and names (C0, DEL, C1)",
            #"{"name": "esc\u001bname", "tasks": [{"id": "bell\u0007id", "cost": 1, "queue": "q\u007f", "group": "\u0085"}], "inputs": [{"name": "t\rab", "at": 1, "cost": 1}]}"#,
            [
                "error: s.json: name: must not hold control characters, found U+001B at character 4",
                "error: s.json: tasks[0].id: must not hold control characters, found U+0007 at character 5",
                "error: s.json: tasks[0].queue: must not hold control characters, found U+007F at character 2",
                "error: s.json: tasks[0].group: must not hold control characters, found U+0085 at character 1",
                "error: s.json: inputs[0].name: must not hold control characters, found U+000D at character 2",
            ]
        ),
        (
            "line feeds and tabs are allowed (pictures break lines), carriage returns are not",
            doc(#"{"id": "a\nb\tc", "cost": 1}"#, extra: #""description": "one\n\ttwo\r","#),
            ["error: s.json: description: must not hold control characters, found U+000D at character 9"]
        ),
        (
            "an id of 4097 characters", doc(#"{"id": "\#(String(repeating: "é", count: 4097))", "cost": 1}"#),
            ["error: s.json: tasks[0].id: must be at most 4096 characters long, found 4097 characters"]
        ),
        (
            "a name too long to decode, and a dependency no id can match",
            #"{"name": "\#(String(repeating: "n", count: 60_000))", "tasks": [{"id": "a", "cost": 1, "dependsOn": ["\#(String(repeating: "d", count: 50_000))"]}]}"#,
            [
                "error: s.json: name: must be at most 4096 characters long, found a string of 60002 bytes",
                "error: s.json: tasks[0].dependsOn[0] (task 'a'): must be at most 4096 characters long, found a string of 50002 bytes (no task id is)",
            ]
        ),
    ]

    @Test(arguments: rules.indices)
    func ruleIsReportedWithItsMessage(_ k: Int) {
        let rule = Self.rules[k]
        #expect(problems(rule.json) == rule.expected, "\(rule.name)")
    }

    /// A key is scanned in place (not made a string) but checked as a string value is.
    @Test func keyWithInvalidUTF8IsInvalidJSON() {
        var bytes = Array(#"{"name": "x", "nXme": 1, "tasks": []}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0xFF
        do {
            _ = try ScenarioLoader.decode(bytes, file: "s.json")
            Issue.record("decoded")
        } catch {
            #expect(error.problems.map(\.description) == ["error: s.json:1:16: invalid JSON: invalid UTF-8 in string"])
        }
    }

    @Test func deeplyNestedJSONIsAnErrorNotACrash() {
        let deep =
            #"{"name": "x", "extra": "# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}"
        #expect(problems(deep) == ["error: s.json:1:535: invalid JSON: nested more than 512 levels deep"])
    }

    @Test func everyProblemIsListedAtOnce() {
        let json = Self.doc(
            #"{"id": "a", "cost": -1, "dependsOn": ["zz"]}, {"id": "a", "cost": 1, "priority": 0.5}"#,
            extra: #""device": {"cores": 1, "refreshRate": 2000},"#)
        #expect(problems(json).count == 6)
    }

    @Test func nullOptionalKeysCountAsAbsent() throws {
        let s = try scenario(
            #"""
            {"name": "x", "description": null, "device": {"cores": null, "refreshRate": null},
             "preMain": null, "tasks": [{"id": "a", "cost": 1, "priority": null, "dependsOn": null, "mainThreadOnly": null}]}
            """#)
        #expect(s.device == Device())
        #expect(s.tasks[0].priority == 0 && s.tasks[0].dependsOn.isEmpty && !s.tasks[0].mainThreadOnly)
    }

    @Test func v2KeysAreReadIntoTheModel() throws {
        let s = try scenario(
            #"""
            {"name": "x", "idleMode": "oneByOne",
             "inputs": [{"at": 500, "cost": 20}, {"name": "scroll", "at": 600.5, "cost": 3}, {"name": "scroll", "at": 0, "cost": 0}],
             "tasks": [{"id": "a", "cost": 1, "latency": 300, "latencyP90": 900, "delay": 2.5, "queue": "alerts",
                        "anchor": true, "group": "Auth"},
                       {"id": "b", "cost": 1, "mainThreadOnly": true, "idle": true, "queue": null, "group": null}]}
            """#)
        #expect(s.idleMode == .oneByOne)
        #expect(
            s.inputs == [
                UserInput(name: "input-1", at: 500_000, cost: 20_000),
                UserInput(name: "scroll", at: 600_500, cost: 3000),
                UserInput(name: "scroll", at: 0, cost: 0),
            ])
        #expect(
            s.tasks[0]
                == LaunchTask(
                    id: "a", cost: 1000, latency: 300_000, delay: 2500, queue: "alerts", anchor: true, group: "Auth",
                    latencyP90: 900_000))
        #expect(s.tasks[1] == LaunchTask(id: "b", cost: 1000, mainThreadOnly: true, idle: true))
    }

    @Test func v2KeysDefaultToTheV1Launch() throws {
        let s = try scenario(#"{"name": "x", "idleMode": null, "inputs": null, "tasks": [{"id": "a", "cost": 1}]}"#)
        #expect(s.idleMode == .batch && s.inputs.isEmpty)
        #expect(s.tasks[0] == LaunchTask(id: "a", cost: 1000))
    }

    @Test func integersMayBeWrittenWithAFraction() throws {
        let s = try scenario(
            #"{"name": "x", "device": {"cores": 4.0}, "tasks": [{"id": "a", "cost": 1, "priority": 2e1}]}"#)
        #expect(s.device.cores == 4 && s.tasks[0].priority == 20)
    }

    @Test func millisecondsRoundHalfAwayFromZeroToMicroseconds() throws {
        let s = try scenario(
            #"{"name": "x", "tasks": [{"id": "a", "cost": 0.0005}, {"id": "b", "cost": 1.2345}, {"id": "c", "cost": 16.6667}]}"#
        )
        #expect(s.tasks.map(\.cost) == [1, microseconds(fromMilliseconds: 1.2345), 16667])
        #expect(Device(refreshRate: 60).frameInterval == 16667)
        #expect(Device(refreshRate: 120).frameInterval == 8333)
    }

    @Test func idsCompareAsSwiftStrings() throws {
        // "é" precomposed and decomposed are the same Swift string.
        let s = try scenario(
            #"{"name": "x", "tasks": [{"id": "caf\u00e9", "cost": 1}, {"id": "b", "cost": 1, "dependsOn": ["cafe\u0301"]}]}"#
        )
        #expect(s.tasks[1].dependsOn == [0])
        #expect(problems(#"{"name": "x", "tasks": [{"id": "A", "cost": 1}, {"id": "a", "cost": 1}]}"#).isEmpty)
    }

    @Test func unicodeEscapesAndSurrogatePairsDecode() throws {
        let s = try scenario(#"{"name": "\ud83d\ude80 \"rocket\"", "tasks": [{"id": "a\u0041\/b", "cost": 1}]}"#)
        #expect(s.name == "🚀 \"rocket\"" && s.tasks[0].id == "aA/b")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(
            problems("{\"name\": \"éé\" x}") == [
                "error: s.json:1:15: invalid JSON: expected ',' or '}' after an object member"
            ])
    }
}
