import Foundation
import Synchronization

/// What a player tells its observers.
public enum PlayerEvent: Sendable {
    case stateChanged(PlayerState)
    /// The first picture after opening reached the video sink (for open-to-first-frame figures).
    case firstFrame(position: Double, hostTime: Double)
    /// A picture reached the video sink. `hostTime` is when, on the player's time source.
    /// One per picture: only subscribers that ask for them get these.
    case framePresented(position: Double, hostTime: Double)
    /// A seek (or the initial preroll) has its first frame ready and the clock restarted.
    case seekCompleted(position: Double)
    /// Every stream reached its end.
    case ended(PlaybackStats)
    /// Something was wrong with the stream but playback goes on (damaged data, a decoder error).
    case warning(String)
}

/// Where a player is in its life.
public enum PlayerState: String, Sendable, Codable {
    case paused, playing, ended, closed
}

/// Fans events out to every subscriber; never blocks the pipeline thread that emits.
/// Each subscriber keeps at most `bufferLimit` unread events (the oldest go first).
public final class EventHub: Sendable {
    private struct Subscriber: Sendable {
        var continuation: AsyncStream<PlayerEvent>.Continuation
        var frames: Bool
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])
    private let bufferLimit: Int

    public init(bufferLimit: Int = 4096) { self.bufferLimit = bufferLimit }

    /// `frames`: also deliver `.framePresented` (one per picture; waking a task for each costs
    /// a few percent of a fast decode, so only those who need them ask).
    public func subscribe(frames: Bool = false) -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = Subscriber(continuation: continuation, frames: frames) }
        return stream
    }

    public func emit(_ event: PlayerEvent) {
        let isFrame = if case .framePresented = event { true } else { false }
        // Yield outside the lock; for a frame nobody asked for, the list is empty and nothing is allocated.
        let targets = subscribers.withLock { subs in subs.values.filter { $0.frames || !isFrame }.map(\.continuation) }
        for continuation in targets { continuation.yield(event) }
    }

    public func finish() {
        let targets = subscribers.withLock { subs -> [Subscriber] in
            defer { subs.removeAll() }
            return Array(subs.values)
        }
        for subscriber in targets { subscriber.continuation.finish() }
    }
}
