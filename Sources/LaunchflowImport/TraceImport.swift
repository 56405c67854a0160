import LaunchflowCore

/// `launchflow import`: traces (or MetricKit payloads) in, a scenario out —
/// a new one, or an existing one whose costs are refreshed (`--into`).
///
/// ```swift
/// let outcome = try TraceImport.run(ImportRequest(traces: ["launch.json"]))
/// outcome.scenario   // the scenario file's bytes, validated
/// ```
public enum TraceImport {
    /// Reads every trace, then builds or edits the scenario. Every problem of
    /// every input is collected before it throws; nothing is written here.
    ///
    /// - Parameter progress: `(file, bytes read, file size)`, now and then, while a trace is read.
    public static func run(
        _ request: ImportRequest, progress: ((String, Int, Int) -> Void)? = nil
    ) throws(ImportError) -> ImportOutcome {
        var log = ImportLog()
        var target: IntoTarget? = nil
        if let into = request.into {
            do {
                target = try IntoTarget(path: into)
            } catch {
                log.append(contentsOf: error.log)
            }
        }
        let rules: SelectionRules
        do {
            rules = try SelectionRules(
                request.options, taskIDs: target.map { Set($0.text.tasks.compactMap(\.id)) },
                phaseNames: Set(target?.text.phases.compactMap(\.name) ?? []))
        } catch {
            log.append(contentsOf: error.log)
            throw ImportError(log)
        }
        var (runs, payloads) = readAll(request, rules: rules, log: &log, progress: progress)
        if !runs.isEmpty, !payloads.isEmpty {
            log.error(
                payloads[0].file,
                "a MetricKit payload cannot be mixed with traces: import the traces, then the payloads into the result (--into), or import each kind alone"
            )
        }
        guard !log.hasErrors else { throw ImportError(log) }
        if !payloads.isEmpty, let run = metricKitRun(payloads, rules: rules, log: &log) { runs.append(run) }
        guard !log.hasErrors else { throw ImportError(log) }

        var merged = MergedImport(runs, log: &log)
        deviceCPUs(of: &merged, request: request, file: runs[0].file, log: &log)
        if let target {
            return try target.refresh(with: merged, log: log)
        }
        return try ScenarioBuilder.build(merged, log: log)
    }

    /// Every trace of the request, read and selected: the runs of the traces
    /// (the Instruments exports of one recording merged into one), and the
    /// MetricKit payloads.
    private static func readAll(
        _ request: ImportRequest, rules: SelectionRules, log: inout ImportLog, progress: ((String, Int, Int) -> Void)?
    ) -> (runs: [ImportedRun], payloads: [(file: String, payload: MetricKitReader.Payload)]) {
        var runs: [ImportedRun] = []
        var payloads: [(file: String, payload: MetricKitReader.Payload)] = []
        // Instruments exports of one recording (one per table) make one trace;
        // a table already in the group starts the next recording.
        var recording: [XctraceExport] = []
        func select(_ trace: inout Trace) {
            if let run = SliceSelection.run(
                of: &trace, rules: rules, mainThread: request.options.mainThread,
                process: request.options.process, log: &log)
            {
                runs.append(run)
            }
        }
        func endRecording() {
            guard !recording.isEmpty else { return }
            var trace = XctraceExport.trace(of: recording)
            recording = []
            select(&trace)
        }
        for path in request.traces {
            let input: Input?
            if XctraceReader.streams(path, format: request.options.format) {
                // An Instruments export is parsed as it is read (bounded memory for a large one).
                input = XctraceReader.read(path: path, log: &log).map { .xctrace($0) }
            } else {
                let bytes: [UInt8]
                do {
                    bytes = try readInputFile(path, what: "a trace file")
                } catch {
                    log.append(contentsOf: error.log)
                    continue
                }
                let report = progress.map { report in { (done: Int) in report(path, done, bytes.count) } }
                input = readInput(bytes, file: path, format: request.options.format, log: &log, progress: report)
            }
            switch input {
            case .trace(var trace)?:
                endRecording()
                select(&trace)
            case .xctrace(let export)?:
                let held = Set(recording.flatMap(\.tables))
                if export.tables.contains(where: held.contains) { endRecording() }
                recording.append(export)
            case .metricKit(let payload)?:
                payloads.append((path, payload))
            case nil:
                continue
            }
        }
        endRecording()
        return (runs, payloads)
    }

    /// `device.cpus`: the trace's count, or `--cpus` (with a note when they differ).
    private static func deviceCPUs(
        of merged: inout MergedImport, request: ImportRequest, file: String, log: inout ImportLog
    ) {
        if let cpus = request.options.cpus {
            if let recorded = merged.cpus, recorded.count != cpus {
                log.note(
                    file,
                    "the trace records \(recorded.count) CPUs (\(recorded.source)); device.cpus is \(cpus), as --cpus says"
                )
            }
            merged.cpus = (cpus, "--cpus")
        }
        if let cpus = merged.cpus, let cores = merged.cores, cores > cpus.count, request.options.cost == .wall {
            log.note(
                file,
                "device.cpus \(cpus.count) for \(cores) threads: the costs are the slices' wall times, which hold any time their threads waited for a CPU, and the model shares the CPUs again on top (docs/model.md §3.10); where the trace has thread states, --cost running gives the time on a CPU"
            )
        }
    }

