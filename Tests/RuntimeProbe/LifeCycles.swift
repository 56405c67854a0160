import Dispatch
import Foundation
import LaunchflowRuntime

// The 2026 life cycles (docs/runtime.md, "Every life cycle"), each played as UIKit and SwiftUI play
// them: the app's callbacks one after another on the main thread, in the run loop's first turn, each
// marked as a launch phase. A window task's data is an anchor: the callback that builds the window
// checks that it is done when the callback runs.
//
//   launchflow-runtime-probe life-cycle KIND STRATEGY [TRACE]
//     KIND: app-delegate | scene | scene-connect | swiftui | swiftui-adaptor

/// Spins the calling thread for `ms` milliseconds of wall time.
func spin(ms: Double) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(ms * 1_000_000)
    while DispatchTime.now().uptimeNanoseconds < end {}
}

/// The launch every life cycle runs: the window's data (an anchor, tier 0), a first-frame task
/// on the main thread that shows it, and analytics on a worker.
func lifeCycleGraph(_ windowData: Locked<Bool>) -> LaunchGraph {
    var graph = LaunchGraph()
    graph.task("window-data", anchor: true) {
        spin(ms: 20)
        windowData.withLock { $0 = true }
    }
    graph.mainTask("feed", dependsOn: ["window-data"], priority: 1, firstFrame: true) { spin(ms: 4) }
    graph.task("analytics", priority: 1) { spin(ms: 4) }
    return graph
}

/// The callbacks of one life cycle in UIKit's order: (phase, whether it builds the window, its own work in ms).
func callbacks(_ kind: String) -> (starts: Launch.Phase?, [(Launch.Phase, Bool, Double)]) {
    switch kind {
    case "app-delegate":
        (nil, [(.willFinishLaunching, false, 1), (.didFinishLaunching, true, 3)])
    case "scene":
        (
            nil,
            [
                (.didFinishLaunching, false, 1), (.sceneWillConnect, true, 3), (.sceneWillEnterForeground, false, 1),
                (.sceneDidBecomeActive, false, 1),
            ]
        )
    case "scene-connect":
        (
            .sceneWillConnect,
            [
                (.didFinishLaunching, false, 1), (.sceneWillConnect, true, 3), (.sceneWillEnterForeground, false, 1),
                (.sceneDidBecomeActive, false, 1),
            ]
        )
    case "swiftui":
        (.appInit, [(.appInit, false, 1), ("WindowGroup body", true, 3)])
    case "swiftui-adaptor":
        (
            nil,
            [
                (.appInit, false, 1), (.didFinishLaunching, false, 1), (.sceneWillConnect, false, 1),
                ("WindowGroup body", true, 3),
            ]
        )
    default:
        fail("unknown life cycle \(kind)")
    }
}

func lifeCycle(_ arguments: [String]) -> Never {
    guard arguments.count >= 2, let strategy = Strategy(rawValue: arguments[1]) else {
        fail("usage: life-cycle KIND STRATEGY [TRACE]")
    }
    let (starts, phases) = callbacks(arguments[0])
    let windowData = Locked(false)
    let launch: Launch
    do {
        // Made before the first callback: the app delegate's init, or the App's.
        launch = try Launch(
            lifeCycleGraph(windowData),
            configuration: LaunchConfiguration(strategy: strategy, startsIn: starts, workers: 1))
    } catch {
        fail("\(error)")
    }
    let trace = arguments.count > 2 ? arguments[2] : nil
    launch.whenComplete { record in
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                if let trace { _ = FileManager.default.createFile(atPath: trace, contents: Data(record.traceJSON())) }
                let schedule = record.schedule
                let window = record.schedule.scenario.tasks.firstIndex { $0.id == "window-data" }!
                Found.result["phases"] = zip(record.measuredScenario.launchPhases, schedule.launchPhases).map {
                    ["name": $0.name, "start": $1.start, "end": $1.end, "cost": $0.cost] as [String: Any]
                }
                Found.result["startsIn"] = record.measuredScenario.startsIn ?? "didFinishLaunching"
                Found.result["didFinishLaunching"] = [
                    schedule.didFinishLaunching.start, schedule.didFinishLaunching.end,
                ]
                Found.result["windowDataDone"] = schedule.tasks[window].done
                Found.result["firstCommit"] = [schedule.commits[0].iterationStart, schedule.commits[0].end]
                Found.result["t0"] = schedule.t0
                Found.result["tasks"] = tasks(record)
                finish(Found.result)
            }
        }
    }
    runOnMain {
        // UIKit's (or SwiftUI's) callbacks, one after another in the run loop's first turn.
        var checked: [String: Bool] = [:]
        for (phase, buildsWindow, ms) in phases {
            launch.phase(phase) {
                if buildsWindow { checked[phase.name] = windowData.withLock { $0 } }
                spin(ms: ms)
            }
        }
        Found.result["windowDataReadyWhenBuilt"] = checked
        Found.result["startsInDeclared"] = launch.startsIn.name
    }
}
