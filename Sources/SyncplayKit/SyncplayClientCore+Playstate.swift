extension SyncplayClientCore {
    /// Samples of player − room kept for the median the controller sees: Syncplay's positions
    /// are single noisy readings a second apart, and one late packet must not move the player.
    static let errorWindow = 3

    /// A server `State`: settle the counters, measure the ping, follow the playstate unless one of
    /// our own changes is still in flight, and answer with ours.
    mutating func received(_ state: SyncplayState, now: Double, player: PlayerSnapshot?) -> [Action] {
        lastStateAt = now
        if let ignoring = state.ignoringOnTheFly {
            if let server = ignoring.server {
                // The server forced a state on us: acknowledge it; it also settles ours.
                serverIgnoringOnTheFly = server
                clientIgnoringOnTheFly = 0
            } else if let client = ignoring.client, client == clientIgnoringOnTheFly {
                clientIgnoringOnTheFly = 0
            }
        }
        if let echoed = state.ping?.clientLatencyCalculation {
            ping.received(echoed: echoed, peerRtt: state.ping?.serverRtt ?? 0, now: now)
        }
        var actions: [Action] = []
        if let playstate = state.playstate, let paused = playstate.paused, clientIgnoringOnTheFly == 0 {
            actions += follow(playstate, paused: paused, now: now, player: player)
        }
        // A show just asked for has not moved the player yet: report where it is going (the room's
        // position), or the server takes our old position for the room's and rewinds everyone.
        let showing = actions.contains { if case .show = $0 { true } else { false } }
        actions.append(.send(.state(answer(echoing: state.ping?.latencyCalculation, now: now, player: showing ? nil : player,
                                           change: false))))
        return actions
    }

    /// Our `State`: our playstate (unless a change of ours is unacknowledged and the server has
    /// none of its own), the ping fields, and the counters. `change` marks a user's pause or seek.
    mutating func answer(echoing latencyCalculation: Double?, now: Double, player: PlayerSnapshot?, change: Bool,
                         doSeek: Bool = false) -> SyncplayState {
        var state = SyncplayState()
        if let room, change || clientIgnoringOnTheFly == 0 || serverIgnoringOnTheFly != 0 {
            let position = player.flatMap { $0.busy ? nil : $0.position } ?? room.position(at: now)
            state.playstate = .init(position: max(0, position), paused: localPaused, doSeek: doSeek ? true : nil)
        }
        state.ping = .init(latencyCalculation: latencyCalculation, clientLatencyCalculation: now, clientRtt: ping.rtt)
        if change { clientIgnoringOnTheFly += 1 }
        if serverIgnoringOnTheFly != 0 || clientIgnoringOnTheFly != 0 {
            state.ignoringOnTheFly = .init(server: serverIgnoringOnTheFly == 0 ? nil : serverIgnoringOnTheFly,
                                           client: clientIgnoringOnTheFly == 0 ? nil : clientIgnoringOnTheFly)
            serverIgnoringOnTheFly = 0
        }
        return state
    }

    /// Takes the room's playstate and makes the player follow it.
    private mutating func follow(_ playstate: SyncplayState.Playstate, paused: Bool, now: Double, player: PlayerSnapshot?) -> [Action] {
        // A playing position has aged on its way here.
        let position = paused ? playstate.position : playstate.position + ping.forwardDelay
        let previous = room
        let next = SyncplayRoomState(position: position, paused: paused, receivedAt: now, setBy: playstate.setBy)
        room = next
        let byOther = playstate.setBy != me
        guard let previous else {
            localPaused = paused
            return file == nil ? [] : showRoom(now: now, player: player, forceSeek: true)
        }
        var actions: [Action] = []
        if playstate.doSeek == true, byOther {
            actions.append(.notice(.seeked(by: playstate.setBy, to: position)))
            localPaused = paused
            if paused != previous.paused { actions.append(.notice(paused ? .paused(by: playstate.setBy) : .resumed(by: playstate.setBy))) }
            return actions + showRoom(now: now, player: player, forceSeek: true)
        }
        if paused != previous.paused, byOther {
            actions.append(.notice(paused ? .paused(by: playstate.setBy) : .resumed(by: playstate.setBy)))
        }
        if paused != localPaused {
            localPaused = paused
            return actions + showRoom(now: now, player: player, forceSeek: false)
        }
        guard !paused, byOther, file != nil, let player, !player.busy else {
            errors.removeAll()
            return actions
        }
        // Playing, the room's line set by someone else: correct toward it.
        errors.append(player.position - next.position(at: now))
        if errors.count > Self.errorWindow { errors.removeFirst() }
        let error = errors.sorted()[errors.count / 2]
        lastError = error
        switch controller.update(error: error, drift: 0, rate: 1, now: now) {
        case .correct(let c):
            if c != correction {
                correction = c
                actions.append(.setCorrection(c))
            }
        case .reseek:
            actions += showRoom(now: now, player: player, forceSeek: true)
        }
        return actions
    }

    /// Shows the room's state on the player: scheduled ahead when playing, so it lands on the
    /// room's line; sought only when forced or when the player is off by more than a snap.
    mutating func showRoom(now: Double, player: PlayerSnapshot?, forceSeek: Bool) -> [Action] {
        guard let room, file != nil else { return [] }
        errors.removeAll()
        let off = player.map { abs($0.position - room.position(at: now)) > Self.snapThreshold } ?? true
        let seek = forceSeek || off || player?.busy == true
        if seek { controller.noteSeek(at: now) }
        var actions: [Action] = []
        if correction != 0 {
            correction = 0
            actions.append(.setCorrection(0))
        }
        if room.paused {
            actions.append(.show(SyncplayShow(position: room.position, at: now, playing: false, seek: seek)))
        } else {
            let at = now + Self.seekLead
            actions.append(.show(SyncplayShow(position: room.position(at: at), at: at, playing: true, seek: seek)))
        }
        return actions
    }

    // MARK: The user's own changes

    /// The user paused or resumed here: the player does it at once, and the room is told.
    public mutating func userSetPaused(_ paused: Bool, now: Double, player: PlayerSnapshot?) -> [Action] {
        guard phase == .inRoom, paused != localPaused else { return [] }
        localPaused = paused
        let position = player?.position ?? room?.position(at: now) ?? 0
        room = SyncplayRoomState(position: position, paused: paused, receivedAt: now, setBy: me)
        errors.removeAll()
        var actions: [Action] = []
        if file != nil { actions.append(.show(SyncplayShow(position: position, at: now, playing: !paused, seek: false))) }
        actions.append(.send(.state(answer(echoing: nil, now: now, player: player, change: true))))
        // Syncplay's clients take a pause as "not ready" and a resume as "ready".
        actions.append(.send(.set([.ready(username: nil, isReady: !paused, manuallyInitiated: false)])))
        return actions
    }

    /// The user jumped to `position` here: the player seeks, and the room is told.
    public mutating func userSeek(to target: Double, now: Double) -> [Action] {
        guard phase == .inRoom else { return [] }
        let position = max(0, target)
        room = SyncplayRoomState(position: position, paused: localPaused, receivedAt: now, setBy: me)
        var actions: [Action] = []
        if file != nil { actions += showRoom(now: now, player: nil, forceSeek: true) }
        let snapshot = PlayerSnapshot(position: position)
        actions.append(.send(.state(answer(echoing: nil, now: now, player: snapshot, change: true, doSeek: true))))
        return actions
    }
}
