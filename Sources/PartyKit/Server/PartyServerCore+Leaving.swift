/// A seat leaving (bye, or its grace ran out): the others are told; a host's leaving hands off or ends the party.
extension PartyServerCore {
    mutating func removeSeat(_ seatID: String, party partyID: String, reason: String, now: Double) -> [Output] {
        guard var party = parties[partyID], let seat = party.seats.removeValue(forKey: seatID) else { return [] }
        var out: [Output] = [.log("\(partyID): \(seat.info.name) \(reason)")]
        out += broadcast(party, .left(Left(participant: seat.info, reason: reason)))
        party.waitingFor.remove(seatID)
        if seat.info.role == .host {
            if party.config.handoff, var heir = party.connected.first {
                heir.info.role = .host
                party.seats[heir.info.id] = heir
                parties[partyID] = party
                out.append(.log("\(partyID): \(heir.info.name) is the host now"))
                return out + broadcast(party, .hostChanged(heir.info))
            }
            parties[partyID] = nil
            for other in party.connected {
                out.append(.send(connection: other.connection!, .partyEnded(PartyEnded(reason: "the host \(seat.info.name) \(reason)"))))
                out.append(.close(connection: other.connection!, reason: "party ended"))
                connections[other.connection!]?.party = nil
            }
            return out + [.log("\(partyID): ended"), .partyClosed(partyID)]
        }
        parties[partyID] = party
        return out
    }
}
