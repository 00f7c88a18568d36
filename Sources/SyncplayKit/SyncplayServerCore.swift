import Foundation

/// The server side of one Syncplay client's connection, as a pure state machine: what the gateway
/// (`tandem serve --syncplay`, docs/syncplay.md) runs per Syncplay client. It knows nothing of
/// parties: the gateway tells it the room's playstate, checks the password it is handed, and
/// carries out what it asks (join as NAME, request a pause or seek, relay a chat line).
///
/// It answers STARTTLS with "true" when the gateway has a TLS identity (``offersTLS``; the gateway
/// then puts TLS in front of the connection, ``Action/startTLS``) and "false" otherwise, hands the password's MD5
/// to the gateway with the join, sends a `State` every ``stateInterval`` with the ping fields,
/// settles the "ignoring on the fly" counters as Syncplay's server does, and turns a client's
/// pause, resume and seek into requests; a refused request is answered with a forced state, so the
/// client's player snaps back. A client that drifts from the room is sought back to it (Syncplay's
/// own client never catches up when it is behind: its server takes the slowest client as the room).
public struct SyncplayServerCore: Sendable {
    /// The room's state as the gateway reads it from the party.
    public struct Room: Sendable, Equatable {
        public var position: Double
        public var paused: Bool
        public var setBy: String?

        public init(position: Double, paused: Bool, setBy: String? = nil) {
            self.position = position
            self.paused = paused
            self.setBy = setBy
        }
    }

    public enum Request: Sendable, Equatable {
        case pause(at: Double)
        case play(at: Double)
        case seek(to: Double)
        /// Another entry of the shared playlist, chosen by the client (the bridge's mapping: the
        /// party's item of that index).
        case item(Int)
    }

    public enum Action: Sendable, Equatable {
        case send(SyncplayMessage)
        /// The client said hello: check `password` (the MD5 hex it gave, nil for none), then let it
        /// into `room` with ``welcome(name:room:now:state:)`` or turn it away with ``deny(_:)``.
        case join(name: String, room: String, password: String?)
        case request(Request)
        case chat(String)
        case setReady(Bool)
        /// The client announced its file.
        case file(SyncplayFile)
        /// The client changed its shared playlist / its entry (never echoed back to it: a
        /// Syncplay client takes an index from "someone" as a switch to make, docs/syncplay.md).
        case playlist([String])
        case playlistIndex(Int)
        /// The client asked who is there: answer with ``list(_:)``.
        case listRequested
        /// Close the connection (after sending what came before).
        case close(String)
        /// Put TLS in front of the connection now, after the lines before: the client's TLS
        /// handshake comes next, and everything after it is encrypted.
        case startTLS
    }

    public enum Phase: Sendable, Equatable { case awaitingHello, joining, inRoom, closed }

    /// Syncplay's server sends a state this often (SERVER_STATE_INTERVAL).
    public static let stateInterval = 1.0
    /// A client silent this long is dropped (Syncplay's PROTOCOL_TIMEOUT).
    public static let protocolTimeout = 12.5
    /// A connection must say hello this soon (Syncplay's client sends it at once; a port scanner or
    /// a stuck peer must not hold a connection).
    public static let helloTimeout = 10.0
    /// More lines than this in one second is a flood: the client is dropped. A Syncplay client sends
    /// about two a second (its answer to each state, and a change now and then).
    public static let floodLimit = 100
    /// How long after a client said `doSeek` without moving it is sent the room's position again:
    /// Syncplay's client ignores seeks past 5 s for 1 s after it (re)opened its file with a rewind
    /// (`setPosition`, "Ignored seek … after rewind"); half a second more for its poll and the message.
    public static let rejumpDelay = 1.5
    /// The name on states the gateway forces by its own decision (a refusal, a correction): never
    /// the client's own, which its player would ignore ("caught attempt to seek with self").
    public static let gatewayName = "Tandem"

    public let motd: String
    /// Whether a client asking for STARTTLS gets it (the gateway has a certificate).
    public let offersTLS: Bool
    /// STARTTLS was agreed: the rest of the connection is TLS.
    public internal(set) var tlsStarted = false
    public internal(set) var phase = Phase.awaitingHello
    public internal(set) var name = ""
    public internal(set) var clientVersion = SyncplayClientCore.compatibilityVersion
    public internal(set) var ping = SyncplayPing()
    var clientIgnoringOnTheFly = 0
    var serverIgnoringOnTheFly = 0
    var clientStamp: Double?
    var clientStampArrival = 0.0
    var lastHeard: Double
    var lastSent = -Double.infinity
    var windowStart: Double
    var windowCount = 0
    var drift = DriftWatch()
    /// When to send the room's position again to a client that said `doSeek` without moving.
    var rejumpAt: Double?
    /// The client's last reported position, and a seek of its that crossed a forced state of ours.
    var lastReport: ReportedPosition?
    var crossedSeek: ReportedPosition?

    /// A connection opened at `now`.
    public init(motd: String = "", offersTLS: Bool = false, now: Double) {
        self.motd = motd
        self.offersTLS = offersTLS
        lastHeard = now
        windowStart = now
    }

