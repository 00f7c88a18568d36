import Logging
import PartySecurity
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import WebSocketTLS
import WebSocketTransport

/// A guest's loopback door to the party's media: the player opens `http://127.0.0.1:PORT/party/ID/media/N`
/// (with its media token header, as always) and every connection accepted here is piped byte for byte
/// to the party's node, over TLS verified exactly like the party connection (``ServerTrust``;
/// libavformat's https cannot pin a certificate), or plain for an `--insecure` party.
///
/// The player's URL never changes, but where it leads does: the tunnel follows the node seating the
/// member (``follow(_:)``). When that node changes (a redirect, a takeover after the node died), the
/// pipes to the old one are closed (the player reconnects at its offset) and new connections go to the
/// new one; while the member is between nodes, or the node cannot be dialled, an accepted connection
/// waits (up to ``holdTimeout``) for the next node instead of failing.
///
/// A byte pipe, not an HTTP client: requests, ranges and keep-alive pass through untouched. Only
/// 127.0.0.1 can reach it, and the server still wants the media token. Owned by the member runner,
/// which stops it when the member ends.
public final class PinnedTunnel: Sendable {
    /// Where piped connections go: one resolved address (one socket per connection, no address racing,
    /// so the glue has one partner), and the TLS to speak there (nil: plain).
    private struct Target {
        var node: ClusterTarget
        var address: SocketAddress
        var tls: WebSocketClientTLS?
    }

    private struct Registry {
        var listener: (any Channel)?
        /// Nil while the member is between nodes: accepted connections are held.
        var target: Target?
        /// Both sides of every pipe, all to `pipedNode`.
        var piped: [ObjectIdentifier: any Channel] = [:]
        /// The node the pipes lead to: the last target.
        var pipedNode: ClusterTarget?
        /// Accepted connections waiting for a node to pipe to (nothing is read from them meanwhile),
        /// each with the number of its hold, so the timeout of an earlier hold never closes a later one.
        var held: [ObjectIdentifier: (channel: any Channel, hold: Int)] = [:]
        var holds = 0
        var following: Task<Void, Never>?
        var stopped = false
    }

    /// Seconds allowed to open the connection to the node for one accepted connection.
    static let connectTimeout: Int64 = 10
    /// How long an accepted connection waits for a node: under the player's read timeout
    /// (`InputFile.networkTimeoutMicroseconds`, 10 s), so the player sees a slow answer, not a dead one,
    /// across a takeover (a lease running out plus a second) in most cases, and retries otherwise.
    static let holdTimeout = TimeAmount.seconds(8)

    private let first: ClusterTarget
    private let logger: Logger
    private let registry = Mutex(Registry())

    /// A stopped tunnel to `node` (plain when its trust is `.insecure`).
    init(node: ClusterTarget, logger: Logger) {
        first = node
        self.logger = logger
    }

    /// A tunnel verifying the server as `trust` says; nil for an insecure party (its media is plain
    /// HTTP: ``init(node:logger:)`` makes a plain tunnel for a member that follows nodes).
    public static func make(host: String, port: Int, trust: ServerTrust, logger: Logger) throws -> PinnedTunnel? {
        guard trust != .insecure else { return nil }
        _ = try trust.clientTLS(host: host)  // a bad configuration fails here, not per connection
        return PinnedTunnel(node: ClusterTarget(host: host, port: port, trust: trust), logger: logger)
    }

    deinit {
        let (listener, channels, following) = registry.withLock {
            ($0.listener, Array($0.piped.values) + $0.held.values.map(\.channel), $0.following)
        }
        following?.cancel()
        listener?.close(promise: nil)
        channels.forEach { $0.close(promise: nil) }
    }