    enum Input {
        case trace(Trace)
        case metricKit(MetricKitReader.Payload)
        /// One Instruments export, to be merged with the other exports of its recording.
        case xctrace(XctraceExport)
    }

    /// Reads one file in its format (`--from`, or detected from the content);
    /// a gzip'd file is decompressed first. An Instruments export is a trace of its own.
    static func read(
        _ bytes: [UInt8], file: String, format: ImportFormat?, log: inout ImportLog, progress: ((Int) -> Void)?
    ) -> Input? {
        let input = readInput(bytes, file: file, format: format, log: &log, progress: progress)
        if case .xctrace(let export)? = input { return .trace(XctraceExport.trace(of: [export])) }
        return input
    }

    static func readInput(
        _ bytes: [UInt8], file: String, format: ImportFormat?, log: inout ImportLog, progress: ((Int) -> Void)?
    ) -> Input? {
        var bytes = bytes
        var decompressed = false
        if Gzip.isGzip(bytes) {
            do {
                bytes = try Gzip.decompress(bytes)
                decompressed = true
            } catch {
                log.error(
                    file,
                    "cannot decompress this gzip file: at byte \(error.offset): \(error.message); nothing was imported")
                return nil
            }
        }
        var detected = format ?? detect(bytes)
        // atrace text inside a container: an `atrace -z` capture, a systrace HTML page.
        var container: AtraceContainer.Unwrapped? = nil
        if format == nil || format == .atrace {
            if let start = AtraceContainer.compressedStart(bytes) {
                container = AtraceContainer.inflateCapture(bytes, from: start, file: file, log: &log)
                guard container != nil else { return nil }
            } else if AtraceContainer.looksLikeHTML(bytes) {
                container = AtraceContainer.systraceText(bytes, file: file, log: &log)
                guard container != nil else { return nil }
            }
            if let container {
                bytes = container.bytes
                detected = container.isChromeJSON ? .chrome : .atrace
            }
        }
        let input = read(
            detected, bytes, file: file, format: format, decompressed: decompressed, container: container?.format,
            log: &log, progress: progress)
        guard let container, case .trace(var trace)? = input else { return input }
        trace.readerNotes = container.notes + trace.readerNotes
        if !container.isChromeJSON { trace.format = container.format }
        return .trace(trace)
    }

    /// `bytes` read as `detected` (nil: an error that says what the file seems to be).
    private static func read(
        _ detected: ImportFormat?, _ bytes: [UInt8], file: String, format: ImportFormat?, decompressed: Bool,
        container: Trace.Format? = nil, log: inout ImportLog, progress: ((Int) -> Void)?
    ) -> Input? {
        let container = container ?? .atrace
        switch detected {
        case .perfetto?:
            return PerfettoReader.read(
                bytes, file: file, decompressed: decompressed, log: &log, progress: decompressed ? nil : progress
            ).map { .trace($0) }
        case .chrome?:
            do {
                guard var trace = try ChromeTraceReader.read(bytes, file: file, log: &log, progress: progress) else {
                    return nil
                }
                if let text = trace.systemTraceEvents {
                    trace.systemTraceEvents = nil
                    if trace.slices.isEmpty {
                        // The events are the atrace text of the recording (Android's systrace as JSON).
                        var atrace = AtraceReader.read(Array(text.utf8), file: file, log: &log)
                        atrace?.readerNotes.insert(
                            "the trace's slices are its systemTraceEvents (atrace text); line numbers are that text's",
                            at: 0)
                        return atrace.map { .trace($0) }
                    }
                    trace.readerNotes.append(
                        "systemTraceEvents (atrace text beside the events) is not read: the traceEvents are")
                }
                return .trace(trace)
            } catch {
                if format == .chrome {
                    log.error(file, "this is a MetricKit payload, not a Chrome trace: drop --from chrome")
                    return nil
                }
                return MetricKitReader.read(bytes, file: file, log: &log).map { .metricKit($0) }
            }
        case .xctrace?:
            return XctraceReader.read(bytes, file: file, log: &log).map { .xctrace($0) }
        case .atrace?:
            return AtraceReader.read(bytes, file: file, log: &log, progress: progress, container: container).map {
                .trace($0)
            }
        case .metrickit?:
            guard let payload = MetricKitReader.read(bytes, file: file, log: &log) else { return nil }
            if payload.signposts.isEmpty {
                log.error(
                    file,
                    "a MetricKit metric payload without interval signposts (signpostMetrics[] with signpostIntervalData): no task costs in it; its launch times are for calibrate --measured"
                )
                return nil
            }
            return .metricKit(payload)
        case nil:
            log.error(file, unknownFormat(bytes))
            return nil
        }
    }

