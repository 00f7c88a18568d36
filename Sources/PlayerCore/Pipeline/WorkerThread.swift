import Foundation
import Synchronization

/// A named OS thread that can be joined: the pipeline's demuxer and decoders run on these,
/// not on the cooperative pool, because they block on FFmpeg and on queues.
final class WorkerThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)

    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            body()
            running.store(false, ordering: .releasing)
            finished.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Whether the body has not returned yet.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Waits until the body has returned.
    func join() {
        finished.wait()
        finished.signal()
    }

    /// Waits at most `seconds` for the body to return; whether it did.
    func join(timeout seconds: Double) -> Bool {
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        finished.signal()
        return true
    }
}
