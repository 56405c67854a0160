import Testing

@testable import LaunchflowCore

/// Scenarios built in code are checked as files are: the same rules, the same
/// messages (without a file name), every problem at once.
struct ScenarioBuildingTests {
    static func task(
        _ id: String, _ ms: Int = 1, main: Bool = false, priority: Int = 0, deps: [Int] = [], first: Bool = false
    ) -> LaunchTask {
        LaunchTask(
            id: id, cost: ms * 1000, mainThreadOnly: main, priority: priority, dependsOn: deps, firstFrame: first)
    }

    static func problems(_ build: () throws(ScenarioError) -> Scenario) -> [String] {
        do {
            _ = try build()
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    static let rules: [(name: String, build: @Sendable () throws(ScenarioError) -> Scenario, expected: [String])] = [
        (
            "a dependency cycle (it used to stop the simulator at a precondition)",
            { () throws(ScenarioError) in try Scenario(name: "x", tasks: [task("a", deps: [1]), task("b", deps: [0])])
            },
            ["error: tasks[0].dependsOn (task 'a'): dependency cycle: a → b → a"]
        ),
        (
            "a priority above the radix sort's range",
            { () throws(ScenarioError) in try Scenario(name: "x", tasks: [task("a", priority: 1_000_001)]) },
            ["error: tasks[0].priority (task 'a'): must be an integer between 0 and 1000000, found 1000001"]
        ),
        (
            "a negative priority",
            { () throws(ScenarioError) in try Scenario(name: "x", tasks: [task("a", priority: -1)]) },
            ["error: tasks[0].priority (task 'a'): must be an integer between 0 and 1000000, found -1"]
        ),
        (
            "a negative cost and one over an hour",
            { () throws(ScenarioError) in
                try Scenario(
                    name: "x",
                    tasks: [LaunchTask(id: "a", cost: -1), LaunchTask(id: "b", cost: 3_600_000_001, latency: 1)])
            },
            [
                "error: tasks[0].cost (task 'a'): must be between 0 and 3600000 ms, found -0.001",
                "error: tasks[1].cost (task 'b'): must be between 0 and 3600000 ms, found 3600000.001",
            ]
        ),
        (
            "a dependency index out of range, one listed twice, the task itself",
            { () throws(ScenarioError) in
                try Scenario(name: "x", tasks: [task("a"), task("b", deps: [0, 5, 0, 1])])
            },
            [
                "error: tasks[1].dependsOn[1] (task 'b'): no task at index 5 (there are 2 tasks)",
                "error: tasks[1].dependsOn[2] (task 'b'): 'a' is listed twice (also at dependsOn[0])",
                "error: tasks[1].dependsOn[3] (task 'b'): the task depends on itself",
            ]
        ),
        (
            "duplicate and empty ids",
            { () throws(ScenarioError) in try Scenario(name: "x", tasks: [task("a"), task("a"), task("")]) },
            [
                "error: tasks[1].id (task 'a'): duplicate task id 'a'; first defined at tasks[0]",
                "error: tasks[2].id: task id is empty",
            ]
        ),
        (
            "no tasks", { () throws(ScenarioError) in try Scenario(name: "x", tasks: []) },
            ["error: tasks: the scenario has no tasks"]
        ),
        (
            "first-frame and idle tasks off the main thread, empty queue and group",
            { () throws(ScenarioError) in
                try Scenario(
                    name: "x",
                    tasks: [
                        task("a", first: true),
                        LaunchTask(
                            id: "b", cost: 0, queue: "", idle: true, group: "", latencyP90: 1),
                    ])
            },
            [
                "error: tasks[0].firstFrame (task 'a'): a firstFrame task must be mainThreadOnly: only main-thread work puts pixels on screen (mark the main-thread task that shows the result)",
                "error: tasks[1].idle (task 'b'): an idle task must be mainThreadOnly: the run loop runs idle tasks on the main thread when it is about to sleep",
                "error: tasks[1].queue (task 'b'): queue name is empty",
                "error: tasks[1].group (task 'b'): group name is empty",
            ]
        ),
        (
            "the device, pre-main, budgets, jitter and inputs",
            { () throws(ScenarioError) in
                try Scenario(
                    name: "x", device: Device(cores: 1, refreshRate: .nan, commitCost: -5),
                    preMain: [PreMainPhase(name: "dyld", cost: -1)], tasks: [task("a")],
                    budgets: [Budget(metric: .timeToFirstFrameMs, limit: 1), Budget(metric: .frames, limit: -1)],
                    jitter: -0.5, inputs: [UserInput(name: "", at: -1, cost: 0)])
            },
            [
                "error: jitter: must be at least 0, found -0.5",
                "error: device.cores: must be an integer between 2 and 1024, found 1",
                "error: device.refreshRate: number out of range (beyond the double range)",
                "error: device.commitCost: must be between 0 and 3600000 ms, found -0.005",
                "error: preMain[0].cost: must be between 0 and 3600000 ms, found -0.001",
                "error: budgets.frames: must be between 0 and 1000000000000, found -1",
                "error: inputs[0].name: input name is empty",
                "error: inputs[0].at: must be between 0 and 3600000 ms, found -0.001",
            ]
        ),
    ]

    @Test(arguments: rules.indices)
    func ruleIsReportedWithItsMessage(_ k: Int) {
        #expect(Self.problems(Self.rules[k].build) == Self.rules[k].expected, "\(Self.rules[k].name)")
    }

    /// The same broken launch as a file and in code: the same lines, but for the file name.
    @Test func codeAndFileGiveTheSameProblems() {
        let json = #"""
            {"name": "x", "device": {"cores": 1}, "tasks": [
              {"id": "a", "cost": 1, "priority": -2, "dependsOn": ["c"]},
              {"id": "b", "cost": 1, "firstFrame": true, "dependsOn": ["b"]},
              {"id": "c", "cost": 1, "dependsOn": ["a"], "latency": 5, "latencyP90": 4}
            ]}
            """#
        let inCode = Self.problems { () throws(ScenarioError) in
            try Scenario(
                name: "x", device: Device(cores: 1),
                tasks: [
                    Self.task("a", priority: -2, deps: [2]), Self.task("b", deps: [1], first: true),
                    LaunchTask(id: "c", cost: 1000, dependsOn: [0], latency: 5000, latencyP90: 4000),
                ])
        }
        let fromFile = LaunchflowTests.problems(json).map {
            $0.replacingOccurrences(of: "error: s.json: ", with: "error: ")
        }
        #expect(inCode == fromFile)
        #expect(inCode.count == 6)
    }

    @Test func aValidScenarioIsBuilt() throws {
        let s = try Scenario(
            name: "app", tasks: [Self.task("net", 8), Self.task("ui", 30, main: true, deps: [0], first: true)])
        #expect(s.tasks.count == 2 && s.tasks[1].dependsOn == [0])
    }

    @Test func randomScenariosWithImpossibleSettingsAreRejected() {
        var generator = RandomScenario(taskCount: 3)
        generator.cores = 1...1
        #expect(throws: ScenarioError.self) { try generator.make(seed: 1) }
        #expect(throws: ScenarioError.self) { try RandomScenario(taskCount: 0).make(seed: 1) }
    }
}
