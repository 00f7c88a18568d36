import Foundation
import Logging
import PartyKit
import PartySecurity
import WebSocketTransport
import PlayerCore
import StoryKit
import Synchronization

/// A host or participant on a real network: connects to the party server, says hello, and drives
/// ``ParticipantCore`` (pure) and real players from an actor. Its connection — dials, redirects,
/// reconnects with back-off, giving up — is ``MemberConnection`` (pure), fed here what the network
/// does. The party's items are a story list: a ``StoryNavigator`` follows the party's item, with at
/// most two players alive (the next item is opened during the command's lead).
public actor PartyMember {
    public struct Options: Sendable {
        public var link: PartyLink
        public var name: String
        /// Set by a host creating the party.
        public var create: PartyConfig?
        /// Folders where media items are looked up by name (a host passes its files' folders).
        public var mediaFolders: [String]
        /// How the player of item `index` is built (sinks, headless or not).
        public var playerOptions: @Sendable (Int) -> PlayerOptions
        /// When the current item ends, ask the party for the next one (a host's stories advance).
        public var advanceAtEnd: Bool
        /// How the server is trusted: the party connection, and the media tunnel guests stream through.
        public var trust: ServerTrust
        public var logger: Logger

        /// `trust` defaults to what the link says (see ``ServerTrust/init(link:extraRoots:)``).
        public init(link: PartyLink, name: String, create: PartyConfig? = nil, mediaFolders: [String],
                    playerOptions: @escaping @Sendable (Int) -> PlayerOptions, advanceAtEnd: Bool = false,
                    trust: ServerTrust? = nil, logger: Logger) {
            self.advanceAtEnd = advanceAtEnd
            self.trust = trust ?? ServerTrust(link: link)
            self.link = link
            self.name = name
            self.create = create
            self.mediaFolders = mediaFolders
            self.playerOptions = playerOptions
            self.logger = logger
        }
    }

    /// The member's connection to its party: dials, redirects, back-off, giving up (pure).
    typealias Connection = MemberConnection<ClusterTarget>
    /// How a run ended: left, the party ended, or failed (why).
    public typealias Outcome = MemberConnection<ClusterTarget>.Outcome

    /// Longest reconnect back-off (``MemberConnection/backoffMax``).
    static let backoffMax = Connection.backoffMax
    /// Seconds without the server before a member gives up (``MemberConnection/reconnectGiveUp``).
    static let reconnectGiveUp = Connection.reconnectGiveUp
    /// Longest sleep of the tick loop.
    static let maxTick = 0.05

    public let options: Options
    private(set) var core: ParticipantCore
    /// Where the connection to the party is (the node dialled, redirects, back-off, the outcome).
    private var connection: Connection
    /// The open connection to the node, if any.
    private(set) var socket: WebSocketConnection?
    /// The back-off wait under way, if any (a leave ends it).
    private var backoffWait: Task<Void, Never>?
    /// Player work (seeks, item switches, clock switches, corrections), on a task of its own.
    let playback: MemberPlayback
    /// The item whose end already asked for the next (once per item).
    private var advancedFrom: Int?
    /// The live item whose stream's end was said (once per end).
    var liveEndSaid: Int?
    private let clock = MonotonicTimeSource()
    let notices: @Sendable (PartyNotice) -> Void
    /// Where streamed media is opened: the party's own origin when insecure, else the loopback tunnel's.
    private let mediaOrigin: OriginBox
    /// The guest's door to the party node's media (through the pinned TLS unless insecure), which follows
    /// ``node`` (started by ``run()``, stopped by ``shutDown()``).
    private var tunnel: PinnedTunnel?
    /// The node seating this member now: what its media tunnel, and a host's relay connection
    /// (``MediaUpstream``), follow.
    public nonisolated let node: MemberNode

    /// The cluster's live nodes as this member last heard (its welcome, or a later `nodes`): where it
    /// reconnects if its node dies. Empty outside a cluster.
    public var clusterNodes: [NodeAddress] { connection.nodes }

    public init(options: Options, notices: @escaping @Sendable (PartyNotice) -> Void) {
        self.options = options
        self.notices = notices
        connection = Connection(target: ClusterTarget(host: options.link.host, port: options.link.port, trust: options.trust))
        node = MemberNode(nil)
        core = ParticipantCore(hello: Hello(party: options.link.party, key: options.link.key, name: options.name,
                                            create: options.create))
        let box = WeakMember()
        let link = options.link, folders = options.mediaFolders
        let origin = OriginBox(link.httpOrigin)
        mediaOrigin = origin
        playback = MemberPlayback(options: .init(
            resolve: { item, index in
                MediaResolver.resolve(item, index: index, party: link.party, key: link.key, base: origin.current, folders: folders)
            },
            playerOptions: options.playerOptions, timeSource: clock,
            prepared: { epoch in await box.member?.seekPrepared(epoch: epoch) },
            note: { line in notices(.media(line)) },
            problem: { message in notices(.error(ErrorMessage(code: .badMessage, message: message))) },
            media: { source, problem in await box.member?.mediaReported(source: source, problem: problem) }))
        box.member = self
    }

    // MARK: Running

    /// Runs until the party ends, this member leaves, or the server cannot be reached.
    public func run() async -> Outcome {
        if tunnel == nil, let target = connection.state.target {
            // One loopback origin for the whole run: the players' URLs stay valid wherever the party moves.
            let made = PinnedTunnel(node: target, logger: options.logger)
            do {
                let origin = try await made.start()
                tunnel = made
                mediaOrigin.value.withLock { $0 = origin }
                made.follow(node)
            } catch {
                await made.stop()
                // Without its media tunnel the member cannot join: given up as a dial that failed.
                _ = feed(.start)
                _ = feed(.connectionFailed("\(error)", at: clock.now()))
            }
        }
        // The machine says what to do; the loop does it and feeds back how it went.
        var next = feed(.start)
        while let step = next {
            switch step {
            case .dial(let target): next = await dial(target)
            case .wait(let seconds): next = await backOff(seconds)
            }
        }
        return connection.outcome ?? .left
    }

    /// What takes the run loop time: a dial, or a back-off wait.
    private enum Step {
        case dial(ClusterTarget)
        case wait(Double)
    }

    /// Dials `target`, and reads the connection until it closes: what the machine says next.
    private func dial(_ target: ClusterTarget) async -> Step? {
        let opened: WebSocketConnection
        do {
            opened = try await target.trust.connect(host: target.host, port: target.port, path: options.link.path,
                                                    limits: WebSocketLimits(maxMessageBytes: PartyProtocol.maxMessageBytes),
                                                    logger: options.logger)
        } catch {
            return feed(.connectionFailed("\(error)", at: clock.now()))
        }
        socket = opened
        _ = feed(.dialled)  // the hello, or a close if the member left meanwhile
        guard connection.outcome == nil else {
            socket = nil
            return nil
        }
        let ticker = Task { await self.tickLoop() }
        // The inbound path only feeds the core: player work goes to `playback` and never holds it.
        for await inbound in opened.inbound {
            guard let message = try? PartyProtocol.decode(inbound.text) else {
                options.logger.warning("ignoring a bad message from the server")
                continue
            }
            if case .nodes(let list) = message {
                _ = feed(.nodesChanged(list.nodes))
                continue
            }
            if case .welcome(let welcome) = message { _ = feed(.welcomed(nodes: welcome.nodes)) }
            perform(core.receive(message, receivedAt: inbound.receivedAt, now: clock.now()))
            _ = feed(.heard)
        }
        ticker.cancel()
        socket = nil
        node.set(nil)
        return feed(.closed(reason: opened.closeReason, at: clock.now()))
    }

    /// Waits `seconds` before the next dial (a leave ends the wait at once).
    private func backOff(_ seconds: Double) async -> Step? {
        let wait = Task { _ = try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
        backoffWait = wait
        await withTaskCancellationHandler { await wait.value } onCancel: { wait.cancel() }
        backoffWait = nil
        return feed(.backoffElapsed)
    }

    /// Feeds the connection's machine one event and carries out what it answers; a dial or a wait,
    /// which take time, is left to the run loop.
    private func feed(_ event: Connection.Event) -> Step? {
        var step: Step?
        for action in connection.handle(event) {
            switch action {
            case .dial(let target):
                step = .dial(target)
            case .wait(let seconds):
                step = .wait(seconds)
            case .sayHello:
                perform(core.start(now: clock.now()))
            case .sayHelloAgain:
                perform(core.reconnect(now: clock.now()))
            case .close(let reason):
                socket?.close(reason: reason)
            case .sayBye:
                socket?.send(PartyProtocol.encode(.bye))
                socket?.close(reason: "left")
            case .seated(let target):
                node.set(target)
            case .report(.connectionLost):
                notices(.error(ErrorMessage(code: .serverShutdown, message: "connection lost; reconnecting")))
            case .report(.redirected(let to)):
                options.logger.info("redirected", metadata: ["to": "\(to)"])
            case .finish:
                backoffWait?.cancel()
            }
        }
        return step
    }

    /// Asks the party to play, pause, seek, change rate or item.
    public func request(_ action: Command.Action, value: Double? = nil) async {
        perform([core.request(action, value: value)])
    }

    public func chat(_ text: String) async { perform([.send(.chat(ChatText(text: text)))]) }

    /// The host's new address for a URL item (its old one refused: an expired link), which the server
    /// passes to every member (``ItemURL``).
    public func changeItemURL(_ change: ItemURL) async { perform([.send(.itemURL(change))]) }

    /// Asks the server who is here (answered as a notice).
    public func listParticipants() async { perform([.send(.listParticipants)]) }

    /// Says bye and stops.
    public func leave() async {
        _ = feed(.leaveRequested)
    }

    private func tickLoop() async {
        while !Task.isCancelled {
            let now = clock.now()
            let shown = playback.snapshot
            perform(core.tick(now: now, player: shown.playerSnapshot))
            if let player = shown.player { perform(core.outputReport(Self.outputReport(player), now: now)) }
            if options.advanceAtEnd, let item = shown.item, shown.player?.state == .ended, advancedFrom != item,
               let items = core.config?.items, item + 1 < items.count {
                advancedFrom = item
                await request(.item, value: Double(item + 1))
            }
            await noteLiveEnd(shown)
            let wait = min(max(core.nextWake(after: now) - clock.now(), 0.001), Self.maxTick)
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }

    /// Carries out the core's actions. Never waits: messages go to the connection's event loop,
    /// player work to `playback`'s own task.
    private func perform(_ actions: [ParticipantCore.Action]) {
        for action in actions {
            switch action {
            case .send(.timePing(let ping)):
                // t0 is when the ping leaves the socket, not when it was decided.
                socket?.send(stampedAt: { t0 in PartyProtocol.encode(.timePing(TimePing(id: ping.id, t0: max(t0, ping.t0)))) })
            case .send(let message):
                socket?.send(PartyProtocol.encode(message))
            case .seek(let item, let position, let at, let playing, let rate, let epoch, _):
                guard let items = core.config?.items, !items.isEmpty else { continue }
                playback.submit(.show(.init(items: items, item: item, position: position, at: at, playing: playing,
                                            rate: rate, epoch: epoch)))
            case .switchClock(let target, _):
                playback.submit(.switchClock(target))
            case .setCorrection(let c):
                playback.submit(.setCorrection(c))
            case .notice(let notice):
                if case .error(let error) = notice, core.ended {
                    // Refused by the server (wrong key, unknown party, version…): a failure, not an end.
                    _ = feed(.refused(error.message))
                }
                notices(notice)
            case .disconnect(let reason):
                if core.ended { _ = feed(.partyEnded(reason)) }
                socket?.close(reason: String(reason.prefix(120)))
            case .redirect(let node):
                _ = feed(.redirected(to: node))
            }
        }
    }

    fileprivate func mediaReported(source: String?, problem: String?) {
        perform(core.mediaReport(source: source, problem: problem, now: clock.now()))
    }

    fileprivate func seekPrepared(epoch: Int) {
        perform(core.seekCompleted(epoch: epoch, now: clock.now()))
    }

    /// Closes the players and the media tunnel (at the end of a run).
    public func shutDown() async {
        await playback.close()
        await tunnel?.stop()
        tunnel = nil
    }
}

/// The media origin, shared between the member (which sets it once its tunnel is up) and the resolver.
private final class OriginBox: Sendable {
    let value: Mutex<String>
    init(_ origin: String) { value = Mutex(origin) }
    var current: String { value.withLock { $0 } }
}

/// The member, for the player task's callbacks, without keeping it alive.
private final class WeakMember: Sendable {
    private struct Reference { weak var value: PartyMember? }
    private let reference = Mutex(Reference())
    var member: PartyMember? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
