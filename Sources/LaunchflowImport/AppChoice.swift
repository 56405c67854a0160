import LaunchflowCore

/// Which process is the app and which thread its main thread (docs/import.md,
/// "2. Import"), with every error naming the candidates and the exact flag
/// that picks each.
///
/// Without flags, in order: the thread the trace names the main thread
/// (`main`, Instruments' `Main Thread`); the thread whose tid is its pid in
/// the one process with slices (an Android app's main thread, named after its
/// package); Chrome's browser main thread (`CrBrowserMain`), then its
/// renderer's (`CrRendererMain`), when the trace has exactly one with slices;
/// when several processes still qualify, those with a slice `--match` selects.
struct AppChoice {
    let trace: Trace
    let rules: SelectionRules?
    var slicesPerThread: [Int]
    var slicesPerProcess: [Int: Int] = [:]
    let all: [Int]
    let withSlices: [Int]

    init(_ trace: Trace, rules: SelectionRules?) {
        self.trace = trace
        self.rules = rules
        slicesPerThread = [Int](repeating: 0, count: trace.threads.count)
        for slice in trace.slices { slicesPerThread[Int(slice.thread)] += 1 }
        for (k, thread) in trace.threads.enumerated() { slicesPerProcess[thread.pid, default: 0] += slicesPerThread[k] }
        all = Array(trace.threads.indices)
        withSlices = all.filter { [slicesPerThread] in slicesPerThread[$0] > 0 }
    }

    /// Threads listed with the flag that names each: `--main-thread 4100 ('main' of pid 4100 'com.example.shop', 12 slices)`.
    func describe(_ list: [Int]) -> String {
        let shown = list.prefix(12).map { k in
            let thread = trace.threads[k]
            let name = thread.name.map { "'\($0)' " } ?? ""
            let process = trace.processNames[thread.pid].map { " '\($0)'" } ?? ""
            return "\(name)tid \(thread.tid) of pid \(thread.pid)\(process) (\(plural(slicesPerThread[k], "slice")))"
        }
        return shown.joined(separator: "; ") + (list.count > 12 ? "; … (\(list.count - 12) more)" : "")
    }

    /// The flags that pick each candidate: `--main-thread 4100` (or `--process NAME` when its process has a name).
    func flags(_ list: [Int]) -> String {
        var seen = Set<String>()
        let flags = list.compactMap { k -> String? in
            let thread = trace.threads[k]
            let flag = "--main-thread \(thread.tid)"
            return seen.insert(flag).inserted ? flag : nil
        }
        return flags.prefix(8).joined(separator: " or ") + (flags.count > 8 ? " (or another tid above)" : "")
    }

    /// Processes with a slice that `--match` selects.
    func matchingProcesses() -> Set<Int> {
        guard let rules, rules.match != nil else { return [] }
        var matches = [Bool?](repeating: nil, count: trace.names.count)
        var found = Set<Int>()
        for slice in trace.slices {
            let pid = trace.threads[Int(slice.thread)].pid
            if found.contains(pid) { continue }
            let name = Int(slice.name)
            if matches[name] == nil { matches[name] = rules.decide(trace.names[slice.name]).matches }
            if matches[name] == true { found.insert(pid) }
        }
        return found
    }

    /// The one candidate left after preferring threads in processes with
    /// slices, threads with slices, and processes `--match` selects; nil when
    /// none or several are left (`report` then says why, unless it is false).
    func pick(_ candidates: [Int], _ what: String, report: Bool = true, log: inout ImportLog) -> SliceSelection.App? {
        var list = candidates
        if list.count > 1 { list = list.filter { slicesPerProcess[trace.threads[$0].pid, default: 0] > 0 } }
        if list.count > 1 { list = list.filter { slicesPerThread[$0] > 0 } }
        if list.count > 1, rules?.match != nil {
            let matching = matchingProcesses()
            let selected = list.filter { matching.contains(trace.threads[$0].pid) }
            if !selected.isEmpty { list = selected }
        }
        if list.count == 1 { return SliceSelection.App(pid: trace.threads[list[0]].pid, mainThread: Int32(list[0])) }
        guard report else { return nil }
        if list.isEmpty {
            log.error(
                trace.file,
                withSlices.isEmpty
                    ? SliceSelection.noSlices(trace)
                    : "\(what), but none of them is in a process with slices: \(describe(candidates)). Threads with slices: \(describe(withSlices)). Say which is the app with --process NAME or \(flags(withSlices))"
            )
        } else {
            log.error(
                trace.file,
                "\(what) in several processes: \(describe(list)). Say which is the app with --process NAME or \(flags(list))\(rules?.match == nil ? " (or --match REGEX: the process whose slices it selects)" : "")"
            )
        }
        return nil
    }

