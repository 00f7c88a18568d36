import Foundation
import TandemBase
import Synchronization

/// SIGINT/SIGTERM as an awaitable event, for any number of waiters at once (a party member's
/// leave and its window's wait after the party ended): one set of dispatch sources, installed on
/// first use and kept (a second source for the same signal is not told), wakes every waiter.
///
/// `play`, `host`, `join` and `stories` use this; `serve` uses swift-service-lifecycle's signals
/// (PartyService's ServeApplication). Its `UnixSignalsSequence` does not fit here: it is made
/// asynchronously (``subscribe()`` returns with the sources installed) and gives one iterator only;
/// on Linux it leaves SIGINT and SIGTERM at their default action (this ignores them, so a thread that
/// does not block them — SDL's, FFmpeg's — never ends the process before a quit has saved its
/// position); and a signal reaches its iterator through a task, where the second Ctrl-C must end the
/// process from the dispatch source's own thread (``restoreDefaults()``), whatever a stuck quit holds.
package enum Signals {
    private struct Waiters {
        package var installed = false
        package var next = 0
        package var list: [Int: AsyncStream<Int32>.Continuation] = [:]
        /// Set by ``restoreDefaults()``: the next signal ends the process.
        package var endOnNext = false
    }

    private static let waiters = Mutex(Waiters())

    package static func wait() async {
        for await _ in subscribe() { return }
    }

    /// Each SIGINT or SIGTERM from now on, by its number (the sources are installed before this
    /// returns, so no signal between this call and the first wait is lost).
    package static func subscribe() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        // Installed under the lock: a second subscriber never returns before the sources exist.
        let id = waiters.withLock { w -> Int in
            defer { w.next += 1 }
            w.list[w.next] = continuation
            if !w.installed {
                w.installed = true
                installSources()
            }
            return w.next
        }
        continuation.onTermination = { _ in _ = waiters.withLock { $0.list.removeValue(forKey: id) } }
        return stream
    }

    /// From now on SIGINT and SIGTERM end the process at once, as before any subscription: after a
    /// first one started a clean quit, a second one is the viewer insisting (a quit stuck on a
    /// stalled read must not make the process unkillable by Ctrl-C).
    ///
    /// Both ways a signal can arrive end it: a thread that does not block it takes the default action;
    /// one that dispatch's source reads (on Linux, from a signalfd, while threads block it) makes the
    /// source's handler die of it on its own thread (``die(of:)``) — not through a waiter, whose task
    /// may never run again if the quit is what is stuck.
    package static func restoreDefaults() {
        waiters.withLock { $0.endOnNext = true }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// Ends the process by `signal` (TandemBase's ``dieOfSignal(_:)``).
    package static func die(of signal: Int32) -> Never { dieOfSignal(signal) }

    private static func installSources() {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                let (endNow, list) = waiters.withLock { ($0.endOnNext, Array($0.list.values)) }
                if endNow { die(of: sig) }
                for waiter in list { waiter.yield(sig) }
            }
            source.resume()
            SignalSources.keep(source)
        }
    }
}

/// Dispatch's signal sources are thread-safe but not marked Sendable; this keeps them alive for
/// the process's life.
private enum SignalSources {
    nonisolated(unsafe) private static var kept: [any DispatchSourceSignal] = []
    private static let lock = NSLock()
    package static func keep(_ source: any DispatchSourceSignal) { lock.withLock { kept.append(source) } }
}

/// Returns on SIGINT or SIGTERM, or after `seconds`.
package func waitForSignalOrTimeout(_ seconds: Double?) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await Signals.wait() }
        if let seconds { group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } }
        await group.next()
        group.cancelAll()
    }
}
