/// Messages from the server: the welcome, clock exchanges, timelines, the roster, chat, refusals and the end.
extension ParticipantCore {
    /// A message from the server. `receivedAt`: when the transport read it off the socket (a time
    /// pong's t3: a member busy elsewhere must not make that wait look like network delay); `now`:
    /// when it is handled. Nothing is heard after the end; what needs a seat (timelines, the
    /// roster) is ignored before the welcome.
    public mutating func receive(_ message: PartyMessage, receivedAt: Double? = nil, now: Double) -> [Action] {
        guard !phase.isEnded else { return [] }
        switch message {
        case .welcome(let welcome):
            return welcomed(welcome, now: now)
        case .timePong(let pong):
            // The driver may stamp t0 as the ping leaves (later than it was made here): the echo is
            // trusted if it lies between the making and the answer's arrival.
            let t3 = min(receivedAt ?? now, now)
            guard let made = pings.removeValue(forKey: pong.id), pong.t0 >= made, pong.t0 <= t3 else { return [] }
            clockSync.add(ClockSync.Sample(t0: pong.t0, t1: pong.t1, t2: pong.t2, t3: t3))
            // A disturbance brings the pace back at once, not after the long wait a converged clock had set.
            if !clockSync.isBursting { nextPing = min(nextPing, now + clockSync.nextInterval) }
            guard case .seated(var seat) = phase else { return [] }
            defer { phase = .seated(seat) }
            return applyTimeline(&seat, now: now)
        case .timeline, .joined, .left, .participants, .presence, .hostChanged, .itemURL:
            guard case .seated(var seat) = phase else { return [] }  // no seat yet: nothing to update
            defer { phase = .seated(seat) }
            return receive(message, seat: &seat, now: now)
        case .chatMessage(let line):
            return [.notice(.chat(line))]
        case .refused(let refused):
            return [.notice(.refused(refused.reason))]
        case .error(let error) where error.code == .redirect && error.redirect != nil:
            return [.redirect(error.redirect!)]
        case .error(let error):
            // Rejoining a party the server lost: the host may re-create it; try again later.
            if phase.isSeated, error.code == .unknownParty || error.code == .serverShutdown {
                return [.notice(.error(error)), .disconnect(reason: error.message)]
            }
            phase.end()
            return [.notice(.error(error)), .disconnect(reason: error.message)]
        case .partyEnded(let end):
            phase.end()
            return [.notice(.partyEnded(end.reason)), .disconnect(reason: end.reason)]
        default:
            return []
        }
    }

    /// A welcome: the seat, or the same seat again after a reconnect; the clock burst starts.
    mutating func welcomed(_ welcome: Welcome, now: Double) -> [Action] {
        switch phase {
        case .ended:
            return []
        case .greeting:
            phase = .seated(Seat(welcome: welcome))
        case .seated(var seat):
            seat.welcomedAgain(welcome)
            phase = .seated(seat)
        }
        nextPing = now
        var out: [Action] = [.notice(.joined(welcome))]
        out += welcome.chat.map { .notice(.chat($0)) }
        return out + ping(now: now)
    }

    /// What updates the seat: timelines and the roster.
    mutating func receive(_ message: PartyMessage, seat: inout Seat, now: Double) -> [Action] {
        switch message {
        case .timeline(let next):
            guard next.epoch > seat.timeline.epoch else { return [] }  // stale epoch: ignore
            seat.timeline = next
            var out: [Action] = []
            if let reason = next.reason { out.append(.notice(.timeline(next, reason: reason))) }
            if seat.buffering.timeline(epoch: next.epoch, playing: next.playing, now: now) {
                // The group went on without this member: it stops asking it to wait, and rejoins when it can.
                out.append(statusMessage(currentState(seat), seat: seat))
            }
            return out + applyTimeline(&seat, now: now)
        case .joined(let info):
            seat.participants.removeAll { $0.id == info.id }
            seat.participants.append(info)
            return [.notice(.participantJoined(info))]
        case .left(let left):
            seat.participants.removeAll { $0.id == left.participant.id }
            return [.notice(.participantLeft(left.participant, reason: left.reason))]
        case .participants(let list):
            seat.participants = list.participants
            return [.notice(.participantList(list.participants))]
        case .presence(let info):
            let before = seat.participants.first { $0.id == info.id }?.presence
            seat.participants = seat.participants.map { $0.id == info.id ? info : $0 }
            // "syncing" is every joiner's first second: not worth a line (buffering is), nor is a
            // change people would not see ("buffering" asking the group to wait, then not).
            let item = seat.timeline.item
            guard info.id != seat.me.id, info.presence?.text(item: item) != before?.text(item: item),
                  info.presence?.state != .syncing || info.presence?.isBuffering == true else { return [] }
            return [.notice(.presenceChanged(info, item: item))]
        case .hostChanged(let info):
            seat.participants = seat.participants.map { $0.id == info.id ? info : ($0.role == .host ? demoted($0) : $0) }
            if info.id == seat.me.id { seat.me = info }
            return [.notice(.hostChanged(info))]
        case .itemURL(let change):
            guard seat.config.items.indices.contains(change.item), seat.config.items[change.item].url != nil else { return [] }
            let moved = seat.config.items[change.item].moved(to: change)
            guard moved != seat.config.items[change.item] else { return [] }
            seat.config.items[change.item] = moved
            let title = moved.title
            var out: [Action] = [.notice(.media("\(title): the host found a new link for it, opening that"))]
            // The item playing is opened again at the new address, where the party is now (every
            // member, so that all play what the host resolved); another item opens it in its turn.
            if change.item == seat.timeline.item, seat.player.appliedEpoch > 0, let sync = clockSync.estimate {
                out += reseek(&seat, sync: sync, now: now)
            }
            return out
        default:
            return []
        }
    }

    func demoted(_ info: ParticipantInfo) -> ParticipantInfo {
        var d = info
        d.role = .participant
        return d
    }
}
