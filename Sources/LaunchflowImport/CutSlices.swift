import LaunchflowCore

/// Slices the recording cut (begun before it started, or still running when
/// it stopped), summed per thread: a thread with one says it as its reader
/// worded it; a thread with several gets one warning with the counts, the
/// first few names and where the first is — the shape, not a flood.
struct CutSlices {
    struct PerThread {
        var first: ImportDiagnostic
        var neverEnd = 0
        var neverEndNames: [String] = []
        var endOnly = 0
    }

    private(set) var threads: [Int32: PerThread] = [:]

    /// A cut slice on `thread`: `name` when it never ends, nil for an end
    /// with nothing open; `diagnostic` is what its reader says of it.
    mutating func record(thread: Int32, neverEnds name: String?, isEnd: Bool, _ diagnostic: ImportDiagnostic) {
        var entry = threads[thread] ?? PerThread(first: diagnostic)
        if isEnd {
            entry.endOnly += 1
        } else {
            entry.neverEnd += 1
            if let name, entry.neverEndNames.count < 4, !entry.neverEndNames.contains(name) {
                entry.neverEndNames.append(name)
            }
        }
        threads[thread] = entry
    }

    /// One warning per thread of process `pid`, in thread order.
    func diagnostics(of pid: Int, in trace: Trace) -> [ImportDiagnostic] {
        threads.keys.sorted().filter { trace.threads[Int($0)].pid == pid }.map { index in
            let entry = threads[index]!
            guard entry.neverEnd + entry.endOnly > 1 else { return entry.first }
            var parts: [String] = []
            if entry.neverEnd > 0 {
                let names = entry.neverEndNames.map { "'\($0)'" }.joined(separator: ", ")
                let more = entry.neverEnd > entry.neverEndNames.count ? ", …" : ""
                parts.append(
                    "\(entry.neverEnd) never \(entry.neverEnd == 1 ? "ends" : "end") (still running when it stopped: \(names)\(more))"
                )
            }
            if entry.endOnly > 0 {
                parts.append(
                    "\(entry.endOnly) \(entry.endOnly == 1 ? "ends" : "end") with nothing open (begun before it started)"
                )
            }
            let first = [entry.first.line.map { "line \($0)" }, entry.first.location].compactMap { $0 }
                .joined(separator: ": ")
            return ImportDiagnostic(
                .warning, file: trace.file, location: trace.describe(thread: index),
                message:
                    "\(entry.neverEnd + entry.endOnly) slices the recording cut, not imported: \(parts.joined(separator: "; ")); the first at \(first): \(entry.first.message)"
            )
        }
    }
}
