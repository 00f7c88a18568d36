import Foundation
import Synchronization

/// The supervisor's signals: a loss to recover from, or the sink's stop.
final class Supervision: Sendable {
    private struct Signals {
        var loss: String?
        var stopped = false
        var launched = false
        var finished = false
        var thread: pthread_t?
    }

    private let condition = NSCondition()
    private let signals = Mutex(Signals())

    /// Before the supervisor's thread starts (a sink that failed to open has none to wait for).
    func launched() { signals.withLock { $0.launched = true } }

    /// On the supervisor's thread, first.
    func entered() { signals.withLock { $0.thread = pthread_self() } }

    /// True on the supervisor's own thread.
    var isCurrentThread: Bool { signals.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// From the stream's thread.
    func lost(_ reason: String) {
        condition.withLock {
            signals.withLock { s in if s.loss == nil { s.loss = reason } }
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            signals.withLock { $0.stopped = true }
            condition.broadcast()
        }
    }

    /// Waits for the next loss (nil once stopped).
    func nextLoss() -> String? {
        condition.withLock {
            while true {
                let (loss, stopped) = signals.withLock { s in defer { s.loss = nil }; return (s.loss, s.stopped) }
                if stopped { return nil }
                if let loss { return loss }
                condition.wait()
            }
        }
    }

    /// Waits `seconds` between attempts; false once stopped.
    func pause(_ seconds: Double) -> Bool {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !signals.withLock({ $0.stopped }), condition.wait(until: deadline) {}
            return !signals.withLock { $0.stopped }
        }
    }

    func finished() {
        condition.withLock {
            signals.withLock { $0.finished = true }
            condition.broadcast()
        }
    }

    /// Waits until the supervisor's thread has ended.
    func waitFinished() {
        condition.withLock { while signals.withLock({ $0.launched && !$0.finished }) { condition.wait() } }
    }
}
