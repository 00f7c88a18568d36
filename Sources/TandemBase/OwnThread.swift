import Foundation

/// Blocking work (an FFmpeg open over the network, a file read) run on a thread of its own, so that
/// it never holds a thread of the cooperative pool or an event loop while it waits.
public enum OwnThread {
    /// `body`'s result, computed on a new thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let result: Result<T, any Error> = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Result { try body() }) }
        }
        return try result.get()
    }
}
