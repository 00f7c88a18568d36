import Foundation
import Synchronization

/// What a player tells its observers.
public enum PlayerEvent: Sendable {
    case stateChanged(PlayerState)
    /// A picture reached the video sink. `hostTime` is when, on the player's time source.
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
    private let subscribers = Mutex<[UUID: AsyncStream<PlayerEvent>.Continuation]>([:])
    private let bufferLimit: Int

    public init(bufferLimit: Int = 4096) { self.bufferLimit = bufferLimit }

    public func subscribe() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    public func emit(_ event: PlayerEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
    }

    public func finish() {
        let targets = subscribers.withLock { subs -> [AsyncStream<PlayerEvent>.Continuation] in
            defer { subs.removeAll() }
            return Array(subs.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
