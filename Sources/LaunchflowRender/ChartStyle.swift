import LaunchflowCore

/// Colours and fonts shared by every picture, so a tier has the same colour
/// in the DAG, in each Gantt chart and in the comparison.
public enum ChartStyle {
    /// The font of every label (SVG viewers fall back to a sans-serif face).
    public static let font = "Helvetica"
    public static let boldFont = "Helvetica-Bold"
    public static let text = "#222222"
    public static let mutedText = "#555555"

    /// Fill and outline of tier k (k = position of the task's priority among
    /// the scenario's distinct priorities, ascending); the palette repeats after eight tiers.
    public static func tierColors(_ tier: Int) -> (fill: String, stroke: String) {
        tierPalette[tier % tierPalette.count]
    }

    private static let tierPalette: [(fill: String, stroke: String)] = [
        ("#a6cee3", "#1f78b4"),  // blue
        ("#b2df8a", "#33a02c"),  // green
        ("#fdbf6f", "#e07b00"),  // orange
        ("#cab2d6", "#6a3d9a"),  // purple
        ("#8dd3c7", "#1b7f6f"),  // teal
        ("#f2d27a", "#a67c00"),  // ochre
        ("#c7c7c7", "#5f5f5f"),  // grey
        ("#f4b6c2", "#c2185b"),  // pink
    ]

    /// A strategy's colours in pictures that compare strategies (fill, stroke).
    public static func strategyColors(_ strategy: Strategy) -> (fill: String, stroke: String) {
        switch strategy {
        case .serial: ("#c7c7c7", "#5f5f5f")
        case .priority: ("#fdbf6f", "#e07b00")
        case .dag: ("#a6cee3", "#1f78b4")
        case .anchored: ("#b2df8a", "#33a02c")
        }
    }

    /// The critical path (DAG nodes and edges, Gantt bar outlines).
    public static let critical = "#d62728"
    /// Dependency-violation overlays (priority strategy).
    public static let violation = "#d81b9c"
    /// Ordinary dependency edges.
    public static let dependency = "#8a8a8a"
    /// Pre-main phases, alternating.
    public static let preMain = ["#bdbdbd", "#dedede"]
    /// (§3.12) The launch phases' own work on the main thread, alternating.
    public static let launchPhase = ["#c9d7e8", "#e1e9f3"]
    /// Blocked time on the main thread: fill and dashed outline.
    public static let blockedFill = "#fde3e0"
    public static let blockedStroke = "#c62828"
    /// The `didFinishLaunching` span.
    public static let launchSpanFill = "#fff4c2"
    public static let launchSpanStroke = "#8a6d00"
    /// Commit markers and commit time: near-black, a hue no tier uses.
    public static let commit = "#263238"
    public static let commitTimeFill = "#546e7a"
    /// The first-frame line and the first-frame commit marker.
    public static let firstFrame = "#1e8e3e"
    /// The launch-complete line.
    public static let launchComplete = "#1f3b73"
    /// (v2.1) Time to full display.
    public static let fullDisplay = "#00838f"
    /// A task's delay (line and diamond) and its wait for its queue (dotted line).
    public static let delay = "#8e24aa"
    public static let queueWait = "#37474f"
    /// Input handlers and their waits.
    public static let inputFill = "#ffab91"
    public static let inputStroke = "#bf360c"
    /// The mark of a pinned task (`before`), and the outline and mark of one the schedule runs too late.
    public static let pinned = "#1565c0"
    public static let late = "#ef6c00"
    /// The mark of an anchor task.
    public static let anchor = "#263238"
    /// Anchor-closure nodes in the DAG: a light background.
    public static let closureFill = "#eceff1"
    public static let closureStroke = "#607d8b"
    /// Lane backgrounds, alternating, and grid lines.
    public static let laneFills = ["#f5f7fa", "#ffffff"]
    public static let laneStroke = "#d0d5dd"
    public static let grid = "#e3e6eb"
    public static let axis = "#555555"

    /// A `striped` fill for an idle task's bar `width` points wide: its tier
    /// colour and white, alternating about every 3 points ("hatched").
    static func idleStripes(_ fill: String, width: Double) -> String {
        let count = max(2, min(60, Int(width / 3)))
        return (0..<count).map { $0 % 2 == 0 ? fill : "white" }.joined(separator: ":")
    }

    /// A rough width of `text` in points at `size` points, for deciding
    /// whether a label fits (Helvetica averages about 0.56 em per character).
    static func estimatedWidth(_ text: String, size: Double) -> Double {
        Double(text.unicodeScalars.count) * size * 0.58
    }
}

/// The tiers of a scenario: its distinct priorities, ascending.
struct Tiers {
    /// The distinct priorities, ascending.
    let priorities: [Int]
    /// The tier of each task, by task index.
    let ofTask: [Int]

    init(_ scenario: Scenario) {
        priorities = Array(Set(scenario.tasks.map(\.priority))).sorted()
        let index = Dictionary(uniqueKeysWithValues: priorities.enumerated().map { ($1, $0) })
        ofTask = scenario.tasks.map { index[$0.priority]! }
    }

    /// "tier 1 (priority 5)".
    func name(_ tier: Int) -> String { "tier \(tier) (priority \(priorities[tier]))" }
}

/// Element ids of one picture.
///
/// Task elements use the task id itself. Every other element's id starts with
/// a prefix no task id starts with: `lf-` (`lf-commit-3`, `lf-lane-main`, …),
/// or `lf1-`, `lf2-`… when some task id starts with `lf-`. Graphviz wraps an
/// element that has a tooltip in a link whose id is `a_` + the element's id,
/// so the prefix also avoids task ids starting with `a_lf-`, and a task keeps
/// its tooltip only when no other task is called `a_` + its id.
struct ElementIDs {
    let prefix: String
    private let taskIDs: Set<String>

    init(taskIDs: [String]) {
        self.taskIDs = Set(taskIDs)
        var n = 0
        while true {
            let candidate = n == 0 ? "lf-" : "lf\(n)-"
            if !taskIDs.contains(where: { $0.hasPrefix(candidate) || $0.hasPrefix("a_" + candidate) }) {
                prefix = candidate
                return
            }
            n += 1
        }
    }

    /// The id of a non-task element: prefix + `suffix`.
    func callAsFunction(_ suffix: String) -> String { prefix + suffix }

    /// Whether the task's element may carry a tooltip (its link id `a_<id>` is free).
    func tooltipAllowed(forTask id: String) -> Bool { !taskIDs.contains("a_" + id) }
}

/// Numbers as Graphviz attributes: points with three decimals, inches with six.
enum Number {
    static func points(_ value: Double) -> String { fixed(value, 3) }
    static func inches(fromPoints value: Double) -> String { fixed(max(value, 0) / 72, 6) }

    /// `value` with at most `digits` decimals, trailing zeros dropped.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        let scale = [1.0, 10, 100, 1000, 10_000, 100_000, 1_000_000][digits]
        let scaled = (value * scale).rounded()
        let negative = scaled < 0
        var magnitude = Int64(abs(scaled))
        let whole = magnitude / Int64(scale)
        magnitude %= Int64(scale)
        var text = (negative && (whole != 0 || magnitude != 0) ? "-" : "") + String(whole)
        if magnitude != 0 {
            var fraction = String(magnitude)
            fraction = String(repeating: "0", count: digits - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}
