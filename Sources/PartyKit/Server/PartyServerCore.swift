import DequeModule

/// The party server as a pure state machine: connection events and messages in, messages and
/// closes out, with the caller's clock (the party clock) passed in. Many parties at once.
/// The socket edge (PartyNet) and the simulation both drive it.
public struct PartyServerCore: Sendable {
    public enum Output: Sendable, Equatable {
        case send(connection: Int, PartyMessage)
        case close(connection: Int, reason: String)
        case log(String)
        /// A member's status said how it plays: its own skew against the timeline and its clock-sync
        /// round trip (ms), for the server's metrics.
        case memberReported(skewMs: Double?, rttMs: Double?)
        /// The party is no longer here (it ended, or another node took it): what the edge keeps for it
        /// (its media credential, its relayed items) goes with it.
        case partyClosed(String)
    }

    /// A connection must say hello within this many seconds.
    public static let helloTimeout = 10.0
    /// More messages than this in one second from one connection is a flood: it is dropped.
    public static let floodLimit = 200
    public static let chatHistory = 50
    /// Bounds on how far ahead commands are scheduled (seconds).
    public static let minLead = 0.1
    public static let maxLead = 1.5
    /// Added to the worst round trip: time to act on a play/pause/rate, and to preroll a seek.
    public static let commandMargin = 0.06
    public static let seekPrerollMargin = 0.25
    /// Seek targets beyond this (about 11.5 days) are refused: nobody means them, and they overflow timestamps.
    public static let maxPosition = 1e6

    struct Connection: Sendable {
        var openedAt: Double
        var party: String?
        var seat: String?
        var windowStart: Double
        var windowCount = 0
        /// The peer's address (``WrongKeyLimiter/source(ofPeer:)``), when the transport knows it.
        var source: String?
    }

    var connections: [Int: Connection] = [:]
    var parties: [String: PartyState] = [:]  // internal: PartyServerCore+Snapshot restores parties
    /// Wrong keys per source address; a hello from an address over the limit is refused unread.
    var wrongKeys: WrongKeyLimiter

    public init(wrongKeyPolicy: WrongKeyLimiter.Policy = .standard) {
        wrongKeys = WrongKeyLimiter(policy: wrongKeyPolicy)
    }

    public var partyCount: Int { parties.count }
    public func timeline(of party: String) -> Timeline? { parties[party]?.timeline }
    public func participants(of party: String) -> [ParticipantInfo] { parties[party]?.participants ?? [] }
    /// Whether `seatToken` is the seat token of `party`'s host: only the host may relay the
    /// party's media (every guest knows the key; only the host holds its seat token).
    public func isHostSeat(_ seatToken: String, of party: String) -> Bool {
        guard let host = parties[party]?.seats.values.first(where: { $0.info.role == .host }) else { return false }
        return ConstantTime.equals(seatToken, host.token)
    }

    /// The media credential of `party` (``MediaToken`` of its key).
    public func mediaToken(of party: String) -> String? {
        parties[party].map { MediaToken.derive(key: $0.key, party: party) }
    }

    // MARK: Events

    /// A new connection; `source`: its peer's address, by which wrong keys are counted (nil: not
    /// limited, as in the simulation).
    public mutating func connected(_ id: Int, source: String? = nil, now: Double) -> [Output] {
        connections[id] = Connection(openedAt: now, windowStart: now, source: source)
        return []
    }

    public mutating func disconnected(_ id: Int, now: Double) -> [Output] {
        guard let conn = connections.removeValue(forKey: id) else { return [] }
        guard let partyID = conn.party, let seatID = conn.seat, var party = parties[partyID],
              party.seats[seatID]?.connection == id else { return [] }
        party.seats[seatID]?.connection = nil
        party.seats[seatID]?.disconnectedAt = now
        parties[partyID] = party
        return [.log("\(partyID): \(party.seats[seatID]!.info.name) lost connection; seat kept \(Int(party.config.graceSeconds)) s")]
    }

