/// The party's shared timeline, published by the server: media `item` is at `position` at party-clock
/// instant `partyTime`, moving at `rate` while `playing`. Every change gets a new `epoch`; clients
/// ignore epochs older than the one they follow, which is what kills seek loops.
public struct Timeline: Sendable, Codable, Equatable {
    public var epoch: Int
    public var item: Int
    public var position: Double
    public var partyTime: Double
    public var rate: Double
    public var playing: Bool
    /// True when this epoch moved the position (a seek or item change): clients re-seek accurately.
    /// False for play, pause and rate, which continue from where the clock is.
    public var jump: Bool
    /// Who or what caused it ("Alice paused", "waiting for Bob"), for display.
    public var reason: String?

    public init(epoch: Int = 0, item: Int = 0, position: Double = 0, partyTime: Double = 0, rate: Double = 1,
                playing: Bool = false, jump: Bool = true, reason: String? = nil) {
        self.epoch = epoch
        self.item = item
        self.position = position
        self.partyTime = partyTime
        self.rate = rate
        self.playing = playing
        self.jump = jump
        self.reason = reason
    }

    /// Media position at party time `t`. Before `partyTime` a playing timeline reads less than
    /// `position`: the instant lies ahead.
    public func position(at t: Double) -> Double {
        playing ? position + (t - partyTime) * rate : position
    }

    /// The next timeline: same item, continuing from this one's position at `t`.
    public func continued(at t: Double) -> Timeline {
        var next = self
        next.epoch += 1
        next.position = position(at: t)
        next.partyTime = t
        next.jump = false
        next.reason = nil
        return next
    }
}
