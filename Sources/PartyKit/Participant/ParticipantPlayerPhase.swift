extension ParticipantCore {
    /// How a seated member's player is brought onto the party's timeline: the clock is measured,
    /// a first (catch-up) seek lands, then it follows epoch by epoch, seeking again on a jump, when
    /// it strays too far, or to rejoin after its stream ran dry.
    ///
    /// Transitions: ``measuring`` → ``joining(_:)`` when the first epoch is applied;
    /// ``joining(_:)`` or ``seeking(_:stalled:)`` → ``following(applied:holdUntil:)`` when the
    /// player reports that seek done; ``following(applied:holdUntil:)`` → ``seeking(_:stalled:)``
    /// on a jump or a re-seek; a jump while a seek prerolls replaces it.
    public enum PlayerPhase: Sendable, Equatable {
        /// Nothing applied yet: the clock is measured (the welcome's ping burst) first.
        case measuring
        /// The first seek (the join's) prerolls: the player has never followed the timeline.
        case joining(PendingSeek)
        /// A later seek prerolls (a jump, a re-seek, the rejoin after buffering). `stalled`: its
        /// instant passed before it was ready and the party was told so; it says `ready` when it lands.
        case seeking(PendingSeek, stalled: Bool)
        /// The player follows epoch `applied`; nothing is reconciled before `holdUntil` (the local
        /// instant its last seek landed at).
        case following(applied: Int, holdUntil: Double)
    }

    /// A seek the player prerolls.
    public struct PendingSeek: Sendable, Equatable {
        /// The epoch it seeks for: the player reports it done with ``ParticipantCore/seekCompleted(epoch:now:)``.
        public var epoch: Int
        /// The local instant it lands at: nothing is reconciled before it, and a stall is reported after it.
        public var at: Double
        /// The epoch the player follows: the seek's, or a later one switched to (no jump) while it prerolls.
        public var applied: Int
    }
}

extension ParticipantCore.PlayerPhase {
    /// The epoch the player follows (0: none yet).
    public var appliedEpoch: Int {
        switch self {
        case .measuring: 0
        case .joining(let seek), .seeking(let seek, _): seek.applied
        case .following(let applied, _): applied
        }
    }

    /// The seek the player prerolls, if any.
    public var pendingSeek: ParticipantCore.PendingSeek? {
        switch self {
        case .measuring, .following: nil
        case .joining(let seek), .seeking(let seek, _): seek
        }
    }

    /// Its seek landed: it follows the timeline.
    var isFollowing: Bool {
        if case .following = self { true } else { false }
    }

    /// Whether it has followed the timeline before (a seek after that is not a join's).
    var hasFollowed: Bool {
        switch self {
        case .measuring, .joining: false
        case .seeking, .following: true
        }
    }

    /// Whether the party was told its seek is late.
    var isStalled: Bool {
        if case .seeking(_, true) = self { true } else { false }
    }

    /// A seek starts (replacing one that prerolls): the join's until the player has followed the
    /// timeline, a later one after. `stalled`: whether the party is told it is late (nil: as it was).
    mutating func begin(_ seek: ParticipantCore.PendingSeek, stalled: Bool? = nil) {
        switch self {
        case .measuring, .joining:
            self = .joining(seek)
        case .seeking(_, let was):
            self = .seeking(seek, stalled: stalled ?? was)
        case .following:
            self = .seeking(seek, stalled: stalled ?? false)
        }
    }

    /// The player follows `epoch` from now on: one applied with a clock switch, or, welcomed back,
    /// the one before the party's (so the party's is applied again once the clock is measured anew).
    /// A seek that prerolls still does. Nothing changes while measuring: its first epoch comes with a seek.
    mutating func follow(epoch: Int) {
        switch self {
        case .measuring:
            break
        case .joining(var seek):
            seek.applied = epoch
            self = .joining(seek)
        case .seeking(var seek, let stalled):
            seek.applied = epoch
            self = .seeking(seek, stalled: stalled)
        case .following(_, let holdUntil):
            self = .following(applied: epoch, holdUntil: holdUntil)
        }
    }

    /// The player finished prerolling the seek for `epoch`: it follows the timeline. Returns whether
    /// the party had been told it was late, or nil when no seek for that epoch prerolls.
    mutating func complete(epoch: Int) -> Bool? {
        switch self {
        case .joining(let seek) where seek.epoch == epoch:
            self = .following(applied: seek.applied, holdUntil: seek.at)
            return false
        case .seeking(let seek, let stalled) where seek.epoch == epoch:
            self = .following(applied: seek.applied, holdUntil: seek.at)
            return stalled
        case .measuring, .joining, .seeking, .following:
            return nil
        }
    }

    /// At `now`, a later seek whose instant passed unready (and not said yet) becomes stalled.
    /// Returns whether it did (the party is told).
    mutating func stall(now: Double) -> Bool {
        guard case .seeking(let seek, stalled: false) = self, now > seek.at else { return false }
        self = .seeking(seek, stalled: true)
        return true
    }
}
