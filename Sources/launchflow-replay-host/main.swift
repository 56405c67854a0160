// launchflow-replay-host: runs one scenario on LaunchflowRuntime in this
// process's real main run loop, then exits. Each task's body spins for its
// cost in thread CPU time, a latency is a timer before its completion, the
// pre-main phases spin (wall clock) until the scenario's t0, the runtime's
// own set-up included, and a BeforeWaiting observer at order 2,000,000
// stands in for Core Animation's commit (spinning the
// device's commitCost). `launchflow replay` and the runtime's real-run tests
// start it as a child process: a fresh run loop per run, and the test
// runner's own main thread left alone.
//
//   launchflow-replay-host SCENARIO --strategy S --record RECORD.json
//       [--trace TRACE.json] [--scenario-out MEASURED.json] [--workers K]
//       [--max-concurrent N] [--idle-mode batch|oneByOne] [--scale F]
//       [--fail ID]… [--never-complete ID]… [--complete-twice ID]…
//       [--timeout-ms MS] [--run-dependents] [--code-only] [--no-cpu-time] [--wall-clock] [--boost]
//       [--core-speeds S,… --core-cpus C,… --cgroup-cpu DIR --cgroup-cpuset DIR]
//
// Exit status: 0 done, 2 refused (the errors on stderr), 3 no end within 60 s.

import CoreFoundation
import Dispatch
import Foundation
import LaunchflowModel
import LaunchflowRuntime

struct HostOptions {
    var scenario = ""
    var strategy = Strategy.dag
    var record = ""
    var trace: String?
    var scenarioOut: String?
    var workers: Int?
    var maxConcurrent: Int?
    var idleMode: IdleMode?
    var scale = 1.0
    var fail: Set<String> = []
    var neverComplete: Set<String> = []
    var completeTwice: Set<String> = []
    var timeoutMs: Int?
    var runDependents = false
    /// Declare the keys in code only (no plan file): the code's graph is the scenario.
    var codeOnly = false
    /// Record each task's thread CPU time (what replay needs; off: an app's default configuration).
    var cpuTime = true
    /// `replay --emulate`: the emulated cores' speeds (thousandths, fastest first) and the emulation's
    /// groups in the cpu and cpuset hierarchies (CoreEmulation.swift).
    var coreSpeeds: [Int] = []
    var coreCPUs: [Int] = []
    var cgroupCPU = ""
    var cgroupCPUSet = ""
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("launchflow-replay-host: error: \(message)\n".utf8))
    exit(2)
}

func parse(_ arguments: [String]) -> HostOptions {
    var options = HostOptions()
    var i = 0
    func value() -> String {
        i += 1
        guard i < arguments.count else { fail("\(arguments[i - 1]) needs a value") }
        return arguments[i]
    }
    while i < arguments.count {
        switch arguments[i] {
        case "--strategy":
            let name = value()
            guard let strategy = Strategy(rawValue: name) else { fail("unknown strategy '\(name)'") }
            options.strategy = strategy
        case "--record": options.record = value()
        case "--trace": options.trace = value()
        case "--scenario-out": options.scenarioOut = value()
        case "--workers": options.workers = Int(value()) ?? 0
        case "--max-concurrent": options.maxConcurrent = Int(value()) ?? 0
        case "--idle-mode":
            let name = value()
            guard let mode = IdleMode(rawValue: name) else { fail("unknown idle mode '\(name)'") }
            options.idleMode = mode
        case "--scale": options.scale = Double(value()) ?? 1
        case "--wall-clock": wallClock = true
        case "--boost":
            // Ahead of other processes for the CPUs (root only; otherwise as it was): the
            // structural tests' runs, beside the test runner's other suites.
            setProcessNice(-15)
        case "--fail": options.fail.insert(value())
        case "--never-complete": options.neverComplete.insert(value())
        case "--complete-twice": options.completeTwice.insert(value())
        case "--timeout-ms": options.timeoutMs = Int(value())
        case "--run-dependents": options.runDependents = true
        case "--code-only": options.codeOnly = true
        case "--no-cpu-time": options.cpuTime = false
        case "--core-speeds": options.coreSpeeds = value().split(separator: ",").map { Int($0) ?? 0 }
        case "--core-cpus": options.coreCPUs = value().split(separator: ",").map { Int($0) ?? -1 }
        case "--cgroup-cpu": options.cgroupCPU = value()
        case "--cgroup-cpuset": options.cgroupCPUSet = value()
        case let argument where !argument.hasPrefix("-") && options.scenario.isEmpty: options.scenario = argument
        case let argument: fail("unknown argument '\(argument)'")
        }
        i += 1
    }
    if options.scenario.isEmpty { fail("no scenario file given") }
    if options.record.isEmpty { fail("--record is required") }
    if !options.coreSpeeds.isEmpty
        && (options.coreSpeeds.contains { !(1...1000).contains($0) } || options.cgroupCPU.isEmpty
            || options.cgroupCPUSet.isEmpty || options.coreCPUs.count != options.coreSpeeds.count
            || options.coreCPUs.contains { !(0..<1024).contains($0) })
    {
        fail(
            "--core-speeds needs speeds of 1 to 1000 thousandths, --core-cpus a CPU per core, --cgroup-cpu and --cgroup-cpuset"
        )
    }
    return options
}

