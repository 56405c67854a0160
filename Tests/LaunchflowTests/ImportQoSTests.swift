import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// (§3.13) `import` reads a task's `qos` back where the trace says it — a
/// suggestion, never a guess: launchflow's traces (the simulator's and the
/// runtime's) give it as the task slice's `qos` arg (absent: `default`); a
/// task whose slices say different things, or something that is not a QoS,
/// gets none, with a note. Traces without a record of QoS give none (no
/// reader sets it: Instruments' and Perfetto's thread priorities are not a QoS).
struct ImportQoSTests {
    static func imported(_ text: String, in folder: TemporaryFolder) throws -> (Scenario, ImportLog) {
        let path = folder.path("qos-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let outcome = try TraceImport.run(ImportRequest(traces: [path]))
        return (try ScenarioLoader.decode(outcome.scenario, file: "imported.json"), outcome.log)
    }

    static func task(
        _ id: String, tid: Int, ts: Int, qos: String? = nil, main: Bool = false
    ) -> String {
        let qosArg = qos.map { ", \"qos\": \"\($0)\"" } ?? ""
        return """
            {"name": "\(id)", "cat": "task", "ph": "X", "pid": 1, "tid": \(tid), "ts": \(ts), "dur": 1000, \
            "args": {"id": "\(id)", "priority": 0, "mainThreadOnly": \(main), "firstFrame": false, \
            "dependsOn": []\(qosArg)}}
            """
    }

    /// A launchflow trace (`otherData.generator`) written by hand, not by TraceExport: each task's
    /// slice says its qos, or nothing (`default`); `twice` has two slices that
    /// disagree and `odd` a value that is no QoS — neither gets one.
    @Test func launchflowTraceSlicesGiveQoSOnlyWhenTheyAgree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let events = [
            #"{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}"#,
            #"{"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "worker-1"}}"#,
            Self.task("bg", tid: 2, ts: 0, qos: "background"),
            Self.task("plain", tid: 2, ts: 2000),
            Self.task("twice", tid: 2, ts: 4000, qos: "utility"),
            Self.task("twice", tid: 2, ts: 6000, qos: "background"),
            Self.task("same", tid: 2, ts: 8000, qos: "userInitiated"),
            Self.task("same", tid: 2, ts: 10000, qos: "userInitiated"),
            Self.task("odd", tid: 2, ts: 12000, qos: "urgent"),
        ]
        let (scenario, log) = try Self.imported(
            "{\"traceEvents\": [\n" + events.joined(separator: ",\n")
                + "\n], \"otherData\": {\"generator\": \"launchflow\"}}", in: folder)
        let qos = Dictionary(uniqueKeysWithValues: scenario.tasks.map { ($0.id, $0.qos) })
        #expect(
            qos == ["bg": .background, "plain": .default, "twice": .default, "same": .userInitiated, "odd": .default])
        let notes = log.diagnostics.map(\.message).filter { $0.contains("do not all say one qos") }
        #expect(notes.count == 2, "\(log.diagnostics.map(\.message))")
        #expect(notes.contains { $0.contains("'twice'") } && notes.contains { $0.contains("'odd'") })
    }

    /// simulate's trace gives each task's qos (other than default), and import keeps it.
    @Test func simulatedTraceRoundTripsQoS() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try ScenarioLoader.load(
            path: repositoryRoot.appendingPathComponent("scenarios/qos-cores.json").path)
        let trace = String(decoding: TraceExport.json(SimulationResult(scenario, strategy: .dag)), as: UTF8.self)
        #expect(trace.contains("\"qos\": \"background\""))
        let (back, _) = try Self.imported(trace, in: folder)
        let qos = Dictionary(uniqueKeysWithValues: back.tasks.map { ($0.id, $0.qos) })
        #expect(qos == Dictionary(uniqueKeysWithValues: scenario.tasks.map { ($0.id, $0.qos) }))
        #expect(scenario.tasks.contains { $0.qos != .default })
    }
}
