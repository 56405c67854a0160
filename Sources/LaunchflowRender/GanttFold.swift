import LaunchflowCore

/// What happens on each thread after a Gantt panel's axis ends: listed right
/// of the axis break, one row per item, each with its time in ms since
/// process start ("ads.sdk 3,630.7 ms"), in time order — not to scale.
///
/// Items: tasks that start after the axis's end (the entry is the task's
/// element: its swatch carries the bar's id, classes and tooltip), tasks cut
/// at the axis's end ("… until 1,234 ms"), latencies that end later ("…
/// done 2,590 ms": an alert waiting for the user), and on `main` the inputs
/// and a count of the later commits.
struct GanttFold {
    struct Entry {
        enum Kind: Equatable {
            /// A task listed instead of its bar.
            case task(Int)
            /// A task whose bar is cut at the axis's end, or whose latency ends later.
            case cut(Int)
            case latency(Int)
            case input(Int)
            case commits
        }
        var time: Micros
        var kind: Kind
        /// What it is (a task's marks and id, an input's name) and when ("until 1,234 ms").
        var name: String
        var detail: String
        var tooltip: String
        var fill: String
        var stroke: String
    }

    static let rowHeight = 10.0
    static let textSize = 7.5

    /// Entries by thread, in time order.
    let entries: [Int32: [Entry]]

    init(_ result: SimulationResult, axis: TimeAxis, tiers: Tiers) {
        guard axis.isFolded else {
            entries = [:]
            return
        }
        let schedule = result.schedule
        let tasks = schedule.scenario.tasks
        var entries: [Int32: [Entry]] = [:]
        for (i, run) in schedule.tasks.enumerated() {
            let colors = ChartStyle.tierColors(tiers.ofTask[i])
            let name = GanttPanel.marks(tasks[i]) + tasks[i].id
            let entry: (Micros, Entry.Kind, String)?
            if run.start >= axis.end {
                entry = (run.start, .task(i), "\(Self.ms(run.start)) ms")
            } else if run.end > axis.end {
                entry = (run.end, .cut(i), "until \(Self.ms(run.end)) ms")
            } else if run.done > axis.end {
                entry = (run.done, .latency(i), "done \(Self.ms(run.done)) ms")
            } else {
                entry = nil
            }
            guard let (time, kind, detail) = entry else { continue }
            entries[run.thread, default: []].append(
                Entry(
                    time: time, kind: kind, name: name, detail: detail, tooltip: "", fill: colors.fill,
                    stroke: colors.stroke))
        }
        for run in schedule.inputs where run.at >= axis.end {
            let input = schedule.scenario.inputs[run.input]
            entries[0, default: []].append(
                Entry(
                    time: run.at, kind: .input(run.input), name: input.name, detail: "\(Self.ms(run.at)) ms",
                    tooltip:
                        "\(input.name): arrived at \(formatMillis(run.at)) ms, waited \(formatMillis(run.wait)) ms,"
                        + " handled \(formatMillis(run.start)) → \(formatMillis(run.end)) ms",
                    fill: ChartStyle.inputFill, stroke: ChartStyle.inputStroke))
        }
        let later = schedule.commits.filter { $0.end > axis.end }
        if let last = later.last {
            entries[0, default: []].append(
                Entry(
                    time: last.end, kind: .commits, name: "\(later.count) commit\(later.count == 1 ? "" : "s"),",
                    detail: "the last \(Self.ms(last.end)) ms",
                    tooltip: later.map { "commit at \(formatMillis($0.end)) ms" }.joined(separator: "\n"),
                    fill: ChartStyle.commit, stroke: ChartStyle.commit))
        }
        self.entries = entries.mapValues { $0.sorted { ($0.time, $0.name) < ($1.time, $1.name) } }
    }

    /// The height `thread`'s lane needs for its list (0 without one).
    func height(_ thread: Int32) -> Double {
        guard let list = entries[thread], !list.isEmpty else { return 0 }
        return 6 + Double(list.count) * Self.rowHeight
    }

    /// "3,630.7": milliseconds with thousands separated, as the folded lists print them.
    static func ms(_ micros: Micros) -> String {
        let text = formatMillis(micros)
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = Array(parts[0])
        let negative = whole.first == "-"
        if negative { whole.removeFirst() }
        var grouped = ""
        for (k, c) in whole.enumerated() {
            if k > 0 && (whole.count - k) % 3 == 0 { grouped += "," }
            grouped.append(c)
        }
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// The break and the lists: a lane strip per thread right of the break,
    /// its entries (swatch and text), and the break's gap over the lanes.
    func draw(_ canvas: inout Canvas, panel: GanttPanel, layout: GanttPanel.Layout) {
        let axis = panel.axis
        guard axis.isFolded else { return }
        for (k, thread) in panel.shownThreads.enumerated() {
            let lane = layout.lanes[thread]!
            let name = Schedule.threadName(thread)
            canvas.box(
                panel.id("fold-lane-" + name), x0: axis.foldX, x1: axis.rightEdge, top: lane.top,
                height: lane.bottom - lane.top,
                [
                    "fillcolor": .init(ChartStyle.laneFills[k % 2]), "color": .init(ChartStyle.laneStroke),
                    "penwidth": "0.6", "style": "filled,dashed", "class": "lane fold",
                ])
            for (row, entry) in (entries[thread] ?? []).enumerated() {
                drawEntry(&canvas, entry, panel: panel, thread: name, row: row, y: lane.top + 8 + Double(row) * 10)
            }
        }
    }

    private func drawEntry(
        _ canvas: inout Canvas, _ entry: Entry, panel: GanttPanel, thread: String, row: Int, y: Double
    ) {
        let axis = panel.axis
        let x = axis.foldX + 5
        var tooltip = entry.tooltip
        var swatchID = panel.id("fold-\(thread)-\(row)")
        var attributes: GraphDescription.Attributes = [
            "fillcolor": .init(entry.fill), "color": .init(entry.stroke), "class": "fold-item",
        ]
        switch entry.kind {
        case .task(let i):
            swatchID = panel.barID(i)
            tooltip = panel.taskTooltip(i)
            attributes["class"] = .init("task tier-\(panel.tiers.ofTask[i]) fold-item folded")
            if !panel.ids.tooltipAllowed(forTask: swatchID) { tooltip = "" }
        case .cut(let i), .latency(let i):
            tooltip = panel.taskTooltip(i)
        case .input, .commits: break
        }
        if !tooltip.isEmpty { attributes["tooltip"] = .init(GraphvizText.tooltip(tooltip)) }
        canvas.box(swatchID, x0: x, x1: x + 9, top: y - 3.5, height: 7, attributes)
        let room = axis.rightEdge - (x + 13) - 2 - LabelPlanner.width(" " + entry.detail, size: Self.textSize)
        let text = (GanttPanel.shortened(entry.name, size: Self.textSize, in: room) ?? "…") + " " + entry.detail
        canvas.text(
            panel.id("fold-\(thread)-\(row)-label"), text, x: x + 13, y: y, size: Self.textSize,
            color: ChartStyle.text, tooltip: tooltip.isEmpty ? nil : tooltip)
    }
}

extension GanttPanel {
    /// `text` at `size` points if it fits in `width` points, else its start and "…" (at least 3 characters), else nil.
    static func shortened(_ text: String, size: Double, in width: Double) -> String? {
        let perCharacter = size * 0.58 * 1.15
        if Double(text.unicodeScalars.count) * perCharacter <= width { return text }
        let room = Int(width / perCharacter) - 1
        return room >= 3 ? String(text.prefix(room)) + "…" : nil
    }
}
