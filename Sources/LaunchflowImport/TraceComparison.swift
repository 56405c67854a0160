import LaunchflowCore

/// `calibrate SCENARIO --trace TRACE`: each task's measured start and end
/// (from a trace of the launch, matched by id) against the simulated ones,
/// so that you see *which* task the model gets wrong, not only the median.
///
/// The trace is read as `import --into SCENARIO` reads it: a slice whose name
/// (after `--map`) equals a task id is that task, found at any depth; a
/// slice named after a pre-main phase is that phase. A task's measured span
/// runs from the start of its first slice to the end of its last.
///
/// **Alignment.** The trace's clock and the model's do not share a zero:
/// both sides are aligned at the earliest item they have in common (a
/// pre-main phase or task), whose start is 0 in both.
///
/// Errors are simulated − measured: positive when the model is late.
///
/// ```swift
/// let comparison = try TraceComparison.run(scenario, trace: "launch.pftrace")
/// comparison.rows.first   // the task the model gets most wrong
/// ```
public struct TraceComparison: Sendable {
    public struct Row: Sendable, Equatable {
        public var id: String
        /// Where the model ran it: main thread or a worker.
        public var onMain: Bool
        /// µs from the aligned zero.
        public var measured: TimeSpan
        public var simulated: TimeSpan

        public var startError: Micros { simulated.start - measured.start }
        public var endError: Micros { simulated.end - measured.end }
        public var durationError: Micros { simulated.duration - measured.duration }
        /// The larger of the start and end errors, in magnitude.
        public var largestError: Micros { max(abs(startError), abs(endError)) }
    }

    public let scenario: Scenario
    public let strategy: Strategy
    public let trace: String
    /// Every task found in both, the largest error first.
    public let rows: [Row]
    /// Pre-main phases found in both (not in ``rows``).
    public let phases: [Row]
    /// Scenario tasks the trace does not have.
    public let missing: [String]
    /// The aligned item (a task id or a pre-main phase name).
    public let anchor: String
    /// The first frame: the end of the last `firstFrame` task found in the
    /// trace, measured and simulated (µs from the aligned zero).
    public let firstFrame: (task: String, measured: Micros, simulated: Micros)?
    /// The model's time to first frame (µs from process start, the metric).
    public let simulatedTimeToFirstFrame: Micros
    /// An Instruments App Launch recording's first frame: the end of Initial
    /// Frame Rendering, µs from the start of Process Creation — the measured
    /// counterpart of ``simulatedTimeToFirstFrame``.
    public let measuredFirstFrame: Micros?
    public let log: ImportLog

    /// A task or phase in both: its measured span (ns, trace clock) and its simulated one.
    private typealias Pair = (id: String, onMain: Bool, measured: ClosedRange<Nanos>, simulated: TimeSpan)

