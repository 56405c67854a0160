// The app's own types that docs/runtime.md's snippets call (Tools/portability/doc_snippets.py compiles
// each snippet beside this file): an example app's crash reporter, configuration, remote config,
// analytics, telemetry, views and modules. They stand for the reader's code, not Apple's, so nothing
// here cites a page; bodies are never run.
import Foundation
import LaunchflowRuntime
import SwiftUI
import UIKit

enum CrashReporter { static func start() {} }
enum Config { static func load() throws {} }
enum RemoteConfig { static func fetch(_ completion: @escaping @Sendable (Bool) -> Void) {} }
enum Analytics { static func start() {} }
enum Telemetry {
    static func upload(_ trace: [UInt8]) {}
    static func send(_ body: Data) {}
}
@MainActor enum WebViewPool { static func warm() {} }
enum Database { static func open() throws {} }
enum Feed { static func load() async throws {} }

final class RootViewController: UIViewController {
    init() { super.init(nibName: nil, bundle: nil) }
    /// Shows the root view controller in the app's window.
    nonisolated static func show() {}
}

struct AccountModule: LaunchModule {
    let name = "account", level = 1
    let events: Set<LifecycleEvent> = [.didFinishLaunching, .didBecomeActive]
    @MainActor func handle(_ event: LifecycleEvent) throws {}
}

struct FeedModule: LaunchModule {
    let name = "feed", level = 2
    let events: Set<LifecycleEvent> = [.didFinishLaunching]
    @MainActor func handle(_ event: LifecycleEvent) throws {}
}

@MainActor final class FeedModel {
    static let shared = FeedModel()
    func showFirstPage() {}
}
@MainActor enum BackgroundTasks { static func register() {} }
@MainActor enum Appearance { static func configure() {} }

struct FeedView: View {
    var body: some View { Text("feed") }
}
@MainActor enum Badge { static func refresh() {} }
enum Push { static func register() async {} }
