import PartyKit

/// One Syncplay client in a Tandem party, as a pure state machine: between the client's
/// ``SyncplayServerCore`` and the party member the gateway keeps for it (an in-process member of
/// the party server). Syncplay messages, party messages and time go in; lines to the client,
/// messages to the party and the gateway's chores (check the password, connect, schedule) come out.
/// The mapping both ways is docs/syncplay.md's "Syncplay clients in Tandem parties".
///
/// The party clock is the gateway's own clock (the server's monotonic clock): the room's position is
/// the party timeline read at `now`, with no clock estimate in between.
public struct SyncplayPartyBridge: Sendable {
    public enum Output: Sendable, Equatable {
        /// A line to the Syncplay client.
        case syncplay(SyncplayMessage)
        /// Close the Syncplay connection after the lines before (the reason is for the log).
        case close(String)
        /// STARTTLS: put the gateway's TLS server in front of the connection, after the lines before.
        case startTLS
        /// Check `digest` (the MD5 hex the client gave) against party `party`'s key, in constant
        /// time and under the wrong-key limits; answer with ``keyChecked(_:now:)``.
        case checkKey(party: String, digest: String)
        /// Connect the party member and say this hello (with the key the check found).
        case connect(Hello)
        /// A message from the member to the party.
        case party(PartyMessage)
        /// Say bye and disconnect the member.
        case leaveParty
        /// Call ``timelineDue(epoch:now:)`` at party time `at`: when a new epoch takes effect.
        case wake(at: Double, epoch: Int)
        case log(String)
    }

    /// The answer to ``Output/checkKey(party:digest:)``.
    public enum KeyCheck: Sendable, Equatable {
        case accepted(key: String)
        case unknownParty
        case wrongKey
        case refused(String)
    }

    /// How a Syncplay client is named in the party's participant list.
    public static func partyName(_ syncplayName: String) -> String { "\(syncplayName) (Syncplay)" }
    /// What the member reports as its source, in everyone's participant list ("watching (Syncplay)").
    public static let source = "Syncplay"

    public internal(set) var core: SyncplayServerCore
    /// The party (the room the client asked for) and its items, once welcomed.
    public internal(set) var party: String?
    var requestedName = ""
    public internal(set) var me: ParticipantInfo?
    public internal(set) var participants: [ParticipantInfo] = []
    var items: [MediaItem] = []
    /// The epoch in force, and the next one while its instant is ahead.
    public internal(set) var timeline: Timeline?
    var upcoming: Timeline?
    /// The client's readiness, once it has said (its own entry in `List` carries it back).
    var ready: Bool?
    var file: SyncplayFile?
    var nextCommand = 1
    /// Commands sent and not yet answered by a timeline or a refusal.
    var pending: [Int: SyncplayServerCore.Request] = [:]
    /// The shared playlist the client was given (the party's items), once its file mapped onto
    /// the party's item; nil before (SyncplayPartyBridge+Playlist).
    var sharedPlaylist: [String]?
    /// The gateway's first minute, when a room naming no party is hung up on instead of refused
    /// (its host may not have re-created it yet); nil: "no party" is always an `Error`.
    public let grace: SyncplayRestartGrace?

    /// `offersTLS`: the gateway has a certificate, and a client asking for STARTTLS gets it.
    /// `grace`: when the gateway started (``SyncplayRestartGrace``).
    public init(motd: String = "", offersTLS: Bool = false, now: Double, grace: SyncplayRestartGrace? = nil) {
        core = SyncplayServerCore(motd: motd, offersTLS: offersTLS, now: now)
        self.grace = grace
    }

    /// The room's state for the client at `now`.
    public func room(at now: Double) -> SyncplayServerCore.Room? {
        guard let timeline else { return nil }
        return .init(position: timeline.position(at: now), paused: !timeline.playing, setBy: setBy(timeline))
    }

    // MARK: From the Syncplay client

    /// Messages of one line from the client.
    public mutating func received(_ messages: [SyncplayMessage], now: Double) -> [Output] {
        var out: [Output] = []
        for message in messages {
            out += settle(now: now)
            out += perform(core.receive(message, now: now, room: room(at: now)), now: now)
        }
        return out
    }

    /// The client sent a line that is not Syncplay (or too long): it is told why and dropped.
    public mutating func refused(_ error: SyncplayProtocolError) -> [Output] {
        perform(core.deny("refused \(error.description)"), now: 0)
    }

