import CoreFoundation
import Dispatch
import Foundation
import LaunchflowModel

// The run loop, the one place the runtime touches CoreFoundation. Apple's
// spelling differs from swift-corelibs' in a few names; the shims below are
// the only difference (docs/runtime.md, "On Apple platforms").

/// The launch clock: µs since an origin, monotonic.
struct LaunchClock: Sendable {
    let origin: UInt64

    init(origin: UInt64 = DispatchTime.now().uptimeNanoseconds) { self.origin = origin }

    var now: Micros { Micros((DispatchTime.now().uptimeNanoseconds &- origin) / 1000) }
}

/// The calling thread's CPU time, µs (`CLOCK_THREAD_CPUTIME_ID`, on Linux
/// and Darwin alike): read around a task's body, the time the body ran on
/// a CPU — its wall time less what it waited for (I/O, a lock, preemption).
func threadCPUTime() -> Micros {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
    return Micros(time.tv_sec) * 1_000_000 + Micros(time.tv_nsec) / 1000
}

/// The run-loop modes the observers are added to.
var commonModes: CFRunLoopMode {
    #if canImport(Darwin)
        CFRunLoopMode.commonModes
    #else
        kCFRunLoopCommonModes
    #endif
}

/// The run loop's activity the observers watch: about to sleep.
var beforeWaiting: CFOptionFlags { CFRunLoopActivity.beforeWaiting.rawValue }

/// A BeforeWaiting observer on the main run loop, at `order` (Core
/// Animation's commit observer is at 2,000,000), calling `body` on the main
/// thread each time the loop is about to sleep. Made, added and removed on
/// the main thread: the main actor's.
@MainActor
final class RunLoopObserver {
    private var observer: CFRunLoopObserver?

    init(order: Int, _ body: @escaping @MainActor () -> Void) {
        observer = CFRunLoopObserverCreateWithHandler(kCFAllocatorDefault, beforeWaiting, true, CFIndex(order)) {
            _, _ in MainActor.assumeIsolated { body() }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, commonModes)
    }

    func remove() {
        guard let observer else { return }
        CFRunLoopObserverInvalidate(observer)
        self.observer = nil
    }
}

/// Wakes the main run loop for one more iteration (an idle task left, or
/// one made ready while it sleeps).
func wakeMainRunLoop() {
    CFRunLoopWakeUp(CFRunLoopGetMain())
}
