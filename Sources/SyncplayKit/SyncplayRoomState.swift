/// The room's playstate as last heard: media `position` at local instant `receivedAt` (already
/// advanced by the message's age), moving at 1× unless `paused`, set by `setBy`.
public struct SyncplayRoomState: Sendable, Equatable {
    public var position: Double
    public var paused: Bool
    public var receivedAt: Double
    public var setBy: String?

    public init(position: Double, paused: Bool, receivedAt: Double, setBy: String?) {
        self.position = position
        self.paused = paused
        self.receivedAt = receivedAt
        self.setBy = setBy
    }

    /// Where the room is at local instant `t`.
    public func position(at t: Double) -> Double {
        paused ? position : position + (t - receivedAt)
    }
}

/// What the player should do to follow the room: be at `position` at local instant `at`,
/// playing or paused; `seek` says whether the position must be sought (or the player may just
/// start or stop where it is).
public struct SyncplayShow: Sendable, Equatable {
    public var position: Double
    public var at: Double
    public var playing: Bool
    public var seek: Bool

    public init(position: Double, at: Double, playing: Bool, seek: Bool) {
        self.position = position
        self.at = at
        self.playing = playing
        self.seek = seek
    }
}
