// Darwin's spellings of what launchflow's Darwin branches call, for type-checking those branches on
// Linux (Tools/portability/darwin_typecheck.py). Each declaration is the Swift import of Apple's
// header, written by hand from the header named beside it (macOS 13 SDK and later): Darwin's own
// types where a Glibc name would otherwise answer (a declaration here shadows Glibc's), and, where
// Swift cannot declare the name again (the struct `sigaction` beside the function), an extension
// giving Glibc's struct Darwin's field. Bodies are never run: this file only has to type-check.
//
// What this cannot show: that Apple's SDK says exactly this (a stand-in written wrong type-checks
// a wrong call), availability, and anything the branches do at run time.
import Foundation

// MARK: <sys/signal.h>: struct sigaction's handler union.

/// `union __sigaction_u { void (*__sa_handler)(int); void (*__sa_sigaction)(int, struct __siginfo *, void *); }`
struct __sigaction_u {
    var __sa_handler: (@convention(c) (Int32) -> Void)?
    var __sa_sigaction: (@convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void)?
}

extension sigaction {
    /// Darwin's `struct sigaction { union __sigaction_u __sigaction_u; sigset_t sa_mask; int sa_flags; }`.
    var __sigaction_u: __sigaction_u {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

// MARK: <sys/resource.h>

/// `#define RUSAGE_CHILDREN -1` (an Int32, where Glibc has the enum `__rusage_who`).
let RUSAGE_CHILDREN: Int32 = -1
/// `int getrusage(int, struct rusage *)`.
func getrusage(_ who: Int32, _ usage: UnsafeMutablePointer<rusage>!) -> Int32 { fatalError("stand-in") }
/// `#define PRIO_PROCESS 0` (an Int32, where Glibc has the enum `__priority_which`).
let PRIO_PROCESS: Int32 = 0
/// `int getpriority(int, id_t)`.
func getpriority(_ which: Int32, _ who: id_t) -> Int32 { fatalError("stand-in") }
/// `int setpriority(int, id_t, int)`.
func setpriority(_ which: Int32, _ who: id_t, _ prio: Int32) -> Int32 { fatalError("stand-in") }

// MARK: <spawn.h>: opaque pointers, where Glibc has structs.

typealias posix_spawnattr_t = UnsafeMutableRawPointer
typealias posix_spawn_file_actions_t = UnsafeMutableRawPointer
func posix_spawnattr_init(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 { fatalError("stand-in") }
func posix_spawnattr_destroy(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!) -> Int32 { fatalError("stand-in") }
func posix_spawnattr_setflags(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!, _ flags: Int16) -> Int32 {
    fatalError("stand-in")
}
func posix_spawnattr_setsigmask(_ attr: UnsafeMutablePointer<posix_spawnattr_t?>!, _ mask: UnsafePointer<sigset_t>!)
    -> Int32
{ fatalError("stand-in") }
func posix_spawnattr_setsigdefault(
    _ attr: UnsafeMutablePointer<posix_spawnattr_t?>!, _ mask: UnsafePointer<sigset_t>!
) -> Int32 { fatalError("stand-in") }
func posix_spawn_file_actions_init(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!) -> Int32 {
    fatalError("stand-in")
}
func posix_spawn_file_actions_destroy(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!) -> Int32 {
    fatalError("stand-in")
}
func posix_spawn_file_actions_addopen(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!, _ descriptor: Int32, _ path: UnsafePointer<CChar>!,
    _ flags: Int32, _ mode: mode_t
) -> Int32 { fatalError("stand-in") }
func posix_spawn(
    _ pid: UnsafeMutablePointer<pid_t>!, _ path: UnsafePointer<CChar>!,
    _ actions: UnsafePointer<posix_spawn_file_actions_t?>!, _ attr: UnsafePointer<posix_spawnattr_t?>!,
    _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>!, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>!
) -> Int32 { fatalError("stand-in") }

// MARK: <mach/mach_types.h>, <mach/host_info.h>, <mach/task_info.h>, <mach/kern_return.h>

typealias natural_t = UInt32
typealias integer_t = Int32
typealias kern_return_t = Int32
typealias mach_port_t = UInt32
typealias mach_msg_type_number_t = natural_t
typealias host_t = mach_port_t
typealias host_flavor_t = integer_t
typealias host_info_t = UnsafeMutablePointer<integer_t>
typealias task_name_t = mach_port_t
typealias task_flavor_t = natural_t
typealias task_info_t = UnsafeMutablePointer<integer_t>
typealias mach_vm_size_t = UInt64
typealias policy_t = Int32
let KERN_SUCCESS: Int32 = 0

/// `struct host_cpu_load_info { natural_t cpu_ticks[CPU_STATE_MAX]; }`: user, system, idle, nice.
struct host_cpu_load_info {
    var cpu_ticks: (natural_t, natural_t, natural_t, natural_t) = (0, 0, 0, 0)
}
typealias host_cpu_load_info_data_t = host_cpu_load_info
/// `#define HOST_CPU_LOAD_INFO 3`.
let HOST_CPU_LOAD_INFO: Int32 = 3
func mach_host_self() -> mach_port_t { fatalError("stand-in") }
func host_statistics(
    _ host: host_t, _ flavor: host_flavor_t, _ info: host_info_t!, _ count: UnsafeMutablePointer<mach_msg_type_number_t>!
) -> kern_return_t { fatalError("stand-in") }

struct time_value_t {
    var seconds: integer_t = 0
    var microseconds: integer_t = 0
}
/// `struct mach_task_basic_info`.
struct mach_task_basic_info {
    var virtual_size: mach_vm_size_t = 0
    var resident_size: mach_vm_size_t = 0
    var resident_size_max: mach_vm_size_t = 0
    var user_time = time_value_t()
    var system_time = time_value_t()
    var policy: policy_t = 0
    var suspend_count: integer_t = 0
}
/// `#define MACH_TASK_BASIC_INFO 20`.
let MACH_TASK_BASIC_INFO: Int32 = 20
/// `extern mach_port_t mach_task_self_;`
var mach_task_self_: mach_port_t { fatalError("stand-in") }
func task_info(
    _ task: task_name_t, _ flavor: task_flavor_t, _ info: task_info_t!, _ count: UnsafeMutablePointer<mach_msg_type_number_t>!
) -> kern_return_t { fatalError("stand-in") }

// MARK: <sys/qos.h>, <pthread/qos.h>: a thread's quality-of-service class
// (https://developer.apple.com/documentation/dispatch/qos_class_t; the functions as Apple's header
// https://opensource.apple.com/source/libpthread/libpthread-105.1.4/pthread/qos.h.auto.html declares them).

/// `typedef enum : unsigned int { … } qos_class_t`, imported as a struct with the constants below.
struct qos_class_t: Equatable, RawRepresentable {
    var rawValue: UInt32
    init(_ rawValue: UInt32) { self.rawValue = rawValue }
    init(rawValue: UInt32) { self.rawValue = rawValue }
}
var QOS_CLASS_USER_INTERACTIVE: qos_class_t { qos_class_t(0x21) }
var QOS_CLASS_USER_INITIATED: qos_class_t { qos_class_t(0x19) }
var QOS_CLASS_DEFAULT: qos_class_t { qos_class_t(0x15) }
var QOS_CLASS_UTILITY: qos_class_t { qos_class_t(0x11) }
var QOS_CLASS_BACKGROUND: qos_class_t { qos_class_t(0x09) }
var QOS_CLASS_UNSPECIFIED: qos_class_t { qos_class_t(0x00) }
/// `int pthread_set_qos_class_self_np(qos_class_t __qos_class, int __relative_priority)`.
func pthread_set_qos_class_self_np(_ __qos_class: qos_class_t, _ __relative_priority: Int32) -> Int32 {
    fatalError("stand-in")
}
/// `int pthread_get_qos_class_np(pthread_t __pthread, qos_class_t *__qos_class, int *__relative_priority)`.
func pthread_get_qos_class_np(
    _ __pthread: pthread_t, _ __qos_class: UnsafeMutablePointer<qos_class_t>!,
    _ __relative_priority: UnsafeMutablePointer<Int32>!
) -> Int32 { fatalError("stand-in") }