    /// A message from the client at `now`; `room` is the room's state now (nil before joining).
    public mutating func receive(_ message: SyncplayMessage, now: Double, room: Room?) -> [Action] {
        guard phase != .closed else { return [] }
        lastHeard = now
        if now - windowStart >= 1 {
            windowStart = now
            windowCount = 0
        }
        windowCount += 1
        if windowCount > Self.floodLimit { return deny("more than \(Self.floodLimit) messages a second") }
        switch message {
        case .tls(let request):
            // As Syncplay's server: only before the hello, once, and "false" otherwise (once
            // logged in too).
            guard request.contains("send"), offersTLS, phase == .awaitingHello, !tlsStarted else {
                return [.send(.tls(startTLS: "false"))]
            }
            tlsStarted = true
            return [.send(.tls(startTLS: "true")), .startTLS]
        case .hello(let hello):
            guard phase == .awaitingHello else { return [] }
            guard let name = hello.username?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
                  let roomName = hello.room?.trimmingCharacters(in: .whitespaces), !roomName.isEmpty,
                  let version = hello.effectiveVersion else {
                return deny("Not enough Hello arguments")
            }
            clientVersion = hello.version ?? version
            phase = .joining
            return [.join(name: name, room: roomName, password: hello.password)]
        case .error(let text):
            return deny(text)
        case .unknown(let command):
            return phase == .awaitingHello ? deny("Unknown command \(command)") : []
        default:
            guard phase == .inRoom else {
                // Syncplay's client may send its file and readiness before our Hello reaches it.
                return phase == .joining ? [] : deny("Please login first")
            }
            return inRoom(message, now: now, room: room)
        }
    }

    /// Let in as `name` (the gateway's choice, unique in the room): our `Hello` and a first state.
    public mutating func welcome(name: String, room: String, now: Double, state: Room) -> [Action] {
        guard phase == .joining else { return [] }
        phase = .inRoom
        self.name = name
        lastHeard = now
        let hello = SyncplayHello(username: name, room: room, version: clientVersion, realVersion: SyncplayClientCore.protocolVersion,
                                  motd: motd, features: ["isolateRooms": .bool(true), "readiness": .bool(true),
                                                         "managedRooms": .bool(false), "chat": .bool(true)])
        // As Syncplay's server: the room's shared playlist first, empty here. A client given a file
        // waits for a playlist before it loads the file into its player, and a non-empty one whose
        // entry is that very file makes Syncplay 1.6.9 never load it; the party's items follow
        // once the client has its file open (SyncplayPartyBridge+Playlist).
        return [.send(.set([.playlistChange(user: nil, files: [])])), .send(.set([.playlistIndex(user: nil, index: nil)])),
                .send(.hello(hello))] + sendState(state, doSeek: true, forced: true, now: now)
    }

    /// Turns the client away (a wrong password, an unknown room…): an `Error` and the close.
    public mutating func deny(_ reason: String) -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        return [.send(.error(reason)), .close(reason)]
    }

    /// Closes the connection *without* an `Error`, telling the client why in a chat line from
    /// ``gatewayName`` first: for what passes (the party's server restarting, the party connection
    /// lost under the member). Syncplay's client takes an `Error` as final (its `handleError` →
    /// `dropWithError` stops its reconnecting service, "Disconnected from server") but reconnects by
    /// itself, up to its 999 retries, when the connection is merely lost, as it is when a real
    /// Syncplay server restarts. Refusals that must stay final (a wrong password, an unknown room,
    /// an ended party) go through ``deny(_:)``.
    public mutating func hangUp(_ reason: String) -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        return [.send(.chat(SyncplayChat(username: Self.gatewayName, message: reason))), .close(reason)]
    }

    /// Time passes: a state every second; a client that never said hello, or fell silent, is dropped.
    public mutating func tick(now: Double, room: Room?) -> [Action] {
        switch phase {
        case .awaitingHello where now - lastHeard > Self.helloTimeout:
            return deny("no Hello within \(Self.helloTimeout) s")
        case .inRoom:
            if now - lastHeard > Self.protocolTimeout { return deny("no state from the client for \(Self.protocolTimeout) s") }
            if let at = rejumpAt, now >= at, let room {
                rejumpAt = nil
                return force(room, doSeek: true, correcting: true, now: now)
            }
            guard let room, now - lastSent >= Self.stateInterval else { return [] }
            return sendState(room, doSeek: false, forced: false, now: now)
        default:
            return []
        }
    }

    /// The room changed (someone paused, resumed or seeked), or the gateway overrules the client
    /// (`correcting`: a refused request, a drift): a forced state the client must take.
    public mutating func force(_ room: Room, doSeek: Bool, correcting: Bool = false, now: Double) -> [Action] {
        guard phase == .inRoom else { return [] }
        var room = room
        if correcting, room.setBy == nil || room.setBy == name { room.setBy = Self.gatewayName }
        drift.reset(now: now)
        return sendState(room, doSeek: doSeek, forced: true, now: now)
    }

    /// Sends `message` (a chat line, a user's arrival or readiness) once the client is in the room.
    public func relay(_ message: SyncplayMessage) -> [Action] {
        phase == .inRoom ? [.send(message)] : []
    }

    /// The answer to ``Action/listRequested``.
    public func list(_ list: SyncplayUserList) -> [Action] {
        phase == .inRoom ? [.send(.list(list))] : []
    }

    private mutating func inRoom(_ message: SyncplayMessage, now: Double, room: Room?) -> [Action] {
        switch message {
        case .state(let state):
            return clientState(state, now: now, room: room)
        case .chat(let chat):
            return chat.message.isEmpty ? [] : [.chat(chat.message)]
        case .list:
            return [.listRequested]
        case .set(let settings):
            return settings.compactMap { setting in
                switch setting {
                case .ready(_, let isReady?, _): .setReady(isReady)
                case .file(let file): .file(file)
                // Not echoed as Syncplay's server echoes them: the client already holds what it
                // sent, and an index "from amy" (itself) makes it switch files, rewind, and report
                // that rewind as a seek of the party's. The bridge maps them onto the party.
                case .playlistChange(_, let files): .playlist(files)
                case .playlistIndex(_, let index?): .playlistIndex(index)
                default: nil
                }
            }
        default:
            return []
        }
    }
}
