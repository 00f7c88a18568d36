/// Messages from the server: the welcome, clock exchanges, timelines, the roster, chat, refusals and the end.
extension ParticipantCore {
    /// A message from the server. `receivedAt`: when the transport read it off the socket (a time
    /// pong's t3: a member busy elsewhere must not make that wait look like network delay); `now`:
    /// when it is handled.
    public mutating func receive(_ message: PartyMessage, receivedAt: Double? = nil, now: Double) -> [Action] {
        switch message {
        case .welcome(let welcome):
            if me != nil, welcome.timeline.epoch <= appliedEpoch {
                // Back on the same timeline: it applies once the clock is measured again.
                appliedEpoch = welcome.timeline.epoch - 1
            }
            me = welcome.you
            token = welcome.token
            config = welcome.config
            participants = welcome.participants
            timeline = welcome.timeline
            if let listed = welcome.nodes { nodes = listed }
            nextPing = now
            var out: [Action] = [.notice(.joined(welcome))]
            out += welcome.chat.map { .notice(.chat($0)) }
            return out + ping(now: now)
        case .timePong(let pong):
            // The driver may stamp t0 as the ping leaves (later than it was made here): the echo is
            // trusted if it lies between the making and the answer's arrival.
            let t3 = min(receivedAt ?? now, now)
            guard let made = pings.removeValue(forKey: pong.id), pong.t0 >= made, pong.t0 <= t3 else { return [] }
            clockSync.add(ClockSync.Sample(t0: pong.t0, t1: pong.t1, t2: pong.t2, t3: t3))
            // A disturbance brings the pace back at once, not after the long wait a converged clock had set.
            if !clockSync.isBursting { nextPing = min(nextPing, now + clockSync.nextInterval) }
            return applyTimeline(now: now)
        case .timeline(let next):
            guard next.epoch > (timeline?.epoch ?? 0) else { return [] }  // stale epoch: ignore
            timeline = next
            var out: [Action] = []
            if let reason = next.reason { out.append(.notice(.timeline(next, reason: reason))) }
            if buffering.timeline(epoch: next.epoch, playing: next.playing, now: now) {
                // The group went on without this member: it stops asking it to wait, and rejoins when it can.
                out.append(statusMessage(currentState))
            }
            return out + applyTimeline(now: now)
        case .joined(let info):
            participants.removeAll { $0.id == info.id }
            participants.append(info)
            return [.notice(.participantJoined(info))]
        case .left(let left):
            participants.removeAll { $0.id == left.participant.id }
            return [.notice(.participantLeft(left.participant, reason: left.reason))]
        case .participants(let list):
            participants = list.participants
            return [.notice(.participantList(list.participants))]
        case .presence(let info):
            let before = participants.first { $0.id == info.id }?.presence
            participants = participants.map { $0.id == info.id ? info : $0 }
            // "syncing" is every joiner's first second: not worth a line (buffering is), nor is a
            // change people would not see ("buffering" asking the group to wait, then not).
            let item = timeline?.item ?? 0
            guard info.id != me?.id, info.presence?.text(item: item) != before?.text(item: item),
                  info.presence?.state != .syncing || info.presence?.isBuffering == true else { return [] }
            return [.notice(.presenceChanged(info, item: item))]
        case .hostChanged(let info):
            participants = participants.map { $0.id == info.id ? info : ($0.role == .host ? demoted($0) : $0) }
            if info.id == me?.id { me = info }
            return [.notice(.hostChanged(info))]
        case .chatMessage(let line):
            return [.notice(.chat(line))]
        case .refused(let refused):
            return [.notice(.refused(refused.reason))]
        case .error(let error) where error.code == .redirect && error.redirect != nil:
            return [.redirect(error.redirect!)]
        case .error(let error):
            // Rejoining a party the server lost: the host may re-create it; try again later.
            if token != nil, error.code == .unknownParty || error.code == .serverShutdown {
                return [.notice(.error(error)), .disconnect(reason: error.message)]
            }
            ended = true
            return [.notice(.error(error)), .disconnect(reason: error.message)]
        case .partyEnded(let end):
            ended = true
            return [.notice(.partyEnded(end.reason)), .disconnect(reason: end.reason)]
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
