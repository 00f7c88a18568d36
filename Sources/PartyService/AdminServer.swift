import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The admin port: `GET /healthz` (200 `ok`, 503 `draining` once a restart has begun) and
/// `GET /metrics` (Prometheus' text format). Plain HTTP, meant for loopback or a private network:
/// it shows no party, member or key. One request per connection; anything else is 404 or 405.
public final class AdminServer: Sendable {
    /// A scraper or probe that says nothing for this long is dropped (no slow-loris on the port).
    static let idleTimeout = TimeAmount.seconds(10)

    private let metrics: ServerMetrics
    private let draining = Atomic<Bool>(false)
    private let channel = Mutex<(any Channel)?>(nil)
    private let group: any EventLoopGroup
    private let logger: Logger

    public init(metrics: ServerMetrics, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) {
        self.metrics = metrics
        self.group = group
        self.logger = logger
    }

    /// From now on `/healthz` answers 503, so a load balancer stops sending members here.
    public func startDraining() { draining.store(true, ordering: .relaxed) }

    /// Listens on `host:port`; returns the bound port.
    public func start(host: String, port: Int) async throws -> Int {
        let metrics = metrics
        let draining: @Sendable () -> Bool = { [self] in self.draining.load(ordering: .relaxed) }
        let bound = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: Self.idleTimeout))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(AdminRequestHandler(metrics: metrics, draining: draining))
                }
            }
            .bind(host: host, port: port).get()
        channel.withLock { $0 = bound }
        let actual = bound.localAddress?.port ?? port
        logger.info("admin port listening", metadata: ["port": "\(actual)"])
        return actual
    }

    public func stop() async {
        guard let bound = channel.withLock({ c in defer { c = nil }; return c }) else { return }
        try? await bound.close()
    }
}

/// Answers one admin request.
final class AdminRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: ServerMetrics
    private let draining: @Sendable () -> Bool
    private var head: HTTPRequestHead?

    init(metrics: ServerMetrics, draining: @escaping @Sendable () -> Bool) {
        self.metrics = metrics
        self.draining = draining
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break  // nothing here takes a body
        case .end:
            guard let head else { return }
            self.head = nil
            let (status, type, body) = answer(head)
            var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", "\(body.count)"), ("Connection", "close")])
            if status == .methodNotAllowed { headers.add(name: "Allow", value: "GET, HEAD") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let closed = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in closed.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) } else { context.fireUserInboundEventTriggered(event) }
    }

    private func answer(_ head: HTTPRequestHead) -> (HTTPResponseStatus, String, [UInt8]) {
        guard head.method == .GET || head.method == .HEAD else { return (.methodNotAllowed, "text/plain", Array("method not allowed\n".utf8)) }
        switch head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri {
        case "/healthz":
            return draining() ? (.serviceUnavailable, "text/plain", Array("draining\n".utf8)) : (.ok, "text/plain", Array("ok\n".utf8))
        case "/metrics":
            return (.ok, "text/plain; version=0.0.4; charset=utf-8", metrics.exposition())
        default:
            return (.notFound, "text/plain", Array("not found\n".utf8))
        }
    }
}