    /// Reads `trace` (any format `import` reads), simulates `scenario` under
    /// `strategy` and pairs the tasks.
    public static func run(
        _ scenario: Scenario, trace: String, strategy: Strategy = .dag, options: SimulationOptions = .init(),
        importOptions: ImportOptions = ImportOptions()
    ) throws(ImportError) -> TraceComparison {
        var log = ImportLog()
        let rules = try SelectionRules(
            importOptions, taskIDs: Set(scenario.tasks.map(\.id)), phaseNames: Set(scenario.preMain.map(\.name)))
        let input: TraceImport.Input?
        if XctraceReader.streams(trace, format: importOptions.format) {
            input = XctraceReader.read(path: trace, log: &log).map { .trace(XctraceExport.trace(of: [$0])) }
        } else {
            let bytes = try readInputFile(trace, what: "a trace file")
            input = TraceImport.read(bytes, file: trace, format: importOptions.format, log: &log, progress: nil)
        }
        guard case .trace(var read)? = input else {
            if !log.hasErrors { log.error(trace, "a MetricKit payload has no times: use --measured for it") }
            throw ImportError(log)
        }
        guard
            let run = SliceSelection.run(
                of: &read, rules: rules, mainThread: importOptions.mainThread, process: importOptions.process,
                log: &log)
        else { throw ImportError(log) }

        let result = SimulationResult(scenario, strategy: strategy, options: options)
        let schedule = result.schedule
        let index = Dictionary(scenario.tasks.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let phaseIndex = Dictionary(
            scenario.preMain.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })

        // Pairs (name, measured ns span, simulated µs span).
        let taskPairs: [Pair] = run.tasks.compactMap { task in
            guard let k = index[task.id], let span = task.span else { return nil }
            let ran = schedule.tasks[k]
            return (task.id, ran.isOnMain, span, TimeSpan(start: ran.start, end: ran.end))
        }
        let phasePairs: [Pair] = run.preMain.compactMap { phase in
            guard let k = phaseIndex[phase.name], let span = phase.span, k < schedule.preMain.count else { return nil }
            return (phase.name, true, span, schedule.preMain[k])
        }
        guard
            let first = (phasePairs + taskPairs).min(by: {
                ($0.measured.lowerBound, $0.id) < ($1.measured.lowerBound, $1.id)
            })
        else {
            log.error(
                trace,
                "no task of \(scenario.name) is in this trace: slices count for the task whose id equals their name (--map FILE renames slices)\(run.unmatched.isEmpty ? "" : "; the trace has \(unmatchedText(run.unmatched))")"
            )
            throw ImportError(log)
        }
        let zero = first.measured.lowerBound
        let simulatedZero = first.simulated.start
        func micros(_ ns: Nanos) -> Micros {
            let value = ns - zero
            return Micros(value >= 0 ? (value + 500) / 1000 : -((-value + 500) / 1000)) + simulatedZero
        }
        func row(_ pair: Pair) -> Row {
            Row(
                id: pair.id, onMain: pair.onMain,
                measured: TimeSpan(start: micros(pair.measured.lowerBound), end: micros(pair.measured.upperBound)),
                simulated: pair.simulated)
        }
        let rows = taskPairs.map(row).sorted {
            $0.largestError != $1.largestError ? $0.largestError > $1.largestError : $0.id < $1.id
        }
        let found = Set(rows.map(\.id))
        let firstFrameRows = rows.filter { row in index[row.id].map { scenario.tasks[$0].firstFrame } == true }
        let firstFrame = firstFrameRows.max { $0.measured.end < $1.measured.end }.map { measured in
            (
                measured.id, measured.measured.end,
                firstFrameRows.map(\.simulated.end).max() ?? measured.simulated.end
            )
        }
        return TraceComparison(
            scenario: scenario, strategy: strategy, trace: trace, rows: rows, phases: phasePairs.map(row),
            missing: scenario.tasks.map(\.id).filter { !found.contains($0) }, anchor: first.id, firstFrame: firstFrame,
            simulatedTimeToFirstFrame: result.metrics.timeToFirstFrame,
            measuredFirstFrame: run.measuredFirstFrame.map { Micros(($0 + 500) / 1000) }, log: log)
    }

    // MARK: Summary

    /// Where the model runs early or late: medians of the start errors, on
    /// the main thread and on workers, and of the duration errors.
    public struct Summary: Sendable {
        public var early: Int
        public var late: Int
        public var onTime: Int
        public var medianStartError: Micros
        public var medianStartErrorMain: Micros?
        public var medianStartErrorWorkers: Micros?
        public var medianDurationError: Micros
    }

    public var summary: Summary {
        func median(_ values: [Micros]) -> Micros? {
            values.isEmpty ? nil : Micros(Percentile.interpolated(50, ofSorted: values.map { Int64($0) }.sorted()))
        }
        let starts = rows.map(\.startError)
        return Summary(
            early: starts.filter { $0 < 0 }.count, late: starts.filter { $0 > 0 }.count,
            onTime: starts.filter { $0 == 0 }.count, medianStartError: median(starts) ?? 0,
            medianStartErrorMain: median(rows.filter(\.onMain).map(\.startError)),
            medianStartErrorWorkers: median(rows.filter { !$0.onMain }.map(\.startError)),
            medianDurationError: median(rows.map(\.durationError)) ?? 0)
    }