/// A task body ran on the main thread since the last commit (read and written on the main thread only);
/// didFinishLaunching's iteration commits whatever it ran.
nonisolated(unsafe) var mainThreadRanWork = false

/// `replay --emulate`: the cores the threads are moved between (nil: no emulation).
nonisolated(unsafe) var emulation: CoreEmulation?

/// Task `index`'s work: `micros` of this thread's CPU time (marking the main thread's iteration as one
/// to commit), on the core its QoS gets with `--core-speeds`.
func work(_ micros: Micros, task index: Int, qos: LaunchflowModel.QualityOfService) {
    if micros == 0 {
        if Thread.isMainThread { mainThreadRanWork = true }
    } else if Thread.isMainThread {
        mainThreadRanWork = true
        emulation?.main(running: true, task: index)
        spin(micros)
        emulation?.main(running: false)
    } else {
        emulation?.begin(task: index, qos: qos)
        spin(micros)
        emulation?.end()
    }
}

/// Spin in wall-clock time rather than CPU time (`--wall-clock`): the
/// structural tests, run beside other tests that load the CPUs, keep the
/// model's times against the timers (latencies, delays) that way; `replay`
/// spins CPU time, as real work takes.
nonisolated(unsafe) var wallClock = false

/// Spins this thread for `micros` of its own CPU time (or of wall-clock time with `--wall-clock`).
func spin(_ micros: Micros) {
    guard micros > 0 else { return }
    if wallClock {
        let target = DispatchTime.now().uptimeNanoseconds + UInt64(micros) * 1000
        while DispatchTime.now().uptimeNanoseconds < target {}
        return
    }
    var start = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    let target = Int64(start.tv_sec) * 1_000_000_000 + Int64(start.tv_nsec) + Int64(micros) * 1000
    var now = timespec()
    repeat {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    } while Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) < target
}

struct Injected: Error, CustomStringConvertible {
    var id: String
    var description: String { "injected failure of '\(id)'" }
}

/// Each task's body, from the scenario: spin the cost, then (with a latency)
/// complete after it on a timer.
func graph(for scenario: Scenario, options: HostOptions) -> LaunchGraph {
    var graph = LaunchGraph()
    let scale = options.scale
    for (index, task) in scenario.tasks.enumerated() {
        let id = task.id
        let qos = task.qos
        let cost = Micros(Double(task.cost) * scale)
        let latency = Micros(Double(task.latency) * scale)
        let fails = options.fail.contains(id)
        var keys = TaskKeys()
        if options.codeOnly {
            keys = TaskKeys(
                dependsOn: task.dependsOn.map { scenario.tasks[$0].id }, priority: task.priority,
                firstFrame: task.firstFrame, fullyDrawn: task.fullyDrawn, afterFirstFrame: task.after != nil,
                idle: task.idle, anchor: task.anchor, delayMs: Double(task.delay) / 1000, queue: task.queue,
                group: task.group, costMs: Double(task.cost) / 1000)
        }
        let never = options.neverComplete.contains(id)
        let twice = options.completeTwice.contains(id)
        if latency > 0 || never || twice {
            graph.add(
                id, keys: keys,
                body: .completion(onMain: task.mainThreadOnly) { done in
                    work(cost, task: index, qos: qos)
                    if fails { throw Injected(id: id) }
                    if never { return }
                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(latency)) {
                        emulation?.adopt()
                        done()
                        if twice { done() }
                    }
                })
        } else if task.mainThreadOnly {
            graph.add(
                id, keys: keys,
                body: .mainActor {
                    work(cost, task: index, qos: qos)
                    if fails { throw Injected(id: id) }
                })
        } else {
            graph.add(
                id, keys: keys,
                body: .sync {
                    work(cost, task: index, qos: qos)
                    if fails { throw Injected(id: id) }
                })
        }
    }
    return graph
}

