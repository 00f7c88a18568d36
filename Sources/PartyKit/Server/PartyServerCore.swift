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

    private var connections: [Int: Connection] = [:]
    var parties: [String: PartyState] = [:]  // internal: PartyServerCore+Snapshot restores parties
    /// Wrong keys per source address; a hello from an address over the limit is refused unread.
    private var wrongKeys: WrongKeyLimiter

    public init(wrongKeyPolicy: WrongKeyLimiter.Policy = .standard) {
        wrongKeys = WrongKeyLimiter(policy: wrongKeyPolicy)
    }

    /// A seat token: 128 bits from the system's secure generator, so no token can be derived from another.
    static func newToken() -> String {
        var rng = SystemRandomNumberGenerator()
        return String(rng.next(), radix: 36) + String(rng.next(), radix: 36)
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

    /// What ``checkKey(party:source:now:matches:)`` found.
    public enum KeyCheck: Sendable, Equatable {
        /// The credential matches: the party's key, for the hello that follows.
        case accepted(key: String)
        case unknownParty
        case wrongKey
        /// Too many wrong keys from this address (``WrongKeyLimiter``): not even looked at.
        case refused(retryAfter: Int)
    }

    /// Checks a credential for `party` that is not the key itself (a Syncplay client's MD5 of it, at
    /// the Syncplay gateway) under the same per-address limits as a hello: an address over the limit
    /// is refused unread, a miss counts. `matches` is given the key and must compare in constant time.
    public mutating func checkKey(party: String, source: String?, now: Double, matches: (String) -> Bool) -> KeyCheck {
        if let source, case .refused(let wait) = wrongKeys.check(source, now: now) { return .refused(retryAfter: wait) }
        guard let key = parties[party]?.key else { return .unknownParty }
        guard matches(key) else {
            if let source { wrongKeys.recordMiss(source, now: now) }
            return .wrongKey
        }
        return .accepted(key: key)
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
    public mutating func received(_ id: Int, text: String, receivedAt: Double? = nil, now: Double) -> [Output] {
        guard var conn = connections[id] else { return [] }
        if now - conn.windowStart >= 1 {
            conn.windowStart = now
            conn.windowCount = 0
        }
        conn.windowCount += 1
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
    private mutating func stopAtTheEnd(_ partyID: String, now: Double) -> [Output] {
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

    // MARK: Hello

    private mutating func handleHello(_ hello: Hello, from id: Int, now: Double) -> [Output] {
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

    // MARK: Messages of joined clients

    private mutating func handle(_ message: PartyMessage, party partyID: String, seat seatID: String,
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

    /// A member's status: its seat's state, epoch and round trip, and its presence for the others.
    private mutating func status(_ status: Status, party partyID: String, seat: PartyState.Seat, now: Double) -> [Output] {
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

    private mutating func command(_ command: Command, party partyID: String, seat: PartyState.Seat,
                                  connection id: Int, now: Double) -> [Output] {
        guard var party = parties[partyID] else { return [] }
        if party.config.control == .host, seat.info.role != .host {
            return [.send(connection: id, .refused(Refused(id: command.id,
                reason: "only the host can \(command.action.rawValue) in this party (control: host)")))]
        }
        let current = party.timeline
        let jump = command.action == .seek || command.action == .item
        // A rate change needs the long lead too: players cut their audio exactly on the change
        // only if they have not rendered that far ahead yet. A command never lands before the
        // one it follows (a pause right after a seek must not undo the seek).
        let at = max(now + party.lead(jump: jump || command.action == .rate), current.partyTime)
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

    private func refuse(_ command: Command, _ id: Int, _ reason: String) -> [Output] {
        [.send(connection: id, .refused(Refused(id: command.id, reason: reason)))]
    }

    /// A participant that missed a command's instant stalls: the group pauses for it, for a bounded time.
    private mutating func statusChanged(_ partyID: String, seat seatID: String, now: Double) -> [Output] {
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

    private mutating func resumeAfterWait(_ partyID: String, now: Double, reason: String) -> [Output] {
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

    // MARK: Leaving

    private mutating func removeSeat(_ seatID: String, party partyID: String, reason: String, now: Double) -> [Output] {
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
            return out + [.log("\(partyID): ended")]
        }
        parties[partyID] = party
        return out
    }

    private func broadcast(_ party: PartyState, _ message: PartyMessage) -> [Output] {
        party.connected.map { .send(connection: $0.connection!, message) }
    }

    /// Sends an error, closes the connection and logs why; every other connection goes on.
    /// `from`: the peer's address, named in the log line (wrong keys).
    private mutating func drop(_ id: Int, code: ErrorMessage.Code, _ reason: String, now: Double, from source: String? = nil) -> [Output] {
        let who = source.map { "\(id) from \($0)" } ?? "\(id)"
        let out: [Output] = [.send(connection: id, .error(ErrorMessage(code: code, message: reason))),
                             .close(connection: id, reason: reason), .log("dropped connection \(who): \(reason)")]
        return out + disconnected(id, now: now)
    }
}

extension Presence {
    /// What a status says of its sender, for the others' lists.
    init(_ status: Status) {
        let state: State = switch status.state {
        case .syncing: .syncing
        case .ready: .watching
        case .stalled: .stalled
        case .unavailable: .unavailable
        }
        self.init(state: state, source: status.source, problem: state == .unavailable ? status.problem : nil,
                  buffering: status.buffering)
    }
}
