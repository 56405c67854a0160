// A stand-in for UIKit: exactly the declarations docs/runtime.md's UIKit snippets use, each with the
// page of Apple's documentation it is written from (iOS 16 SDK and later), compiled as a module named
// UIKit so that a snippet's `import UIKit` type-checks here verbatim (Tools/portability/doc_snippets.py).
// Bodies are never run. An Objective-C protocol's optional methods are requirements with a default
// here (a protocol extension): a method spelled wrong in a snippet is then a method of its own, not an
// error — what this cannot show, beside availability and behaviour. UIKit re-exports Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor open class UIResponder: NSObject {
    public override init() {}
}

/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/launchoptionskey
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// https://developer.apple.com/documentation/uikit/uiapplicationdelegate
@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:)
    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey:
            Any]?
    ) -> Bool
    /// https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:configurationforconnecting:options:)
    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration
}

extension UIApplicationDelegate {
    /// `@main` on the app delegate: UIApplicationMain with it (https://developer.apple.com/documentation/uikit/uiapplicationmain(_:_:_:_:)-1yub7)
    public static func main() { fatalError("stand-in") }
    public func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey:
            Any]?
    ) -> Bool { true }
    public func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration { UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role) }
}

/// https://developer.apple.com/documentation/uikit/uiscene
@MainActor open class UIScene: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiscene/connectionoptions
    @MainActor open class ConnectionOptions: NSObject {}
}

/// https://developer.apple.com/documentation/uikit/uiwindowscene
@MainActor open class UIWindowScene: UIScene {}

/// https://developer.apple.com/documentation/uikit/uiscenesession
@MainActor open class UISceneSession: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscenesession/role
    public struct Role: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uiscenesession/role/windowapplication
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    }
    /// https://developer.apple.com/documentation/uikit/uiscenesession/role-swift.property
    open var role: Role { .windowApplication }
}

/// https://developer.apple.com/documentation/uikit/uisceneconfiguration
@MainActor open class UISceneConfiguration: NSObject {
    /// https://developer.apple.com/documentation/uikit/uisceneconfiguration/init(name:sessionrole:)
    public init(name: String?, sessionRole: UISceneSession.Role) {}
    /// https://developer.apple.com/documentation/uikit/uisceneconfiguration/delegateclass
    open var delegateClass: AnyClass?
}

/// https://developer.apple.com/documentation/uikit/uiscenedelegate
@MainActor public protocol UISceneDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/uikit/uiscenedelegate/scene(_:willconnectto:options:)
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    /// https://developer.apple.com/documentation/uikit/uiscenedelegate/scenewillenterforeground(_:)
    func sceneWillEnterForeground(_ scene: UIScene)
    /// https://developer.apple.com/documentation/uikit/uiscenedelegate/scenedidbecomeactive(_:)
    func sceneDidBecomeActive(_ scene: UIScene)
}

extension UISceneDelegate {
    public func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {}
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    public func sceneDidBecomeActive(_ scene: UIScene) {}
}

/// https://developer.apple.com/documentation/uikit/uiwindowscenedelegate
@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {
    /// https://developer.apple.com/documentation/uikit/uiwindowscenedelegate/window
    var window: UIWindow? { get set }
}

/// https://developer.apple.com/documentation/uikit/uiview
@MainActor open class UIView: UIResponder {}

/// https://developer.apple.com/documentation/uikit/uiwindow
@MainActor open class UIWindow: UIView {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiwindow/init(windowscene:)
    public init(windowScene: UIWindowScene) {}
    /// https://developer.apple.com/documentation/uikit/uiwindow/rootviewcontroller
    open var rootViewController: UIViewController?
    /// https://developer.apple.com/documentation/uikit/uiwindow/makekeyandvisible()
    open func makeKeyAndVisible() {}
}

/// https://developer.apple.com/documentation/uikit/uiviewcontroller
@MainActor open class UIViewController: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiviewcontroller/init(nibname:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}
}

/// https://developer.apple.com/documentation/uikit/uiscreen
@MainActor open class UIScreen: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiscreen/main
    open class var main: UIScreen { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/uikit/uiscreen/bounds
    open var bounds: CGRect { .zero }
}
