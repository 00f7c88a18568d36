import Logging
import NIOCore
import NIOSSL
import PartyKit
import PartySecurity
import WebSocketTLS
import WebSocketTransport
import MediaTime
import Synchronization

/// `tandem serve`: the party server on a real socket. Drives ``PartyServerCore`` (pure) from an
/// actor, off the NIO event loops; the party clock is this host's monotonic clock.
public actor PartyServerRunner {
    /// How often hello deadlines, seat grace periods and stall waits are checked.
    static let tickInterval = 0.25

    private let server: WebSocketServer
    var core = PartyServerCore()
    var connections: [Int: WebSocketConnection] = [:]
    /// In-process members (the Syncplay gateway's): what they are sent goes to their closure.
    var locals: [Int: @Sendable (LocalEvent) -> Void] = [:]
    /// Set when this server is a node of a cluster (PartyServerRunner+Cluster.swift).
    var cluster: ClusterGate?
    private var nextConnection = 1
    private var ticker: Task<Void, Never>?
    let clock = MonotonicTimeSource()
    let logger: Logger
    /// Time pings answered on the connections' event loops since the last tick (for the metrics).
    private nonisolated let pingsAnsweredInline = InlineCount()

    /// The media this server serves over HTTP byte ranges on its port (`/party/ID/media/N`).
    public nonisolated let media: PartyMediaLibrary

    /// - Parameter tls: The server's TLS (``ServerIdentity/makeServerContext()``): wss for the party and
    ///   https for media on the one port. `nil`: plain ws and http (`--insecure`).
    public init(host: String, port: Int, media: PartyMediaLibrary = PartyMediaLibrary(), tls: NIOSSLContext? = nil,
                logger: Logger) {
        self.logger = logger
        self.media = media
        server = WebSocketServer(host: host, port: port, path: "/party/",
                                 limits: WebSocketLimits(maxMessageBytes: PartyProtocol.maxMessageBytes), logger: logger,
                                 httpResponder: PartyMediaResponder(library: media),
                                 tls: tls.map { WebSocketServerTLS(context: $0) })
    }

    /// Listens; returns the bound port.
    public func start() async throws -> Int {
        let port = try await server.start { [weak self] connection in
            guard let self else { return }
            Task { await self.accept(connection) }
        }
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(Self.tickInterval * 1e9))
                await self?.tick()
            }
        }
        logger.info("party server listening", metadata: ["port": "\(port)"])
        return port
    }

    public func stop() async {
        ticker?.cancel()
        tellEveryone(shuttingDown: "the server is shutting down")
        await server.stop()
        connections.removeAll()
        for deliver in locals.values { deliver(.closed("the server is shutting down")) }
        locals.removeAll()
    }

    /// Tells every member the server is going (`serverShutdown`: members keep their seats' tokens
    /// and reconnect), without closing anything yet: a drain lets them leave first. In-process
    /// members (the Syncplay gateway's) are told too.
    public func tellEveryone(shuttingDown message: String) {
        let error = PartyMessage.error(ErrorMessage(code: .serverShutdown, message: message))
        let encoded = PartyProtocol.encode(error)
        for connection in connections.values { connection.send(encoded) }
        for deliver in locals.values { deliver(.message(error)) }
    }

    /// Receives the server's counts as it runs (the service's metrics).
    private var observer: (any PartyServerObserver)?

    /// From now on, tells `observer` what passes (messages in and out, members' reported skew).
    public func observe(with observer: any PartyServerObserver) { self.observer = observer }

    public var partyCount: Int { core.partyCount }
    /// Connected members, in-process ones included (relay connections not counted).
    public var memberCount: Int { connections.count + locals.count }

    private func accept(_ connection: WebSocketConnection) async {
        if RelayProtocol.party(ofPath: connection.requestPath) != nil { return await acceptRelay(connection) }
        let id = nextConnection
        nextConnection += 1
        connections[id] = connection
        // Wrong keys are counted per address (not per connection): a guesser reconnects freely.
        perform(core.connected(id, source: WrongKeyLimiter.source(ofPeer: connection.remoteDescription), now: clock.now()))
        for await message in connection.inbound {
            observer?.messageReceived()
            if cluster != nil, gate(id, message) { continue }
            perform(core.received(id, text: message.text, receivedAt: message.receivedAt,
                                  messagesThisSecond: message.messagesThisSecond, now: clock.now()))
        }
        connections[id] = nil
        clusterForget(id)
        perform(core.disconnected(id, now: clock.now()))
        if let reason = connection.closeReason { logger.debug("connection closed", metadata: ["id": "\(id)", "reason": "\(reason)"]) }
    }

    /// A host's relay connection: its first message offers the party's items with the host's seat
    /// token (a guest, who knows only the key, cannot relay); then it answers fetches until it closes,
    /// with chunks (and converted pieces, for browsers) in binary frames, which the connection accepts only from then on (a binary frame
    /// before a good offer closes it, 1003, as on any other connection).
    private func acceptRelay(_ connection: WebSocketConnection) async {
        var party: String?
        for await inbound in connection.inbound {
            if let frame = inbound.binary {
                // Binary frames are delivered only after the offer was accepted, so `party` is set.
                guard let party, let decoded = RelayProtocol.decodeFrame(frame.readableBytesView) else {
                    connection.close(code: .unacceptableData, reason: "not a relay chunk frame")
                    break
                }
                media.relay.received(decoded, party: party)
                continue
            }
            guard let message = RelayProtocol.decode(inbound.text) else {
                connection.close(reason: "not a relay message")
                break
            }
            if let party {
                media.relay.received(message, party: party)
                continue
            }
            guard case .offer(let offer) = message, core.isHostSeat(offer.seat, of: offer.party),
                  let token = core.mediaToken(of: offer.party),
                  connection.requestPath == RelayProtocol.path(party: offer.party) else {
                logger.info("relay connection refused", metadata: ["peer": "\(connection.remoteDescription)"])
                connection.close(reason: "relay refused: unknown party, or not its host")
                break
            }
            party = offer.party
            // Before the first fetch can go out (the relay sends them once attached).
            connection.acceptBinaryMessages()
            media.serveRelayed(party: offer.party, token: token)
            media.relay.attach(party: offer.party, connection: connection, items: offer.items, web: offer.web ?? false)
            logger.info("relaying media", metadata: ["party": "\(offer.party)", "items": "\(offer.items.count)"])
        }
        if let party { media.relay.detach(party: party, connection: connection) }
    }

    // MARK: In-process members

    /// What an in-process member hears: the server's messages, then (once) why it was closed.
    public enum LocalEvent: Sendable {
        case message(PartyMessage)
        case closed(String)
    }

    /// Connects an in-process member (one per Syncplay client at the gateway) as if from `source`
    /// (its peer's address): it then says hello and the rest with ``receiveLocal(_:_:)``, and hears
    /// the server through `deliver` (on this actor: it must not block). The party clock is this
    /// host's `CLOCK_MONOTONIC` (``MonotonicTimeSource``), the member's own.
    public func connectLocal(source: String?, deliver: @escaping @Sendable (LocalEvent) -> Void) -> Int {
        let id = nextConnection
        nextConnection += 1
        locals[id] = deliver
        perform(core.connected(id, source: source.map(WrongKeyLimiter.source(ofPeer:)), now: clock.now()))
        return id
    }

    /// A message from in-process member `id`, as if it had come over its WebSocket.
    public func receiveLocal(_ id: Int, _ message: PartyMessage) {
        guard locals[id] != nil else { return }
        let now = clock.now()
        let text = PartyProtocol.encode(message)
        if cluster != nil, gate(id, text: text, receivedAt: now, messagesThisSecond: nil) { return }
        perform(core.received(id, text: text, receivedAt: now, now: now))
    }

    /// In-process member `id` went away (its seat is kept for the grace period, as for a lost connection).
    public func disconnectLocal(_ id: Int) {
        guard locals.removeValue(forKey: id) != nil else { return }
        clusterForget(id)
        perform(core.disconnected(id, now: clock.now()))
    }

    /// ``PartyServerCore/checkKey(party:source:now:matches:)`` at this server's now.
    public func checkKey(party: String, source: String?, matches: @Sendable (String) -> Bool) -> PartyServerCore.KeyCheck {
        core.checkKey(party: party, source: source.map(WrongKeyLimiter.source(ofPeer:)), now: clock.now(), matches: matches)
    }

    private func tick() {
        let answered = pingsAnsweredInline.take()
        if let observer, answered > 0 {
            observer.messagesReceived(answered)
            observer.messagesSent(answered)
        }
        perform(core.tick(now: clock.now()))
        if cluster != nil { clusterTick() }
    }

    func perform(_ outputs: [PartyServerCore.Output]) {
        // A broadcast is one message to many connections in a row: encoded once, its bytes shared by all.
        var encoded: (message: PartyMessage, bytes: ByteBuffer)?
        // What each connection is sent in this step, in order: one hop and one flush each, at the end
        // (a close, a pong or inline answers first send what the connection was given before them).
        var batches = OutgoingBatches()
        var sent = 0
        var reports: [(skewMs: Double?, rttMs: Double?)] = []
        for output in outputs {
            switch output {
            case .send(let id, let message) where locals[id] != nil: locals[id]?(.message(message))
            case .close(let id, let reason) where locals[id] != nil: locals.removeValue(forKey: id)?(.closed(reason))
            case .send(let id, .timePong(let pong)):
                // t2 is when the answer leaves the socket, not when it was decided.
                sent += 1
                batches.send(id, to: connections[id])
                connections[id]?.send(stampedAt: { t2 in
                    TimePong(id: pong.id, t0: pong.t0, t1: pong.t1, t2: max(t2, pong.t2)).wireText
                })
            case .send(let id, let message):
                guard let connection = connections[id] else { continue }
                let bytes: ByteBuffer
                if let encoded, encoded.message == message {
                    bytes = encoded.bytes
                } else {
                    bytes = ByteBuffer(string: PartyProtocol.encode(message))
                    encoded = (message, bytes)
                }
                batches.append(bytes, for: id)
                sent += 1
                if case .welcome(let welcome) = message {
                    // A joined member's time pings are answered where they are read, after its welcome.
                    batches.send(id, to: connection)
                    answerPingsInline(on: connection)
                    if welcome.you.role == .host { expectRelay(welcome.party) }
                }
            case .close(let id, let reason):
                batches.send(id, to: connections[id])
                connections[id]?.close(reason: String(reason.prefix(120)))
                connections[id] = nil
            case .log(let line): logger.info("\(line)")
            case .memberReported(let skewMs, let rttMs): reports.append((skewMs, rttMs))
            case .partyClosed(let party):
                // Its members' media credential stops working with it, and its relay state goes.
                media.remove(party: party)
                media.relay.forget(party: party)
            }
        }
        batches.sendAll(to: connections)
        // The counts of what was sent first, then what members reported: a scrape that sees a report
        // sees the messages that went out before it.
        if let observer, sent > 0 { observer.messagesSent(sent) }
        for (skewMs, rttMs) in reports { observer?.memberReported(skewMs: skewMs, rttMs: rttMs) }
    }

    /// A host was seated: until its relay connection offers its files, members asking for them wait for
    /// it (up to ``relayReturnWindow``) instead of being told there is no such party. A guest that
    /// joined and asked before the host's relay was up got a 404 and never played.
    private func expectRelay(_ party: String) {
        guard media.entry(party: party) == nil, let token = core.mediaToken(of: party) else { return }
        media.serveRelayed(party: party, token: token)
        media.relay.expectUpstream(party: party, within: Self.relayReturnWindow)
    }

    /// From now on `connection`'s time pings are answered on its event loop (``TimePong/answer(toPing:receivedAt:now:)``:
    /// the pong needs nothing but this server's clock), without the hop to this actor; while it sends at
    /// most the core's flood limit a second. Its messages that come here carry the connection's count
    /// of the second, answered pings included, and past the limit the core drops it (`flood`).
    private func answerPingsInline(on connection: WebSocketConnection) {
        let answered = pingsAnsweredInline
        connection.answerInline(limitPerSecond: PartyServerCore.floodLimit) { text, receivedAt in
            // t2 as the answer is made, right before it is written (the party clock is CLOCK_MONOTONIC).
            guard let reply = TimePong.answer(toPing: text, receivedAt: receivedAt, now: InboundMessage.monotonicNow()) else {
                return nil
            }
            answered.add()
            return reply
        }
    }
}