    /// A message from connection `id`. `receivedAt`: when the transport read it off the socket (a
    /// time pong's t1); `now`: when it is handled (t2, as close to the answer's sending as this gets).
    /// `messagesThisSecond`: the transport's count of the connection's messages in the second this one
    /// arrived in, itself included, when the transport answers some messages without the core (a
    /// joined member's time pings, on the connection's event loop) — the flood limit compares it; nil:
    /// the core counts the messages it is given, per second of `now`.
    public mutating func received(_ id: Int, text: String, receivedAt: Double? = nil, messagesThisSecond: Int? = nil,
                                  now: Double) -> [Output] {
        guard var conn = connections[id] else { return [] }
        if let messagesThisSecond {
            conn.windowCount = messagesThisSecond
        } else {
            if now - conn.windowStart >= 1 {
                conn.windowStart = now
                conn.windowCount = 0
            }
            conn.windowCount += 1
        }
        connections[id] = conn
        if conn.windowCount > Self.floodLimit {
            return drop(id, code: .flood, "more than \(Self.floodLimit) messages a second", now: now)
        }
        let message: PartyMessage
        do {
            message = try PartyProtocol.decode(text)
        } catch {
            return drop(id, code: error == .tooBig(text.utf8.count) ? .tooBig : .badMessage, error.description, now: now)
        }
        guard let partyID = conn.party, let seatID = conn.seat else {
            guard case .hello(let hello) = message else {
                return drop(id, code: .notHello, "\"\(message.type)\" before hello", now: now)
            }
            return handleHello(hello, from: id, now: now)
        }
        return handle(message, party: partyID, seat: seatID, connection: id, receivedAt: min(receivedAt ?? now, now), now: now)
    }

    /// Hello deadlines, seats whose grace ran out, and groups that waited long enough for a stalled member.
    public mutating func tick(now: Double) -> [Output] {
        var out: [Output] = []
        for (id, conn) in connections where conn.party == nil && now - conn.openedAt > Self.helloTimeout {
            out += drop(id, code: .notHello, "no hello within \(Int(Self.helloTimeout)) s", now: now)
        }
        for partyID in Array(parties.keys) {
            guard let party = parties[partyID] else { continue }
            for seat in party.seats.values {
                if let since = seat.disconnectedAt, now - since >= party.config.graceSeconds {
                    out += removeSeat(seat.info.id, party: partyID, reason: "connection lost", now: now)
                }
            }
            if let deadline = parties[partyID]?.waitDeadline, now >= deadline {
                for seat in parties[partyID]?.waitingFor ?? [] { parties[partyID]?.seats[seat]?.waitedOut = true }
                out += resumeAfterWait(partyID, now: now, reason: "went on without the stalled participant")
            }
            out += stopAtTheEnd(partyID, now: now)
        }
        return out
    }

    /// A party playing its last item stops at that item's end (its duration, from its identity; 0 is
    /// unknown, e.g. a live stream, and plays on): the timeline pauses there, broadcast like a pause,
    /// instead of counting on past the end. Earlier items play on: their end is the next item's business.
    mutating func stopAtTheEnd(_ partyID: String, now: Double) -> [Output] {
        guard var party = parties[partyID], party.timeline.playing, party.timeline.rate > 0,
              party.timeline.item == party.config.items.count - 1 else { return [] }
        let duration = party.config.items[party.timeline.item].identity.duration
        let current = party.timeline
        guard duration > 0, current.position(at: now) >= duration else { return [] }
        // The instant the end was reached (up to a tick ago), never before the current timeline's own
        // instant: a seek past the end stops at the end as soon as it lands.
        var next = current.continued(at: max(current.partyTime + (duration - current.position) / current.rate, current.partyTime))
        next.jump = next.position > duration
        next.position = duration
        next.playing = false
        next.reason = "the end of \(party.config.items[current.item].title)"
        party.timeline = next
        party.waitingFor = []
        party.waitDeadline = nil
        parties[partyID] = party
        return [.log("\(partyID): reached the end of its last item")] + broadcast(party, .timeline(next))
    }

    // MARK: Outputs

    func broadcast(_ party: PartyState, _ message: PartyMessage) -> [Output] {
        party.connected.map { .send(connection: $0.connection!, message) }
    }

    /// Sends an error, closes the connection and logs why; every other connection goes on.
    /// `from`: the peer's address, named in the log line (wrong keys).
    mutating func drop(_ id: Int, code: ErrorMessage.Code, _ reason: String, now: Double, from source: String? = nil) -> [Output] {
        let who = source.map { "\(id) from \($0)" } ?? "\(id)"
        let out: [Output] = [.send(connection: id, .error(ErrorMessage(code: code, message: reason))),
                             .close(connection: id, reason: reason), .log("dropped connection \(who): \(reason)")]
        return out + disconnected(id, now: now)
    }
}
