import Foundation
import TandemBase

/// Runs blocking FFmpeg work on threads of its own, never on the caller's executor (an event loop,
/// the cooperative pool), at most ``limit`` jobs at once: one guest seeking about cannot take
/// every core of the host, whose own playback comes first. Callers past the limit wait their turn.
final class BlockingWork: Sendable {
    let limit: Int
    private let running = Awaitable(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// `body`'s result, computed on a new thread once a slot is free.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let limit = self.limit
        while true {
            _ = try await running.wait { $0 < limit }
            let claimed = running.withLock { count -> Bool in
                guard count < limit else { return false }
                count += 1
                return true
            }
            if claimed { break }
        }
        defer { running.withLock { $0 -= 1 } }
        return try await OwnThread.run(body)
    }
}