func json(_ record: LaunchRecord, ids: [String], setUp: Micros) -> Data {
    let schedule = record.schedule
    var tasks: [[String: Any]] = []
    for (i, run) in schedule.tasks.enumerated() {
        var outcome: String
        switch record.outcomes[i] {
        case .notRun: outcome = "notRun"
        case .waiting: outcome = "waiting"
        case .succeeded: outcome = "succeeded"
        case .failed(let reason): outcome = "failed: \(reason)"
        case .skipped(let because): outcome = "skipped: \(because)"
        case .cancelled: outcome = "cancelled"
        }
        tasks.append([
            "id": ids[i], "thread": Int(run.thread), "iteration": Int(run.iteration), "madeReady": run.madeReady,
            "released": run.released, "ready": run.ready, "start": run.start, "end": run.end, "done": run.done,
            "outcome": outcome,
        ])
    }
    let commits = schedule.commits.map {
        ["iterationStart": $0.iterationStart, "start": $0.start, "end": $0.end, "presented": $0.presented]
    }
    // The record's own metrics (LaunchMetrics, what an app sends to its telemetry), as it encodes them.
    let metrics =
        record.metrics.flatMap { try? JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) } ?? NSNull()
    var object: [String: Any] = [
        "strategy": schedule.strategy.rawValue, "tasks": tasks, "commits": commits, "metrics": metrics,
        "blocked": schedule.blocked.map { [$0.start, $0.end] },
        "didFinishLaunching": [schedule.didFinishLaunching.start, schedule.didFinishLaunching.end],
        "problems": record.problems.map { ["kind": $0.kind.rawValue, "task": $0.task, "message": $0.message] },
        "warnings": record.warnings.map(\.description),
        "setUp": setUp,
        // The process's nice value as it ran (−15 with --boost as root; 0 otherwise).
        "nice": processNice(),
    ]
    if let emulation { object["emulation"] = emulation.json }
    return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
}

func write(_ data: Data, to path: String) {
    do {
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        fail("cannot write \(path): \(error.localizedDescription)")
    }
}

let options = parse(Array(CommandLine.arguments.dropFirst()))
let scenario: Scenario
do {
    scenario = try ScenarioLoader.load(path: options.scenario)
} catch {
    fail("\(error)")
}
if !options.coreSpeeds.isEmpty {
    emulation = CoreEmulation(
        speeds: options.coreSpeeds, cpus: options.coreCPUs, cpuGroup: options.cgroupCPU,
        cpusetGroup: options.cgroupCPUSet, tasks: scenario.tasks.count)
    emulation?.enter()
}
// The launch clock's zero: after this harness's own reading of the scenario, which no app does.
let started = DispatchTime.now()

var configuration = LaunchConfiguration(
    strategy: options.strategy, workers: options.workers ?? scenario.device.workerCount,
    maxConcurrent: options.maxConcurrent, idleMode: options.idleMode,
    failurePolicy: options.runDependents ? .runDependents : .skipDependents,
    completionTimeout: options.timeoutMs.map { .milliseconds($0) } ?? .seconds(30),
    frameClock: VsyncFrameClock(
        refreshRate: scenario.device.refreshRate, renderTimeMs: Double(scenario.device.renderTime) / 1000),
    // Each task's thread CPU time, in the record and the trace (import --cost running reads it).
    recordsCPUTime: options.cpuTime)
let launch: Launch
do {
    launch = try Launch(
        graph(for: scenario, options: options), plan: options.codeOnly ? nil : options.scenario,
        configuration: configuration, origin: started)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
// The runtime's set-up (resolving the graph and the plan, starting the workers) happens where an app
// creates its Launch, before UIApplicationMain: part of the time before didFinishLaunching, which the
// model calls pre-main. The pre-main phases spin for the rest of it, until the scenario's t0 on the
// wall clock (the model's t0 is a time, not an amount of work: a spin in CPU time would end later by
// whatever preempted it), so the launch starts at t0 unless the set-up alone is longer (replay reports
// the set-up, and says so then).
let setUp = Micros((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000)
let t0 = started.uptimeNanoseconds + UInt64(Double(scenario.preMainTotal) * options.scale) * 1000
while DispatchTime.now().uptimeNanoseconds < t0 {}

// Core Animation's commit, emulated: spins the device's commit cost each time the loop is about to sleep.
let commitCost = Micros(Double(scenario.device.commitCost) * options.scale)
// Like Core Animation, it commits only when the iteration changed something: a task ran on the main thread.
let commitObserver = CFRunLoopObserverCreateWithHandler(
    kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, 2_000_000
) { _, _ in
    guard mainThreadRanWork else { return }
    mainThreadRanWork = false
    guard commitCost > 0 else { return }
    emulation?.main(running: true)
    spin(commitCost)
    emulation?.main(running: false)
}
CFRunLoopAddObserver(CFRunLoopGetMain(), commitObserver, kCFRunLoopCommonModes)

let ids = scenario.tasks.map(\.id)
launch.whenComplete { record in
    DispatchQueue.main.async {
        write(json(record, ids: ids, setUp: setUp), to: options.record)
        if let trace = options.trace { write(Data(record.traceJSON()), to: trace) }
        if let out = options.scenarioOut { write(Data(record.scenarioJSON()), to: out) }
        exit(0)
    }
}
DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(60)) {
    FileHandle.standardError.write(Data("launchflow-replay-host: error: the launch did not end within 60 s\n".utf8))
    exit(3)
}
// UIApplicationMain calls didFinishLaunching from the first run-loop iteration.
DispatchQueue.main.async {
    MainActor.assumeIsolated {
        mainThreadRanWork = true
        do {
            try launch.didFinishLaunching()
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }
    }
}
CFRunLoopRun()
