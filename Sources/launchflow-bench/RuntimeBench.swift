import CoreFoundation
import Dispatch
import Foundation
import LaunchflowRuntime
import Synchronization  // portability: every use is in code @available(macOS 15, …), like Atomic

// `launchflow-bench --runtime`: LaunchflowRuntime's own cost, beside the same
// graph on OperationQueue and on plain Dispatch, in one process with a real
// main run loop. Zero-cost tasks, so what is measured is scheduling: a random
// DAG (each task depends on up to 3 earlier ones) on the workers, and a chain
// of main-thread tasks (the main-queue hop). Best of 5 runs each.

/// A random DAG of `count` tasks: each depends on up to 3 of the 50 before it.
private func dependencies(count: Int) -> [[Int]] {
    var state: UInt64 = 42
    func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<count).map { i in
        guard i > 0 else { return [] }
        let k = next() % 4
        return Array(Set((0..<k).map { _ in i - 1 - next() % min(i, 50) })).sorted()
    }
}

/// Runs `body` on the main thread inside the run loop and returns when it calls `done`, timed.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func onMainRunLoop(_ body: @escaping @MainActor (@escaping @Sendable () -> Void) -> Void) -> Double {
    let start = Atomic<UInt64>(0)
    let end = Atomic<UInt64>(0)
    DispatchQueue.main.async {
        MainActor.assumeIsolated {
            start.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            body {
                end.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
                CFRunLoopStop(CFRunLoopGetMain())
                CFRunLoopWakeUp(CFRunLoopGetMain())
            }
        }
    }
    while end.load(ordering: .relaxed) == 0 { CFRunLoopRun() }
    return Double(end.load(ordering: .relaxed) - start.load(ordering: .relaxed)) / 1e9
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func runtime(_ deps: [[Int]], workers: Int, onMain: Bool, cpuTime: Bool = false) -> Double {
    var graph = LaunchGraph()
    for (i, d) in deps.enumerated() {
        if onMain {
            graph.mainTask("t\(i)", dependsOn: d.map { "t\($0)" }) {}
        } else {
            graph.task("t\(i)", dependsOn: d.map { "t\($0)" }) {}
        }
    }
    let launch = try! Launch(
        graph, configuration: LaunchConfiguration(strategy: .dag, workers: workers, recordsCPUTime: cpuTime))
    return onMainRunLoop { done in
        launch.whenComplete { _ in done() }
        try! launch.didFinishLaunching()
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func operationQueue(_ deps: [[Int]], workers: Int, onMain: Bool) -> Double {
    onMainRunLoop { done in
        let queue = onMain ? OperationQueue.main : OperationQueue()
        if !onMain { queue.maxConcurrentOperationCount = workers }
        let operations = deps.map { _ in BlockOperation {} }
        for (i, d) in deps.enumerated() { for j in d { operations[i].addDependency(operations[j]) } }
        let last = BlockOperation { done() }
        for operation in operations { last.addDependency(operation) }
        queue.addOperations(operations, waitUntilFinished: false)
        queue.addOperation(last)
    }
}

/// Plain Dispatch: a counter of pending dependencies per task, each task
/// dispatched when its last dependency ends, a group for the end.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func dispatch(_ deps: [[Int]], onMain: Bool) -> Double {
    onMainRunLoop { done in
        final class Graph: @unchecked Sendable {
            let dependents: [[Int]]
            let pending: UnsafeMutablePointer<Atomic<Int>>
            let queue: DispatchQueue
            let group = DispatchGroup()
            init(_ deps: [[Int]], queue: DispatchQueue) {
                var dependents = [[Int]](repeating: [], count: deps.count)
                for (i, d) in deps.enumerated() { for j in d { dependents[j].append(i) } }
                self.dependents = dependents
                pending = .allocate(capacity: deps.count)
                for (i, d) in deps.enumerated() { (pending + i).initialize(to: Atomic(d.count)) }
                self.queue = queue
            }
            func start(_ i: Int) {
                queue.async(group: group) { [self] in
                    for j in dependents[i] where pending[j].subtract(1, ordering: .acquiringAndReleasing).newValue == 0
                    {
                        start(j)
                    }
                }
            }
        }
        let graph = Graph(deps, queue: onMain ? .main : .global())
        for (i, d) in deps.enumerated() where d.isEmpty { graph.start(i) }
        graph.group.notify(queue: .main) { done() }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func runRuntimeBenchmark() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let workers = max(1, cores - 1)
    print("LaunchflowRuntime benchmark — release build, \(cores) CPUs, \(workers) worker threads")
    print("zero-cost tasks, a random DAG (up to 3 dependencies each among the 50 before); best of 5; µs per task")
    print("LaunchflowRuntime as configured by default, and with recordsCPUTime (two thread CPU-time reads per task)\n")
    print(
        "tasks    where    LaunchflowRuntime  + CPU time  OperationQueue  Dispatch (counters + group)"
            + "  runtime/Dispatch")
    for count in [1_000, 10_000] {
        let deps = dependencies(count: count)
        for onMain in [false, true] {
            func best(_ body: () -> Double) -> Double { (0..<5).map { _ in body() }.min()! }
            let ours = best { runtime(deps, workers: workers, onMain: onMain) }
            let withCPU = best { runtime(deps, workers: workers, onMain: onMain, cpuTime: true) }
            let operations = best { operationQueue(deps, workers: workers, onMain: onMain) }
            let plain = best { dispatch(deps, onMain: onMain) }
            let per = { (seconds: Double) in String(format: "%.2f", seconds * 1e6 / Double(count)) }
            print(
                String(count).padding(toLength: 9, withPad: " ", startingAt: 0)
                    + (onMain ? "main   " : "workers").padding(toLength: 9, withPad: " ", startingAt: 0)
                    + per(ours).leftPadded(17) + per(withCPU).leftPadded(12) + per(operations).leftPadded(16)
                    + per(plain).leftPadded(29) + String(format: "%.2f×", ours / plain).leftPadded(18))
        }
    }
}

/// `--runtime --profile workers|main`: the runtime alone, 10,000 tasks twenty times (default
/// configuration), for a profiler (`perf record`, `valgrind --tool=callgrind`) to say where its time goes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func runRuntimeProfile(onMain: Bool) {
    let workers = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    let deps = dependencies(count: 10_000)
    let seconds = (0..<20).map { _ in runtime(deps, workers: workers, onMain: onMain) }.min()!
    print(String(format: "%.2f µs per task (best of 20)", seconds * 1e6 / Double(deps.count)))
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
