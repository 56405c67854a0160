import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// `device.cpus` from a trace: import sets it from a record of the CPU count
/// that is a fact of the trace (Perfetto's `CpuInfo` / `SystemInfo.num_cpus`,
/// Chrome's `metadata.num-cpus`, atrace's `#P:` header), never from the CPUs
/// events were merely seen on (a lower bound, noted); an out-of-range count
/// or records that disagree leave it unset with a warning.
struct ImportCPUsTests {
    struct Result {
        var cpus: Int?
        var summary: String
        var log: ImportLog
        func has(_ severity: ImportDiagnostic.Severity, _ text: String) -> Bool {
            log.diagnostics.contains { $0.severity == severity && $0.message.contains(text) }
        }
    }

    static func run(_ path: String) throws -> Result {
        let outcome = try TraceImport.run(ImportRequest(traces: [path]))
        let scenario = try ScenarioLoader.decode(outcome.scenario, file: "imported.json")
        return Result(cpus: scenario.device.cpus, summary: outcome.summary, log: outcome.log)
    }

    static func write(_ text: String, _ name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: Perfetto (written with the official protos)

    static func perfetto(cpuInfo: Int?, numCpus: Int?, schedCPU: Int? = nil, in folder: TemporaryFolder) throws
        -> Result
    {
        var schedule = PerfettoWriter.Schedule.random(seed: 7, form: .trackevent, taskCount: 6)
        schedule.cpuInfo = cpuInfo
        schedule.numCpus = numCpus
        if let schedCPU {
            let tid = schedule.threads[0].tid
            schedule.sched = [(tid: tid, cpu: schedCPU, changes: [.init(time: 0, state: "running")])]
        }
        let path = folder.path("cpus-\(UUID().uuidString).pftrace")
        try PerfettoWriter.write(schedule, to: [path], in: folder)
        return try run(path)
    }

    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func perfettoCpuInfoAndSystemInfoGiveDeviceCpus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let info = try Self.perfetto(cpuInfo: 6, numCpus: nil, in: folder)
        #expect(info.cpus == 6)
        #expect(info.summary.contains("device.cpus 6 (the CpuInfo packet of "), "\(info.summary)")
        let system = try Self.perfetto(cpuInfo: nil, numCpus: 4, in: folder)
        #expect(system.cpus == 4)
        #expect(system.summary.contains("device.cpus 4 (SystemInfo.num_cpus of "), "\(system.summary)")
        let both = try Self.perfetto(cpuInfo: 8, numCpus: 8, in: folder)
        #expect(both.cpus == 8)
        #expect(!both.has(.warning, "CPU"))
        let none = try Self.perfetto(cpuInfo: nil, numCpus: nil, in: folder)
        #expect(none.cpus == nil)
        #expect(!none.summary.contains("device.cpus"))
    }

    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func perfettoConflictingOrAbsurdCountsLeaveCpusUnsetWithAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let conflict = try Self.perfetto(cpuInfo: 8, numCpus: 4, in: folder)
        #expect(conflict.cpus == nil)
        #expect(conflict.has(.warning, "CPU counts disagree (the CpuInfo packet: 8, SystemInfo.num_cpus: 4)"))
        let zero = try Self.perfetto(cpuInfo: nil, numCpus: 0, in: folder)
        #expect(zero.cpus == nil)
        #expect(zero.has(.warning, "SystemInfo.num_cpus gives 0 CPUs, outside 1…1024: ignored"))
        // An absurd record is ignored; a valid one beside it still counts.
        let absurd = try Self.perfetto(cpuInfo: 2, numCpus: 5000, in: folder)
        #expect(absurd.cpus == 2)
        #expect(absurd.has(.warning, "SystemInfo.num_cpus gives 5000 CPUs"))
    }

    @Test(.enabled(if: PerfettoWriter.isAvailable, Comment(rawValue: PerfettoWriter.unavailable)))
    func perfettoCPUsSeenAreALowerBoundOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // sched events on CPU 5 and no record: noted (6 CPUs seen), not set.
        let seen = try Self.perfetto(cpuInfo: nil, numCpus: nil, schedCPU: 5, in: folder)
        #expect(seen.cpus == nil)
        #expect(seen.has(.note, "records no CPU count; its events ran on 6 CPUs"))
        // A record below the CPUs seen: kept, with a warning.
        let low = try Self.perfetto(cpuInfo: 4, numCpus: nil, schedCPU: 5, in: folder)
        #expect(low.cpus == 4)
        #expect(low.has(.warning, "gives 4 CPUs but events ran on CPU 5"))
    }

    // MARK: Chrome JSON

    static let chromeEvents = """
        [{"name": "process_name", "ph": "M", "pid": 10, "tid": 10, "args": {"name": "app"}},
         {"name": "a", "ph": "X", "pid": 10, "tid": 10, "ts": 0, "dur": 1000},
         {"name": "b", "ph": "X", "pid": 10, "tid": 11, "ts": 100, "dur": 2000}]
        """

    @Test(
        arguments: [
            ("\"num-cpus\": 8", 8, nil), ("\"num-cpus\": 0", nil, "metadata.num-cpus gives 0 CPUs"),
            ("\"num-cpus\": 2.5", nil, "metadata.num-cpus is 2.5, not a whole number: ignored"),
            ("\"os-name\": \"Linux\"", nil, nil),
        ] as [(String, Int?, String?)])
    func chromeMetadataNumCpus(metadata: String, cpus: Int?, warning: String?) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.write(
            "{\"traceEvents\": \(Self.chromeEvents), \"metadata\": {\(metadata)}}", "chrome.json", in: folder)
        let result = try Self.run(path)
        #expect(result.cpus == cpus, "\(metadata)")
        if let cpus { #expect(result.summary.contains("device.cpus \(cpus) (metadata.num-cpus of ")) }
        if let warning { #expect(result.has(.warning, warning), "\(result.log.diagnostics)") }
    }

    // MARK: atrace text

    static func atrace(header: String) -> String {
        """
        # tracer: nop
        #
        \(header)
        #
                 app-10    (   10) [000] ...1  100.000000: tracing_mark_write: B|10|a
                 app-10    (   10) [000] ...1  100.001000: tracing_mark_write: E|10
               pool-11    (   10) [003] ...1  100.000100: tracing_mark_write: B|10|b
               pool-11    (   10) [003] ...1  100.002100: tracing_mark_write: E|10

        """
    }

    @Test func atraceHeaderGivesCpusAndTheCPUColumnIsOnlyNoted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let header = try Self.run(
            Self.write(Self.atrace(header: "# entries-in-buffer/entries-written: 4/4   #P:8"), "a.txt", in: folder))
        #expect(header.cpus == 8)
        #expect(header.summary.contains("device.cpus 8 (the header's #P: of "), "\(header.summary)")
        let bare = try Self.run(Self.write(Self.atrace(header: "#"), "b.txt", in: folder))
        #expect(bare.cpus == nil)
        #expect(bare.has(.note, "its events ran on 4 CPUs (the [CPU] column"), "\(bare.log.diagnostics)")
        let low = try Self.run(
            Self.write(Self.atrace(header: "# entries-in-buffer/entries-written: 4/4   #P:2"), "c.txt", in: folder))
        #expect(low.cpus == 2)
        #expect(low.has(.warning, "the header's #P: gives 2 CPUs but events ran on CPU 3"))
    }

    /// Several traces: their counts must agree.
    @Test func severalTracesThatDisagreeLeaveCpusUnset() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = try Self.write(
            "{\"traceEvents\": \(Self.chromeEvents), \"metadata\": {\"num-cpus\": 8}}", "a.json", in: folder)
        let b = try Self.write(
            "{\"traceEvents\": \(Self.chromeEvents), \"metadata\": {\"num-cpus\": 4}}", "b.json", in: folder)
        let c = try Self.write(
            "{\"traceEvents\": \(Self.chromeEvents), \"metadata\": {\"num-cpus\": 8}}", "c.json", in: folder)
        let disagree = try TraceImport.run(ImportRequest(traces: [a, b]))
        #expect(try ScenarioLoader.decode(disagree.scenario, file: "x").device.cpus == nil)
        #expect(disagree.log.diagnostics.contains { $0.message.contains("traces record different CPU counts") })
        let agree = try TraceImport.run(ImportRequest(traces: [a, c]))
        #expect(try ScenarioLoader.decode(agree.scenario, file: "x").device.cpus == 8)
        #expect(agree.summary.contains("device.cpus 8 (metadata.num-cpus of each trace)"), "\(agree.summary)")
    }

    // MARK: --cpus, and launchflow's own traces

    /// `--cpus N` sets device.cpus where the trace records none, and wins (with a note) over a record.
    @Test func cpusOptionSetsDeviceCpusAndNotesARecordItOverrides() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bare = try Self.write("{\"traceEvents\": \(Self.chromeEvents)}", "bare.json", in: folder)
        let given = try TraceImport.run(ImportRequest(traces: [bare], options: ImportOptions(cpus: 3)))
        #expect(try ScenarioLoader.decode(given.scenario, file: "x").device.cpus == 3)
        #expect(given.summary.contains("device.cpus 3 (--cpus)"), "\(given.summary)")
        #expect(!given.log.diagnostics.contains { $0.message.contains("records") })
        let recorded = try Self.write(
            "{\"traceEvents\": \(Self.chromeEvents), \"metadata\": {\"num-cpus\": 8}}", "eight.json", in: folder)
        let over = try TraceImport.run(ImportRequest(traces: [recorded], options: ImportOptions(cpus: 1)))
        #expect(try ScenarioLoader.decode(over.scenario, file: "x").device.cpus == 1)
        #expect(
            over.log.diagnostics.contains {
                $0.severity == .note
                    && $0.message.contains("the trace records 8 CPUs (metadata.num-cpus of ")
                    && $0.message.hasSuffix("); device.cpus is 1, as --cpus says")
            }, "\(over.log.diagnostics)")
        // 2 threads on 1 CPU with wall costs: the note that the costs already hold the waiting.
        #expect(
            over.log.diagnostics.contains {
                $0.message.contains("device.cpus 1 for 2 threads: the costs are the slices' wall times")
            }, "\(over.log.diagnostics)")
        #expect(!given.log.diagnostics.contains { $0.message.contains("wall times") }, "3 CPUs for 2 threads")
    }

    /// simulate's trace states the scenario's device.cpus as metadata.num-cpus, and import reads it back.
    @Test func launchflowTraceRoundTripsDeviceCpus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var scenario = try ScenarioLoader.load(
            path: repositoryRoot.appendingPathComponent("scenarios/article.json").path)
        scenario.device.cpus = 3
        let path = folder.path("article.trace.json")
        try Data(TraceExport.json(SimulationResult(scenario, strategy: .dag))).write(to: URL(fileURLWithPath: path))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"metadata\": {\"num-cpus\": 3}"))
        let back = try TraceImport.run(ImportRequest(traces: [path]))
        #expect(try ScenarioLoader.decode(back.scenario, file: "x").device.cpus == 3)
        #expect(back.summary.contains("device.cpus 3 (metadata.num-cpus of "), "\(back.summary)")
        // Without device.cpus, no metadata: the trace is as before.
        scenario.device.cpus = nil
        let plain = String(decoding: TraceExport.json(SimulationResult(scenario, strategy: .dag)), as: UTF8.self)
        #expect(!plain.contains("num-cpus"))
    }
}
