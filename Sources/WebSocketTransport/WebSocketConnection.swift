import Logging
import NIOCore
import NIOWebSocket

/// One open WebSocket carrying text messages (and binary ones where the application accepts them), on either side (accepted by ``WebSocketServer`` or made by
/// ``WebSocketClient``).
///
/// All methods are safe from any thread or task and never block: work hops onto the connection's event loop.
/// The connection owns its socket; it closes when either side closes, on a protocol or limit violation,
/// on idle timeout, or when the server stops. ``inbound`` finishes then, and ``closeReason`` says why.
/// Dropping the last reference to a client connection closes it (code 1001); the server keeps its
/// connections until they close or it stops.
public final class WebSocketConnection: Sendable {
    /// The peer's address, e.g. `"127.0.0.1:54321"` or `"[::1]:54321"`.
    public let remoteDescription: String

    /// The HTTP path of the upgrade request (`"/party/ABC"`); for client connections, the path connected to.
    public let requestPath: String

    /// Messages from the peer in arrival order, each stamped with its receive time: text, and binary ones
    /// after ``acceptBinaryMessages()``. Finishes when the connection closes.
    /// Iterate it from one task; cancelling that iteration closes the connection.
    public let inbound: AsyncStream<InboundMessage>

    private let channel: any Channel
    private let handler: NIOLoopBound<WebSocketFrameHandler>
    private let state: ConnectionState

    private init(
        channel: any Channel,
        requestPath: String,
        inbound: AsyncStream<InboundMessage>,
        handler: NIOLoopBound<WebSocketFrameHandler>,
        state: ConnectionState
    ) {
        self.channel = channel
        self.remoteDescription = Self.describe(channel.remoteAddress)
        self.requestPath = requestPath
        self.inbound = inbound
        self.handler = handler
        self.state = state
    }

    deinit {
        let handler = self.handler
        self.channel.eventLoop.execute {
            handler.value.close(code: .goingAway, reason: "", recordedReason: "closed locally: connection released")
        }
    }

    /// Queues one text message. Returns at once; the message is dropped if the connection is closing or closed.
    public func send(_ text: String) {
        self.onLoop { $0.send(text) }
    }

    /// Queues one text message already encoded as UTF-8 (not checked). For one message to many
    /// connections: encode it once and give every connection the same buffer; it is only read, so they
    /// share its bytes (a ``ByteBuffer`` is copy-on-write). Dropped like ``send(_:)``.
    public func send(utf8 text: ByteBuffer) {
        self.onLoop { $0.send(utf8: text) }
    }

    /// Queues text messages already encoded as UTF-8 (not checked), in order: one hop to the event loop
    /// and one flush (one system call) for them all, where ``send(utf8:)`` for each costs one of each.
    /// For the messages one step of the application gives one connection. Dropped like ``send(_:)``.
    public func send(utf8Messages messages: [ByteBuffer]) {
        self.onLoop { $0.send(utf8Messages: messages) }
    }

    /// From now on, answers on the event loop, as they are read, the text messages `answer` returns a
    /// reply for: the reply is sent (flushed with the rest of the read) and the message is not delivered
    /// on ``inbound``. `answer` gets the text and its receive time (as ``InboundMessage/receivedAt``),
    /// runs on the event loop (it must be quick and must not block) and returns nil for a message to be
    /// delivered as usual. Messages are answered only while the peer has sent at most `limitPerSecond`
    /// messages (of any kind) in the current second; past that they are delivered, and each delivered
    /// message counts the answered ones too (``InboundMessage/messagesThisSecond``), so the application's
    /// own flood limit sees them all. Takes effect after everything queued before it (a reply never
    /// overtakes a message sent before this call).
    public func answerInline(limitPerSecond: Int, _ answer: @escaping @Sendable (_ text: String, _ receivedAt: Double) -> String?) {
        self.onLoop { $0.answerInline(limitPerSecond: limitPerSecond, answer) }
    }

    /// From now on, gives every message from the peer to `handle` on the event loop as it is read,
    /// instead of delivering it on ``inbound`` (which then only finishes, when the connection closes).
    /// For many connections in one process (a load generator): no task per connection, no hop.
    /// `handle` must be quick and must not block; messages read before this call takes effect are on
    /// ``inbound``, so call it before the peer has reason to send anything.
    public func handleOnEventLoop(_ handle: @escaping @Sendable (InboundMessage) -> Void) {
        self.onLoop { $0.handleOnEventLoop(handle) }
    }

    /// Queues one binary message (its payload as is). Returns at once; dropped if the connection is
    /// closing or closed. The peer must accept binary messages: a ``WebSocketConnection`` closes with
    /// code 1003 on a binary frame unless its application called ``acceptBinaryMessages()``.
    public func send(binary data: ByteBuffer) {
        self.onLoop { $0.send(binary: data) }
    }

