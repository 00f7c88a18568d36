import PartyKit

/// What the party says, for the Syncplay client.
extension SyncplayPartyBridge {
    /// A message from the party server to the member.
    public mutating func fromParty(_ message: PartyMessage, now: Double) -> [Output] {
        switch message {
        case .welcome(let welcome):
            return welcomed(welcome, now: now)
        case .timeline(let next):
            return timelineChanged(next, now: now)
        case .joined(let info):
            participants.removeAll { $0.id == info.id }
            participants.append(info)
            return tell(.set([.user(SyncplayUserEvent(username: name(of: info), room: party, file: itemFile(), event: .joined))]))
                + readiness(of: info)
        case .left(let left):
            participants.removeAll { $0.id == left.participant.id }
            return tell(.set([.user(SyncplayUserEvent(username: name(of: left.participant), room: party, file: nil, event: .left))]))
        case .presence(let info), .hostChanged(let info):
            guard let index = participants.firstIndex(where: { $0.id == info.id }) else { return [] }
            let changed = participants[index].presence?.state != info.presence?.state
            participants[index] = info
            return changed ? readiness(of: info) : []
        case .participants(let list):
            participants = list.participants
            return []
        case .chatMessage(let chat):
            let from = chat.from == me?.name ? core.name : chat.from
            return tell(.chat(SyncplayChat(username: from, message: chat.text)))
        case .refused(let refused):
            // The client's player did what was refused: it is forced back to the party.
            guard let request = pending.removeValue(forKey: refused.id), let room = room(at: now) else { return [] }
            if case .item = request { return playlistRefused(reason: refused.reason) }
            if case .seek = request { return refusedBack(room, doSeek: true, reason: refused.reason, now: now) }
            return refusedBack(room, doSeek: false, reason: refused.reason, now: now)
        case .error(let error) where error.code == .serverShutdown:
            // The server restarts (or gives the party to another node): the client reconnects by
            // itself, as to a real Syncplay server, if it is not sent an `Error`.
            return perform(core.hangUp("\(error.message); reconnecting"), now: now)
        case .error(let error):
            return perform(core.deny("the party: \(error.message)"), now: now)
        case .partyEnded(let ended):
            return perform(core.deny("the party ended: \(ended.reason)"), now: now)
        default:
            return []
        }
    }

    /// The party's server closed the member (the server stops, the member was dropped): the client
    /// is hung up on without an `Error`, so that it reconnects (``SyncplayServerCore/hangUp(_:)``).
    public mutating func partyClosed(_ reason: String, now: Double) -> [Output] {
        me = nil
        return perform(core.hangUp("the party connection closed (\(reason)); reconnecting"), now: now)
    }

    /// Party time `now` reached epoch `epoch`'s instant.
    public mutating func timelineDue(epoch: Int, now: Double) -> [Output] {
        guard let upcoming, upcoming.epoch == epoch else { return [] }
        return settle(now: max(now, upcoming.partyTime))
    }

    private mutating func welcomed(_ welcome: Welcome, now: Double) -> [Output] {
        me = welcome.you
        participants = welcome.participants
        items = welcome.config.items
        timeline = welcome.timeline
        var name = requestedName
        // Syncplay's client tells itself from others by name: another member of the same name would
        // make it ignore that member's seeks as its own. Syncplay's server appends "_" likewise.
        while welcome.participants.contains(where: { $0.id != welcome.you.id && $0.name == name }) { name += "_" }
        guard let room = room(at: now) else { return [] }
        return perform(core.welcome(name: name, room: welcome.party, now: now, state: room), now: now) + status() + fileCheck()
    }

    private mutating func timelineChanged(_ next: Timeline, now: Double) -> [Output] {
        guard let current = timeline, next.epoch > current.epoch else { return [] }
        // The server answers commands in order: this one answers our oldest (its reason names us).
        if let me, next.reason?.hasPrefix("\(me.name): ") == true, let id = pending.keys.min() { pending[id] = nil }
        var next = next
        // An epoch replaced before its instant still moved the position: the client must seek.
        if let skipped = upcoming, skipped.jump { next.jump = true }
        upcoming = next
        if next.partyTime > now { return [.wake(at: next.partyTime, epoch: next.epoch)] }
        return settle(now: now)
    }

    /// Puts an upcoming epoch whose instant has come in force, and tells the client.
    mutating func settle(now: Double) -> [Output] {
        guard let next = upcoming, next.partyTime <= now, let current = timeline else { return [] }
        upcoming = nil
        timeline = next
        var out = status()
        if next.item != current.item, items.indices.contains(next.item) {
            out += tell(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName,
                                                 message: "the party moved to item \(next.item + 1): \(items[next.item].title)")))
            out += itemChanged(to: next.item, by: setBy(next)) + fileCheck()
        }
        guard let room = room(at: now) else { return out }
        return out + perform(core.force(room, doSeek: next.jump, now: now), now: now)
    }

    private mutating func refusedBack(_ room: SyncplayServerCore.Room, doSeek: Bool, reason: String, now: Double) -> [Output] {
        perform(core.force(room, doSeek: doSeek, correcting: true, now: now), now: now)
            + tell(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName, message: "refused: \(reason)")))
    }

    /// Who set a timeline, for `setBy`: the member who commanded it ("Alice: pause"), the client's
    /// own name for its own commands; the gateway's for what the server decided (a stall wait).
    func setBy(_ timeline: Timeline) -> String {
        guard let reason = timeline.reason, let colon = reason.range(of: ": ") else { return SyncplayServerCore.gatewayName }
        let who = String(reason[..<colon.lowerBound])
        if let me, who == me.name { return core.name }
        return who
    }

    /// A participant's name as the client sees it (its own seat: its Syncplay name).
    func name(of info: ParticipantInfo) -> String {
        info.id == me?.id ? core.name : info.name
    }

    /// Others are ready while they watch (a paused member following the timeline is ready): the
    /// Syncplay client's "unpause if others are ready" then lets its user resume.
    func readiness(of info: ParticipantInfo) -> [Output] {
        guard info.id != me?.id else { return [] }
        return tell(.set([.ready(username: info.name, isReady: isReady(info), manuallyInitiated: false)]))
    }

    func isReady(_ info: ParticipantInfo) -> Bool {
        info.presence?.state == .watching
    }

    /// The party's current item as a Syncplay file (what every member plays).
    func itemFile() -> SyncplayFile? {
        guard let timeline, items.indices.contains(timeline.item) else { return nil }
        let item = items[timeline.item]
        return SyncplayFile(name: item.title, duration: item.identity.duration, size: .bytes(item.identity.bytes ?? 0))
    }

    /// Who is in the room, for the client's `List`: the party's members, the client with its file.
    func userList() -> SyncplayUserList {
        guard let party else { return SyncplayUserList(entries: []) }
        let entries = participants.map { info in
            info.id == me?.id
                ? SyncplayUserList.Entry(room: party, username: core.name, file: file, isReady: ready)
                : SyncplayUserList.Entry(room: party, username: info.name, file: itemFile(), isReady: isReady(info))
        }
        return SyncplayUserList(entries: entries.sorted { $0.username < $1.username })
    }
}