/// The messages one step of ``PartyServerRunner/perform(_:)`` gives each connection, in order, sent
/// with one hop to the connection's event loop and one flush each.
struct OutgoingBatches {
    private var order: [Int] = []
    private var messages: [Int: [ByteBuffer]] = [:]

    mutating func append(_ bytes: ByteBuffer, for id: Int) {
        if messages[id]?.append(bytes) == nil {
            messages[id] = [bytes]
            order.append(id)
        }
    }

    /// Sends what `id` was given so far (before something that must come after it).
    mutating func send(_ id: Int, to connection: WebSocketConnection?) {
        guard let batch = messages.removeValue(forKey: id) else { return }
        Self.send(batch, to: connection)
    }

    mutating func sendAll(to connections: [Int: WebSocketConnection]) {
        for id in order {
            guard let batch = messages.removeValue(forKey: id) else { continue }
            Self.send(batch, to: connections[id])
        }
        order.removeAll()
    }

    private static func send(_ batch: [ByteBuffer], to connection: WebSocketConnection?) {
        if batch.count == 1 { connection?.send(utf8: batch[0]) } else { connection?.send(utf8Messages: batch) }
    }
}

/// A count shared with the event loops (time pings answered there), taken by the server's tick.
final class InlineCount: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    /// The count since the last take.
    func take() -> Int { count.exchange(0, ordering: .relaxed) }
}

/// What a party server tells its metrics as it runs (``PartyServerRunner/observe(with:)``); called on
/// the server's actor, so it must not block.
public protocol PartyServerObserver: Sendable {
    func messageReceived()
    /// `count` messages were received at once (time pings answered on the event loops, counted at each tick).
    func messagesReceived(_ count: Int)
    func messagesSent(_ count: Int)
    /// A member's own skew against the timeline and its clock-sync round trip, from its status (ms).
    func memberReported(skewMs: Double?, rttMs: Double?)
}

extension PartyServerObserver {
    public func messagesReceived(_ count: Int) {
        for _ in 0..<count { messageReceived() }
    }
}
