import Foundation
import Synchronization

/// A named OS thread that can be joined: the pipeline's demuxer and decoders run on these,
/// not on the cooperative pool, because they block on FFmpeg and on queues.
final class WorkerThread: Sendable {
    /// Linux keeps at most 15 bytes of a thread's name (16 with the terminating NUL) and refuses
    /// a longer one outright, so names are cut to this.
    static let maxNameBytes = 15

    private let finished = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)

    /// Starts `body` on a new thread named `name` (its first ``maxNameBytes`` bytes: what `top -H`,
    /// debuggers and `Thread.current.name` show).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let shortName = Self.threadName(name)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            // Foundation on Linux drops a name set before `start()`, and one set by the thread
            // before `start()` has returned (the Thread does not know its pthread yet).
            started.wait()
            Thread.current.name = shortName
            body()
            running.store(false, ordering: .releasing)
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        started.signal()
    }

    /// The longest prefix of `name` that fits ``maxNameBytes``, cut between characters.
    static func threadName(_ name: String) -> String {
        var short = ""
        for character in name {
            guard short.utf8.count + character.utf8.count <= maxNameBytes else { break }
            short.append(character)
        }
        return short
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
