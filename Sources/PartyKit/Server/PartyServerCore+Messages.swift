/// Messages of joined clients: time pings, control commands, chat, the participant list and bye.
extension PartyServerCore {
    mutating func handle(_ message: PartyMessage, party partyID: String, seat seatID: String,
                                 connection id: Int, receivedAt: Double, now: Double) -> [Output] {
        // No copy of the party is held here: the hot messages (pings, statuses) change it in place, and
        // a copy alive meanwhile would make that copy its seats, once per message of every member.
        guard let seat = parties[partyID]?.seats[seatID] else { return [] }
        switch message {
        case .timePing(let ping):
            return [.send(connection: id, .timePong(TimePong(id: ping.id, t0: ping.t0, t1: receivedAt, t2: now)))]
        case .command(let command):
            return self.command(command, party: partyID, seat: seat, connection: id, now: now)
        case .status(let status):
            return self.status(status, party: partyID, seat: seat, now: now)
        default:
            break
        }
        guard var party = parties[partyID] else { return [] }
        switch message {
        case .timePing, .command, .status:
            return []
        case .chat(let chat):
            let text = String(chat.text.prefix(PartyProtocol.maxChatLength))
            let line = ChatMessage(from: seat.info.name, text: text, time: now)
            party.chat.append(line)
            while party.chat.count > Self.chatHistory { party.chat.removeFirst() }
            parties[partyID] = party
            return broadcast(party, .chatMessage(line))
        case .listParticipants:
            return [.send(connection: id, .participants(ParticipantList(participants: party.participants)))]
        case .itemURL(let change):
            guard seat.info.role == .host else {
                return [.send(connection: id, .refused(Refused(id: 0, reason: "only the host can change an item's URL")))]
            }
            if let problem = change.problem(items: party.config.items) {
                return [.send(connection: id, .refused(Refused(id: 0, reason: "item URL: \(problem)")))]
            }
            party.config.items[change.item] = party.config.items[change.item].moved(to: change)
            parties[partyID] = party
            return broadcast(party, .itemURL(change))
        case .bye:
            connections[id]?.party = nil
            return removeSeat(seatID, party: partyID, reason: "left the party", now: now)
                + [.close(connection: id, reason: "said bye")]
        case .hello:
            return drop(id, code: .badMessage, "second hello", now: now)
        default:
            return drop(id, code: .badMessage, "\"\(message.type)\" is not a client message", now: now)
        }
    }


    mutating func command(_ command: Command, party partyID: String, seat: PartyState.Seat,
                                  connection id: Int, now: Double) -> [Output] {
        guard var party = parties[partyID] else { return [] }
        if party.config.control == .host, seat.info.role != .host {
            return [.send(connection: id, .refused(Refused(id: command.id,
                reason: "only the host can \(command.action.rawValue) in this party (control: host)")))]
        }
        let current = party.timeline
        let jump = command.action == .seek || command.action == .item
        // A rate change needs a longer lead: players cut their audio exactly on the change only if
        // they have not rendered that far ahead yet. A command never lands before the one it
        // follows (a pause right after a seek must not undo the seek).
        let at = max(now + party.lead(jump: jump, rate: command.action == .rate), current.partyTime)
        var next = current.continued(at: at)
        // A group paused only while it waits for a stalled member was playing: a seek, item or
        // rate change then plays on (ending the wait must not leave the party paused for good).
        if party.waitDeadline != nil { next.playing = true }
        switch command.action {
        case .play: next.playing = true
        case .pause: next.playing = false
        case .rate:
            guard let v = command.value, v.isFinite else { return refuse(command, id, "rate needs a value") }
            next.rate = min(max(v, 0.25), 4)
        case .seek:
            guard let v = command.value, v.isFinite, (0...Self.maxPosition).contains(v) else {
                return refuse(command, id, "seek needs a position within 0…\(Int(Self.maxPosition)) s")
            }
            next.position = v
            next.jump = true
        case .item:
            guard let v = command.value, let index = Int(exactly: v), party.config.items.indices.contains(index) else {
                return refuse(command, id, "no such item")
            }
            next.item = index
            next.position = 0
            next.jump = true
        }
        next.reason = "\(seat.info.name): \(command.action.rawValue)"
        party.timeline = next
        party.waitingFor = []
        party.waitDeadline = nil
        parties[partyID] = party
        return broadcast(party, .timeline(next))
    }

    func refuse(_ command: Command, _ id: Int, _ reason: String) -> [Output] {
        [.send(connection: id, .refused(Refused(id: command.id, reason: reason)))]
    }
}