    /// The error for a file in no format import reads, saying what it seems to be.
    static func unknownFormat(_ bytes: [UInt8]) -> String {
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        let trimmed = head.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        let expected =
            "expected a Perfetto protobuf trace, Chrome trace JSON ({\"traceEvents\": [...]} or [...]), atrace/systrace text ('# tracer:' or tracing_mark_write lines, an atrace -z capture, systrace HTML), a MetricKit payload or an Instruments export (xctrace export XML), plain or gzip'd; --from perfetto|chrome|atrace|metrickit|xctrace says which"
        if trimmed.hasPrefix("packet {") || trimmed.hasPrefix("packet:") || trimmed.hasPrefix("packet{") {
            return
                "a Perfetto trace in protobuf text format (textproto): import reads the binary form; encode it first (protoc --encode=perfetto.protos.Trace trace.proto < trace.textproto > trace.pftrace); nothing was imported"
        }
        if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x03, bytes[3] == 0x04 {
            return
                "a zip archive (an Instruments .trace bundle or a bug report, zipped?): import reads no archive; for Instruments run xctrace export on the .trace, for a bug report unzip it and import its Perfetto trace; nothing was imported"
        }
        if AtraceReader.contains(bytes.prefix(1 << 16), "TRACE:") {
            return
                "an atrace capture with nothing import can read after 'TRACE:' (neither atrace text nor zlib data); nothing was imported"
        }
        return "unknown format: \(expected)"
    }

    /// A Perfetto protobuf trace, JSON (a Chrome trace or a MetricKit payload,
    /// told apart while reading), systrace HTML (atrace), XML (an Instruments
    /// export: its reader checks the root element) or atrace text.
    static func detect(_ bytes: [UInt8]) -> ImportFormat? {
        if PerfettoReader.looksLikePerfetto(bytes) { return .perfetto }
        if AtraceContainer.looksLikeHTML(bytes) { return .atrace }
        if XctraceReader.looksLikeXML(bytes) { return .xctrace }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") { return .chrome }
        return AtraceReader.looksLikeAtrace(bytes) ? .atrace : nil
    }

    /// MetricKit payloads, histograms merged per signpost, as one run whose
    /// costs are the histograms' medians and p90s.
    private static func metricKitRun(
        _ payloads: [(file: String, payload: MetricKitReader.Payload)], rules: SelectionRules, log: inout ImportLog
    ) -> ImportedRun? {
        var order: [String] = []
        var histograms: [String: Histogram] = [:]
        for (_, payload) in payloads {
            for (name, histogram) in payload.signposts {
                if histograms[name] == nil { order.append(name) }
                histograms[name, default: Histogram()].merge(histogram)
            }
        }
        let file = payloads[0].file
        var run = ImportedRun(file: file, format: "MetricKit payload")
        run.isDistribution = true
        var slots: [String: Int] = [:]
        for name in order {
            let histogram = histograms[name]!
            let decision = rules.decide(name)
            guard decision.matches || decision.premain else { continue }
            if !decision.conflicts.isEmpty {
                log.error(
                    file,
                    "signpost '\(name)' matches map rules for \(decision.conflicts.count) tasks: \(decision.conflicts.joined(separator: " and ")); a signpost must count towards one task"
                )
                continue
            }
            let median = histogram.percentile(50)
            if decision.premain {
                run.preMain.append(ImportedPhase(name: name, cost: median))
            } else if !decision.known {
                run.addUnmatched(name, median)
            } else if let slot = slots[decision.task] {
                run.tasks[slot].cost += median
                run.tasks[slot].p90 = (run.tasks[slot].p90 ?? 0) + histogram.percentile(90)
                run.tasks[slot].slices += 1
            } else {
                slots[decision.task] = run.tasks.count
                run.tasks.append(
                    ImportedTask(id: decision.task, cost: median, p90: histogram.percentile(90), onMain: nil, slices: 1)
                )
            }
        }
        return log.hasErrors ? nil : run
    }
}

/// What to import and how.
public struct ImportRequest: Sendable {
    public var traces: [String]
    public var options: ImportOptions
    /// `--into SCENARIO`: refresh that scenario's costs instead of building one.
    public var into: String?

    public init(traces: [String], options: ImportOptions = ImportOptions(), into: String? = nil) {
        self.traces = traces
        self.options = options
        self.into = into
    }
}

/// The result of an import: the scenario to write and what to tell the user.
public struct ImportOutcome: Sendable {
    /// The scenario file (new, or the `--into` file with refreshed costs), validated.
    public var scenario: [UInt8]
    /// Warnings and notes.
    public var log: ImportLog
    /// What was imported (and, with `--into`, which costs moved by how much).
    public var summary: String
    /// With `--into`: every cost that changed, largest change first.
    public var changes: [CostChange]
}

/// A cost `--into` changed.
public struct CostChange: Sendable, Equatable {
    public enum Kind: String, Sendable { case task, preMain }
    public var kind: Kind
    public var name: String
    public var before: Nanos
    public var after: Nanos
    public var p90Before: Nanos?
    public var p90After: Nanos?

    public var delta: Nanos { after - before }
}
