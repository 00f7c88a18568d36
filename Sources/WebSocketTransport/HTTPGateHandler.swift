import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Decides what becomes of the first HTTP request on a server connection that did not become a WebSocket.
///
/// Without a responder: 404 for other paths, 426 or 400 for the WebSocket path without a valid upgrade,
/// then closes. With a responder: a failed WebSocket upgrade of the WebSocket path still gets the 400;
/// any other request hands the connection over (see ``handOver(context:head:responder:)``). Also drops
/// connections that are neither upgraded nor handed over within the handshake timeout. Removed from the
/// pipeline when the upgrade succeeds or the connection is handed over.
final class HTTPGateHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "tandem.ws.http-gate"

    private let path: String
    private let responder: (any HTTPResponder)?
    private let handshakeTimeout: Double
    private let state: ConnectionState
    private let logger: Logger
    private var timeoutTask: Scheduled<Void>?
    private var responded = false

    init(
        path: String,
        responder: (any HTTPResponder)?,
        handshakeTimeout: Double,
        state: ConnectionState,
        logger: Logger
    ) {
        self.path = path
        self.responder = responder
        self.handshakeTimeout = handshakeTimeout
        self.state = state
        self.logger = logger
    }

    /// Whether `uri` (path plus optional query) is `base` or lies below it: `/party` matches `/party`,
    /// `/party/ABC` and `/party?x=1`, not `/partyx`; `/` matches everything.
    static func matches(uri: String, base: String) -> Bool {
        let path = Self.pathOnly(uri)
        if base == "/" || path == base { return true }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix)
    }

    /// The path of a request target without query or fragment.
    static func pathOnly(_ uri: String) -> String {
        String(uri.prefix { $0 != "?" && $0 != "#" })
    }

    /// Whether `head` asked for a WebSocket upgrade (`Upgrade: websocket`, any case, possibly among
    /// other protocols) of a path below `base`. Seen here only when that upgrade failed.
    static func isWebSocketUpgrade(_ head: HTTPRequestHead, base: String) -> Bool {
        Self.matches(uri: head.uri, base: base)
            && head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard self.handshakeTimeout > 0 else { return }
        let seconds = self.handshakeTimeout
        self.timeoutTask = context.eventLoop.assumeIsolated().scheduleTask(
            in: Seconds.timeAmount(seconds)
        ) {
            self.state.record("no WebSocket upgrade within \(Seconds.text(seconds)) s")
            self.logger.debug("dropping connection without upgrade")
            self.state.close(context.channel)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.timeoutTask?.cancel()
        self.timeoutTask = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = Self.unwrapInboundIn(data), !self.responded else { return }
        self.responded = true
        if let responder = self.responder, !Self.isWebSocketUpgrade(head, base: self.path) {
            self.handOver(context: context, head: head, responder: responder)
            return
        }
        let status: HTTPResponseStatus
        let body: String
        if !Self.matches(uri: head.uri, base: self.path) {
            status = .notFound
            body = "no WebSocket endpoint at \(Self.pathOnly(head.uri))\n"
        } else if head.headers.contains(name: "upgrade") {
            status = .badRequest
            body = "invalid WebSocket upgrade request\n"
        } else {
            status = .upgradeRequired
            body = "this is a WebSocket endpoint\n"
        }
        self.state.record("HTTP \(status.code) for \(head.method) \(head.uri)")
        self.logger.debug("refusing HTTP request", metadata: ["status": "\(status.code)", "uri": "\(head.uri)"])
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        if status == .upgradeRequired {
            headers.add(name: "Upgrade", value: "websocket")
        }
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.state.close(context.channel)
        }
    }

    /// Puts the responder's handler right behind this one, passes it the request head, and leaves the
    /// pipeline (which cancels the handshake timeout). The rest of the request and every later request on
    /// the connection reach the responder's handler directly. NIO's upgrade handler, when it held the
    /// head back while it considered an upgrade, delivers the head first and the parts it kept after it,
    /// so they arrive in order either way.
    private func handOver(context: ChannelHandlerContext, head: HTTPRequestHead, responder: any HTTPResponder) {
        let handler = responder.makeHandler(remoteAddress: context.channel.remoteAddress)
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandler(handler, position: .after(self))
        } catch {
            self.state.record("HTTP responder setup failed: \(error)")
            self.logger.debug("dropping connection", metadata: ["error": "\(error)"])
            self.state.close(context.channel)
            return
        }
        self.logger.trace("HTTP request handed to the responder", metadata: ["uri": "\(head.uri)"])
        context.fireChannelRead(Self.wrapInboundOut(.head(head)))
        pipeline.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A refused upgrade (wrong path, bad headers) is followed by the request head, which gets an answer.
        if error is NIOWebSocketUpgradeError { return }
        self.state.record("bad HTTP request: \(error)")
        self.logger.debug("dropping connection", metadata: ["error": "\(error)"])
        self.state.close(context.channel)
    }
}

@available(*, unavailable)
extension HTTPGateHandler: Sendable {}
