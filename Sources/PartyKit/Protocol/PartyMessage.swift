/// Everything said between a party server and its clients, one JSON object per WebSocket text
/// frame: `{"type": "...", ...fields}`. See docs/protocol.md. Unknown fields are ignored.
public enum PartyMessage: Sendable, Equatable {
    // client → server
    case hello(Hello)
    case timePing(TimePing)
    case command(Command)
    case status(Status)
    case chat(ChatText)
    case listParticipants
    case bye
    // server → client
    case welcome(Welcome)
    case timePong(TimePong)
    case timeline(Timeline)
    case joined(ParticipantInfo)
    case left(Left)
    case participants(ParticipantList)
    case chatMessage(ChatMessage)
    case refused(Refused)
    case error(ErrorMessage)
    case partyEnded(PartyEnded)
    case hostChanged(ParticipantInfo)
    /// A participant's presence changed (watching, stalled, can't play…).
    case presence(ParticipantInfo)
    /// In a cluster: the live nodes changed (what a welcome's `nodes` said, now).
    case nodes(NodeList)
    /// Both ways (protocol 9): the host's new address for a URL item; the server's to every member.
    case itemURL(ItemURL)

    /// The wire name of the message's type.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .timePing: "timePing"
        case .command: "command"
        case .status: "status"
        case .chat: "chat"
        case .listParticipants: "listParticipants"
        case .bye: "bye"
        case .welcome: "welcome"
        case .timePong: "timePong"
        case .timeline: "timeline"
        case .joined: "joined"
        case .left: "left"
        case .participants: "participants"
        case .chatMessage: "chatMessage"
        case .refused: "refused"
        case .error: "error"
        case .partyEnded: "partyEnded"
        case .hostChanged: "hostChanged"
        case .presence: "presence"
        case .nodes: "nodes"
        case .itemURL: "itemURL"
        }
    }
}

public enum Role: String, Sendable, Codable { case host, participant }

/// Who may play, pause, seek, change rate or story.
public enum ControlPolicy: String, Sendable, Codable { case host, everyone }

/// How a new party is set up (sent by the host in its hello when creating one).
public struct PartyConfig: Sendable, Codable, Equatable {
    /// The media items, in party order: what each is, and where every member can open it.
    public var items: [MediaItem]
    public var control: ControlPolicy
    /// When the host leaves, the longest-present participant becomes host instead of the party ending.
    public var handoff: Bool
    /// How long a dropped connection keeps its seat (seconds).
    public var graceSeconds: Double
    /// How long the group waits for a stalled participant (seconds).
    public var stallWaitSeconds: Double

    /// A host re-creating its party after a server restart: where the party was.
    public var restore: Restore?

    public struct Restore: Sendable, Codable, Equatable {
        public var epoch: Int
        public var item: Int
        public var position: Double
        public var rate: Double
        public var playing: Bool
        public init(epoch: Int, item: Int, position: Double, rate: Double, playing: Bool) {
            self.epoch = epoch
            self.item = item
            self.position = position
            self.rate = rate
            self.playing = playing
        }
    }

    public init(items: [MediaItem], control: ControlPolicy = .host, handoff: Bool = false,
                graceSeconds: Double = 30, stallWaitSeconds: Double = 3) {
        self.items = items
        self.control = control
        self.handoff = handoff
        self.graceSeconds = graceSeconds
        self.stallWaitSeconds = stallWaitSeconds
    }
}

public struct Hello: Sendable, Codable, Equatable {
    public var version: Int
    public var party: String
    public var key: String
    public var name: String
    /// Present when the sender is creating the party as its host.
    public var create: PartyConfig?
    /// A seat token from an earlier welcome: resumes that seat after a dropped connection.
    public var resume: String?

    public init(version: Int = PartyProtocol.version, party: String, key: String, name: String,
                create: PartyConfig? = nil, resume: String? = nil) {
        self.version = version
        self.party = party
        self.key = key
        self.name = name
        self.create = create
        self.resume = resume
    }

    private enum CodingKeys: String, CodingKey { case version, party, key, name, create, resume }

    /// The version is read first: a hello of another version decodes as far as it can (its
    /// `create` may have another shape), so that the server can answer with a version error
    /// rather than a bad-message one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decode(Int.self, forKey: .version)
        let current = version == PartyProtocol.version
        party = current ? try c.decode(String.self, forKey: .party) : (try? c.decode(String.self, forKey: .party)) ?? ""
        key = current ? try c.decode(String.self, forKey: .key) : (try? c.decode(String.self, forKey: .key)) ?? ""
        name = current ? try c.decode(String.self, forKey: .name) : (try? c.decode(String.self, forKey: .name)) ?? ""
        create = current ? try c.decodeIfPresent(PartyConfig.self, forKey: .create) : nil
        resume = current ? try c.decodeIfPresent(String.self, forKey: .resume) : nil
    }
}

public struct ParticipantInfo: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    public var role: Role
    /// Party-clock time at which they joined (for handoff: the longest present becomes host).
    public var joinedAt: Double
    /// What their player is doing, as they last reported it (absent until their first status).
    public var presence: Presence?
    public init(id: String, name: String, role: Role, joinedAt: Double, presence: Presence? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.joinedAt = joinedAt
        self.presence = presence
    }
}


