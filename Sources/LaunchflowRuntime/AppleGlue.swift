// Apple's frame clock and signposts for the runtime (docs/runtime.md, "On Apple
// platforms"). Neither builds here (Linux has no QuartzCore nor os): both are
// type-checked against stand-ins of the declarations they use
// (Tools/portability/AppleFrameworkStandIns.swift, darwin_typecheck.py).

#if canImport(UIKit)
    import Dispatch
    import Foundation
    import LaunchflowModel
    import QuartzCore

    /// The frame clock of an app on iOS, iPadOS, tvOS, visionOS and Mac
    /// Catalyst: when a commit ends, a `CADisplayLink` is added to the main
    /// run loop; its first callback's `targetTimestamp` — the time the frame
    /// it starts is displayed, at the display's own refresh rate (120 Hz on
    /// ProMotion) — is the commit's presentation, converted to the launch
    /// clock's µs, and the link is invalidated.
    ///
    /// `origin` must be the launch's (`Launch(…, origin:)`): the launch clock
    /// counts from `origin.uptimeNanoseconds`, and `targetTimestamp` is in
    /// `CACurrentMediaTime()`'s seconds — both `mach_absolute_time`, so the
    /// conversion is exact.
    public final class DisplayLinkFrameClock: FrameClock {
        private let origin: UInt64
        /// The frame rates the link asks for (`CADisplayLink.preferredFrameRateRange`);
        /// on iPhone above 60 Hz only with `CADisableMinimumFrameDurationOnPhone` in Info.plist.
        private let maximumFramesPerSecond: Float

        public init(origin: DispatchTime, maximumFramesPerSecond: Float = 120) {
            self.origin = origin.uptimeNanoseconds
            self.maximumFramesPerSecond = maximumFramesPerSecond
        }

        public func commitEnded(at time: Micros, presented: @escaping @Sendable (Micros) -> Void) {
            let origin = origin
            let fps = maximumFramesPerSecond
            // The runtime calls this from its commit observer, on the main thread, whose run loop the link joins.
            guard Thread.isMainThread else {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { FirstFrameLink.start(origin: origin, fps: fps, presented: presented) }
                }
                return
            }
            MainActor.assumeIsolated { FirstFrameLink.start(origin: origin, fps: fps, presented: presented) }
        }

        /// `mediaTime` (`CACurrentMediaTime()`'s seconds) in µs of a launch clock counting from `origin`.
        static func launchMicros(mediaTime: CFTimeInterval, origin: UInt64) -> Micros {
            let nanos = UInt64((mediaTime * 1e9).rounded())
            return nanos > origin ? Micros((nanos - origin) / 1000) : 0
        }
    }

    /// One display link, for one commit: the target of its first callback.
    @MainActor
    private final class FirstFrameLink: NSObject {
        private let origin: UInt64
        private let presented: @Sendable (Micros) -> Void

        private init(origin: UInt64, presented: @escaping @Sendable (Micros) -> Void) {
            self.origin = origin
            self.presented = presented
        }

        static func start(origin: UInt64, fps: Float, presented: @escaping @Sendable (Micros) -> Void) {
            // The link keeps its target until it is invalidated, in the first callback.
            let target = FirstFrameLink(origin: origin, presented: presented)
            let link = CADisplayLink(target: target, selector: #selector(frame(_:)))
            link.preferredFrameRateRange = CAFrameRateRange(minimum: fps / 2, maximum: fps, preferred: fps)
            link.add(to: .main, forMode: .common)
        }

        @objc private func frame(_ link: CADisplayLink) {
            link.invalidate()
            presented(DisplayLinkFrameClock.launchMicros(mediaTime: link.targetTimestamp, origin: origin))
        }
    }
#endif

#if canImport(os)
    import os
    import LaunchflowModel

    /// A trace sink for Instruments: an `OSSignposter` interval around each
    /// task's body, named ``LaunchSignposts/taskInterval`` with the task's id
    /// as its message (public, so that a recording shows it), which
    /// `launchflow import` of an `xctrace export` of the signpost intervals
    /// reads back as that task (docs/import.md, "Recording on iOS").
    public final class SignpostTraceSink: LaunchTraceSink {
        private let subsystem: String
        private let category: String
        /// Each open interval's signpost ID (its raw value), by task id.
        private let open = Locked<[String: UInt64]>([:])

        /// Signposts of `subsystem` (your app's bundle id) in `category`.
        public init(subsystem: String, category: String = "launchflow") {
            self.subsystem = subsystem
            self.category = category
        }

        /// A signposter per call: neither `OSSignposter` nor an interval's
        /// state is documented as Sendable, and the sink is called on every thread.
        private var signposter: OSSignposter { OSSignposter(subsystem: subsystem, category: category) }

        public func taskBegan(_ id: String, thread: Int) {
            let signposter = signposter
            let signpost = signposter.makeSignpostID()
            open.withLock { $0[id] = signpost.rawValue }
            _ = signposter.beginInterval(LaunchSignposts.taskInterval, id: signpost, "\(id, privacy: .public)")
        }

        public func taskEnded(_ id: String, thread: Int) {
            guard let raw = open.withLock({ $0.removeValue(forKey: id) }) else { return }
            // The interval's state again from its ID (what beginState(id:) is for; the raw ID is Sendable).
            signposter.endInterval(LaunchSignposts.taskInterval, .beginState(id: OSSignpostID(raw)))
        }
    }
#endif
