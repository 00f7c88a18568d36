import Foundation
import Synchronization

/// Fans events out to every subscriber; never blocks the thread that emits.
/// Each subscriber keeps at most `bufferLimit` unread events (the oldest go first).
/// Events the `isFrequent` predicate picks (one per picture, say) go only to subscribers that ask.
public final class Broadcaster<Event: Sendable>: Sendable {
    private struct Subscriber: Sendable {
        var continuation: AsyncStream<Event>.Continuation
        var frequent: Bool
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])
    private let bufferLimit: Int
    private let isFrequent: @Sendable (Event) -> Bool

    public init(bufferLimit: Int = 4096, isFrequent: @escaping @Sendable (Event) -> Bool = { _ in false }) {
        self.bufferLimit = bufferLimit
        self.isFrequent = isFrequent
    }

    /// A new stream of events; `frames`: also the frequent ones (waking a task for each costs
    /// a few percent of a fast decode, so only those who need them ask).
    public func subscribe(frames: Bool = false) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = Subscriber(continuation: continuation, frequent: frames) }
        return stream
    }

    public func emit(_ event: Event) {
        let frequent = isFrequent(event)
        // Yield outside the lock; for a frequent event nobody asked for, nothing is allocated.
        let targets = subscribers.withLock { subs in subs.values.filter { $0.frequent || !frequent }.map(\.continuation) }
        for continuation in targets { continuation.yield(event) }
    }

    /// Ends every stream; later subscribers get none of the earlier events.
    public func finish() {
        let targets = subscribers.withLock { subs -> [Subscriber] in
            defer { subs.removeAll() }
            return Array(subs.values)
        }
        for subscriber in targets { subscriber.continuation.finish() }
    }
}
