/// The first minute after the gateway (the party server) started, when a room that names no party
/// may only name one whose host is not back yet. Parties live in one server's memory: after a
/// restart a party exists again once its host has reconnected and re-created it, and a Syncplay
/// client that was hung up on by the old server (``SyncplayServerCore/hangUp(_:)``) retries every
/// 3.2 s at most, so it often comes back first. Within the grace, "no party" hangs up on it as well
/// (a chat line, the close, no `Error`) and it tries again; after it, "no party" is an `Error`,
/// final for Syncplay's client, as for a mistyped room.
///
/// The start instant is data handed to the bridge (``SyncplayPartyBridge/init(motd:offersTLS:now:grace:)``),
/// on the gateway's clock: the decision reads only the `now` of the event it is made for.
public struct SyncplayRestartGrace: Sendable, Equatable {
    /// How long a missing party counts as not back yet: a Tandem host gives up reconnecting 60 s
    /// after it lost the server (`PartyMember.reconnectGiveUp`) and until then tries at least every
    /// 5 s (`PartyMember.backoffMax`), so a host that re-creates its party at all has done so within
    /// 60 s of the new server starting (it lost the old one before that). Past it a missing party is
    /// not coming back, and a mistyped room is told so at its next try.
    public static let standardLength = 60.0

    /// When the gateway started, on the clock of the `now`s the bridge is given.
    public let started: Double
    /// Seconds after ``started`` during which a missing party is not back yet.
    public let length: Double

    public init(started: Double, length: Double = Self.standardLength) {
        self.started = started
        self.length = length
    }

    /// Whether a party missing at `now` may still be re-created by its returning host.
    public func covers(_ now: Double) -> Bool {
        now - started < length
    }
}
