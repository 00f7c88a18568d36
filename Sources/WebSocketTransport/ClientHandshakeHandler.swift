import Logging
import NIOCore
import NIOHTTP1

/// Client side of the HTTP upgrade: sends the GET request when the TCP connection is up, and turns every
/// way the upgrade can fail (non-101 answer, bad accept key, garbage, silence, hang-up) into a
/// ``WebSocketTransportError`` on `promise`. Removed from the pipeline when the upgrade starts; the
/// upgrade callback then completes the promise through ``succeed(_:)``.
///
/// The promise is dropped once completed, so nothing here keeps the connection alive afterwards.
final class ClientHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "tandem.ws.client-handshake"

    private let address: String
    private let path: String
    private let timeout: Double
    /// Describes its own failures (TLS handshakes) for the error.
    private let tls: (any WebSocketSecurity)?
    private var promise: EventLoopPromise<WebSocketConnection>?
    private let state: ConnectionState
    private var timeoutTask: Scheduled<Void>?

    init(
        address: String,
        path: String,
        timeout: Double,
        tls: (any WebSocketSecurity)?,
        state: ConnectionState,
        promise: EventLoopPromise<WebSocketConnection>
    ) {
        self.state = state
        self.address = address
        self.path = path
        self.timeout = timeout
        self.tls = tls
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.begin(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.timeoutTask?.cancel()
        self.timeoutTask = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        self.begin(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.fail(
            channel: context.channel,
            .connectionFailed,
            "\(self.address) closed the connection during the WebSocket upgrade",
            alreadyClosed: true
        )
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only reached when the upgrade handler did not take the response.
        guard case .head(let head) = Self.unwrapInboundIn(data) else { return }
        let status = "HTTP \(head.status.code)\(head.status.reasonPhrase.isEmpty ? "" : " \(head.status.reasonPhrase)")"
        self.fail(context: context, .upgradeRejected, "\(self.address) did not answer the WebSocket upgrade of \(self.path) (\(status))")
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let reason = self.tls?.describe(error, address: self.address) {
            self.fail(context: context, .tlsFailed, reason)
            return
        }
        let reason: String
        switch error {
        case let error as NIOHTTPClientUpgradeError where error == .upgraderDeniedUpgrade:
            reason = "\(self.address) answered the WebSocket upgrade with a wrong Sec-WebSocket-Accept key"
        case let error as NIOHTTPClientUpgradeError where error == .responseProtocolNotFound:
            reason = "\(self.address) switched protocols, but not to WebSocket"
        case is HTTPParserError:
            reason = "\(self.address) did not answer the WebSocket upgrade with HTTP (\(error))"
        default:
            reason = "WebSocket upgrade with \(self.address) failed: \(error)"
        }
        self.fail(context: context, .upgradeRejected, reason)
    }

    private func begin(context: ChannelHandlerContext) {
        guard self.timeoutTask == nil else { return }
        let seconds = self.timeout
        self.timeoutTask = context.eventLoop.assumeIsolated().scheduleTask(
            in: Seconds.timeAmount(seconds)
        ) {
            self.fail(
                context: context,
                .timedOut,
                "\(self.address) did not complete the WebSocket upgrade within \(Seconds.text(seconds)) s"
            )
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: self.address)
        headers.add(name: "User-Agent", value: "Tandem")
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: self.path, headers: headers)
        context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Completes the connect call with the upgraded connection.
    func succeed(_ connection: WebSocketConnection) {
        self.promise?.succeed(connection)
        self.promise = nil
    }

    /// Fails the connect call if it is still pending and closes the channel unless `alreadyClosed`.
    func fail(channel: any Channel, _ kind: WebSocketTransportError.Kind, _ message: String, alreadyClosed: Bool = false) {
        self.timeoutTask?.cancel()
        self.timeoutTask = nil
        guard let promise = self.promise else { return }
        self.promise = nil
        self.state.record(message)
        promise.fail(WebSocketTransportError(kind, message))
        if !alreadyClosed { self.state.close(channel) }
    }

    private func fail(context: ChannelHandlerContext, _ kind: WebSocketTransportError.Kind, _ message: String) {
        self.fail(channel: context.channel, kind, message)
    }
}

@available(*, unavailable)
extension ClientHandshakeHandler: Sendable {}
