import Foundation
import Testing

@testable import LaunchflowCore

/// Signals (issue 39, item 6): the library installs no handler in the
/// process that links it; the `launchflow` executable does, and a signal in
/// the middle of a write still leaves no temporary file behind.
@Suite struct SignalTests {
    /// LaunchflowCore writes its files atomically and registers their
    /// temporary files, but the process linking it keeps its own dispositions.
    @Test func theLibraryInstallsNoSignalHandler() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try writeFileAtomically(Array("x".utf8), to: folder.path("a.json"))
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            #expect(isDefaultDisposition(signal), "signal \(signal) has a handler after a write")
        }
    }

    /// `launchflow import BIG --out FILE`, signalled as soon as its temporary
    /// file appears: it dies of that signal, removes the temporary file and
    /// leaves the old FILE as it was (or the new one whole). The write may end before the signal
    /// lands (a fast disk): the run is then tried again, and at least one of
    /// five must be hit mid-write.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalMidWriteRemovesTheTemporaryFile(_ signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var events = [#"{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "main"}}"#]
        for i in 0..<20000 {
            events.append(
                #"{"name": "task-\#(i)-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "ph": "X", "pid": 1, "tid": 1, "ts": \#(i * 10), "dur": 5}"#
            )
        }
        let big = try folder.write("big-trace.json", #"{"traceEvents": ["# + events.joined(separator: ", ") + "]}")
        let out = try folder.write("out.json", "old")
        var hits = 0
        for _ in 0..<5 where hits == 0 {
            let pid = try spawnQuietly(builtExecutable("launchflow").path, ["import", big, "--out", out])
            var hit = false
            var status: Int32 = 0
            // Polled without a pause: the temporary file lives a few milliseconds.
            let deadline = Date().addingTimeInterval(60)
            while waitpid(pid, &status, WNOHANG) == 0 && Date() < deadline {
                if try temporaryFiles(in: folder).isEmpty == false {
                    hit = true
                    break
                }
            }
            kill(pid, signal)
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // WIFSIGNALED and WTERMSIG, which Swift does not import: the low 7 bits are the signal.
            let killedBy = status & 0x7F
            if hit && killedBy != 0 {
                hits += 1
                #expect(killedBy == signal)
                // The old file, or the new one whole when the signal landed just after the rename.
                let data = try Data(contentsOf: URL(fileURLWithPath: out))
                #expect(data == Data("old".utf8) || (try? JSONSerialization.jsonObject(with: data)) != nil)
            }
            #expect(try temporaryFiles(in: folder) == [], "signal \(signal)\(hit ? " mid-write" : "")")
            try "old".write(toFile: out, atomically: false, encoding: .utf8)
        }
        #expect(hits == 1, "no run was signalled in the middle of its write")
    }

    private func temporaryFiles(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".out.json.tmp-") }
    }
}
