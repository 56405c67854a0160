import LaunchflowModel

// What an app sees of the model through `import LaunchflowRuntime` alone: the
// value types the runtime's own API takes and returns, by their model names,
// and nothing else — not the writers, tables and formats the simulator uses
// (`JSONWriter`, `Metric`, `TraceExport`, the model's `Platform`, …), which an
// app never needs and would otherwise find in its namespace. LaunchflowModel is
// imported, not re-exported (no `@_exported`); a file that imports both sees
// one type under each name (an alias and its type are the same declaration).
// SurfaceTests type-check a snippet against the built module: these names
// resolve, the others do not. docs/runtime.md, "What `import LaunchflowRuntime` gives".

/// Time, integer microseconds (the launch clock's, in the record).
public typealias Micros = LaunchflowModel.Micros
/// The four strategies (MODEL.md §4): ``LaunchConfiguration/strategy``, ``Launch/strategy``.
public typealias Strategy = LaunchflowModel.Strategy
/// How idle tasks are released: ``LaunchConfiguration/idleMode``.
public typealias IdleMode = LaunchflowModel.IdleMode
/// One problem with its file, place and key: ``LaunchError/problems``, ``Launch/warnings``.
public typealias Diagnostic = LaunchflowModel.Diagnostic
/// The launch as a scenario (code and file merged): ``Launch/scenario``, ``LaunchRecord/measuredScenario``.
public typealias Scenario = LaunchflowModel.Scenario
/// One task of a scenario, its keys and (in a record) its measured cost: `scenario.tasks`.
public typealias LaunchTask = LaunchflowModel.LaunchTask
/// The device a scenario describes: `scenario.device`.
public typealias Device = LaunchflowModel.Device
/// Where and when everything ran: ``LaunchRecord/schedule``.
public typealias Schedule = LaunchflowModel.Schedule
/// One task's thread, iteration, ready, start, end and done times: `schedule.tasks`.
public typealias TaskRun = LaunchflowModel.TaskRun
/// One run-loop iteration's commit and when its frame was presented: `schedule.commits`.
public typealias Commit = LaunchflowModel.Commit
/// A span of the launch clock: `schedule.blocked`, `schedule.didFinishLaunching`.
public typealias TimeSpan = LaunchflowModel.TimeSpan
/// (§3.12) A launch phase and its own cost: `scenario.launchPhases` (``LaunchRecord/measuredScenario``).
public typealias LaunchPhase = LaunchflowModel.LaunchPhase
/// (§3.12) When a launch phase ran: `schedule.launchPhases` (``Launch/phaseBegan(_:)``).
public typealias LaunchPhaseRun = LaunchflowModel.LaunchPhaseRun
