// A stand-in for SwiftUI: exactly the declarations docs/runtime.md's SwiftUI snippets use, each with
// the page of Apple's documentation it is written from (iOS 16 SDK and later), compiled as a module
// named SwiftUI (beside the UIKit stand-in, which it imports as SwiftUI does) so that a snippet's
// `import SwiftUI` type-checks here verbatim (Tools/portability/doc_snippets.py). Bodies are never
// run; the result builders take one element, all the snippets use.
@_exported import Foundation
import UIKit

/// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    /// https://developer.apple.com/documentation/swiftui/app/body-swift.property
    @SceneBuilder var body: Self.Body { get }
    /// https://developer.apple.com/documentation/swiftui/app/init()
    init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor public static func main() { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency public protocol Scene {}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    /// https://developer.apple.com/documentation/swiftui/view/body-swift.property
    @ViewBuilder var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/never/body-swift.property (a primitive view's body)
extension Never: View {
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/text
public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    public init(_ content: String) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor
@MainActor @preconcurrency @propertyWrapper
public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate> {
    /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/init(_:)-59sfu
    public init(_ delegateType: DelegateType.Type = DelegateType.self) {}
    /// https://developer.apple.com/documentation/swiftui/uiapplicationdelegateadaptor/wrappedvalue
    public var wrappedValue: DelegateType { fatalError("stand-in") }
}
