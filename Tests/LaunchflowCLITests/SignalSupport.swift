import Foundation

// What SignalTests need of the C library, where Glibc and Darwin differ.

/// Whether `signal`'s disposition in this process is the default one.
func isDefaultDisposition(_ signal: Int32) -> Bool {
    var current = sigaction()
    guard sigaction(signal, nil, &current) == 0 else { return false }
    #if os(Linux)
        return current.__sigaction_handler.sa_handler == nil
    #elseif canImport(Darwin)
        return current.__sigaction_u.__sa_handler == nil
    #endif
}

/// Starts `path` with `arguments`, its output to /dev/null; the caller waits for it. The child
/// starts with no signal blocked and the default dispositions: the test runner blocks some (its
/// threads wait for them), and a blocked mask is inherited across exec.
func spawnQuietly(_ path: String, _ arguments: [String]) throws -> pid_t {
    // Glibc's types are structs, Darwin's opaque pointers.
    #if os(Linux)
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
    #elseif canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
        let mode = descriptor == 0 ? O_RDONLY : O_WRONLY
        posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", mode, 0)
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for string in argv + environment { free(string) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
    guard code == 0 else { throw CocoaError(.executableLoad) }
    return pid
}
