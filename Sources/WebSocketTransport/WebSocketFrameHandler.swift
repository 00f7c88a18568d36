import Logging
import NIOCore
import NIOWebSocket

/// The last handler of an upgraded connection: turns aggregated text frames into strings on the inbound
/// stream, answers pings, sends keep-alive pings, enforces the idle timeout and runs the close handshake.
///
/// Everything here runs on the channel's event loop; ``WebSocketConnection`` reaches it through a
/// `NIOLoopBound`.
final class WebSocketFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum Phase {
        /// Messages flow both ways.
        case open
        /// A close frame went out; waiting for the peer's close frame or EOF, then the channel closes.
        case closing
        /// The channel was closed or is gone.
        case closed
    }

    /// How long to wait for the peer to finish the close handshake before dropping the TCP connection.
    static let closeHandshakeTimeout = TimeAmount.seconds(2)

    private let isClient: Bool
    private let limits: WebSocketLimits
    private let state: ConnectionState
    private let continuation: AsyncStream<InboundMessage>.Continuation
    private let logger: Logger

    private var context: ChannelHandlerContext?
    private var phase = Phase.open
    private var lastActivity = NIODeadline.now()
    private var pingTask: Scheduled<Void>?
    private var idleTask: Scheduled<Void>?
    private var closeTimeoutTask: Scheduled<Void>?

    init(
        isClient: Bool,
        limits: WebSocketLimits,
        state: ConnectionState,
        continuation: AsyncStream<InboundMessage>.Continuation,
        logger: Logger
    ) {
        self.isClient = isClient
        self.limits = limits
        self.state = state
        self.continuation = continuation
        self.logger = logger
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        self.lastActivity = .now()
        if context.channel.isActive {
            self.startTimers(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.cancelTimers()
        self.closeTimeoutTask?.cancel()
        self.closeTimeoutTask = nil
        self.context = nil
        self.finishInbound()
    }

    func channelActive(context: ChannelHandlerContext) {
        self.startTimers(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.phase = .closed
        self.cancelTimers()
        self.closeTimeoutTask?.cancel()
        self.closeTimeoutTask = nil
        self.state.record("connection lost: the peer closed TCP without a WebSocket close frame")
        self.finishInbound()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        self.lastActivity = .now()

        guard case .open = self.phase else {
            if frame.opcode == .connectionClose, case .closing = self.phase {
                self.logger.trace("close handshake complete")
                self.closeChannel(context: context)
            }
            return
        }

        switch frame.opcode {
        case .text:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                self.fail(context: context, code: .dataInconsistentWithMessage, reason: "text message is not valid UTF-8")
                return
            }
            switch self.continuation.yield(InboundMessage(text: text, receivedAt: InboundMessage.monotonicNow())) {
            case .dropped:
                self.fail(
                    context: context,
                    code: .policyViolation,
                    wireReason: "flood",
                    reason: "flood: more than \(self.limits.maxQueuedMessages) received messages waiting unread"
                )
            case .enqueued, .terminated:
                break
            @unknown default:
                break
            }
        case .binary:
            self.fail(context: context, code: .unacceptableData, reason: "binary frames are not supported")
        case .ping:
            let pong = self.makeFrame(opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        case .connectionClose:
            self.peerClosed(context: context, frame: frame)
        default:
            self.fail(context: context, code: .protocolError, reason: "unexpected frame opcode \(frame.opcode)")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case WebSocketFrameGuard.Violation.messageTooBig(let bytes, let limit):
            self.fail(
                context: context,
                code: .messageTooLarge,
                reason: "message too big (\(bytes) bytes > \(limit))"
            )
        case WebSocketFrameGuard.Violation.protocolViolation(let what):
            self.fail(context: context, code: .protocolError, reason: "protocol error: \(what)")
        case NIOWebSocketError.invalidFrameLength:
            self.fail(
                context: context,
                code: .messageTooLarge,
                reason: "message too big (> \(self.limits.maxMessageBytes) bytes)"
            )
        case let error as NIOWebSocketError:
            self.fail(context: context, code: .protocolError, reason: "protocol error: \(error)")
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            self.fail(
                context: context,
                code: .messageTooLarge,
                reason: "message too big (> \(self.limits.maxMessageBytes) bytes)"
            )
        case let error as NIOWebSocketFrameAggregator.Error:
            self.fail(context: context, code: .protocolError, reason: "protocol error: fragmentation (\(error))")
        default:
            self.state.record("connection error: \(error)")
            self.logger.debug("connection error", metadata: ["error": "\(error)"])
            self.closeChannel(context: context)
        }
    }

    // MARK: Called through WebSocketConnection (on the event loop)

    /// Sends one text message; dropped when the connection is closing or closed.
    func send(_ text: String) {
        guard case .open = self.phase, let context = self.context else { return }
        guard context.channel.isWritable else {
            self.fail(
                context: context,
                code: .policyViolation,
                wireReason: "too slow",
                reason: "peer too slow: more than \(Self.outboundHighWatermark(self.limits)) bytes waiting to be sent"
            )
            return
        }
        let frame = self.makeFrame(opcode: .text, data: context.channel.allocator.buffer(string: text))
        context.writeAndFlush(Self.wrapOutboundOut(frame), promise: nil)
    }

    /// Starts the close handshake on behalf of the application.
    func close(code: WebSocketErrorCode, reason: String, recordedReason: String) {
        guard case .open = self.phase, let context = self.context else { return }
        self.state.record(recordedReason)
        self.logger.debug("closing", metadata: ["reason": "\(recordedReason)"])
        self.startClosing(context: context, code: code, wireReason: reason)
    }

    // MARK: Closing

    /// Fails the connection: records `reason`, sends a close frame with `code` and closes.
    private func fail(context: ChannelHandlerContext, code: WebSocketErrorCode, wireReason: String? = nil, reason: String) {
        self.state.record(reason)
        guard case .open = self.phase else { return }
        self.logger.notice("closing WebSocket", metadata: ["reason": "\(reason)"])
        self.startClosing(context: context, code: code, wireReason: wireReason ?? reason)
    }

    /// Sends a close frame, half-closes our side and waits a bounded time for the peer to finish.
    private func startClosing(context: ChannelHandlerContext, code: WebSocketErrorCode, wireReason: String) {
        self.phase = .closing
        self.cancelTimers()
        var data = context.channel.allocator.buffer(capacity: 2 + min(wireReason.utf8.count, 123))
        data.write(webSocketErrorCode: code)
        data.writeString(Self.truncatedUTF8(wireReason, maxBytes: 123))
        context.writeAndFlush(Self.wrapOutboundOut(self.makeFrame(opcode: .connectionClose, data: data)), promise: nil)
        // Sending FIN after the close frame lets the peer see both even if it is still sending to us.
        context.close(mode: .output, promise: nil)
        self.closeTimeoutTask = context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeHandshakeTimeout) {
            self.state.record("close handshake timed out")
            self.closeChannel(context: context)
        }
    }

    /// The peer sent a close frame first: echo its code and close.
    private func peerClosed(context: ChannelHandlerContext, frame: WebSocketFrame) {
        var data = frame.unmaskedData
        let code = data.readWebSocketErrorCode()
        let text = data.readString(length: data.readableBytes) ?? ""
        var reason = "peer closed"
        if let code {
            reason += " (code \(UInt16(webSocketErrorCode: code))\(text.isEmpty ? "" : ": \(text)"))"
        }
        self.state.record(reason)
        self.logger.debug("peer closed", metadata: ["reason": "\(reason)"])
        self.phase = .closing
        self.cancelTimers()
        var echo = context.channel.allocator.buffer(capacity: 2)
        if let code { echo.write(webSocketErrorCode: code) }
        context.writeAndFlush(Self.wrapOutboundOut(self.makeFrame(opcode: .connectionClose, data: echo)))
            .assumeIsolated()
            .whenComplete { _ in self.closeChannel(context: context) }
    }

    private func closeChannel(context: ChannelHandlerContext) {
        if case .closed = self.phase { return }
        self.phase = .closed
        self.cancelTimers()
        self.closeTimeoutTask?.cancel()
        self.closeTimeoutTask = nil
        self.state.close(context.channel)
    }

    private func finishInbound() {
        self.continuation.finish()
    }

    // MARK: Timers

    private func startTimers(context: ChannelHandlerContext) {
        guard case .open = self.phase, self.pingTask == nil, self.idleTask == nil else { return }
        if self.limits.pingInterval > 0 {
            self.schedulePing(context: context)
        }
        if let idle = self.limits.idleTimeout, idle > 0 {
            self.scheduleIdleCheck(context: context, in: Self.timeAmount(seconds: idle))
        }
    }

    private func schedulePing(context: ChannelHandlerContext) {
        let interval = Self.timeAmount(seconds: self.limits.pingInterval)
        self.pingTask = context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
            guard case .open = self.phase else { return }
            let ping = self.makeFrame(opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
            context.writeAndFlush(Self.wrapOutboundOut(ping), promise: nil)
            self.schedulePing(context: context)
        }
    }

    private func scheduleIdleCheck(context: ChannelHandlerContext, in delay: TimeAmount) {
        self.idleTask = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            guard case .open = self.phase, let idle = self.limits.idleTimeout else { return }
            let timeout = Self.timeAmount(seconds: idle)
            let quiet = NIODeadline.now() - self.lastActivity
            if quiet >= timeout {
                self.fail(
                    context: context,
                    code: .goingAway,
                    wireReason: "idle timeout",
                    reason: "idle timeout (no frame for \(Self.formatSeconds(idle)) s)"
                )
            } else {
                self.scheduleIdleCheck(context: context, in: timeout - quiet)
            }
        }
    }

    private func cancelTimers() {
        self.pingTask?.cancel()
        self.pingTask = nil
        self.idleTask?.cancel()
        self.idleTask = nil
    }

    // MARK: Helpers

    private func makeFrame(opcode: WebSocketOpcode, data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: self.isClient ? .random() : nil, data: data)
    }

    /// The outbound buffer size above which a peer counts as not reading.
    static func outboundHighWatermark(_ limits: WebSocketLimits) -> Int {
        max(1 << 20, 4 * limits.maxMessageBytes)
    }

    static func timeAmount(seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(max(seconds, 0), 1e9) * 1e9))
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }

    private static func truncatedUTF8(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            result.append(character)
            used += size
        }
        return result
    }
}

@available(*, unavailable)
extension WebSocketFrameHandler: Sendable {}
