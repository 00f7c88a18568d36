/// One Syncplay command, as carried by a line of JSON (`{"State": {...}}`). A line is a JSON
/// object whose keys are commands; Syncplay sends one per line, but several are allowed.
///
/// Both directions share these types: a client sends `Hello`, `Set`, `List`, `State`, `Chat`,
/// `TLS`; a server answers with the same names and richer bodies. Fields Tandem does not know are
/// ignored on decoding, fields it does not have are left out on encoding.
public enum SyncplayMessage: Sendable, Equatable {
    case hello(SyncplayHello)
    /// Settings: several in one `Set` object (room, user, ready, file, playlist…).
    case set([SyncplaySetting])
    /// A client's question (`{"List": null}`); a server's answer: users by room.
    case list(SyncplayUserList?)
    case state(SyncplayState)
    case chat(SyncplayChat)
    case error(String)
    /// STARTTLS: a client asks with `"send"`, the server answers `"true"` or `"false"`.
    case tls(startTLS: String)
    /// A command this version does not know (newer Syncplay): ignored, not an error.
    case unknown(String)
}

/// `Hello`: a client's login (name, room, password, version) and the server's welcome (the name
/// it was given, the room, the server's version, message of the day, features).
public struct SyncplayHello: Sendable, Equatable {
    public var username: String?
    /// MD5 hex of the server password (client to server only).
    public var password: String?
    public var room: String?
    /// What old servers read: 1.2.255 means "a new client".
    public var version: String?
    public var realVersion: String?
    public var motd: String?
    public var features: [String: SyncplayJSON]

    public init(username: String? = nil, password: String? = nil, room: String? = nil, version: String? = nil,
                realVersion: String? = nil, motd: String? = nil, features: [String: SyncplayJSON] = [:]) {
        self.username = username
        self.password = password
        self.room = room
        self.version = version
        self.realVersion = realVersion
        self.motd = motd
        self.features = features
    }

    /// The version that matters: `realversion` when given (Syncplay ≥ 1.2.x sends both).
    public var effectiveVersion: String? { realVersion ?? version }
}

/// A file as Syncplay announces it: name, duration in seconds, size in bytes; name and size may be
/// hashed or hidden by the sender's privacy modes (see ``SyncplayPrivacy``).
public struct SyncplayFile: Sendable, Equatable {
    public enum Size: Sendable, Equatable {
        case bytes(Int64)
        /// The first 12 hex digits of SHA-256 of the decimal size.
        case hashed(String)
    }

    public var name: String
    public var duration: Double
    public var size: Size

    public init(name: String, duration: Double, size: Size) {
        self.name = name
        self.duration = duration
        self.size = size
    }
}

/// One entry of a `Set` object.
public enum SyncplaySetting: Sendable, Equatable {
    /// The room to be in (client), or the room one is in now (server).
    case room(name: String)
    /// Another user: joined, left, or changed room or file.
    case user(SyncplayUserEvent)
    /// Readiness: `username` is absent when a client sets its own.
    case ready(username: String?, isReady: Bool?, manuallyInitiated: Bool)
    /// A client announces its file.
    case file(SyncplayFile)
    case playlistIndex(user: String?, index: Int?)
    case playlistChange(user: String?, files: [String])
    case features(username: String?, features: [String: SyncplayJSON])
    /// Managed rooms and anything newer: kept by name, not acted on.
    case other(String)
}

/// What a `Set` of `user` says about one user.
public struct SyncplayUserEvent: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        case joined
        case left
        /// No event: the user's room or file changed.
        case changed
    }

    public var username: String
    public var room: String?
    public var file: SyncplayFile?
    public var event: Event

    public init(username: String, room: String?, file: SyncplayFile?, event: Event) {
        self.username = username
        self.room = room
        self.file = file
        self.event = event
    }
}

/// A server's answer to `List`: every user it shows, by room.
public struct SyncplayUserList: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var room: String
        public var username: String
        public var file: SyncplayFile?
        public var isReady: Bool?
        public var isController: Bool

        public init(room: String, username: String, file: SyncplayFile? = nil, isReady: Bool? = nil, isController: Bool = false) {
            self.room = room
            self.username = username
            self.file = file
            self.isReady = isReady
            self.isController = isController
        }
    }

    /// Sorted by room, then name (the JSON object has no order).
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }
}

/// `State`: the room's playstate, the ping exchange and the "ignoring on the fly" counters that
/// keep a fresh change from being overwritten by a state sent before it was seen.
public struct SyncplayState: Sendable, Equatable {
    public struct Playstate: Sendable, Equatable {
        public var position: Double
        public var paused: Bool?
        public var doSeek: Bool?
        /// Who set it (server to client only); null before anyone has.
        public var setBy: String?

        public init(position: Double, paused: Bool?, doSeek: Bool? = nil, setBy: String? = nil) {
            self.position = position
            self.paused = paused
            self.doSeek = doSeek
            self.setBy = setBy
        }
    }

    public struct Ping: Sendable, Equatable {
        /// The server's timestamp, echoed back by the client untouched.
        public var latencyCalculation: Double?
        /// The client's timestamp; the server echoes it back (plus its processing time).
        public var clientLatencyCalculation: Double?
        /// The server's last measured round trip (server to client only).
        public var serverRtt: Double?
        /// The client's last measured round trip (client to server only).
        public var clientRtt: Double?

        public init(latencyCalculation: Double? = nil, clientLatencyCalculation: Double? = nil,
                    serverRtt: Double? = nil, clientRtt: Double? = nil) {
            self.latencyCalculation = latencyCalculation
            self.clientLatencyCalculation = clientLatencyCalculation
            self.serverRtt = serverRtt
            self.clientRtt = clientRtt
        }
    }

    /// Counters of changes in flight: while one side's change is unacknowledged, states from the
    /// other side that predate it are ignored.
    public struct Ignoring: Sendable, Equatable {
        public var server: Int?
        public var client: Int?

        public init(server: Int? = nil, client: Int? = nil) {
            self.server = server
            self.client = client
        }
    }

    public var playstate: Playstate?
    public var ping: Ping?
    public var ignoringOnTheFly: Ignoring?

    public init(playstate: Playstate? = nil, ping: Ping? = nil, ignoringOnTheFly: Ignoring? = nil) {
        self.playstate = playstate
        self.ping = ping
        self.ignoringOnTheFly = ignoringOnTheFly
    }
}

/// `Chat`: a client sends just the text; the server relays it with the sender's name.
public struct SyncplayChat: Sendable, Equatable {
    public var username: String?
    public var message: String

    public init(username: String? = nil, message: String) {
        self.username = username
        self.message = message
    }
}
