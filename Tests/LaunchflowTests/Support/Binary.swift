import Foundation
import LaunchflowCLI

/// `launchflow` as the tests run it: in process through the CLI's streams
/// seam (fast, for the many small cases), or as the built executable (a
/// dependency of this test target, so SwiftPM builds it first), run as a
/// user would — for the end-to-end cases and whenever a test needs another
/// working directory or environment.
struct Launchflow {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let url = builtExecutable("launchflow")

    /// Runs `launchflow args…` in `directory` (the repository root by default):
    /// in process when that is this process's working directory and no
    /// environment is added, otherwise as the executable.
    static func run(_ args: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:]) throws
        -> Output
    {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        guard environment.isEmpty, directory.standardizedFileURL == here else {
            return try runBinary(args, in: directory, environment: environment)
        }
        return runInProcess(args)
    }

    /// Runs the CLI in this process, its output captured.
    static func runInProcess(_ args: [String]) -> Output {
        var streams: any OutputStreams = CapturedStreams()
        let status = LaunchflowCommand.main(args, streams: &streams)
        let captured = streams as! CapturedStreams
        return Output(status: status, stdout: captured.outputText, stderr: captured.error)
    }

    /// Runs the built executable in `directory` (the repository root by
    /// default); `environment` entries are added to this process's environment.
    static func runBinary(
        _ args: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:]
    ) throws -> Output {
        try runProcess(url, args, in: directory, environment: environment)
    }
}

/// The executable `name` built beside the test runner (a dependency of the
/// test target, so SwiftPM builds it first), else the debug build's.
func builtExecutable(_ name: String) -> URL {
    // The test runner sits in the build products folder, beside the executable.
    let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var folder = runner.deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return repositoryRoot.appendingPathComponent(".build/debug/\(name)")
}

/// Runs `executable` with `arguments` to completion (stdin empty), its output
/// captured — the one way the tests start a process (the launchflow binary,
/// Chromium, Python).
func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
) throws -> Launchflow.Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    // Output goes to files: no pipe can fill up and block the child.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lf-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outURL = folder.appendingPathComponent("out")
    let errURL = folder.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let outData = try Data(contentsOf: outURL)
    let errData = try Data(contentsOf: errURL)
    return Launchflow.Output(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}
