import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import WebSocketTransport

/// A loopback door to the party server's media through the member's TLS: libavformat's https cannot
/// pin a certificate, so a guest opens `http://127.0.0.1:PORT/party/ID/media/N` (with its media token
/// header, as always) and every connection accepted here is piped byte for byte over a new TLS
/// connection to the party server, verified exactly like the party connection (``ServerTrust``).
///
/// A byte pipe, not an HTTP client: requests, ranges and keep-alive pass through untouched. Only
/// 127.0.0.1 can reach it, and the server still wants the media token. Owned by the member runner,
/// which stops it when the member ends.
public final class PinnedTunnel: Sendable {
    private struct Registry {
        var listener: (any Channel)?
        /// The server's address, found once by ``start()``: every piped connection dials exactly it (one
        /// socket per connection, no address racing, so the glue has one partner).
        var server: SocketAddress?
        var children: [ObjectIdentifier: any Channel] = [:]
        var stopped = false
    }

    /// Seconds allowed to open the TLS connection to the server for one accepted connection.
    static let connectTimeout: Int64 = 10

    private let host: String
    private let port: Int
    private let tls: WebSocketClientTLS
    private let logger: Logger
    private let registry = Mutex(Registry())

    /// A stopped tunnel to `host:port` with `tls` (see ``ServerTrust``).
    init(host: String, port: Int, tls: WebSocketClientTLS, logger: Logger) {
        self.host = host
        self.port = port
        self.tls = tls
        self.logger = logger
    }

    /// A tunnel verifying the server as `trust` says; nil for an insecure party (media is plain HTTP then).
    public static func make(host: String, port: Int, trust: ServerTrust, logger: Logger) throws -> PinnedTunnel? {
        guard let made = try trust.clientTLS(host: host) else { return nil }
        return PinnedTunnel(host: host, port: port, tls: made.tls, logger: logger)
    }

    deinit {
        let (listener, children) = registry.withLock { ($0.listener, Array($0.children.values)) }
        listener?.close(promise: nil)
        children.forEach { $0.close(promise: nil) }
    }

    /// Listens on 127.0.0.1 on a free port; returns the origin to open media at, `http://127.0.0.1:PORT`.
    public func start() async throws -> String {
        let host = self.host, port = self.port
        // The address is the one a plain TCP connection reaches first, NIO's Happy Eyeballs racing every
        // address the name resolves to (IPv6 and IPv4): the first resolved one may not answer.
        let server: SocketAddress
        do {
            let probe = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(Self.connectTimeout))
                .connect(host: host, port: port).get()
            defer { probe.close(promise: nil) }
            guard let reached = probe.remoteAddress else { throw SecurityError.probe("no address") }
            server = reached
        } catch {
            throw SecurityError.probe("cannot reach the party server \(host):\(port): \(error)")
        }
        registry.withLock { $0.server = server }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
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

    /// Stops listening and closes every piped connection.
    public func stop() async {
        let (listener, children) = registry.withLock { registry in
            registry.stopped = true
            defer { registry.listener = nil; registry.children = [:] }
            return (registry.listener, Array(registry.children.values))
        }
        try? await listener?.close()
        for child in children { try? await child.close() }
    }

    private func track(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let kept = registry.withLock { registry in
            guard !registry.stopped else { return false }
            registry.children[id] = channel
            return true
        }
        guard kept else { return false }
        channel.closeFuture.whenComplete { [weak self] _ in _ = self?.registry.withLock { $0.children.removeValue(forKey: id) } }
        return true
    }

    /// One accepted loopback connection: its glue is there from the start and holds every read back until
    /// its partner exists (so nothing is read before it can go anywhere); the TLS connection to the server
    /// is dialled on the same event loop with the partner glue in its pipeline from the start, so each side
    /// sees every event of the other.
    private func accept(_ inbound: any Channel) throws {
        guard track(inbound), let server = registry.withLock({ $0.server }) else { return inbound.close(promise: nil) }
        let (inner, outer) = GlueHandler.matchedPair()
        try inbound.pipeline.syncOperations.addHandler(inner)
        let tls = self.tls
        let logger = self.logger
        let boundOuter = NIOLoopBound(outer, eventLoop: inbound.eventLoop)
        ClientBootstrap(group: inbound.eventLoop)
            .connectTimeout(.seconds(Self.connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(tls.makeHandler())
                    try channel.pipeline.syncOperations.addHandler(boundOuter.value)
                }
            }
            .connect(to: server)
            .whenComplete { [weak self] result in
                switch result {
                case .failure(let error):
                    logger.info("media tunnel: cannot reach the party server", metadata: ["error": "\(error)"])
                    inbound.close(promise: nil)
                case .success(let outbound):
                    // The accepted side may not be active yet; if it closes, its glue closes this one.
                    guard self?.track(outbound) == true else {
                        outbound.close(promise: nil)
                        inbound.close(promise: nil)
                        return
                    }
                }
            }
    }
}
