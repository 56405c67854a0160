// The ObjectiveC module's `Selector`, which `#selector` needs (Darwin's Foundation
// re-exports ObjectiveC): compiled by darwin_typecheck.py as a module named
// ObjectiveC for the files that use the Objective-C runtime (the display link's
// target), type-checked with Objective-C interop on.
// https://developer.apple.com/documentation/objectivec/selector
public struct Selector: ExpressibleByStringLiteral, Equatable, Hashable {
    public init(_ name: String) {}
    public init(stringLiteral value: String) {}
}
