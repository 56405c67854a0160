import Foundation
import Testing

@testable import LaunchflowCore
@testable import LaunchflowImport

/// Which process is the app: `--process NAME` (JSON and Perfetto alike),
/// `--main-thread TID`, and, when several processes qualify, the one whose
/// slices `--match` selects.
struct AppChoiceTests {
    /// Two processes, each with a main thread whose tid is its pid, and slices.
    static let twoApps = """
        {"traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 300, "args": {"name": "com.example.app"}},
        {"ph": "M", "name": "process_name", "pid": 200, "args": {"name": "com.android.systemui"}},
        {"ph": "X", "name": "launch:network", "pid": 300, "tid": 300, "ts": 10, "dur": 5},
        {"ph": "X", "name": "launch:ui", "pid": 300, "tid": 301, "ts": 12, "dur": 7},
        {"ph": "X", "name": "StatusBar.draw", "pid": 200, "tid": 200, "ts": 11, "dur": 3}
        ]}
        """

    static func ids(_ path: String, _ options: ImportOptions) throws -> [String] {
        let outcome = try TraceImport.run(ImportRequest(traces: [path], options: options))
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.scenario)) as? [String: Any])
        return (object["tasks"] as? [[String: Any]] ?? []).map { $0["id"] as! String }
    }

    static func error(_ path: String, _ options: ImportOptions) -> String {
        do {
            _ = try TraceImport.run(ImportRequest(traces: [path], options: options))
            return ""
        } catch {
            return error.log.text
        }
    }

    @Test func severalCandidatesAreAnErrorNamingThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("two.json", Self.twoApps)
        let text = Self.error(path, ImportOptions())
        #expect(text.contains("in several processes"))
        #expect(text.contains("'com.example.app'") && text.contains("'com.android.systemui'"))
        #expect(text.contains("--process NAME"))
    }

    @Test func matchChoosesTheProcessWhoseSlicesItSelects() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("two.json", Self.twoApps)
        #expect(try Self.ids(path, ImportOptions(match: "^launch:")) == ["launch:network", "launch:ui"])
    }

    @Test func processNamesTheApp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("two.json", Self.twoApps)
        #expect(try Self.ids(path, ImportOptions(process: "com.android.systemui")) == ["StatusBar.draw"])
        #expect(try Self.ids(path, ImportOptions(process: "com.example.app")) == ["launch:network", "launch:ui"])
        // --main-thread inside the process.
        #expect(
            try Self.ids(path, ImportOptions(mainThread: "301", process: "com.example.app")) == [
                "launch:network", "launch:ui",
            ])
        let unknown = Self.error(path, ImportOptions(process: "com.example"))
        #expect(unknown.contains("--process 'com.example': no process has that name"))
        #expect(unknown.contains("'com.example.app' pid 300 (2 slices)"))
        let noThread = Self.error(path, ImportOptions(mainThread: "999", process: "com.example.app"))
        #expect(noThread.contains("has no thread with tid 999"))
    }

    @Test func processWorksOnPerfettoTraces() throws {
        let path = ImportTests.fixture("perfetto-atrace.pftrace.gz")
        #expect(
            try Self.ids(path, ImportOptions(process: "com.acme.shop")) == [
                "OpenDexFilesFromOat(/data/app/~~x==/base.apk)", "Application.onCreate", "network-config",
                "MainActivity.onCreate",
            ])
        let systemServer = Self.error(path, ImportOptions(process: "system_server"))
        #expect(systemServer.contains("name its main thread with --main-thread TID"))
        #expect(try Self.ids(path, ImportOptions(mainThread: "1530", process: "system_server")) == ["bindApplication"])
    }
}
