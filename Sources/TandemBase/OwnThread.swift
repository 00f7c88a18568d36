import Foundation

/// Blocking work (an FFmpeg open over the network, a file read) run on a thread of its own, so that
/// it never holds a thread of the cooperative pool or an event loop while it waits.
public enum OwnThread {
    /// `body`'s result, computed on a new thread (its error, typed as `body`'s).
    public static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Result { () throws(E) -> T in try body() }) }
        }
        return try result.get()
    }
}
