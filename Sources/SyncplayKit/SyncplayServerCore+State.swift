/// The state exchange of ``SyncplayServerCore``: the client's reports in (its changes become
/// requests; its drift is watched), the room's states out.
extension SyncplayServerCore {
    mutating func clientState(_ state: SyncplayState, now: Double, room: Room?) -> [Action] {
        if let ignoring = state.ignoringOnTheFly {
            if let server = ignoring.server, server == serverIgnoringOnTheFly { serverIgnoringOnTheFly = 0 }
            if let client = ignoring.client { clientIgnoringOnTheFly = client }
        }
        if let ping = state.ping {
            clientStamp = ping.clientLatencyCalculation
            clientStampArrival = now
            if let echoed = ping.latencyCalculation { self.ping.received(echoed: echoed, peerRtt: ping.clientRtt ?? 0, now: now) }
        }
        // A `doSeek` is its user's seek only when its player moved since its last report. Syncplay
        // 1.6.9 also says `doSeek` when its player stayed put: when it ignored our jump (it ignores
        // seeks past 5 s for 1 s after opening its file) and finds itself away from the room, and
        // when its player's real position replaces the 0 it assumed while the file opened. Such a
        // report moves nobody; the client is sent the room's position again once it takes seeks.
        var sought = false
        if let playstate = state.playstate, let paused = playstate.paused {
            let report = ReportedPosition(position: playstate.position, paused: paused, at: now)
            if playstate.doSeek == true {
                if let last = lastReport, abs(report.position - last.expected(at: now)) > ReportedPosition.stayedTolerance {
                    sought = true
                } else if let room, abs(report.position - room.position) > ReportedPosition.stayedTolerance {
                    rejumpAt = now + Self.rejumpDelay
                }
            }
            lastReport = report
        }
        // While a forced state of ours is unacknowledged, the client's reports predate it. A seek
        // among them crossed our state on the way: kept for its answer to that state.
        guard serverIgnoringOnTheFly == 0 else {
            if sought { crossedSeek = lastReport }
            return []
        }
        guard let playstate = state.playstate, let paused = playstate.paused, let room else { return [] }
        let position = paused ? playstate.position : playstate.position + ping.forwardDelay
        let crossed = crossedSeek
        crossedSeek = nil
        if sought { return [.request(.seek(to: position))] }
        if playstate.doSeek == true { return [] }
        if paused != room.paused { return [.request(paused ? .pause(at: position) : .play(at: position))] }
        // Its answer to our state says its player stayed where it had sought, away from the room:
        // its user's seek, which Syncplay's server would lose (the client no longer reports it as
        // one: its own position already was there).
        if let crossed, abs(position - crossed.expected(at: now)) <= ReportedPosition.stayedTolerance,
           abs(position - room.position) > ReportedPosition.stayedTolerance {
            return [.request(.seek(to: position))]
        }
        // Same pause state as the room: how far off is its player?
        guard drift.observe(position - room.position, now: now) else { return [] }
        return force(room, doSeek: true, correcting: true, now: now)
    }

    mutating func sendState(_ room: Room, doSeek: Bool, forced: Bool, now: Double) -> [Action] {
        if forced {
            serverIgnoringOnTheFly += 1
            if doSeek { rejumpAt = nil }
        }
        // Syncplay's server holds its regular states while a forced one is unacknowledged.
        guard forced || serverIgnoringOnTheFly == 0 else { return [] }
        lastSent = now
        var ping = SyncplayState.Ping(latencyCalculation: now, serverRtt: self.ping.rtt)
        if let clientStamp {
            ping.clientLatencyCalculation = clientStamp + (now - clientStampArrival)
            self.clientStamp = nil
        }
        var state = SyncplayState(playstate: .init(position: max(0, room.position), paused: room.paused, doSeek: doSeek, setBy: room.setBy),
                                  ping: ping)
        if serverIgnoringOnTheFly != 0 || clientIgnoringOnTheFly != 0 {
            state.ignoringOnTheFly = .init(server: serverIgnoringOnTheFly == 0 ? nil : serverIgnoringOnTheFly,
                                           client: clientIgnoringOnTheFly == 0 ? nil : clientIgnoringOnTheFly)
            clientIgnoringOnTheFly = 0
        }
        return [.send(.state(state))]
    }
}

/// Watches a Syncplay client's offset from the room (its reported position, aged by the forward
/// delay, less the room's): past ``threshold`` on ``samples`` reports running, it is sought back
/// to the room, at most once per ``coolDown``. Syncplay's own client slows down when it is ahead
/// and never catches up when it is behind (its server's room is the slowest client, so nobody is
/// behind it); a party's room is its host, so a late client must be sought.
struct DriftWatch: Sendable, Equatable {
    /// Beyond Syncplay's own noise (a position polled from the player every 0.1 s plus message
    /// age: tens of milliseconds), and beyond where a seek lands (mpv's seek takes a few frames).
    static let threshold = 1.0
    /// One report can be stale (sent before a change reached the client); two running are not.
    static let samples = 2
    /// Time for a seek to land and be reported before the offset is judged again.
    static let coolDown = 3.0

    private var over = 0
    private var lastCorrection = -Double.infinity

    /// Notes an offset at `now`; true when the client should be sought back now.
    mutating func observe(_ offset: Double, now: Double) -> Bool {
        guard now - lastCorrection >= Self.coolDown, offset.isFinite else { return false }
        over = abs(offset) > Self.threshold ? over + 1 : 0
        return over >= Self.samples
    }

    /// A forced state went out at `now`: judge afresh once it has had time to land.
    mutating func reset(now: Double) {
        over = 0
        lastCorrection = now
    }
}

/// Where a client's report put its player, to tell its user's seeks from Syncplay's bookkeeping
/// (see ``SyncplayServerCore/clientState``).
struct ReportedPosition: Sendable, Equatable {
    /// A player within this of where its last report puts it by now did not seek: the report's
    /// own age and polling (tens of milliseconds), plus the up to 1 s Syncplay's client assumes 0
    /// while a file opens (its `MPV_NEWFILE_IGNORE_TIME`), with margin. Syncplay itself calls a
    /// move of 1 s a seek; a user's seek shorter than this reaches the party only as drift.
    static let stayedTolerance = 2.0

    var position: Double
    var paused: Bool
    var at: Double

    /// Where the player is by `now` if it did not seek.
    func expected(at now: Double) -> Double { paused ? position : position + (now - at) }
}