    /// `calibrate --trace --format json`: every task (largest error first)
    /// with its measured and simulated start and end (ms), the first frame and
    /// the summary.
    public func json(gantt: String? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 256 * rows.count + 512)
        w.object(.lines) { w in
            w.field("trace", trace)
            w.field("strategy", strategy.rawValue)
            w.field("alignedAt", anchor)
            w.field("tasks", array: .linesEvenWhenEmpty) { w in
                for row in rows {
                    w.object(.spaced) { w in
                        w.field("id", row.id)
                        w.field("measuredStartMs", millis: row.measured.start)
                        w.field("measuredEndMs", millis: row.measured.end)
                        w.field("simulatedStartMs", millis: row.simulated.start)
                        w.field("simulatedEndMs", millis: row.simulated.end)
                        w.field("startErrorMs", millis: row.startError)
                        w.field("endErrorMs", millis: row.endError)
                        w.field("mainThread", row.onMain)
                    }
                }
            }
            w.field("missing", strings: missing)
            if let firstFrame {
                w.field("firstFrame", object: .spaced) { w in
                    w.field("task", firstFrame.task)
                    w.field("measuredMs", millis: firstFrame.measured)
                    w.field("simulatedMs", millis: firstFrame.simulated)
                    w.field("errorMs", millis: firstFrame.simulated - firstFrame.measured)
                }
            }
            if let measured = measuredFirstFrame {
                w.field("appLaunchFirstFrame", object: .spaced) { w in
                    w.field("measuredMs", millis: measured)
                    w.field("simulatedMs", millis: simulatedTimeToFirstFrame)
                    w.field("errorMs", millis: simulatedTimeToFirstFrame - measured)
                }
            }
            let summary = summary
            w.field("summary", object: .spaced) { w in
                w.field("early", summary.early)
                w.field("late", summary.late)
                w.field("medianStartErrorMs", millis: summary.medianStartError)
                w.field("medianDurationErrorMs", millis: summary.medianDurationError)
            }
            if let gantt { w.field("gantt", gantt) }
        }
        w.newline()
        return w.bytes
    }

    /// The text `calibrate --trace` prints: the largest errors first (at most `limit` rows).
    public func text(limit: Int = 20) -> String {
        func ms(_ value: Micros) -> String { formatMillis(value) }
        func signed(_ value: Micros) -> String { value > 0 ? "+" + ms(value) : value < 0 ? "−" + ms(-value) : "0" }
        var out = TerminalText.escape(
            "Measured (\(trace)) against simulated (\(scenario.name) under \(strategy.rawValue)), task by task")
        out += "\n"
        out +=
            "  \(plural(rows.count, "task")) in both, aligned at the start of '\(TerminalText.escape(anchor))'; error = simulated − measured (+: the model is late)\n\n"
        var table: [[String]] = [
            [
                "task", "thread", "measured (ms)", "simulated (ms)", "start error", "end error", "duration error",
            ]
        ]
        for row in rows.prefix(limit) {
            table.append(
                [
                    TerminalText.escape(row.id), row.onMain ? "main" : "worker",
                    "\(ms(row.measured.start))–\(ms(row.measured.end))",
                    "\(ms(row.simulated.start))–\(ms(row.simulated.end))", signed(row.startError),
                    signed(row.endError), signed(row.durationError),
                ])
        }
        out += LaunchflowImport.table(table)
        if rows.count > limit { out += "  … \(rows.count - limit) more, with smaller errors\n" }
        out += "\n"
        if let firstFrame {
            out += TerminalText.escape(
                "First frame (end of '\(firstFrame.task)', the last firstFrame task in the trace): measured \(ms(firstFrame.measured)) ms, simulated \(ms(firstFrame.simulated)) ms, error \(signed(firstFrame.simulated - firstFrame.measured)) ms"
            )
            out += " (the model's time to first frame: \(ms(simulatedTimeToFirstFrame)) ms from process start)\n"
        } else {
            out +=
                "First frame: no firstFrame task of the scenario is in the trace (the model's time to first frame: \(ms(simulatedTimeToFirstFrame)) ms)\n"
        }
        if let measured = measuredFirstFrame {
            out +=
                "First frame from process start (Instruments App Launch: the end of Initial Frame Rendering): measured \(ms(measured)) ms, simulated \(ms(simulatedTimeToFirstFrame)) ms, error \(signed(simulatedTimeToFirstFrame - measured)) ms\n"
        }
        let summary = summary
        var line =
            "Where the model runs early or late: it starts \(summary.early) of \(rows.count) tasks early, \(summary.late) late"
        if summary.onTime > 0 { line += ", \(summary.onTime) on time" }
        line += "; median start error \(signed(summary.medianStartError)) ms"
        if let main = summary.medianStartErrorMain { line += " (main thread \(signed(main))" }
        if let workers = summary.medianStartErrorWorkers {
            line +=
                summary.medianStartErrorMain == nil ? " (workers \(signed(workers)))" : ", workers \(signed(workers)))"
        } else if summary.medianStartErrorMain != nil {
            line += ")"
        }
        line += "; median duration error \(signed(summary.medianDurationError)) ms"
        out += line + ".\n"
        if !missing.isEmpty {
            let list = missing.prefix(12).joined(separator: ", ") + (missing.count > 12 ? ", …" : "")
            out += TerminalText.escape("Not in the trace (\(missing.count)): \(list).") + "\n"
        }
        return out
    }
}
