import Foundation
import Testing

@testable import LaunchflowCore

/// MODEL.md §7.4 (docs/model.md §3.13): performance and efficiency cores and a
/// task's QoS. The contract's examples D1–D3, hand-derived cases of our own
/// (the derivations beside them), the validation table, the writer, and the
/// rule that without clusters nothing changes (the golden metrics and the
/// hand-worked fixtures, none of which has clusters, hold that).
///
/// Expected runs are `[thread, ready, start, end]` in µs, thread 0 for `main`
/// and k for `worker-k`; 1000 Hz (a vsync every millisecond).
struct ClusterTests {
    static let ms = 1000
    static let pe = #""clusters":[{"name":"P","count":1,"speed":1},{"name":"E","count":1,"speed":0.5}]"#

    static func run(_ tasks: String, device: String = pe, cores: Int? = 3) throws -> SimulationResult {
        let coresKey = cores.map { #""cores":\#($0),"# } ?? ""
        return try ContentionTests.run(
            #"{"name":"c","device":{\#(coresKey)"refreshRate":1000,\#(device)},"tasks":[\#(tasks)]}"#)
    }

    // MARK: The contract's examples

    /// D1: `a` (userInitiated) takes P, `b` (utility) E at ½; at 4 `a` ends and
    /// `b`, 2 ms left, takes P: `a` 0–4, `b` 0–6.
    @Test func d1ASlowerClassTakesTheSlowerCore() throws {
        let result = try Self.run(
            #"{"id":"a","cost":4,"qos":"userInitiated"},{"id":"b","cost":4,"qos":"utility"}"#)
        ContentionTests.expectRuns(result, ["a": [1, 0, 0, 4 * Self.ms], "b": [2, 0, 0, 6 * Self.ms]])
        // Work 8 ms over K = 1.5 cores × 6 ms; the third bound term ⌈8000 / 1.5⌉ = 5334 µs.
        #expect(abs(result.metrics.cpuUtilization - 8.0 / 9.0) < 1e-9)
        #expect(result.metrics.lowerBound == 5334)
    }

    /// D2: `b` at background may use E only, even when P is free: `b` 0–8.
    @Test func d2BackgroundStaysOnTheSlowestCluster() throws {
        let result = try Self.run(
            #"{"id":"a","cost":4,"qos":"userInitiated"},{"id":"b","cost":4,"qos":"background"}"#)
        ContentionTests.expectRuns(result, ["a": [1, 0, 0, 4 * Self.ms], "b": [2, 0, 0, 8 * Self.ms]])
    }

    /// D3: the main thread's `m` takes P; `w1`, `w2` (default) share E at ¼
    /// each (1 ms of work by 4); from 4 `w1` takes P, `w2` E; `w1` ends at 7,
    /// `w2` (1.5 ms left) takes P and ends at 8.5. First frame 4.
    @Test func d3TheMainThreadComesFirst() throws {
        let result = try Self.run(
            #"{"id":"m","cost":4,"mainThreadOnly":true,"firstFrame":true},{"id":"w1","cost":4},{"id":"w2","cost":4}"#
        )
        ContentionTests.expectRuns(
            result,
            ["m": [0, 0, 0, 4 * Self.ms], "w1": [1, 0, 0, 7 * Self.ms], "w2": [2, 0, 0, 8 * Self.ms + 500]])
        #expect(result.metrics.timeToFirstFrame == 4 * Self.ms)
        #expect(result.metrics.launchComplete == 8 * Self.ms + 500)
    }

    // MARK: Our own cases

    /// A userInteractive worker is in the main thread's class: `m` takes P,
    /// `u` the next core, E (½); at 4 `m` ends and `u`, 2 ms left, takes P: 0–6.
    @Test func aUserInteractiveWorkerTakesTheCoreAfterTheMainThreads() throws {
        let result = try Self.run(
            #"{"id":"m","cost":4,"mainThreadOnly":true},{"id":"u","cost":4,"qos":"userInteractive"}"#)
        ContentionTests.expectRuns(result, ["m": [0, 0, 0, 4 * Self.ms], "u": [1, 0, 0, 6 * Self.ms]])
    }

    /// Two background tasks share the one E core while P stays idle: each
    /// runs at the class's cores' speeds (½) over its 2 items, ¼: 0–16.
    @Test func backgroundTasksShareTheSlowCoreWhileTheFastOneIdles() throws {
        let result = try Self.run(
            #"{"id":"b1","cost":4,"qos":"background"},{"id":"b2","cost":4,"qos":"background"}"#)
        ContentionTests.expectRuns(result, ["b1": [1, 0, 0, 16 * Self.ms], "b2": [2, 0, 0, 16 * Self.ms]])
    }

    /// Thousandths: E at 0.333. `a` on P 0–2; `b` on E does ⌊2000 × 333 / 1000⌋
    /// = 666 µs by 2, then takes P with 334 left: 0–2.334. K = 1.333.
    @Test func speedsAreExactThousandths() throws {
        let result = try Self.run(
            #"{"id":"a","cost":2,"qos":"userInitiated"},{"id":"b","cost":1,"qos":"utility"}"#,
            device: #""clusters":[{"name":"P","count":1,"speed":1},{"name":"E","count":1,"speed":0.333}]"#)
        ContentionTests.expectRuns(result, ["a": [1, 0, 0, 2 * Self.ms], "b": [2, 0, 0, 2334]])
        #expect(abs(result.metrics.cpuUtilization - 3000.0 / (1.333 * 2334)) < 1e-9)
    }

    /// Without `cores`, the threads are max(2, the clusters' cores): 2 P + 4 E gives 6.
    @Test func coresDefaultToTheClustersCount() throws {
        let six = try scenario(
            #"{"name":"c","device":{"clusters":[{"name":"P","count":2,"speed":1},{"name":"E","count":4,"speed":0.5}]},"tasks":[{"id":"a","cost":1}]}"#
        )
        #expect(six.device.cores == 6)
        let one = try scenario(
            #"{"name":"c","device":{"clusters":[{"name":"P","count":1,"speed":1}]},"tasks":[{"id":"a","cost":1}]}"#)
        #expect(one.device.cores == 2)
        let given = try scenario(
            #"{"name":"c","device":{"cores":3,"clusters":[{"name":"P","count":2,"speed":1},{"name":"E","count":4,"speed":0.5}]},"tasks":[{"id":"a","cost":1}]}"#
        )
        #expect(given.device.cores == 3)
    }

    /// One speed-1 cluster with a core per thread is the device without clusters.
    @Test func oneFullSpeedCorePerThreadChangesNothing() throws {
        let tasks =
            #"{"id":"a","cost":3},{"id":"m","cost":2,"mainThreadOnly":true,"dependsOn":["a"]},{"id":"b","cost":5,"qos":"background"}"#
        let plain = try ContentionTests.run(
            #"{"name":"c","device":{"cores":3,"refreshRate":1000},"tasks":[\#(tasks)]}"#)
        let clustered = try Self.run(tasks, device: #""clusters":[{"name":"P","count":3,"speed":1}]"#)
        #expect(plain.schedule.tasks == clustered.schedule.tasks)
        #expect(plain.schedule.commits == clustered.schedule.commits)
        #expect(plain.metrics == clustered.metrics)
    }

    // MARK: Validation and writing

    @Test(arguments: [
        (#""cpus":2,\#(pe)"#, "device.cpus: cpus and clusters cannot be used together"),
        (#""clusters":[]"#, "device.clusters: clusters is empty"),
        (
            #""clusters":[{"name":"P","count":1,"speed":0.5}]"#,
            "device.clusters: no cluster has speed 1: costs are times on the fastest core"
        ),
        (
            #""clusters":[{"name":"P","count":1,"speed":1},{"name":"P","count":1,"speed":0.5}]"#,
            "device.clusters[1].name: cluster 'P' is declared twice (first at device.clusters[0])"
        ),
        (
            #""clusters":[{"name":"P","count":0,"speed":1}]"#,
            "device.clusters[0].count: must be an integer between 1 and 1024, found 0"
        ),
        (
            #""clusters":[{"name":"P","count":1,"speed":1},{"name":"E","count":1,"speed":0.3333}]"#,
            "device.clusters[1].speed: must have at most 3 decimals (thousandths of a speed-1 core), found 0.3333"
        ),
        (
            #""clusters":[{"name":"P","count":1,"speed":1},{"name":"E","count":1,"speed":0.0000000001}]"#,
            "device.clusters[1].speed: must be at least 0.001"
        ),
        (
            #""clusters":[{"name":"P","count":1,"speed":1.5}]"#,
            "device.clusters[0].speed: must be greater than 0 and at most 1, found 1.5"
        ),
        (#""clusters":[{"name":"","count":1,"speed":1}]"#, "device.clusters[0].name: cluster name is empty"),
        (#""clusters":[{"name":"P","speed":1}]"#, "device.clusters[0]: missing required key 'count'"),
        (
            #""clusters":[{"name":"P","count":1,"sped":1}]"#,
            "device.clusters[0].sped: unknown key 'sped'; did you mean 'speed'?"
        ),
        (
            #""clusters":[{"name":"P","count":1000,"speed":1},{"name":"E","count":100,"speed":0.5}]"#,
            "device.clusters: the clusters hold 1100 cores, and without device.cores each would get a thread: at most 1024"
        ),
    ])
    func badClustersAreRejected(_ device: String, _ message: String) {
        let found = problems(#"{"name":"x","device":{\#(device)},"tasks":[{"id":"a","cost":1}]}"#)
        #expect(found.contains { $0.contains("s.json: \(message)") }, "\(found)")
    }

    @Test func aQoSTypoIsRejectedWithTheNameMeant() {
        let found = problems(#"{"name":"x","tasks":[{"id":"a","cost":1,"qos":"utilty"}]}"#)
        #expect(
            found.contains {
                $0.contains(
                    "tasks[0].qos (task 'a'): must be 'userInteractive' or 'userInitiated' or 'default' or 'utility' or 'background', found 'utilty'; did you mean 'utility'?"
                )
            }, "\(found)")
    }

    /// Built in code, the same rules.
    @Test func theRulesHoldForScenariosBuiltInCode() {
        #expect(throws: ScenarioError.self) {
            try Scenario(
                name: "x", device: Device(cores: 3, cpus: 2, clusters: [CoreCluster(name: "P", count: 1, speed: 1)]),
                tasks: [LaunchTask(id: "a", cost: 1)])
        }
        #expect(throws: ScenarioError.self) {
            try Scenario(
                name: "x", device: Device(cores: 3, clusters: [CoreCluster(name: "E", count: 1, speed: 0.5)]),
                tasks: [LaunchTask(id: "a", cost: 1)])
        }
    }

    @Test func theKeysAreWrittenOnlyWhenSetAndReadBack() throws {
        let plain = try scenario(#"{"name":"p","tasks":[{"id":"a","cost":1}]}"#)
        let plainText = String(decoding: plain.jsonBytes(), as: UTF8.self)
        #expect(!plainText.contains("clusters") && !plainText.contains("qos"))
        let set = try scenario(
            #"{"name":"s","device":{"cores":3,\#(Self.pe)},"tasks":[{"id":"a","cost":1,"qos":"background"}]}"#)
        let text = String(decoding: set.jsonBytes(), as: UTF8.self)
        #expect(
            text.contains(
                #""clusters": [{ "name": "P", "count": 1, "speed": 1 }, { "name": "E", "count": 1, "speed": 0.5 }]"#),
            "\(text)")
        let again = try ScenarioLoader.decode(set.jsonBytes(), file: "again.json")
        #expect(again.device == set.device)
        #expect(again.tasks[0].qos == .background)
    }

    // MARK: Presets

    /// A preset fills in the clusters, the refresh rate and the threads where the device gives none.
    @Test func aPresetFillsInWhatTheDeviceDoesNotSay() throws {
        let pixel = try scenario(#"{"name":"p","device":{"preset":"pixel-6"},"tasks":[{"id":"a","cost":1}]}"#)
        #expect(pixel.device.clusters.map(\.name) == ["X1", "A76", "A55"])
        #expect(pixel.device.clusters.map(\.speedThousandths) == [1000, 486, 157])
        #expect(pixel.device.refreshRate == 90 && pixel.device.cores == 8)
        let own = try scenario(
            #"{"name":"p","device":{"preset":"iphone-16-pro","refreshRate":60,"cores":4},"tasks":[{"id":"a","cost":1}]}"#
        )
        #expect(own.device.refreshRate == 60 && own.device.cores == 4)
        #expect(own.device.clusters == DevicePreset.iphone16Pro.clusters)
        // Written and read back: the same device.
        let again = try ScenarioLoader.decode(own.jsonBytes(), file: "again.json")
        #expect(again.device == own.device)
        let typo = problems(#"{"name":"p","device":{"preset":"pixel6"},"tasks":[{"id":"a","cost":1}]}"#)
        #expect(
            typo.contains { $0.contains("device.preset: must be") && $0.contains("did you mean 'pixel-6'?") }, "\(typo)"
        )
        let withCPUs = problems(#"{"name":"p","device":{"preset":"pixel-6","cpus":2},"tasks":[{"id":"a","cost":1}]}"#)
        #expect(withCPUs.contains { $0.contains("device.cpus: cpus cannot be used with a preset") }, "\(withCPUs)")
    }

    /// Every preset is a valid device whose fastest cluster has speed 1.
    @Test(arguments: DevicePreset.allCases)
    func everyPresetIsAValidDevice(_ preset: DevicePreset) throws {
        let device = preset.applied(to: Device())
        let scenario = try Scenario(name: "p", device: device, tasks: [LaunchTask(id: "a", cost: 1)])
        #expect(scenario.device.clusters.first?.speedThousandths == 1000)
        #expect(scenario.device.cores == preset.clusters.reduce(0) { $0 + $1.count })
    }
}

/// `compare --device NAME` runs the scenario on that phone and says so.
@Test func compareRunsOnADevice() throws {
    let out = Launchflow.runInProcess(["compare", "scenarios/article.json", "--device", "iphone-16-pro"])
    #expect(out.status == 0)
    #expect(
        out.stdout.contains("Cores: 2 P (speed 1) + 4 E (speed 0.5) for 6 threads (device.clusters)"), "\(out.stdout)")
    let plain = Launchflow.runInProcess(["compare", "scenarios/article.json"])
    #expect(!plain.stdout.contains("Cores:"))
    let typo = Launchflow.runInProcess(["compare", "scenarios/article.json", "--device", "iphone16"])
    #expect(typo.status == 2 && typo.stderr.contains("did you mean 'iphone-16'?"), "\(typo.stderr)")
}