    /// Listens on 127.0.0.1 on a free port; returns the origin to open media at, `http://127.0.0.1:PORT`.
    /// The node is dialled once here: one that cannot be reached is said now, by name.
    public func start() async throws -> String {
        let target = try await Self.resolve(first)
        registry.withLock { registry in
            registry.target = target
            registry.pipedNode = target.node
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            // Nothing is read before it can go somewhere: the glue asks for reads once both sides exist.
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture { try self.accept(channel) }
            }
        let listener = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        let keep = registry.withLock { registry in
            guard !registry.stopped else { return false }
            registry.listener = listener
            return true
        }
        guard keep else {
            try? await listener.close()
            throw SecurityError.configuration("the media tunnel was stopped while starting")
        }
        return "http://127.0.0.1:\(listener.localAddress?.port ?? 0)"
    }

    /// Pipes to whichever node `node` names from now on, until stopped.
    func follow(_ node: MemberNode) {
        let task = Task { [weak self] in
            var seen = node.current
            while !Task.isCancelled {
                seen = await node.change(from: seen)
                guard !Task.isCancelled, let self else { return }
                await self.retarget(seen)
            }
        }
        let old = registry.withLock { registry -> Task<Void, Never>? in
            defer { registry.following = task }
            return registry.following
        }
        old?.cancel()
    }

    /// Pipes to `node` from now on (nil: hold new connections until there is one). Pipes to another
    /// node than `node` are closed: what they carry comes from a node that no longer serves the party.
    func retarget(_ node: ClusterTarget?) async {
        var target: Target?
        if let node {
            do { target = try await Self.resolve(node) } catch {
                logger.info("media tunnel: cannot reach the party's node", metadata: ["node": "\(node.address)", "error": "\(error)"])
            }
        }
        let (stale, waiting) = registry.withLock { registry -> ([any Channel], [any Channel]) in
            guard !registry.stopped else { return ([], []) }
            registry.target = target
            guard let target else { return ([], []) }
            var stale: [any Channel] = []
            if registry.pipedNode != target.node {
                stale = Array(registry.piped.values)
                registry.piped = [:]
                registry.pipedNode = target.node
            }
            defer { registry.held = [:] }
            return (stale, registry.held.values.map(\.channel))
        }
        if !stale.isEmpty { logger.info("media tunnel: the party moved; reconnecting its streams", metadata: ["streams": "\(stale.count / 2)"]) }
        for channel in stale { channel.close(promise: nil) }
        for inbound in waiting { inbound.eventLoop.execute { self.pipe(inbound) } }
    }

    /// Stops listening and following, and closes every connection.
    public func stop() async {
        let (listener, channels, following) = registry.withLock { registry in
            registry.stopped = true
            defer { registry.listener = nil; registry.piped = [:]; registry.held = [:]; registry.following = nil }
            return (registry.listener, Array(registry.piped.values) + registry.held.values.map(\.channel), registry.following)
        }
        following?.cancel()
        try? await listener?.close()
        for channel in channels { try? await channel.close() }
    }

