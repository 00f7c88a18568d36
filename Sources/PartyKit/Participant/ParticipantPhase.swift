extension ParticipantCore {
    /// Where a member is in its party's lifecycle. Each case carries what exists only then: no seat
    /// before the welcome, and nothing moves after the end.
    ///
    /// Transitions, all made by the core's named events:
    /// - ``greeting`` → ``seated(_:)`` on a welcome;
    /// - ``seated(_:)`` → ``seated(_:)`` on a welcome again (after ``ParticipantCore/reconnect(now:)``:
    ///   the same seat, its epoch applied anew once the clock is measured again);
    /// - ``greeting`` or ``seated(_:)`` → ``ended(last:)`` on `partyEnded` or a final error (a
    ///   seated member's `unknownParty` or `serverShutdown` is not final: it reconnects).
    ///
    /// A reconnect keeps the phase: the clock is measured anew (``ParticipantCore/clockSync``) and a
    /// seated member keeps its seat, its player still following (or prerolling) what it was.
    public enum Phase: Sendable, Equatable {
        /// Not in the party yet: its hello is out (or about to be) and no welcome has come. Only a
        /// welcome, chat, a refusal, a redirect, an error or the party's end mean anything here.
        case greeting
        /// Welcomed: its seat in the party, and how its player follows the timeline.
        case seated(Seat)
        /// The party ended for this member, or the server refused it for good. Final: messages,
        /// ticks, seeks landing and reconnects are ignored. `last`: the seat it had (what a status
        /// line still shows), nil if it never got one.
        case ended(last: Seat?)
    }
}

extension ParticipantCore.Phase {
    /// The seat it has, or had when the party ended.
    public var seat: ParticipantCore.Seat? {
        switch self {
        case .greeting: nil
        case .seated(let seat): seat
        case .ended(let last): last
        }
    }

    /// Whether it is in the party now (welcomed, not ended).
    public var isSeated: Bool {
        if case .seated = self { true } else { false }
    }

    /// Whether the party ended for it.
    public var isEnded: Bool {
        if case .ended = self { true } else { false }
    }

    /// The end: the seat, if any, is kept for reading.
    mutating func end() {
        self = .ended(last: seat)
    }
}