    /// Delivers the peer's binary messages on ``inbound`` from now on (``InboundMessage/binary``);
    /// until this is called, a binary frame closes the connection with code 1003 ("binary frames
    /// are not supported"). Binary messages count against the same limits as text ones
    /// (``WebSocketLimits/maxMessageBytes``, checked on a frame's length before its payload is read).
    /// Takes effect before any message sent after it is written, so a peer that sends binary only
    /// in answer to such a message is never refused.
    public func acceptBinaryMessages() {
        self.onLoop { $0.acceptBinaryMessages() }
    }

    /// Queues one text message made on the event loop just before it is written: `make` gets that
    /// instant (seconds on `CLOCK_MONOTONIC`, like ``InboundMessage/receivedAt``). For timestamps that
    /// must say when a message left (a time ping's t0, a pong's t2), not when it was decided.
    public func send(stampedAt make: @escaping @Sendable (Double) -> String) {
        self.onLoop { $0.send(make(InboundMessage.monotonicNow())) }
    }

    /// Starts the close handshake: sends a close frame with `code` and `reason` (at most 123 UTF-8 bytes
    /// go on the wire) and closes the socket when the peer answers, or after two seconds.
    public func close(code: WebSocketErrorCode = .normalClosure, reason: String = "") {
        let recorded = "closed locally (code \(UInt16(webSocketErrorCode: code))\(reason.isEmpty ? "" : ": \(reason)"))"
        self.onLoop { $0.close(code: code, reason: reason, recordedReason: recorded) }
    }

    /// Why the connection closed or is closing ("peer closed (code 1000)", "message too big (…)",
    /// "idle timeout (…)", "protocol error: …", "flood: …", "connection lost: …"); `nil` while open.
    public var closeReason: String? {
        self.state.reason
    }

    /// Closes because the server is stopping (code 1001).
    func shutdown() {
        self.onLoop { $0.close(code: .goingAway, reason: "server stopping", recordedReason: "server stopping") }
    }

    private func onLoop(_ body: @escaping @Sendable (WebSocketFrameHandler) -> Void) {
        if self.channel.eventLoop.inEventLoop {
            body(self.handler.value)
        } else {
            let handler = self.handler
            self.channel.eventLoop.execute { body(handler.value) }
        }
    }

    /// Adds the WebSocket handlers behind the encoder and decoder NIO's upgrader installed, and returns the
    /// connection. Must run on the channel's event loop, from the upgrader's pipeline callback.
    ///
    /// - Parameter encrypted: The connection has a ``WebSocketSecurity`` layer (TLS) under the frames.
    static func install(
        on channel: any Channel,
        isClient: Bool,
        requestPath: String,
        limits: WebSocketLimits,
        encrypted: Bool,
        state: ConnectionState,
        logger: Logger
    ) throws -> WebSocketConnection {
        let (inbound, continuation) = AsyncStream.makeStream(
            of: InboundMessage.self,
            bufferingPolicy: .bufferingOldest(max(1, limits.maxQueuedMessages))
        )
        var logger = logger
        logger[metadataKey: "ws.peer"] = "\(Self.describe(channel.remoteAddress))"
        let handler = WebSocketFrameHandler(
            isClient: isClient,
            limits: limits,
            state: state,
            continuation: continuation,
            logger: logger
        )
        let sync = channel.pipeline.syncOperations
        let decoder = try sync.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
        try sync.addHandler(WebSocketFrameGuard(expectMaskedFrames: !isClient), position: .after(decoder))
        if encrypted {
            // Over TLS, each flush leaves as one record (``WebSocketWriteCoalescer``).
            let encoder = try sync.handler(type: WebSocketFrameEncoder.self)
            try sync.addHandler(WebSocketWriteCoalescer(), position: .before(encoder))
        }
        try sync.addHandler(
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0,
                maxAccumulatedFrameCount: 1024,
                maxAccumulatedFrameSize: limits.maxMessageBytes
            )
        )
        try sync.addHandler(handler)

        let boundHandler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        continuation.onTermination = { [eventLoop = channel.eventLoop] termination in
            guard case .cancelled = termination else { return }
            eventLoop.execute {
                boundHandler.value.close(
                    code: .goingAway,
                    reason: "",
                    recordedReason: "closed locally: the inbound stream was cancelled"
                )
            }
        }
        logger.debug("WebSocket open", metadata: ["ws.path": "\(requestPath)"])
        return WebSocketConnection(
            channel: channel,
            requestPath: requestPath,
            inbound: inbound,
            handler: boundHandler,
            state: state
        )
    }

    /// `ip:port` (IPv6 in brackets), or a fallback for addresses without a port.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown peer" }
        switch address {
        case .v4:
            return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
        case .v6:
            return "[\(address.ipAddress ?? "?")]:\(address.port ?? 0)"
        case .unixDomainSocket:
            return address.pathname ?? "unix socket"
        }
    }
}
