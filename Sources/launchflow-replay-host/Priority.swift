#if os(Linux)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The process's nice value, in each C library's spelling: Glibc takes the enum
// `__priority_which` for `which`, Darwin an `int` (`PRIO_PROCESS` a macro).
// Tools/portability/darwin_typecheck.py type-checks the Darwin branch.

/// Sets this process's nice value (`setpriority(PRIO_PROCESS, 0, value)`); false when refused (not root).
@discardableResult
func setProcessNice(_ value: Int32) -> Bool {
    #if os(Linux)
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, value) == 0
    #else
        setpriority(PRIO_PROCESS, 0, value) == 0
    #endif
}

/// This process's nice value (`getpriority(PRIO_PROCESS, 0)`).
func processNice() -> Int {
    #if os(Linux)
        Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
    #else
        Int(getpriority(PRIO_PROCESS, 0))
    #endif
}
