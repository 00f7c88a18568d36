import MPVIPC
import MediaTime
import PlayerCore

/// What the IPC properties say about a player at one instant, read from the player itself: the
/// `pause` property is what the player is doing now, not what it was last asked to do.
///
/// A party command lands on a shared instant: "pause at T" leaves the clock running until T
/// (``Player/state`` says `paused` as soon as the command is taken), so every member, host or
/// guest, reports the change at T. A seek or a scheduled start that holds the picture until its
/// instant is not a pause, as in mpv, where seeking does not change `pause`.
package struct PlayerReading: Sendable, Equatable {
    package var state: PlayerState
    package var prerolling: Bool
    package var clock: MediaClock
    package var rate: Double
    package var duration: Double?
    /// The instant of the reading, on the player's time source.
    package var now: Double

    package init(state: PlayerState, prerolling: Bool, clock: MediaClock, rate: Double, duration: Double?, now: Double) {
        self.state = state
        self.prerolling = prerolling
        self.clock = clock
        self.rate = rate
        self.duration = duration
        self.now = now
    }

    /// Reads `player` now.
    package init(_ player: Player) {
        self.init(state: player.state, prerolling: player.isPrerolling, clock: player.clock, rate: player.rate,
                  duration: player.duration, now: player.timeSource.now())
    }

    /// Whether the player is paused at ``now``: at the end, closed, or its clock's segment in force
    /// is a paused one. While a seek prerolls, what it will do once ready (it plays if asked to).
    package var isPaused: Bool {
        switch state {
        case .ended, .closed: return true
        case .paused, .playing: break
        }
        if prerolling { return state != .playing }
        return clock.isPaused(at: now)
    }

    /// The value of `property` for `player` (nil: no player yet, read as paused), the one answer
    /// every IPC target gives; `buffering` is the target's own view of `paused-for-cache`.
    package static func value(of property: IPCProperty, player: Player?, buffering: Bool) -> IPCValue? {
        switch property {
        case .timePos: player.map { .double($0.position) }
        case .pause: .bool(player.map { PlayerReading($0).isPaused } ?? true)
        case .speed: player.map { .double($0.rate) }
        case .duration: player?.duration.map { .double($0) }
        case .timeSample: player.map { PlayerReading($0).sample }
        case .pausedForCache: .bool(buffering)
        case .streamStart: player.map { .double($0.streamStart) }
        }
    }

    /// The position and pause at ``now``, with ``now`` itself: `tandem-time-sample`.
    package var sample: IPCValue { .sample(position: clock.position(at: now), paused: isPaused, at: now) }

    /// Seconds from ``now`` until a pending clock segment takes over (a scheduled pause, resume or
    /// rate change), when one is pending: the instant ``isPaused`` may change without any request.
    package var untilScheduledChange: Double? {
        guard let next = clock.next, next.anchorHost > now else { return nil }
        return next.anchorHost - now
    }
}
