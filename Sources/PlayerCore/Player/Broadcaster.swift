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

    private struct Subscribers: Sendable {
        var byID: [UUID: Subscriber] = [:]
        /// The latest event `isSticky` picks: what a subscriber that comes later is told first.
        var sticky: Event?
    }

    private let subscribers = Mutex(Subscribers())
    private let bufferLimit: Int
    private let isFrequent: @Sendable (Event) -> Bool
    private let isSticky: @Sendable (Event) -> Bool

    /// `isSticky`: events that stay true once they happened (a player's first picture), so a subscriber
    /// that comes after one still learns of it, first thing.
    public init(bufferLimit: Int = 4096, isFrequent: @escaping @Sendable (Event) -> Bool = { _ in false },
                isSticky: @escaping @Sendable (Event) -> Bool = { _ in false }) {
        self.bufferLimit = bufferLimit
        self.isFrequent = isFrequent
        self.isSticky = isSticky
    }

    /// A new stream of events; `frames`: also the frequent ones (waking a task for each costs
    /// a few percent of a fast decode, so only those who need them ask).
    public func subscribe(frames: Bool = false) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.byID.removeValue(forKey: id) } }
        // Under the lock, so the sticky event comes before anything emitted after it.
        subscribers.withLock { subs in
            subs.byID[id] = Subscriber(continuation: continuation, frequent: frames)
            if let sticky = subs.sticky { continuation.yield(sticky) }
        }
        return stream
    }

    public func emit(_ event: Event) {
        let frequent = isFrequent(event)
        // Yield outside the lock; for a frequent event nobody asked for, nothing is allocated.
        let sticky = !frequent && isSticky(event)
        let targets = subscribers.withLock { subs in
            if sticky { subs.sticky = event }
            return subs.byID.values.filter { $0.frequent || !frequent }.map(\.continuation)
        }
        for continuation in targets { continuation.yield(event) }
    }

    /// Ends every stream; later subscribers get none of the earlier events.
    public func finish() {
        let targets = subscribers.withLock { subs -> [Subscriber] in
            defer { subs.byID.removeAll() }
            return Array(subs.byID.values)
        }
        for subscriber in targets { subscriber.continuation.finish() }
    }
}
