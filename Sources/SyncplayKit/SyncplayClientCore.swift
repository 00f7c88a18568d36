import PartyKit

/// A Syncplay client as a pure state machine, in swift-nio's style: named events (connected,
/// a message arrived, a tick, the user paused…) return the actions to carry out (send this, show
/// that on the player, tell the user). No sockets, no player, no clock of its own: every event
/// carries `now`, the local monotonic time in seconds that the player's host time also uses.
///
/// It speaks Syncplay 1.6's client protocol: optional STARTTLS, `Hello` with the MD5 of the server
/// password, readiness, the file announcement under the privacy modes, a `State` answer to every
/// server `State` (echoing its timestamp, sending ours, our round trip, and the "ignoring on the
/// fly" counters), and follows the room's playstate with Tandem's ``SyncController`` — rate nudges
/// and re-seeks — rather than Syncplay's 0.95× slowdown.
public struct SyncplayClientCore: Sendable {
    public struct Configuration: Sendable {
        public var name: String
        public var room: String
        /// The server password in clear (sent as its MD5, as Syncplay does).
        public var password: String?
        /// Ask for STARTTLS before the Hello.
        public var useTLS: Bool
        public var nameMode: SyncplayPrivacy
        public var sizeMode: SyncplayPrivacy
        public var tuning: SyncController.Tuning

        public init(name: String, room: String, password: String? = nil, useTLS: Bool = false,
                    nameMode: SyncplayPrivacy = .sendRaw, sizeMode: SyncplayPrivacy = .sendRaw,
                    tuning: SyncController.Tuning = SyncplayClientCore.defaultTuning) {
            self.name = name
            self.room = room
            self.password = password
            self.useTLS = useTLS
            self.nameMode = nameMode
            self.sizeMode = sizeMode
            self.tuning = tuning
        }
    }

    /// The player as the driver sees it when an event happens.
    public struct PlayerSnapshot: Sendable, Equatable {
        public var position: Double
        /// Opening, seeking or prerolling: its position is not yet the one asked for.
        public var busy: Bool
        public init(position: Double, busy: Bool = false) {
            self.position = position
            self.busy = busy
        }
    }

    public enum Action: Sendable, Equatable {
        case send(SyncplayMessage)
        /// Start TLS on the connection now (the server said "true"); then call ``tlsEstablished(now:)``.
        case startTLS
        /// The server predates STARTTLS and dropped us for asking: connect again without it.
        case retryWithoutTLS
        case show(SyncplayShow)
        case setCorrection(Double)
        /// Others play a file by this name and we have none: look for it (then ``fileOpened``).
        case lookForFile(String)
        case notice(SyncplayNotice)
        /// The session cannot go on: close the connection and report this.
        case fail(String)
        /// The connection is lost, but the session goes on, as Syncplay's client does: close it,
        /// connect again after a wait (``SyncplayReconnect``) and call ``connected(now:)`` on the
        /// new one; the file stays open and is announced again. Only after the session has been in
        /// the room, and never after the server's `Error` (that is final: ``fail(_:)``).
        case reconnect(String)
    }

    public enum Phase: Sendable, Equatable {
        case idle, awaitingTLS, awaitingHello, inRoom, closed
    }

    // MARK: Protocol constants (Syncplay's)

    /// What old (1.2.x) servers read as the version; newer ones read `realversion`.
    public static let compatibilityVersion = "1.2.255"
    /// The Syncplay release whose protocol this speaks.
    public static let protocolVersion = "1.6.9"
    /// Without a server `State` for this long, the server is gone (Syncplay's PROTOCOL_TIMEOUT).
    public static let protocolTimeout = 12.5
    /// Without the server's `Hello` this long after connecting, give up.
    public static let helloTimeout = 10.0

    // MARK: Following constants (Tandem's)

    /// How far ahead of now a seek is scheduled: long enough to preroll on a loaded machine, so
    /// the first picture lands on the room's line instead of behind it.
    public static let seekLead = 0.3
    /// A start or stop farther than this from the room's position seeks too; nearer, the
    /// controller's nudges take out the rest.
    public static let snapThreshold = 0.05
    /// The controller tuned for Syncplay's coarse samples (one a second, tens of ms of noise):
    /// a deadband above that noise, and re-seeks only past a quarter second on two samples in a row.
    public static let defaultTuning: SyncController.Tuning = {
        var tuning = SyncController.Tuning()
        tuning.deadband = 0.015
        tuning.seekThreshold = 0.25
        tuning.seekPersistence = 2
        tuning.seekCooldown = 3
        return tuning
    }()

    // MARK: State

    public let configuration: Configuration
    public internal(set) var phase = Phase.idle
    /// Our name as the server gave it.
    public internal(set) var me: String
    public internal(set) var roomName: String
    /// Our file as announced (after the privacy modes), once one is open.
    public internal(set) var file: SyncplayFile?
    /// The room's playstate as last accepted.
    public internal(set) var room: SyncplayRoomState?
    /// Paused as we want it and report it (what the player is being made to do).
    public internal(set) var localPaused = true
    public internal(set) var ping = SyncplayPing()
    /// Our unacknowledged changes; while non-zero, server playstates predate them and are ignored.
    public internal(set) var clientIgnoringOnTheFly = 0
    /// The server's forced change to acknowledge in our next `State`.
    public internal(set) var serverIgnoringOnTheFly = 0
    /// Others in the server's view: name → room, file, readiness.
    public internal(set) var users: [String: SyncplayUserList.Entry] = [:]
    /// Player − room at the last sample (seconds, positive = ahead), when there was one.
    public internal(set) var lastError: Double?
    var controller: SyncController
    var correction = 0.0
    var startedAt = 0.0
    var lastStateAt = 0.0
    var playlist: [String] = []
    var playlistIndex: Int?
    var lookedFor: Set<String> = []
    var errors: [Double] = []
    /// The server welcomed us on some connection of this session: a later loss is reconnected.
    public internal(set) var hasBeenInRoom = false

