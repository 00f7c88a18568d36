import Logging
import MediaTime
import NIOCore
import NIOPosix
import NIOSSL
import PartySecurity
import PartyServer
import SyncplayKit
import SyncplayNet
import Synchronization

/// `tandem serve --syncplay [HOST:]PORT`: a Syncplay server on a TCP port whose rooms are the
/// parties of a ``PartyServerRunner`` in this process. Each Syncplay client is a
/// ``SyncplayGatewayClient``: an in-process member of its party, named "NAME (Syncplay)"
/// (docs/syncplay.md). With a TLS context (the party server's identity) a client asking for
/// STARTTLS gets it, as from Syncplay's server with `--tls`; without one it is told "false" and
/// goes on in plain text.
public final class SyncplayGatewayServer: Sendable {
    /// Clients at once; one more is told so and closed. Each costs a member, a task and a timer.
    public static let maxClients = 512

    private let channel: any Channel
    private let clients: Registry

    /// The port it listens on.
    public var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel, clients: Registry) {
        self.channel = channel
        self.clients = clients
    }

    /// Listens on `host:port` (0: any free port) for Syncplay clients of `parties`' parties;
    /// `tls` (the party server's identity) for STARTTLS. For `partyGrace` seconds from now a room
    /// naming no party is hung up on without an `Error`, so that its client retries while the
    /// party's host re-creates it after a restart (``SyncplayRestartGrace``; 0: refused at once).
    public static func start(host: String, port: Int, parties: PartyServerRunner, tls: NIOSSLContext? = nil,
                             partyGrace: Double = SyncplayRestartGrace.standardLength,
                             logger: Logger) async throws -> SyncplayGatewayServer {
        let clients = Registry()
        let grace = SyncplayRestartGrace(started: MonotonicTimeSource().now(), length: partyGrace)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                let peer = describe(child.remoteAddress)
                guard clients.count < maxClients else {
                    logger.warning("syncplay gateway full: refused", metadata: ["peer": "\(peer)"])
                    return child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(Refuser(reason: "the gateway has \(maxClients) clients already"))
                    }
                }
                let client = SyncplayGatewayClient(channel: child, peer: peer, parties: parties, tls: tls, grace: grace,
                                                   logger: logger) { clients.remove($0) }
                clients.add(client)
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        SyncplayLineHandler(maxLineBytes: SyncplayCodec.maxLineBytes, answersRefusals: true) { client.deliver($0) })
                }
            }
            .bind(host: host, port: port).get()
        logger.info("syncplay gateway listening", metadata: ["port": "\(channel.localAddress?.port ?? 0)"])
        return SyncplayGatewayServer(channel: channel, clients: clients)
    }

    /// A client's address as `IP:PORT`, IPv6 in brackets (`[::1]:PORT`): what its wrong passwords are
    /// counted by (``WrongKeyLimiter/source(ofPeer:)``, which takes the address without the port — of
    /// an IPv6 address only in brackets: a bare one would count every connection apart).
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return "?" }
        if case .v6 = address { return "[\(ip)]:\(address.port ?? 0)" }
        return "\(ip):\(address.port ?? 0)"
    }

    /// Clients connected now.
    public var clientCount: Int { clients.count }

    /// Stops taking new clients; those connected stay (a draining party server tells them it is
    /// restarting, as every member). A client connecting from now on is refused by the system.
    public func stopListening() async {
        try? await channel.close()
    }

    /// Stops listening and closes every client (each member leaves its party).
    public func stop() async {
        try? await channel.close()
        for client in clients.all { client.close() }
        for client in clients.all { await client.finished() }
    }

    /// Tells a client it cannot be served, once connected, and closes.
    private final class Refuser: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let reason: String
        init(reason: String) { self.reason = reason }

        func channelActive(context: ChannelHandlerContext) {
            let channel = context.channel
            channel.writeAndFlush(channel.allocator.buffer(string: SyncplayCodec.encodeLine(.error(reason))), promise: nil)
            SyncplayLingeringClose.close(channel)
            context.fireChannelActive()
        }
    }

    private final class Registry: Sendable {
        private let clients = Mutex<[ObjectIdentifier: SyncplayGatewayClient]>([:])
        func add(_ client: SyncplayGatewayClient) { clients.withLock { $0[ObjectIdentifier(client)] = client } }
        func remove(_ client: SyncplayGatewayClient) { _ = clients.withLock { $0.removeValue(forKey: ObjectIdentifier(client)) } }
        var all: [SyncplayGatewayClient] { clients.withLock { Array($0.values) } }
        var count: Int { clients.withLock { $0.count } }
    }
}
