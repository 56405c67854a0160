import LaunchflowModel

/// (MODEL.md §3.12) The app's life-cycle callbacks of the first run-loop
/// turn, as the app marks them: the scenario's `launchPhases`. The strategy
/// starts in the `startsIn` phase; the record and its trace give each
/// phase's times, so that `launchflow import` of a recorded launch gives back
/// `launchPhases` and `startsIn`.
extension Launch {
    /// A launch phase, named as a scenario's `launchPhases` name it: one of
    /// the app's callbacks on the main thread before the first commit.
    ///
    /// ```swift
    /// func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
    ///     launch.phase(.sceneWillConnect) { window = makeWindow(scene) }  // the strategy starts here
    /// }
    /// ```
    public struct Phase: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The phase's name in the scenario (`launchPhases[].name`, `startsIn`).
        public let name: String

        public init(_ name: String) { self.name = name }
        public init(stringLiteral name: String) { self.name = name }
        public var description: String { name }

        /// A SwiftUI `App`'s `init` (docs/scenarios.md's name for it).
        public static let appInit = Phase("App.init")
        /// `application(_:willFinishLaunchingWithOptions:)`.
        public static let willFinishLaunching = Phase("willFinishLaunching")
        /// `application(_:didFinishLaunchingWithOptions:)`: where the strategy starts by default.
        public static let didFinishLaunching = Phase(Scenario.defaultStartsIn)
        /// `scene(_:willConnectTo:options:)`: where a scene-based app builds its window.
        public static let sceneWillConnect = Phase("sceneWillConnect")
        /// `sceneWillEnterForeground(_:)`.
        public static let sceneWillEnterForeground = Phase("sceneWillEnterForeground")
        /// `sceneDidBecomeActive(_:)`.
        public static let sceneDidBecomeActive = Phase("sceneDidBecomeActive")
    }

    /// The phase in which the strategy starts: the code's
    /// (``LaunchConfiguration/startsIn``), else the plan file's `startsIn`
    /// (when it has `launchPhases`), else `didFinishLaunching`.
    public var startsIn: Phase { Phase(scheduler.resolved.startsIn) }

    /// Call on the main thread when the app's callback `phase` begins (a
    /// phase still open ends here). When `phase` is ``startsIn`` and the
    /// launch has not started, starts it — ``didFinishLaunching()`` — and
    /// returns when the strategy lets it: under `dag` and `anchored` once the
    /// anchors are done, so the rest of the callback can use their work.
    ///
    /// Never throws: a callback must go on whatever happens to the launch.
    /// When starting fails (the strategy would wait forever), the launch has
    /// failed and stopped: ``state`` is ``State/failed(_:)`` and the record's
    /// ``LaunchRecord/failure`` says why.
    @MainActor
    public func phaseBegan(_ phase: Phase) {
        scheduler.phaseBegan(phase.name)
    }

    /// Call on the main thread when the app's callback `phase` ends (nothing
    /// when it is not the open phase).
    @MainActor
    public func phaseEnded(_ phase: Phase) {
        scheduler.phaseEnded(phase.name)
    }

    /// `phase` around `body`: ``phaseBegan(_:)`` (which starts the launch in
    /// the ``startsIn`` phase), `body`, ``phaseEnded(_:)`` — also when `body`
    /// throws, whose error it rethrows.
    @MainActor
    public func phase<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        phaseBegan(phase)
        defer { phaseEnded(phase) }
        return try body()
    }
}

/// The phases the app marked, in order, and the one `didFinishLaunching` ran in.
struct PhaseMarks: Sendable {
    struct Mark: Sendable {
        var name: String
        var start: Micros
        var end: Micros?
    }

    var marks: [Mark] = []
    /// The index of the mark that was open when `didFinishLaunching` started; nil: none was.
    var launchPhase: Int?

    /// The mark still open, if any.
    var open: Int? { marks.last?.end == nil && !marks.isEmpty ? marks.count - 1 : nil }

    mutating func began(_ name: String, at now: Micros) {
        if let open { marks[open].end = now }
        marks.append(Mark(name: name, start: now))
    }

    mutating func ended(_ name: String, at now: Micros) {
        if let open, marks[open].name == name { marks[open].end = now }
    }

    /// The phases as the record gives them (MODEL.md §3.12): each phase's
    /// own cost — its time less `didFinishLaunching`'s inside it — its run,
    /// and the phase `didFinishLaunching` ran in. Empty when it ran in none
    /// (the model runs it inside one) or the app marked none; a name marked
    /// again is left out (a phase is one callback of the first turn).
    func recorded(didFinishLaunching launch: TimeSpan) -> (
        phases: [LaunchPhase], runs: [LaunchPhaseRun], startsIn: String?
    ) {
        guard let launchPhase else { return ([], [], nil) }
        var seen = Set<String>()
        var phases: [LaunchPhase] = []
        var runs: [LaunchPhaseRun] = []
        var startsIn: String?
        for (k, mark) in marks.enumerated() where seen.insert(mark.name).inserted {
            let end = mark.end ?? (k == launchPhase ? launch.end : mark.start)
            let inside = k == launchPhase ? Swift.max(0, Swift.min(end, launch.end) - launch.start) : 0
            let cost = Swift.max(0, end - mark.start - inside)
            phases.append(LaunchPhase(name: mark.name, cost: cost))
            runs.append(LaunchPhaseRun(start: mark.start, costEnd: mark.start + cost, end: end))
            if k == launchPhase { startsIn = mark.name }
        }
        guard let startsIn else { return ([], [], nil) }
        return (phases, runs, startsIn)
    }
}
