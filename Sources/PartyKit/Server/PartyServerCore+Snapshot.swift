import Crypto

/// What a cluster node saves of a party and how another node brings it back: the party's config,
/// timeline and seats (each with the hash of its token, never the token), so that after a takeover
/// every member's reconnect takes its own seat back, the host's included.
extension PartyServerCore {
    /// A seat as a snapshot keeps it: who sat there, and the SHA-256 of its seat token.
    public struct SavedSeat: Sendable, Codable, Equatable {
        public var info: ParticipantInfo
        public var tokenHash: String
        public init(info: ParticipantInfo, tokenHash: String) {
            self.info = info
            self.tokenHash = tokenHash
        }
    }

    /// A party as a snapshot keeps it.
    public struct PartyImage: Sendable, Equatable {
        public var config: PartyConfig
        public var timeline: Timeline
        public var seats: [SavedSeat]
        public init(config: PartyConfig, timeline: Timeline, seats: [SavedSeat]) {
            self.config = config
            self.timeline = timeline
            self.seats = seats
        }
    }

    /// A restored seat's token until its member comes back: never a real token (those are base 36),
    /// followed by the real token's hash.
    static let restoredTokenPrefix = "restored:"

    /// The parties this server holds.
    public var partyIDs: [String] { Array(parties.keys) }

    /// Seats of `party` (taken or kept for a lost connection); nil when it is not here.
    public func seatCount(of party: String) -> Int? { parties[party]?.seats.count }

    /// Hex SHA-256 of a seat token. Tokens are 128 random bits: no salt is needed against guessing.
    public static func seatTokenHash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return "\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
        }.joined()
    }

    /// What to save of `party` now, or nil when this server does not hold it.
    public func image(of party: String) -> PartyImage? {
        guard let state = parties[party] else { return nil }
        let seats = state.seats.values.sorted { $0.info.joinedAt < $1.info.joinedAt }.map { seat in
            let hash = seat.token.hasPrefix(Self.restoredTokenPrefix)
                ? String(seat.token.dropFirst(Self.restoredTokenPrefix.count)) : Self.seatTokenHash(seat.token)
            return SavedSeat(info: seat.info, tokenHash: hash)
        }
        return PartyImage(config: state.config, timeline: state.timeline, seats: seats)
    }

    /// Makes `party` from what another node saved (the key: the one a member just proved against the
    /// directory). Its timeline continues at the next epoch from `restore` (where the party is now), so
    /// members accept it; its seats wait, disconnected since `now`, for their members' tokens for the
    /// party's grace period, as after a lost connection. Does nothing if the party is here already.
    public mutating func restore(party: String, key: String, config: PartyConfig, restore r: PartyConfig.Restore,
                                 seats: [SavedSeat], now: Double) -> [Output] {
        guard parties[party] == nil, config.items.indices.contains(r.item) else { return [] }
        var config = config
        config.restore = nil
        let timeline = Timeline(epoch: r.epoch + 1, item: r.item, position: max(0, r.position), partyTime: now + Self.minLead,
                                rate: min(max(r.rate, 0.25), 4), playing: r.playing, jump: false,
                                reason: "the party moved to this server")
        var state = PartyState(id: party, key: key, config: config, timeline: timeline)
        for saved in seats {
            state.seats[saved.info.id] = PartyState.Seat(info: saved.info, token: Self.restoredTokenPrefix + saved.tokenHash,
                                                         connection: nil, disconnectedAt: now)
            if saved.info.id.hasPrefix("p"), let n = Int(saved.info.id.dropFirst()) { state.nextSeat = max(state.nextSeat, n + 1) }
        }
        parties[party] = state
        return [.log("\(party): restored at epoch \(timeline.epoch) with \(seats.count) seats waiting")]
    }

    /// Before a hello that resumes with `token`: a restored seat of `party` whose hash matches takes
    /// the token back, so the hello resumes it as on the node that gave it.
    public mutating func reclaimSeat(party: String, token: String) {
        guard var state = parties[party] else { return }
        let wanted = Self.restoredTokenPrefix + Self.seatTokenHash(token)
        guard let seat = state.seats.values.first(where: { ConstantTime.equals($0.token, wanted) }) else { return }
        state.seats[seat.info.id]?.token = token
        parties[party] = state
    }

    /// Gives `party` up (another node owns it now): each member is told to reconnect (`serverShutdown`,
    /// so it keeps its seat token and finds the new owner) and its connection closed.
    public mutating func evict(party: String, reason: String) -> [Output] {
        guard let state = parties.removeValue(forKey: party) else { return [] }
        var out: [Output] = [.log("\(party): given up: \(reason)")]
        for seat in state.connected {
            out.append(.send(connection: seat.connection!, .error(ErrorMessage(code: .serverShutdown, message: reason))))
            out.append(.close(connection: seat.connection!, reason: reason))
        }
        return out + [.partyClosed(party)]
    }
}