    /// The app without `--process` and `--main-thread`.
    func byDefault(log: inout ImportLog) -> SliceSelection.App? {
        if let pid = trace.launchedPID { return launched(pid, log: &log) }
        let named = all.filter { trace.threads[$0].name == "main" || trace.threads[$0].isMain }
        if !named.isEmpty { return pick(named, "there are threads named 'main'", log: &log) }
        let leaders = all.filter {
            trace.threads[$0].tid == trace.threads[$0].pid && slicesPerProcess[trace.threads[$0].pid, default: 0] > 0
        }
        if leaders.count > 1, let launched = androidLaunched(leaders) { return launched }
        if leaders.count == 1 || (leaders.count > 1 && chromeMain(log: &log) == nil) {
            return pick(leaders, "no thread is named 'main', and threads whose tid equals their pid are", log: &log)
        }
        if let chrome = chromeMain(log: &log) { return chrome }
        if withSlices.isEmpty {
            log.error(trace.file, SliceSelection.noSlices(trace))
            return nil
        }
        log.error(
            trace.file,
            "cannot tell which thread is the app's main thread: no thread is named 'main' (or CrBrowserMain), and no thread's tid equals its pid. Threads with slices: \(describe(withSlices)). Name it with \(flags(withSlices)) (or its name), or the app with --process NAME"
        )
        return nil
    }

    /// Android: the process of the one package system_server's `launching:
    /// PACKAGE` markers name, when it is among `leaders` (its main thread's tid is its pid).
    func androidLaunched(_ leaders: [Int]) -> SliceSelection.App? {
        var packages = Set(trace.asyncMarkers.map(\.name))
        for slice in trace.slices where trace.names[slice.name].hasPrefix("launching: ") {
            packages.insert(trace.names[slice.name])
        }
        let names = Set(
            packages.filter { $0.hasPrefix("launching: ") }.map { String($0.dropFirst("launching: ".count)) })
        guard names.count == 1, let package = names.first else { return nil }
        let found = leaders.filter { trace.processNames[trace.threads[$0].pid] == package }
        guard found.count == 1 else { return nil }
        return SliceSelection.App(pid: trace.threads[found[0]].pid, mainThread: Int32(found[0]))
    }

    /// Chrome's main thread when the trace has exactly one browser (else one
    /// renderer) main thread with slices.
    func chromeMain(log: inout ImportLog) -> SliceSelection.App? {
        for name in ["CrBrowserMain", "CrRendererMain"] {
            let threads = withSlices.filter { trace.threads[$0].name == name }
            if threads.count == 1 {
                return SliceSelection.App(pid: trace.threads[threads[0]].pid, mainThread: Int32(threads[0]))
            }
            if threads.count > 1 { return nil }
        }
        return nil
    }

    /// Instruments: the launched process (else the one with the most intervals), its main thread.
    func launched(_ pid: Int, log: inout ImportLog) -> SliceSelection.App? {
        let threads = all.filter { trace.threads[$0].pid == pid }
        let main = threads.filter { trace.threads[$0].isMain || trace.threads[$0].name == "main" }
        if main.count == 1 { return SliceSelection.App(pid: pid, mainThread: Int32(main[0])) }
        let name = trace.processNames[pid].map { "'\($0)' " } ?? ""
        if threads.isEmpty {
            log.error(
                trace.file,
                "the exports have no signpost intervals of process \(name)(pid \(pid)), the launched app: export its os-signpost-interval (or os-signpost) table too"
            )
            return nil
        }
        log.error(
            trace.file,
            "process \(name)(pid \(pid)) \(trace.lifecycle.isEmpty ? "has the most intervals" : "is the launched app (life-cycle-period)"), but \(main.isEmpty ? "none of its threads is the one Instruments names 'Main Thread'" : "several of its threads are named as its main thread"): name it with --main-thread TID (\(flags(threads))), or the app with --process NAME. Its threads: \(describe(threads))"
        )
        return nil
    }

    /// `--main-thread NAME|TID` alone.
    func byOption(_ option: String, log: inout ImportLog) -> SliceSelection.App? {
        let candidates =
            Int(option).map { tid in all.filter { trace.threads[$0].tid == tid } }
            ?? all.filter { trace.threads[$0].name == option }
        if candidates.isEmpty {
            log.error(
                trace.file,
                "--main-thread '\(option)': no thread \(Int(option) == nil ? "named" : "with tid") \(option) in this trace. Threads with slices: \(withSlices.isEmpty ? "none" : describe(withSlices))"
            )
            return nil
        }
        return pick(candidates, "--main-thread '\(option)' matches threads", log: &log)
    }

