import Foundation

/// The resident set size of this process in KiB: /proc/self/status on Linux, the task's basic info on Darwin.
func residentKiB() throws -> Int {
    #if os(Linux)
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw CocoaError(.fileReadCorruptFile) }
        return kib
    #elseif canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        guard result == KERN_SUCCESS else { throw CocoaError(.fileReadUnknown) }
        return Int(info.resident_size / 1024)
    #endif
}
