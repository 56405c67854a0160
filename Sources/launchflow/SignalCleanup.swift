import Foundation
import LaunchflowCLI
import LaunchflowCore

/// The executable's signal handling, installed by `main.swift` before any
/// command runs (a library installs none in the process that links it).
///
/// SIGINT, SIGTERM and SIGHUP remove the temporary files of writes under way (``TemporaryFiles``) and
/// the cgroups of a `replay --emulate` under way (``CgroupCleanup``, its host killed first), then
/// restore the default action and raise the signal again, so the exit status
/// stays "killed by SIGTERM". A disposition someone set before us (`nohup`'s
/// ignored SIGHUP) is kept: the handler is installed only over the default.
enum SignalCleanup {
    static func install() {
        TemporaryFiles.prepareForSignals()
        CgroupCleanup.prepareForSignals()
        for signal in [SIGINT, SIGTERM, SIGHUP] { installHandler(signal) }
    }

    private static func installHandler(_ signal: Int32) {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return }
        guard isDefault(current) else { return }  // ignored or handled by someone else: keep it
        var action = sigaction()
        setHandler(&action) { signal in
            TemporaryFiles.removeRegistered()
            CgroupCleanup.removeRegistered()
            Foundation.signal(signal, SIG_DFL)
            raise(signal)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = sigaction(signal, &action, nil)
    }

    // The handler's field is a union: Glibc and Darwin name it differently.
    #if os(Linux)
        private static func isDefault(_ action: sigaction) -> Bool {
            action.__sigaction_handler.sa_handler == nil
        }

        private static func setHandler(
            _ action: inout sigaction, _ handler: @escaping @convention(c) (Int32) -> Void
        ) {
            action.__sigaction_handler.sa_handler = handler
        }
    #elseif canImport(Darwin)
        private static func isDefault(_ action: sigaction) -> Bool {
            action.__sigaction_u.__sa_handler == nil
        }

        private static func setHandler(
            _ action: inout sigaction, _ handler: @escaping @convention(c) (Int32) -> Void
        ) {
            action.__sigaction_u.__sa_handler = handler
        }
    #endif
}