    /// `--process NAME` (with `--main-thread` inside it, when given).
    func byProcess(_ name: String, mainThread option: String?, log: inout ImportLog) -> SliceSelection.App? {
        func basename(_ text: String) -> Substring { text.split(separator: "/").last ?? Substring(text) }
        var pids = Set(trace.processNames.filter { $0.value == name }.keys)
        if pids.isEmpty { pids = Set(trace.processNames.filter { basename($0.value) == basename(name) }.keys) }
        if pids.count > 1 { pids = pids.filter { slicesPerProcess[$0, default: 0] > 0 } }
        guard pids.count == 1, let pid = pids.first else {
            let processes = Set(trace.threads.map(\.pid)).filter { slicesPerProcess[$0, default: 0] > 0 }.sorted()
            let listed = processes.prefix(12).map { pid in
                "\(trace.processNames[pid].map { "'\($0)' " } ?? "")pid \(pid) (\(plural(slicesPerProcess[pid]!, "slice")))"
            }
            log.error(
                trace.file,
                pids.isEmpty
                    ? "--process '\(name)': no process has that name in this trace. Processes with slices: \(listed.isEmpty ? "none" : listed.joined(separator: "; "))"
                    : "--process '\(name)': several processes with that name have slices (pids \(pids.sorted().map(String.init).joined(separator: ", "))); say which with --main-thread TID"
            )
            return nil
        }
        let threads = trace.threads.indices.filter { trace.threads[$0].pid == pid }
        var candidates: [Int]
        if let option {
            candidates = threads.filter { k in
                Int(option).map { trace.threads[k].tid == $0 } ?? (trace.threads[k].name == option)
            }
            if candidates.isEmpty {
                log.error(
                    trace.file,
                    "--main-thread '\(option)': process '\(name)' (pid \(pid)) has no thread \(Int(option) == nil ? "named" : "with tid") \(option). Its threads: \(threads.isEmpty ? "none" : describe(threads))"
                )
                return nil
            }
        } else {
            candidates = threads.filter { trace.threads[$0].name == "main" || trace.threads[$0].isMain }
            if candidates.isEmpty { candidates = threads.filter { trace.threads[$0].tid == pid } }
            if candidates.isEmpty {
                candidates = threads.filter { ["CrBrowserMain", "CrRendererMain"].contains(trace.threads[$0].name) }
            }
        }
        guard candidates.count == 1 else {
            let list = candidates.isEmpty ? threads.filter { slicesPerThread[$0] > 0 } : candidates
            log.error(
                trace.file,
                "--process '\(name)' (pid \(pid)): \(candidates.isEmpty ? "no thread is named 'main' and none has the pid as its tid" : "several threads are named '\(option ?? "main")'"): name its main thread with --main-thread TID (\(list.isEmpty ? "none has slices" : flags(list))). Its threads: \(threads.isEmpty ? "none" : describe(threads))"
            )
            return nil
        }
        return SliceSelection.App(pid: pid, mainThread: Int32(candidates[0]))
    }
}

extension SliceSelection {
    /// The app's main thread, or nil after an error that lists the candidates
    /// and the flag that picks each (``AppChoice``).
    static func chooseApp(
        _ trace: Trace, mainThread option: String?, process: String? = nil, rules: SelectionRules? = nil,
        log: inout ImportLog
    ) -> App? {
        let choice = AppChoice(trace, rules: rules)
        if let process { return choice.byProcess(process, mainThread: option, log: &log) }
        if let option { return choice.byOption(option, log: &log) }
        return choice.byDefault(log: &log)
    }

    /// The error for a trace without a slice, in its format's terms.
    static func noSlices(_ trace: Trace) -> String {
        switch trace.format {
        case .xctrace:
            "the exports have no signpost intervals (no os-signpost-interval rows, no os-signpost Begin/End pairs): export the app's os-signpost-interval (or os-signpost) table too; nothing to import"
        case .perfetto:
            "the Perfetto trace has no slices (no TrackEvent slices with a known track, no atrace sections in ftrace print events\(trace.readerNotes.isEmpty ? "" : "; see the notes for what was left out")): nothing to import (was the track_event data source, or atrace with the app's category, recorded?)"
        case .atrace, .systrace:
            "\(trace.format == .systrace ? "systrace HTML" : "the atrace text") has no complete tracing_mark_write B/E sections: nothing to import"
        case .chrome, .launchflow:
            "the trace has no slices (no 'X' events and no 'B'/'E' pairs): nothing to import"
        }
    }
}
