import Foundation
import TandemBase
import ServiceLifecycle
import UnixSignals

/// A second SIGINT or SIGTERM ends `tandem serve` at once, by that signal, as a second Ctrl-C ends
/// headless `tandem play`'s quit: the first began the drain (one of the group's graceful shutdown
/// signals), and a drain stuck on something (a directory that does not answer) must not leave the
/// process unkillable by Ctrl-C.
///
/// swift-service-lifecycle has no such escalation of its own: its cancellation signals cannot be its
/// graceful shutdown signals too, and the group stops listening for those after the first. So this
/// service listens to the same two signals for the whole run — it is the group's first service, the
/// last it shuts down — and counts. (Its dispatch sources sit beside the group's; dispatch tells every
/// source of a signal: ServeCommandTests' second interrupt shows it.)
struct SecondSignalService: Service, CustomStringConvertible {
    let description = "second signal"
    /// Set once its signal sources are installed (the party port starts listening after it, so a
    /// signal that comes once the server says where it listens is counted).
    let started = Readiness<Void>()

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        started.set()
        var heard = 0
        for await signal in signals.cancelOnGracefulShutdown() {
            heard += 1
            if heard > 1 { Self.die(of: signal.rawValue) }
        }
    }

    static func die(of signal: Int32) -> Never { dieOfSignal(signal) }
}