    public init(configuration: Configuration) {
        self.configuration = configuration
        me = configuration.name
        roomName = configuration.room
        controller = SyncController(tuning: configuration.tuning)
    }

    /// Whether a file is open here.
    public var hasFile: Bool { file != nil }

    // MARK: Events

    /// The connection is up: ask for TLS or say hello.
    public mutating func connected(now: Double) -> [Action] {
        startedAt = now
        if phase != .idle { forgetConnection() }
        if configuration.useTLS {
            phase = .awaitingTLS
            return [.send(.tls(startTLS: "send"))]
        }
        phase = .awaitingHello
        return [.send(.hello(hello))]
    }

    /// TLS is up (after ``Action/startTLS``): say hello inside it.
    public mutating func tlsEstablished(now: Double) -> [Action] {
        phase = .awaitingHello
        return [.send(.hello(hello))]
    }

    var hello: SyncplayHello {
        SyncplayHello(username: configuration.name,
                      password: configuration.password.flatMap { $0.isEmpty ? nil : SyncplayPrivacy.passwordDigest($0) },
                      room: configuration.room, version: Self.compatibilityVersion, realVersion: Self.protocolVersion,
                      features: ["sharedPlaylists": .bool(false), "chat": .bool(true), "featureList": .bool(true),
                                 "readiness": .bool(true), "managedRooms": .bool(false)])
    }

    /// Time passes: the server's silence past the timeouts ends the session.
    public mutating func tick(now: Double) -> [Action] {
        switch phase {
        case .awaitingTLS where now - startedAt > Self.helloTimeout, .awaitingHello where now - startedAt > Self.helloTimeout:
            return lost("no answer to our Hello within \(Int(Self.helloTimeout)) s")
        case .inRoom where now - lastStateAt > Self.protocolTimeout:
            // Syncplay's client drops such a connection and reconnects (`checkIfConnected`).
            return lost("no state from the server for \(Self.protocolTimeout) s")
        default:
            return []
        }
    }

    /// The connection closed under us; `cause` is the transport's error, when there was one (a
    /// TLS handshake that failed…). After we were in the room it is a loss to reconnect, except for
    /// a failed TLS handshake (an untrusted certificate: Syncplay gives up on it too).
    public mutating func connectionClosed(cause: String? = nil) -> [Action] {
        guard phase != .closed else { return [] }
        let what = switch phase {
        case .inRoom: "the server closed the connection"
        case .awaitingTLS: "the connection closed while starting TLS"
        default: "the server closed the connection before welcoming us"
        }
        let reason = what + (cause.map { ": \($0)" } ?? "")
        return phase == .awaitingTLS && cause != nil ? fail(reason) : lost(reason)
    }

    /// A line that could not be decoded: Syncplay drops such a peer, and so do we.
    public mutating func protocolError(_ error: SyncplayProtocolError) -> [Action] {
        guard phase != .closed else { return [] }
        return fail("the server sent \(error)")
    }

    /// Our file is open (or changed): announce it under the privacy modes and follow the room.
    public mutating func fileOpened(name: String, duration: Double, size: Int64, now: Double, player: PlayerSnapshot?) -> [Action] {
        file = SyncplayPrivacy.announce(name: name, duration: duration, size: size,
                                        nameMode: configuration.nameMode, sizeMode: configuration.sizeMode)
        guard phase == .inRoom, let file else { return [] }
        var actions: [Action] = [.send(.set([.file(file)])),
                                 .send(.set([.ready(username: nil, isReady: true, manuallyInitiated: false)])), .send(.list(nil))]
        if room != nil { actions += showRoom(now: now, player: player, forceSeek: true) }
        return actions
    }

    public func chat(_ text: String) -> [Action] {
        phase == .inRoom ? [.send(.chat(SyncplayChat(message: text)))] : []
    }

    public func setReady(_ ready: Bool) -> [Action] {
        phase == .inRoom ? [.send(.set([.ready(username: nil, isReady: ready, manuallyInitiated: true)]))] : []
    }

    /// Asks the server who is here (answered as a ``SyncplayNotice/users(_:)`` notice).
    public func listUsers() -> [Action] { phase == .inRoom ? [.send(.list(nil))] : [] }

    mutating func fail(_ reason: String) -> [Action] {
        phase = .closed
        return [.fail(reason)]
    }

    /// The connection is gone for `reason`: reconnect once we have been in the room (a server that
    /// never let us in is no server to wait for), else fail.
    mutating func lost(_ reason: String) -> [Action] {
        guard hasBeenInRoom else { return fail(reason) }
        phase = .closed
        return [.reconnect(reason)]
    }

    /// A new connection of the same session: what the last one learnt of the server is forgotten
    /// (the room's state, its counters and users come again); the file, our pause and the names we
    /// looked for stay.
    mutating func forgetConnection() {
        room = nil
        users = [:]
        clientIgnoringOnTheFly = 0
        serverIgnoringOnTheFly = 0
        ping = SyncplayPing()
        errors.removeAll()
        lastError = nil
        roomName = configuration.room
        me = configuration.name
    }
}
