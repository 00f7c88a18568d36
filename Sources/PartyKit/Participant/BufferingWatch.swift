/// A member's watch over its stream running dry, as a small state machine the ``ParticipantCore``
/// drives from its ticks: a player that has nothing read for the instant it should present
/// (``ParticipantCore/PlayerSnapshot/starved``) for ``confirmSeconds`` is *buffering*. It holds
/// its picture, asks the group to wait (a `stalled` status marked `buffering`: the server pauses
/// the party for at most `stallWaitSeconds`, as for any stall), and rejoins the timeline — a seek
/// to the party's position — once ``recoverySeconds`` of media are read ahead again.
struct BufferingWatch: Sendable, Equatable {
    /// Starved this long before it counts: a queue that is empty for a moment at a packet
    /// boundary is not a stream that ran dry (three checks at 10 Hz).
    static let confirmSeconds = 0.3
    /// Read-ahead (media seconds) that counts as recovered: enough that the rejoin's seek and the
    /// first seconds after it do not run dry again at once on a link that is merely slow.
    static let recoverySeconds = 2.0
    /// After the group went on without this member, its next buffering within this many seconds
    /// does not ask the group to wait again: a member on a link slower than the stream would
    /// otherwise pause everyone every few seconds.
    static let waitCooldown = 30.0

    enum Phase: Sendable, Equatable {
        case flowing
        /// The player has had nothing to present since `since` (not yet confirmed).
        case starving(since: Double)
        /// Refilling its read-ahead, its picture held. `epoch`: the party's epoch when it ran dry
        /// (a later playing epoch means the group went on); `blocking`: it asks the group to wait.
        case buffering(epoch: Int, blocking: Bool)
        /// Recovered: seeking back onto the timeline; buffering ends when that seek lands.
        case rejoining(epoch: Int, blocking: Bool)
    }

    enum Event: Sendable, Equatable {
        /// It ran dry: hold the picture, tell the party.
        case ranDry
        /// Enough is read ahead again: seek to the party's position.
        case recovered
    }

    private(set) var phase = Phase.flowing
    /// Until when a new episode does not ask the group to wait (after the group went on without it).
    private var waivedUntil = -Double.infinity

    /// Buffering or rejoining: not following the timeline, nothing to reconcile.
    var isActive: Bool {
        switch phase {
        case .buffering, .rejoining: true
        case .flowing, .starving: false
        }
    }

    /// Whether the group is asked to wait for it.
    var isBlocking: Bool {
        switch phase {
        case .buffering(_, let blocking), .rejoining(_, let blocking): blocking
        case .flowing, .starving: false
        }
    }

    /// A tick with the player following the timeline (synced, not prerolling): `starved` whether it
    /// has nothing read for now, `readAhead` the media seconds read ahead of its position (nil:
    /// unknown, taken as plenty), `inputEnded` whether its input is read to the end.
    mutating func update(now: Double, epoch: Int, playing: Bool, starved: Bool, readAhead: Double?, inputEnded: Bool) -> Event? {
        switch phase {
        case .flowing:
            if starved, playing { phase = .starving(since: now) }
            return nil
        case .starving(let since):
            guard starved, playing else {
                phase = .flowing
                return nil
            }
            guard now - since >= Self.confirmSeconds else { return nil }
            phase = .buffering(epoch: epoch, blocking: now >= waivedUntil)
            return .ranDry
        case .buffering(let episode, let blocking):
            guard inputEnded || (readAhead ?? .infinity) >= Self.recoverySeconds else { return nil }
            phase = .rejoining(epoch: episode, blocking: blocking)
            return .recovered
        case .rejoining:
            return nil
        }
    }

    /// A new epoch of the party: a playing one after the episode began means the group went on
    /// without this member (it waited long enough, or someone pressed play); returns whether the
    /// member stops asking it to wait.
    mutating func timeline(epoch: Int, playing: Bool, now: Double) -> Bool {
        switch phase {
        case .buffering(let episode, true) where playing && epoch > episode:
            phase = .buffering(epoch: episode, blocking: false)
        case .rejoining(let episode, true) where playing && epoch > episode:
            phase = .rejoining(epoch: episode, blocking: false)
        default:
            return false
        }
        waivedUntil = now + Self.waitCooldown
        return true
    }

    /// A jump (seek or item change) while buffering: its seek is the way back onto the timeline.
    mutating func jumped() {
        if case .buffering(let episode, let blocking) = phase { phase = .rejoining(epoch: episode, blocking: blocking) }
        if case .starving = phase { phase = .flowing }
    }

    /// The rejoin's seek landed (or the player was replaced): following the timeline again.
    mutating func rejoined() {
        if isActive || phase != .flowing { phase = .flowing }
    }

    /// A new connection or item problem: start afresh (the cooldown stays).
    mutating func reset() { phase = .flowing }
}
