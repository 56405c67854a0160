import Dispatch
import Foundation

/// Runs the launchflow binary beside this one with stdout (and, `quiet`, stderr)
/// to /dev/null; returns wall seconds, the child's peak RSS in MiB and its CPU
/// seconds (posix_spawn + wait4, so the time is not rounded the way
/// Foundation's `Process.waitUntilExit` polls).
func runCommand(_ args: [String], quiet: Bool = false) throws -> (seconds: Double, peakMiB: Double, cpuSeconds: Double)
{
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "launchflow"
    ).path
    // Glibc's posix_spawn_file_actions_t is a struct, Darwin's an optional opaque pointer.
    #if os(Linux)
        var actions = posix_spawn_file_actions_t()
    #elseif canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    let argv = ([binary] + args).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + environment { free(pointer) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, binary, &actions, nil, argv, environment) == 0 else {
        throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot run \(binary)"])
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return (elapsed, peakMiB(usage), cpu(usage.ru_utime) + cpu(usage.ru_stime))
}

/// The peak resident size `wait4` reports, in MiB: Linux counts it in KiB, Darwin in bytes.
func peakMiB(_ usage: rusage) -> Double {
    #if os(Linux)
        Double(usage.ru_maxrss) / 1024
    #elseif canImport(Darwin)
        Double(usage.ru_maxrss) / 1024 / 1024
    #endif
}
