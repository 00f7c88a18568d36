/// A connection's hello: it creates, joins or takes back a seat in a party, or is dropped saying why.
extension PartyServerCore {
    /// A seat token: 128 bits from the system's secure generator, so no token can be derived from another.
    static func newToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return String(rng.next(), radix: 36) + String(rng.next(), radix: 36)
    }

    mutating func handleHello(_ hello: Hello, from id: Int, now: Double) -> [Output] {
        guard hello.version == PartyProtocol.version else {
            return drop(id, code: .versionMismatch,
                        "version mismatch: this server speaks protocol \(PartyProtocol.version), the client \(hello.version)", now: now)
        }
        // An address over the limit is refused before its key is looked at (or a party made).
        let source = connections[id]?.source
        if let source, case .refused(let wait) = wrongKeys.check(source, now: now) {
            return drop(id, code: .wrongKey, WrongKeyLimiter.refusal(retryAfter: wait), now: now, from: source)
        }
        let name = String(hello.name.prefix(PartyProtocol.maxNameLength))
        if let config = hello.create, parties[hello.party] == nil {
            guard !config.items.isEmpty else { return drop(id, code: .badMessage, "a party needs at least one media item", now: now) }
            var timeline = Timeline(epoch: 1, item: 0, position: 0, partyTime: now, playing: false,
                                    reason: "\(name) created the party")
            if let r = config.restore, config.items.indices.contains(r.item) {
                // Epochs never go back, so members who followed the old server accept the new one.
                timeline = Timeline(epoch: r.epoch + 1, item: r.item, position: max(0, r.position), partyTime: now + Self.minLead,
                                    rate: min(max(r.rate, 0.25), 4), playing: r.playing, jump: false,
                                    reason: "\(name) restored the party")
            }
            let party = PartyState(id: hello.party, key: hello.key, config: config, timeline: timeline)
            parties[hello.party] = party
        }
        guard var party = parties[hello.party] else {
            return drop(id, code: .unknownParty, "no party \"\(hello.party)\" on this server", now: now)
        }
        guard ConstantTime.equals(party.key, hello.key) else {
            if let source { wrongKeys.recordMiss(source, now: now) }
            return drop(id, code: .wrongKey, "wrong key for party \"\(hello.party)\"", now: now, from: source)
        }
        var out: [Output] = []
        let seatID: String
        if let token = hello.resume, let seat = party.seats.values.first(where: { ConstantTime.equals($0.token, token) }) {
            seatID = seat.info.id
            if let old = seat.connection, old != id {
                connections[old]?.party = nil
                out.append(.close(connection: old, reason: "replaced by a new connection"))
            }
            party.seats[seatID]?.connection = id
            party.seats[seatID]?.disconnectedAt = nil
            out.append(.log("\(party.id): \(seat.info.name) reconnected"))
        } else {
            if hello.create != nil, party.hostID != nil, party.seats[party.hostID!]?.connection != nil {
                return drop(id, code: .partyExists, "party \"\(hello.party)\" already has a host", now: now)
            }
            let role: Role = hello.create != nil && party.hostID == nil ? .host : .participant
            seatID = "p\(party.nextSeat)"
            party.nextSeat += 1
            let info = ParticipantInfo(id: seatID, name: name.isEmpty ? seatID : name, role: role, joinedAt: now)
            party.seats[seatID] = PartyState.Seat(info: info, token: Self.newToken(), connection: id)
            for other in party.connected where other.info.id != seatID {
                out.append(.send(connection: other.connection!, .joined(info)))
            }
            out.append(.log("\(party.id): \(info.name) joined as \(role.rawValue)"))
        }
        connections[id]?.party = party.id
        connections[id]?.seat = seatID
        parties[party.id] = party
        let seat = party.seats[seatID]!
        out.append(.send(connection: id, .welcome(Welcome(
            version: PartyProtocol.version, party: party.id, you: seat.info, token: seat.token, config: party.config,
            participants: party.participants, timeline: party.timeline, chat: Array(party.chat), serverTime: now))))
        return out
    }
}
