import Dispatch
import Foundation

#if canImport(Darwin)
    import Darwin
#endif

/// How busy the machine's CPUs were with other processes while replay ran:
/// the CPU time the system counts, less the time of replay's own children.
///
/// Linux reads /proc/stat (busy is every state but idle and iowait; the
/// hypervisor's steal is its own column). Darwin reads the host's CPU ticks
/// (`host_statistics`, HOST_CPU_LOAD_INFO: user, system, idle, nice) and has
/// no steal to read: that is "not measured on this OS" (nil). Elsewhere
/// neither is measured.
struct LoadMeter {
    let start = DispatchTime.now().uptimeNanoseconds
    let busy = LoadMeter.ticks()
    let children = LoadMeter.childrenMicros()

    /// The fraction (0…1) of all CPUs' time other processes used (a hypervisor's steal included); nil when
    /// the system's CPU time cannot be read.
    func otherProcesses() -> Double? {
        guard let before = busy, let after = LoadMeter.ticks(), let span = span() else { return nil }
        let ours = Double(LoadMeter.childrenMicros() - children) / 1e6
        return min(1, max(0, (Double(after.busy - before.busy) / span.ticks - ours) / span.cpuSeconds))
    }

    /// The fraction (0…1) of all CPUs' time the hypervisor took (/proc/stat's steal): on a virtual machine,
    /// time a thread was runnable, and counted as running, but no CPU ran it. Nil where it is not measured.
    func steal() -> Double? {
        guard let before = busy, let after = LoadMeter.ticks(), let span = span() else { return nil }
        guard let stolenBefore = before.steal, let stolenAfter = after.steal else { return nil }
        return min(1, max(0, Double(stolenAfter - stolenBefore) / span.ticks / span.cpuSeconds))
    }

    private func span() -> (ticks: Double, cpuSeconds: Double)? {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpus = Double(ProcessInfo.processInfo.activeProcessorCount)
        guard wall > 0, ticks > 0 else { return nil }
        return (ticks, wall * cpus)
    }

    /// The CPUs' busy time since boot in clock ticks, and the hypervisor's steal where it is known.
    static func ticks() -> (busy: Int, steal: Int?)? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
            else { return nil }
            let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
            guard fields.count >= 4 else { return nil }
            // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
            let busy = fields.enumerated().filter { $0.offset != 3 && $0.offset != 4 && $0.offset < 8 }.reduce(0) {
                $0 + $1.element
            }
            return (busy, fields.count > 7 ? fields[7] : 0)
        #elseif canImport(Darwin)
            var info = host_cpu_load_info()
            var count = mach_msg_type_number_t(
                MemoryLayout<host_cpu_load_info_data_t>.size / MemoryLayout<integer_t>.size)
            let result = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    host_statistics(mach_host_self(), HOST_CPU_LOAD_INFO, $0, &count)
                }
            }
            guard result == KERN_SUCCESS else { return nil }
            // CPU_STATE_USER, CPU_STATE_SYSTEM, CPU_STATE_IDLE, CPU_STATE_NICE: busy is all but idle.
            let ticks = info.cpu_ticks
            return (Int(ticks.0) + Int(ticks.1) + Int(ticks.3), nil)
        #else
            return nil
        #endif
    }

    /// The user and system CPU time of the children this process has waited for, in µs.
    static func childrenMicros() -> Int {
        var usage = rusage()
        // Glibc imports RUSAGE_CHILDREN as an enum struct, Darwin as an Int32.
        #if os(Linux)
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return (Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec)) * 1_000_000 + Int(usage.ru_utime.tv_usec)
            + Int(usage.ru_stime.tv_usec)
    }
}
