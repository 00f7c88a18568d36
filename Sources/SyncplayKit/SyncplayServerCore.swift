import Foundation

/// The server side of one Syncplay client's connection, as a pure state machine: the first piece
/// of the gateway that lets Syncplay clients into Tandem parties (docs/syncplay.md). It knows
/// nothing of parties: the gateway tells it the room's playstate and who is there, and carries
/// out what it asks (join as NAME, request a pause or seek, relay a chat line).
///
/// It answers STARTTLS with "false" (the gateway has no certificate of its own yet), checks the
/// MD5 of the password against the expected one, sends a `State` every ``stateInterval`` with the
/// ping fields, settles the "ignoring on the fly" counters as Syncplay's server does, and turns a
/// client's pause, resume and seek into requests; a refused request is answered with a forced
/// state, so the client's player snaps back.
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
    }

    public enum Action: Sendable, Equatable {
        case send(SyncplayMessage)
        /// The client said hello with the right password: let it into `room` as `name`, then call
        /// ``welcome(name:room:now:)``.
        case join(name: String, room: String)
        case request(Request)
        case chat(String)
        case setReady(Bool)
        /// The client announced its file.
        case file(SyncplayFile)
        /// The client asked who is there: answer with ``list(_:)``.
        case listRequested
        /// Close the connection (after sending what came before).
        case close(String)
    }

    public enum Phase: Sendable, Equatable { case awaitingHello, joining, inRoom, closed }

    /// Syncplay's server sends a state this often (SERVER_STATE_INTERVAL).
    public static let stateInterval = 1.0
    /// A client silent this long is dropped (Syncplay's PROTOCOL_TIMEOUT).
    public static let protocolTimeout = 12.5

    /// MD5 hex of the password clients must give; nil: none needed.
    public let passwordDigest: String?
    public let motd: String
    public private(set) var phase = Phase.awaitingHello
    public private(set) var name = ""
    public private(set) var clientVersion = SyncplayClientCore.compatibilityVersion
    public private(set) var ping = SyncplayPing()
    var clientIgnoringOnTheFly = 0
    var serverIgnoringOnTheFly = 0
    var clientStamp: Double?
    var clientStampArrival = 0.0
    var lastHeard = 0.0
    var lastSent = -Double.infinity

    public init(passwordDigest: String?, motd: String = "") {
        self.passwordDigest = passwordDigest
        self.motd = motd
    }

    /// A message from the client at `now`; `room` is the room's state now (nil before joining).
    public mutating func receive(_ message: SyncplayMessage, now: Double, room: Room?) -> [Action] {
        guard phase != .closed else { return [] }
        lastHeard = now
        switch message {
        case .tls:
            // Syncplay answers "false" once logged in too.
            return [.send(.tls(startTLS: "false"))]
        case .hello(let hello):
            guard phase == .awaitingHello else { return [] }
            guard let name = hello.username?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
                  let roomName = hello.room?.trimmingCharacters(in: .whitespaces), !roomName.isEmpty,
                  let version = hello.effectiveVersion else {
                return refuse("Not enough Hello arguments")
            }
            if let passwordDigest {
                guard let given = hello.password else { return refuse("Password required") }
                guard given == passwordDigest else { return refuse("Wrong password supplied") }
            }
            clientVersion = hello.version ?? version
            phase = .joining
            return [.join(name: name, room: roomName)]
        case .error(let text):
            return refuse(text)
        case .unknown(let command):
            return phase == .awaitingHello ? refuse("Unknown command \(command)") : []
        default:
            guard phase == .inRoom else { return refuse("Please login first") }
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
        // As Syncplay's server: the room's (empty) shared playlist first. A client given a file waits
        // for a playlist before it loads the file into its player.
        return [.send(.set([.playlistChange(user: nil, files: [])])), .send(.set([.playlistIndex(user: nil, index: nil)])),
                .send(.hello(hello))] + sendState(state, doSeek: true, forced: true, now: now)
    }

    /// Time passes: a state every second, the silent client dropped.
    public mutating func tick(now: Double, room: Room) -> [Action] {
        guard phase == .inRoom else { return [] }
        if now - lastHeard > Self.protocolTimeout { return refuse("no state from the client for \(Self.protocolTimeout) s") }
        guard now - lastSent >= Self.stateInterval else { return [] }
        return sendState(room, doSeek: false, forced: false, now: now)
    }

    /// The room changed (someone paused, resumed or seeked) or the client's request was refused:
    /// a forced state the client must take.
    public mutating func force(_ room: Room, doSeek: Bool, now: Double) -> [Action] {
        guard phase == .inRoom else { return [] }
        return sendState(room, doSeek: doSeek, forced: true, now: now)
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
                // The client's own playlist, taken as the room's and echoed (Syncplay broadcasts it).
                case .playlistChange(_, let files): .send(.set([.playlistChange(user: name, files: files)]))
                case .playlistIndex(_, let index): .send(.set([.playlistIndex(user: name, index: index)]))
                default: nil
                }
            }
        default:
            return []
        }
    }

    private mutating func clientState(_ state: SyncplayState, now: Double, room: Room?) -> [Action] {
        if let ignoring = state.ignoringOnTheFly {
            if let server = ignoring.server, server == serverIgnoringOnTheFly { serverIgnoringOnTheFly = 0 }
            if let client = ignoring.client { clientIgnoringOnTheFly = client }
        }
        if let ping = state.ping {
            clientStamp = ping.clientLatencyCalculation
            clientStampArrival = now
            if let echoed = ping.latencyCalculation { self.ping.received(echoed: echoed, peerRtt: ping.clientRtt ?? 0, now: now) }
        }
        // While a forced state of ours is unacknowledged, the client's reports predate it.
        guard serverIgnoringOnTheFly == 0, let playstate = state.playstate, let paused = playstate.paused, let room else { return [] }
        let position = paused ? playstate.position : playstate.position + ping.forwardDelay
        if playstate.doSeek == true { return [.request(.seek(to: position))] }
        if paused != room.paused { return [.request(paused ? .pause(at: position) : .play(at: position))] }
        return []
    }

    private mutating func sendState(_ room: Room, doSeek: Bool, forced: Bool, now: Double) -> [Action] {
        if forced { serverIgnoringOnTheFly += 1 }
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

    private mutating func refuse(_ reason: String) -> [Action] {
        phase = .closed
        return [.send(.error(reason)), .close(reason)]
    }
}
