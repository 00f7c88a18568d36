import Foundation
import Synchronization

/// What a player tells its observers.
public enum PlayerEvent: Sendable, Equatable {
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

/// A player's event hub: `.framePresented` is the frequent kind, delivered only on request.
public typealias EventHub = Broadcaster<PlayerEvent>

extension Broadcaster where Event == PlayerEvent {
    public convenience init() {
        self.init(isFrequent: { if case .framePresented = $0 { true } else { false } },
                  isSticky: { if case .firstFrame = $0 { true } else { false } })
    }
}
