/// Members' statuses: presence for the others, metrics, and the group waiting (boundedly) for a stalled member.
extension PartyServerCore {
    /// A member's status: its seat's state, epoch and round trip, and its presence for the others.
    mutating func status(_ status: Status, party partyID: String, seat: PartyState.Seat, now: Double) -> [Output] {
        let seatID = seat.info.id
        parties[partyID]?.seats[seatID]?.status = status.state
        parties[partyID]?.seats[seatID]?.statusEpoch = status.epoch
        if let rtt = status.rttMs, rtt.isFinite, rtt >= 0 { parties[partyID]?.seats[seatID]?.rtt = min(rtt / 1000, 5) }
        let presence = Presence(status)
        var presenceChanged: [Output] = []
        if seat.info.presence != presence {
            parties[partyID]?.seats[seatID]?.info.presence = presence
            var info = seat.info
            info.presence = presence
            if let party = parties[partyID] { presenceChanged = broadcast(party, .presence(info)) }
        }
        let reported: [Output] = status.skewMs != nil || status.rttMs != nil
            ? [.memberReported(skewMs: status.skewMs, rttMs: status.rttMs)] : []
        return reported + presenceChanged + statusChanged(partyID, seat: seatID, now: now)
    }

    /// A participant that missed a command's instant stalls: the group pauses for it, for a bounded time.
    mutating func statusChanged(_ partyID: String, seat seatID: String, now: Double) -> [Output] {
        guard var party = parties[partyID], let seat = party.seats[seatID] else { return [] }
        if seat.status == .ready, seat.statusEpoch >= party.timeline.epoch, seat.waitedOut {
            party.seats[seatID]?.waitedOut = false
            parties[partyID] = party
        }
        if seat.status == .stalled, !seat.waitedOut, party.timeline.playing, party.waitingFor.isEmpty {
            var next = party.timeline.continued(at: now + party.lead(jump: false))
            next.playing = false
            next.reason = "waiting for \(seat.info.name)" + (seat.info.presence?.isBuffering == true ? " (buffering)" : "")
            party.timeline = next
            party.waitingFor = [seatID]
            party.waitDeadline = now + party.config.stallWaitSeconds
            parties[partyID] = party
            return broadcast(party, .timeline(next))
        }
        // Ready again, or unable to play this item at all: either way nobody waits for it any longer.
        if party.waitingFor.contains(seatID),
           seat.status == .unavailable || (seat.status == .ready && seat.statusEpoch >= party.timeline.epoch) {
            party.waitingFor.remove(seatID)
            parties[partyID] = party
            if party.waitingFor.isEmpty {
                let reason = seat.status == .unavailable ? "went on without \(seat.info.name)" : "\(seat.info.name) is ready"
                return resumeAfterWait(partyID, now: now, reason: reason)
            }
        }
        return []
    }

    mutating func resumeAfterWait(_ partyID: String, now: Double, reason: String) -> [Output] {
        guard var party = parties[partyID], party.waitDeadline != nil else { return [] }
        var next = party.timeline.continued(at: now + party.lead(jump: false))
        next.playing = true
        next.reason = reason
        party.timeline = next
        party.waitingFor = []
        party.waitDeadline = nil
        parties[partyID] = party
        return broadcast(party, .timeline(next))
    }
}