    /// The client's connection closed: the member leaves the party.
    public mutating func closed() -> [Output] {
        let wasIn = me != nil
        _ = core.deny("closed")
        me = nil
        return wasIn ? [.leaveParty] : []
    }

    /// Time passes (a few times a second): states, timeouts, epochs that took effect.
    public mutating func tick(now: Double) -> [Output] {
        settle(now: now) + perform(core.tick(now: now, room: room(at: now)), now: now)
    }

    /// The answer to ``Output/checkKey(party:digest:)``.
    public mutating func keyChecked(_ check: KeyCheck, now: Double) -> [Output] {
        guard core.phase == .joining, let party else { return [] }
        switch check {
        case .accepted(let key):
            return [.connect(Hello(party: party, key: key, name: Self.partyName(requestedName)))]
        case .unknownParty where grace?.covers(now) == true:
            // The server has just started: the party's host may still be on its way back to
            // re-create it. Without an `Error`, Syncplay's client tries again.
            return perform(core.hangUp("no party \"\(party)\" on this server yet (it has just started; the host may not be back); reconnecting"),
                           now: now)
        case .unknownParty:
            return perform(core.deny("no party \"\(party)\" on this server (the room is the party ID)"), now: now)
        case .wrongKey:
            return perform(core.deny("Wrong password supplied"), now: now)
        case .refused(let reason):
            return perform(core.deny(reason), now: now)
        }
    }

    mutating func perform(_ actions: [SyncplayServerCore.Action], now: Double) -> [Output] {
        var out: [Output] = []
        for action in actions {
            switch action {
            case .send(let message): out.append(.syncplay(message))
            case .startTLS: out.append(.startTLS)
            case .close(let reason):
                out.append(.close(reason))
                if me != nil {
                    me = nil
                    out.append(.leaveParty)
                }
            case .join(let name, let room, let password):
                requestedName = name
                party = room
                guard let password else { return out + perform(core.deny("Password required"), now: now) }
                out.append(.checkKey(party: room, digest: password.lowercased()))
            case .request(let request):
                out += command(request)
            case .chat(let text):
                out.append(.party(.chat(ChatText(text: text))))
            case .setReady(let isReady):
                ready = isReady
                out += status()
            case .file(let file):
                self.file = file
                out += fileCheck() + offerPlaylist()
            case .playlist:
                out += clientEditedPlaylist()
            case .playlistIndex(let index):
                out += clientChose(index)
            case .listRequested:
                out += tell(.list(userList()))
            }
        }
        return out
    }

    mutating func command(_ request: SyncplayServerCore.Request) -> [Output] {
        let id = nextCommand
        nextCommand += 1
        pending[id] = request
        let command = switch request {
        case .pause: Command(id: id, action: .pause)
        case .play: Command(id: id, action: .play)
        case .seek(let to): Command(id: id, action: .seek, value: max(0, to))
        case .item(let index): Command(id: id, action: .item, value: Double(index))
        }
        return [.party(.command(command))]
    }

    /// The member's status: ready while the client is ready (watching, in the list), else syncing.
    /// Never `stalled`: a Syncplay client cannot say it missed an instant, and the party must not
    /// wait for it.
    func status() -> [Output] {
        guard me != nil, let timeline else { return [] }
        return [.party(.status(Status(epoch: timeline.epoch, state: ready == true ? .ready : .syncing, rttMs: core.ping.averageRtt * 1000,
                                      source: Self.source)))]
    }

    /// A client playing another file than the party's item is told so (a chat line from the gateway).
    func fileCheck() -> [Output] {
        guard let file, let timeline, items.indices.contains(timeline.item) else { return [] }
        let item = items[timeline.item]
        guard item.identity.duration > 0, abs(file.duration - item.identity.duration) > Self.durationTolerance else { return [] }
        return tell(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName, message:
            "your file is \(Int(file.duration.rounded())) s long, the party's \(item.title) \(Int(item.identity.duration.rounded())) s")))
    }

    /// `message` to the client, once it is in the room.
    func tell(_ message: SyncplayMessage) -> [Output] {
        core.phase == .inRoom ? [.syncplay(message)] : []
    }

    /// Durations closer than this are the same file as far as a Syncplay client can tell (players
    /// report durations rounded differently).
    static let durationTolerance = 1.0
}