public struct Welcome: Sendable, Codable, Equatable {
    public var version: Int
    public var party: String
    public var you: ParticipantInfo
    /// Give it back in `hello.resume` to take the same seat after a reconnect.
    public var token: String
    public var config: PartyConfig
    public var participants: [ParticipantInfo]
    public var timeline: Timeline
    public var chat: [ChatMessage]
    /// The server's clock when it sent this (a first, rough clock offset before the ping burst).
    public var serverTime: Double
    /// In a cluster: the live nodes' addresses, where a member whose node died reconnects (any of them
    /// takes the party over or redirects to the one that did). Absent from a single server.
    public var nodes: [NodeAddress]?

    public init(version: Int = PartyProtocol.version, party: String, you: ParticipantInfo, token: String, config: PartyConfig,
                participants: [ParticipantInfo], timeline: Timeline, chat: [ChatMessage], serverTime: Double,
                nodes: [NodeAddress]? = nil) {
        self.nodes = nodes
        self.version = version
        self.party = party
        self.you = you
        self.token = token
        self.config = config
        self.participants = participants
        self.timeline = timeline
        self.chat = chat
        self.serverTime = serverTime
    }
}

/// NTP-style exchange: the client stamps t0 (its clock) on sending; the server answers with
/// t1 (receipt) and t2 (reply), both on the party clock; the client stamps t3 on receipt.
public struct TimePing: Sendable, Codable, Equatable {
    public var id: Int
    public var t0: Double
    public init(id: Int, t0: Double) { self.id = id; self.t0 = t0 }
}

public struct TimePong: Sendable, Codable, Equatable {
    public var id: Int
    public var t0: Double
    public var t1: Double
    public var t2: Double
    public init(id: Int, t0: Double, t1: Double, t2: Double) { self.id = id; self.t0 = t0; self.t1 = t1; self.t2 = t2 }
}

/// What a client asks the party to do. The server decides when (and whether) it happens.
public struct Command: Sendable, Codable, Equatable {
    public enum Action: String, Sendable, Codable { case play, pause, seek, rate, item }
    public var id: Int
    public var action: Action
    /// Seek target (seconds), rate, or item index, by action.
    public var value: Double?
    public init(id: Int, action: Action, value: Double? = nil) { self.id = id; self.action = action; self.value = value }
}

/// A client's state, sent every second and whenever it changes.
public struct Status: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable {
        case syncing, ready, stalled
        /// The epoch's item cannot be played here (`problem` says why): nobody waits for this member.
        case unavailable
    }
    public var epoch: Int
    public var state: State
    /// Where the item is played from ("local copy", "streaming", "url"), and why it cannot be.
    public var source: String?
    public var problem: String?
    /// Own measured skew against the timeline (ms), and clock-sync figures, for display and tuning.
    public var skewMs: Double?
    public var rttMs: Double?
    public var offsetUncertaintyMs: Double?
    /// The member's stream ran dry and it is refilling its read-ahead (with `stalled`: the group
    /// should wait for it; with `syncing`: the group went on, and it rejoins when it can). Absent:
    /// not buffering. A field, not a state, so v2 peers that do not know it see a plain stall.
    public var buffering: Bool?
    /// Its sound output (protocol 6; absent: no sound output, as a headless member).
    public var output: OutputReport?
    public init(epoch: Int, state: State, skewMs: Double? = nil, rttMs: Double? = nil, offsetUncertaintyMs: Double? = nil,
                source: String? = nil, problem: String? = nil, buffering: Bool? = nil) {
        self.epoch = epoch
        self.state = state
        self.buffering = buffering == true ? true : nil
        self.source = source
        self.problem = problem.map { String($0.prefix(PartyProtocol.maxProblemLength)) }
        self.skewMs = skewMs
        self.rttMs = rttMs
        self.offsetUncertaintyMs = offsetUncertaintyMs
    }
}

public struct ChatText: Sendable, Codable, Equatable {
    public var text: String
    public init(text: String) { self.text = text }
}

public struct ChatMessage: Sendable, Codable, Equatable {
    public var from: String
    public var text: String
    public var time: Double
    public init(from: String, text: String, time: Double) { self.from = from; self.text = text; self.time = time }
}

public struct Left: Sendable, Codable, Equatable {
    public var participant: ParticipantInfo
    public var reason: String
    public init(participant: ParticipantInfo, reason: String) { self.participant = participant; self.reason = reason }
}

public struct ParticipantList: Sendable, Codable, Equatable {
    public var participants: [ParticipantInfo]
    public init(participants: [ParticipantInfo]) { self.participants = participants }
}

public struct Refused: Sendable, Codable, Equatable {
    public var id: Int
    public var reason: String
    public init(id: Int, reason: String) { self.id = id; self.reason = reason }
}

public struct ErrorMessage: Sendable, Codable, Equatable {
    public enum Code: String, Sendable, Codable {
        case versionMismatch, wrongKey, unknownParty, partyExists, badMessage, tooBig, notHello, flood, serverShutdown
        /// The party lives on another node of the cluster: ``ErrorMessage/redirect`` says which.
        case redirect
    }
    public var code: Code
    public var message: String
    /// With ``Code/redirect``: the node that serves the party. The member dials it at once, with the
    /// same hello (its trust: the fingerprint given here, learnt over a connection it already trusts).
    public var redirect: NodeAddress?
    public init(code: Code, message: String, redirect: NodeAddress? = nil) {
        self.code = code
        self.message = message
        self.redirect = redirect
    }
}

public struct PartyEnded: Sendable, Codable, Equatable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
}
