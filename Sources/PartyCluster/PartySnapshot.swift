import PartyKit

/// What a node needs to bring a party back after its owner died: its config and its timeline as the
/// owner last saved them. Stored as JSON beside the party's epoch.
///
/// A timeline's `partyTime` is on its owner's party clock, which no other node shares, so a snapshot
/// also carries that clock's reading when it was saved (``partyClock``), and the directory tells its
/// age on the database's clock when it is read back (``age``): ``restore`` evaluates the timeline there.
public struct PartySnapshot: Sendable, Equatable, Codable {
    /// The party's config (its `restore` is not kept: a restore is made from the timeline).
    public var config: PartyConfig
    public var timeline: Timeline
    /// The owner's party clock when it took this snapshot.
    public var partyClock: Double
    /// Seconds between the save and the read that returned it, on the database's clock. Zero when
    /// the snapshot is built to be saved.
    public var age: Double
    /// The party's seats, each with its token's hash (never the token): after a takeover a member's
    /// reconnect takes its own seat back, the host's included.
    public var seats: [PartyServerCore.SavedSeat]

    public init(config: PartyConfig, timeline: Timeline, partyClock: Double, age: Double = 0,
                seats: [PartyServerCore.SavedSeat] = []) {
        var config = config
        config.restore = nil
        self.seats = seats
        self.config = config
        self.timeline = timeline
        self.partyClock = partyClock
        self.age = age
    }

    /// The epoch the timeline is at: saves are ordered by it, so an older one never overwrites a newer.
    public var epoch: Int { timeline.epoch }

    /// Where the party is now, as a host re-creating it says in `create.restore`: the timeline
    /// evaluated `age` seconds after the save (still before its instant, it reads its starting point).
    /// The new owner continues at the next epoch, so members ignore nothing.
    public var restore: PartyConfig.Restore {
        let now = partyClock + age
        let t = max(now, timeline.partyTime)
        return PartyConfig.Restore(epoch: timeline.epoch, item: timeline.item,
                                   position: max(0, timeline.position(at: t)), rate: timeline.rate,
                                   playing: timeline.playing)
    }

    /// The config with ``restore`` filled in: what the new owner creates the party from.
    public var restoringConfig: PartyConfig {
        var config = config
        config.restore = restore
        return config
    }

    enum CodingKeys: String, CodingKey { case config, timeline, partyClock, seats }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(config: try c.decode(PartyConfig.self, forKey: .config),
                  timeline: try c.decode(Timeline.self, forKey: .timeline),
                  partyClock: try c.decode(Double.self, forKey: .partyClock),
                  seats: try c.decodeIfPresent([PartyServerCore.SavedSeat].self, forKey: .seats) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(config, forKey: .config)
        try c.encode(timeline, forKey: .timeline)
        try c.encode(partyClock, forKey: .partyClock)
        if !seats.isEmpty { try c.encode(seats, forKey: .seats) }
    }
}