    /// The address a plain TCP connection to `node` reaches first (NIO's Happy Eyeballs racing every
    /// address the name resolves to: the first resolved one may not answer), and its TLS.
    private static func resolve(_ node: ClusterTarget) async throws -> Target {
        let tls = try node.trust.clientTLS(host: node.host)?.tls
        do {
            let probe = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(connectTimeout))
                .connect(host: node.host, port: node.port).get()
            defer { probe.close(promise: nil) }
            guard let reached = probe.remoteAddress else { throw SecurityError.probe("no address") }
            return Target(node: node, address: reached, tls: tls)
        } catch {
            throw SecurityError.probe("cannot reach the party server \(node.address): \(error)")
        }
    }

    /// One accepted loopback connection (in its initializer, before it is registered and active): piped
    /// once active when there is a node, else held.
    private func accept(_ inbound: any Channel) throws {
        let id = ObjectIdentifier(inbound)
        inbound.closeFuture.whenComplete { [weak self] _ in
            self?.registry.withLock { registry in
                registry.held[id] = nil
                registry.piped[id] = nil
            }
        }
        // Once active (registration comes after the initializer): a loopback dial may complete at once,
        // and must find it so.
        try inbound.pipeline.syncOperations.addHandler(WhenActive { [weak self] in
            guard let self else { return inbound.close(promise: nil) }
            self.pipe(inbound)
        })
    }

    /// Holds `inbound` until the next node (closing it after ``holdTimeout``), unless a node to dial
    /// (other than `failed`, whose dial just failed) is there by now: then it is piped. Decided under
    /// the lock `retarget` takes, so a node that comes between a caller's look and the hold is never
    /// missed (the connection would have waited out the timeout with a node to go to).
    private func hold(_ inbound: any Channel, except failed: ClusterTarget? = nil) {
        enum Next { case close, pipe, held(Int) }
        let id = ObjectIdentifier(inbound)
        let next = registry.withLock { registry -> Next in
            guard !registry.stopped, inbound.isActive else { return .close }
            if let target = registry.target, target.node != failed { return .pipe }
            registry.holds += 1
            registry.held[id] = (inbound, registry.holds)
            return .held(registry.holds)
        }
        switch next {
        case .close: inbound.close(promise: nil)
        case .pipe: pipe(inbound)
        case .held(let number):
            inbound.eventLoop.scheduleTask(in: Self.holdTimeout) { [weak self] in
                let expired = self?.registry.withLock { registry -> Bool in
                    guard registry.held[id]?.hold == number else { return false }
                    registry.held[id] = nil
                    return true
                }
                if expired == true { inbound.close(promise: nil) }
            }
        }
    }

    /// Dials the node for `inbound` on its event loop, the partner glue in the new connection's pipeline
    /// from the start; `inbound`'s glue is added once that connection is up (a failed dial leaves
    /// `inbound` untouched, held for the next node).
    private func pipe(_ inbound: any Channel) {
        let id = ObjectIdentifier(inbound)
        let target = registry.withLock { registry -> Target? in
            guard !registry.stopped, registry.held[id] == nil else { return nil }
            return registry.target
        }
        guard let target else { return hold(inbound) }
        let (inner, outer) = GlueHandler.matchedPair()
        let boundOuter = NIOLoopBound(outer, eventLoop: inbound.eventLoop)
        let boundInner = NIOLoopBound(inner, eventLoop: inbound.eventLoop)
        let tls = target.tls
        ClientBootstrap(group: inbound.eventLoop)
            .connectTimeout(.seconds(Self.connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(tls.makeHandler()) }
                    try channel.pipeline.syncOperations.addHandler(boundOuter.value)
                }
            }
            .connect(to: target.address)
            .whenComplete { [weak self] result in
                guard let self else { return inbound.close(promise: nil) }
                switch result {
                case .failure(let error):
                    self.logger.info("media tunnel: cannot reach the party's node", metadata: ["error": "\(error)"])
                    self.retry(inbound, after: target)
                case .success(let outbound):
                    self.glue(inbound, to: outbound, inner: boundInner.value, target: target)
                }
            }
    }

    /// A dial to `target` failed: if the node changed meanwhile, dial the new one; else hold.
    private func retry(_ inbound: any Channel, after target: Target) {
        hold(inbound, except: target.node)
    }

    private func glue(_ inbound: any Channel, to outbound: any Channel, inner: GlueHandler, target: Target) {
        let inboundID = ObjectIdentifier(inbound), outboundID = ObjectIdentifier(outbound)
        let kept = registry.withLock { registry -> Bool in
            // A pipe to a node that is not the target any more carries nothing useful.
            guard !registry.stopped, inbound.isActive, registry.target?.node == target.node else { return false }
            registry.piped[inboundID] = inbound
            registry.piped[outboundID] = outbound
            return true
        }
        guard kept else {
            outbound.close(promise: nil)
            inbound.close(promise: nil)
            return
        }
        outbound.closeFuture.whenComplete { [weak self] _ in _ = self?.registry.withLock { $0.piped.removeValue(forKey: outboundID) } }
        do {
            try inbound.pipeline.syncOperations.addHandler(inner)
            inbound.setOption(.autoRead, value: true).whenFailure { _ in inbound.close(promise: nil) }
        } catch {
            outbound.close(promise: nil)
            inbound.close(promise: nil)
        }
    }
}

/// Runs `body` once, when its channel becomes active, and leaves the pipeline.
private final class WhenActive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        body()
    }
}
