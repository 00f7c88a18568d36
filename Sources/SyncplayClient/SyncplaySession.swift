import FFmpegKit
import Foundation
import Logging
import MediaTime
import NIOCore
import NIOSSL
import PlayerCore
import SyncplayKit
import SyncplayNet
import Synchronization

/// Tandem in a Syncplay room: connects to the server, drives ``SyncplayClientCore`` (pure) from
/// an actor, and a real player through ``SyncplayPlayback``. The local file is the one given, or
/// the room's, found by name in the media folders.
public actor SyncplaySession {
    public struct Options: Sendable {
        public var host: String
        public var port: Int
        public var core: SyncplayClientCore.Configuration
        /// The file to play; nil: look for the room's file in `mediaFolders`.
        public var file: String?
        public var mediaFolders: [String]
        public var playerOptions: @Sendable () -> PlayerOptions
        /// How STARTTLS verifies the server (when `core.useTLS` asks for it): the system's trust
        /// roots by default.
        public var tls: TLSConfiguration
        /// Tries to reach the server again after losing it, before the session fails (Syncplay's 999
        /// by default, ``SyncplayReconnect``).
        public var reconnectTries: Int
        public var logger: Logger

        public init(host: String, port: Int, core: SyncplayClientCore.Configuration, file: String?, mediaFolders: [String],
                    playerOptions: @escaping @Sendable () -> PlayerOptions,
                    tls: TLSConfiguration = .makeClientConfiguration(), reconnectTries: Int = SyncplayReconnect.maxTries,
                    logger: Logger) {
            self.tls = tls
            self.reconnectTries = reconnectTries
            self.host = host
            self.port = port
            self.core = core
            self.file = file
            self.mediaFolders = mediaFolders
            self.playerOptions = playerOptions
            self.logger = logger
        }
    }

    public enum Outcome: Sendable, Equatable {
        case left
        case failed(String)
    }

    /// What a status line shows.
    public struct Status: Sendable {
        public var room: String
        public var me: String
        public var connected: Bool
        /// The others in the room.
        public var users: [SyncplayUserList.Entry]
        public var file: SyncplayFile?
        public var position: Double?
        public var duration: Double?
        public var paused: Bool
        public var skewMs: Double?
        public var rttMs: Double
        /// The connection is encrypted (STARTTLS).
        public var encrypted: Bool
        /// The connection was lost and the session is trying to get back into the room.
        public var reconnecting: Bool
    }

    /// How often the core is ticked for its timeouts.
    static let tickInterval = 0.25

    public let options: Options
    private var core: SyncplayClientCore
    private var connection: SyncplayConnection?
    private let playback: SyncplayPlayback
    private let clock = MonotonicTimeSource()
    private let notices: @Sendable (SyncplayNotice) -> Void
    private var outcome: Outcome?
    private var leaving = false
    private var encrypted = false
    /// The server predates STARTTLS: connect again in plain text.
    private var retryPlain = false
    private var transportError: String?
    /// The file the player has open.
    private var openedPath: String?
    /// Why the connection was lost, when the session is to reconnect (the core's ``SyncplayClientCore/Action/reconnect(_:)``).
    private var lostReason: String?
    private var reconnect: SyncplayReconnect
    /// The wait before the next try, cancelled by ``leave()``.
    private var backoff: Task<Void, Never>?

    public init(options: Options, notices: @escaping @Sendable (SyncplayNotice) -> Void) {
        self.options = options
        self.notices = notices
        core = SyncplayClientCore(configuration: options.core)
        reconnect = SyncplayReconnect(limit: options.reconnectTries)
        let box = WeakSession()
        let clock = clock
        playback = SyncplayPlayback(playerOptions: {
            var player = options.playerOptions()
            player.timeSource = clock
            return player
        }, opened: { path, result in await box.session?.opened(path, result) })
        box.session = self
    }

    public var status: Status {
        let player = playback.snapshot.player
        return Status(room: core.roomName, me: core.me, connected: core.phase == .inRoom,
                      users: core.users.values.filter { $0.room == core.roomName && $0.username != core.me }.sorted { $0.username < $1.username },
                      file: core.file, position: player?.position, duration: player?.duration, paused: core.localPaused,
                      skewMs: core.lastError.map { $0 * 1000 }, rttMs: core.ping.rtt * 1000,
                      encrypted: encrypted, reconnecting: core.phase != .inRoom && core.hasBeenInRoom && outcome == nil)
    }

    /// The player (nil before the file is open).
    public var currentPlayer: Player? { playback.snapshot.player }

    /// Runs until the user leaves or the session fails. A connection lost after the server let
    /// us in is tried again, as Syncplay's client does (``SyncplayReconnect``); the player and
    /// its file stay open meanwhile.
    public func run() async -> Outcome {
        if let file = options.file { playback.open(file) }
        while !leaving {
            await serve()
            if retryPlain, !leaving {
                // Syncplay's clients do the same: the old server dropped us for asking; ask it nothing.
                retryPlain = false
                outcome = nil
                var plain = options.core
                plain.useTLS = false
                core = SyncplayClientCore(configuration: plain)
                notices(.note("the server predates STARTTLS: connecting again without TLS"))
                continue
            }
            guard !leaving, outcome == nil, let reason = lostReason else { break }
            lostReason = nil
            if reconnect.tries == 0 { notices(.connectionLost(reason)) }
            guard let delay = reconnect.nextDelay() else {
                outcome = .failed("lost the Syncplay server \(options.host):\(options.port) for good after \(reconnect.limit) tries: \(reason)")
                break
            }
            options.logger.info("Syncplay: reconnecting", metadata: ["try": "\(reconnect.tries)", "in": "\(delay)", "after": "\(reason)"])
            let wait = Task { _ = try? await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
            backoff = wait
            await wait.value
            backoff = nil
        }
        return finish(outcome ?? .left)
    }

    /// One connection, until it closes.
    private func serve() async {
        guard !leaving else { return }
        let conn: SyncplayConnection
        do {
            conn = try await SyncplayConnection.connect(host: options.host, port: options.port)
        } catch {
            let reason = "cannot reach the Syncplay server \(options.host):\(options.port): \(error)"
            // Once we have been in the room, a server away (restarting) is waited for.
            if core.hasBeenInRoom { lostReason = reason } else { outcome = .failed(reason) }
            return
        }
        guard !leaving else {
            conn.close()
            return
        }
        connection = conn
        encrypted = false
        transportError = nil
        if let player = playback.snapshot.player, let path = options.file ?? openedPath {
            opened(path, .success(player))
        }
        perform(core.connected(now: clock.now()))
        let ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(Self.tickInterval * 1e9))
                await self?.tick()
            }
        }
        for await event in conn.events {
            switch event {
            case .line(let bytes):
                do throws(SyncplayProtocolError) {
                    for message in try SyncplayCodec.decode(bytes) {
                        perform(core.receive(message, now: clock.now(), player: playerSnapshot))
                    }
                } catch {
                    perform(core.protocolError(error))
                }
            case .refused(let error):
                perform(core.protocolError(error))
            case .transportError(let reason):
                transportError = transportError ?? reason
                options.logger.warning("Syncplay connection: \(reason)")
            case .tlsEstablished:
                encrypted = true
                perform(core.tlsEstablished(now: clock.now()))
            case .closed:
                if !leaving { perform(core.connectionClosed(cause: transportError)) }
            }
        }
        ticker.cancel()
        connection = nil
    }

    /// The user paused or resumed (IPC, keys, script).
    public func setPaused(_ paused: Bool) { perform(core.userSetPaused(paused, now: clock.now(), player: playerSnapshot)) }

    /// The user jumped to `position` seconds.
    public func seek(to position: Double) { perform(core.userSeek(to: position, now: clock.now())) }

    public func chat(_ text: String) { perform(core.chat(text)) }
    public func setReady(_ ready: Bool) { perform(core.setReady(ready)) }
    public func listUsers() { perform(core.listUsers()) }

    /// Leaves the room: closes the connection.
    public func leave() {
        leaving = true
        if outcome == nil { outcome = .left }
        connection?.close()
        backoff?.cancel()
    }

    /// Closes the player (after ``run()``).
    public func shutDown() async { await playback.close() }

    private func finish(_ result: Outcome) -> Outcome {
        if outcome == nil { outcome = result }
        return outcome ?? result
    }

    private var playerSnapshot: SyncplayClientCore.PlayerSnapshot? {
        let snapshot = playback.snapshot
        guard let player = snapshot.player else { return nil }
        return .init(position: player.position, busy: snapshot.pending > 0 || player.isPrerolling)
    }

    private func tick() { perform(core.tick(now: clock.now())) }

    private func opened(_ path: String, _ result: Result<Player, OpenError>) {
        switch result {
        case .success(let player):
            openedPath = path
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            let name = (path as NSString).lastPathComponent
            perform(core.fileOpened(name: name, duration: player.duration ?? 0, size: size, now: clock.now(), player: playerSnapshot))
        case .failure(let error):
            notices(.note("cannot play \(path): \(error)"))
        }
    }

    private func perform(_ actions: [SyncplayClientCore.Action]) {
        for action in actions {
            switch action {
            case .send(let message):
                connection?.send(message)
            case .startTLS:
                // SNI takes a name, never an address; an address is verified against the certificate's IP entries.
                let isAddress = (try? SocketAddress(ipAddress: options.host, port: 0)) != nil
                connection?.startTLS(options.tls, serverHostname: isAddress ? nil : options.host)
            case .retryWithoutTLS:
                retryPlain = true
                connection?.close()
            case .show(let show):
                playback.show(show)
            case .setCorrection(let c):
                playback.setCorrection(c)
            case .lookForFile(let name):
                guard options.file == nil else { continue }
                if let path = SyncplayFileFinder.find(name, in: options.mediaFolders) {
                    notices(.note("playing \(path), the room's \(name)"))
                    playback.open(path)
                } else {
                    notices(.note("the room plays \(name): not found in \(options.mediaFolders.joined(separator: ", "))"))
                }
            case .notice(let notice):
                if case .connected = notice { reconnect.rejoined() }
                notices(notice)
            case .fail(let reason):
                if outcome == nil { outcome = .failed(reason) }
                connection?.close()
            case .reconnect(let reason):
                lostReason = reason
                connection?.close()
            }
        }
    }
}

/// The session, for the player task's callbacks, without keeping it alive.
private final class WeakSession: Sendable {
    private struct Reference { weak var value: SyncplaySession? }
    private let reference = Mutex(Reference())
    var session: SyncplaySession? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}
