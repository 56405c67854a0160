// Apple frameworks' declarations that the runtime's Apple glue uses
// (Sources/LaunchflowRuntime/AppleGlue.swift), for type-checking it on Linux
// (Tools/portability/darwin_typecheck.py): QuartzCore's display link and os's
// signposter, each as Apple's documentation page beside it declares it in Swift,
// and only what the glue calls. Checked together with DarwinStandIns.swift, the
// ObjectiveC stand-in module (ObjectiveCStandIn.swift: `Selector`, for
// `#selector`) and two Objective-C classes (objc/classes.h: NSObject and
// CADisplayLink, which `@objc` methods need), with Objective-C interop on.
// Bodies are never run.
//
// What this cannot show: that the SDK says exactly this (a stand-in written
// wrong type-checks a wrong call), availability, conformances the pages do not
// list (neither OSSignposter nor OSSignpostIntervalState is declared Sendable
// here, as their pages do not say so), and anything at run time.
import Foundation
import ObjCClassesStandIn
import ObjectiveC

// MARK: QuartzCore

/// https://developer.apple.com/documentation/corefoundation/cftimeinterval — `typealias CFTimeInterval = Double`
/// (CoreFoundation's, which QuartzCore's declarations use; swift-corelibs-foundation does not have it).
typealias CFTimeInterval = Double

/// https://developer.apple.com/documentation/objectivec/nsobject-swift.class: the Objective-C root class
/// (objc/classes.h), in place of swift-corelibs-foundation's Swift NSObject.
typealias NSObject = ObjCClassesStandIn.NSObject

/// https://developer.apple.com/documentation/quartzcore/cadisplaylink — `class CADisplayLink`, an
/// Objective-C class (objc/classes.h) with these members.
typealias CADisplayLink = ObjCClassesStandIn.CADisplayLink

extension CADisplayLink {
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/init(target:selector:)
    convenience init(target: Any, selector sel: Selector) { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/add(to:formode:)
    func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/invalidate()
    func invalidate() {}
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/targettimestamp
    /// "The time interval that represents when the next frame displays."
    var targetTimestamp: CFTimeInterval { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/quartzcore/cadisplaylink/preferredframeraterange
    var preferredFrameRateRange: CAFrameRateRange {
        get { fatalError("stand-in") }
        set {}
    }
}

/// https://developer.apple.com/documentation/quartzcore/caframeraterange
struct CAFrameRateRange {
    /// https://developer.apple.com/documentation/quartzcore/caframeraterange/init(minimum:maximum:preferred:)
    init(minimum: Float, maximum: Float, preferred: Float?) {}
}

// MARK: os

/// https://developer.apple.com/documentation/os/ossignposter — `struct OSSignposter`.
struct OSSignposter {
    /// https://developer.apple.com/documentation/os/ossignposter/init(subsystem:category:)
    init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/ossignposter/makesignpostid()
    func makeSignpostID() -> OSSignpostID { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/os/ossignposter/begininterval(_:id:_:)
    func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata)
        -> OSSignpostIntervalState
    { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/os/ossignposter/endinterval(_:_:)
    func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {}
}

/// https://developer.apple.com/documentation/os/ossignpostid — `struct OSSignpostID`.
struct OSSignpostID {
    /// https://developer.apple.com/documentation/os/ossignpostid/exclusive
    static var exclusive: OSSignpostID { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/os/ossignpostid/init(_:)
    init(_ value: UInt64) {}
    /// https://developer.apple.com/documentation/os/ossignpostid/rawvalue
    let rawValue: os_signpost_id_t = 0
}

/// https://developer.apple.com/documentation/os/os_signpost_id_t
typealias os_signpost_id_t = UInt64

/// https://developer.apple.com/documentation/os/ossignpostintervalstate — `class OSSignpostIntervalState`.
final class OSSignpostIntervalState {
    /// https://developer.apple.com/documentation/os/ossignpostintervalstate/beginstate(id:)
    static func beginState(id: OSSignpostID) -> OSSignpostIntervalState { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/os/signpostmetadata — `typealias SignpostMetadata = OSLogMessage`.
typealias SignpostMetadata = OSLogMessage

/// https://developer.apple.com/documentation/os/oslogmessage: built from a string
/// literal with interpolations, each with its privacy
/// (https://developer.apple.com/documentation/os/oslogprivacy).
struct OSLogMessage: ExpressibleByStringInterpolation {
    init(stringLiteral value: String) {}
    init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/osloginterpolation
struct OSLogInterpolation: StringInterpolationProtocol {
    init(literalCapacity: Int, interpolationCount: Int) {}
    mutating func appendLiteral(_ literal: String) {}
    /// The `String` argument's interpolation (its `align:` parameter, defaulted, left out here).
    mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .auto) {}
}

/// https://developer.apple.com/documentation/os/oslogprivacy
struct OSLogPrivacy {
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto
    static var auto: OSLogPrivacy { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    static var `public`: OSLogPrivacy { fatalError("stand-in") }
}
