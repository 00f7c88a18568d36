import Logging
import NIOCore
import NIOWebSocket

/// The last handler of an upgraded connection: turns channel events into ``WebSocketLifecycle`` events
/// and performs the actions it returns. Delivers text messages to the inbound stream (stamped with the
/// time they were read, here on the event loop) and, once the application accepts them, binary ones;
/// answers pings, and runs the timers the lifecycle asks for.
///
/// Everything here runs on the channel's event loop; ``WebSocketConnection`` reaches it through a
/// `NIOLoopBound`.
final class WebSocketFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The longest close reason a close frame carries: a control frame's payload is at most 125 bytes,
    /// two of which are the code (RFC 6455 §5.5).
    static let maxWireReasonBytes = 123

    private let isClient: Bool
    private let state: ConnectionState
    private let continuation: AsyncStream<InboundMessage>.Continuation
    private let logger: Logger

    private var lifecycle: WebSocketLifecycle
    /// Whether binary messages are delivered (after ``acceptBinaryMessages()``) rather than closing
    /// the connection with 1003.
    private var acceptsBinary = false
    private var context: ChannelHandlerContext?
    private var pingTask: Scheduled<Void>?
    private var idleTask: Scheduled<Void>?
    private var closeTimeoutTask: Scheduled<Void>?
    /// Answers some text messages here, as they are read (``answerInline(limitPerSecond:_:)``).
    private var inline: InlineAnswers?
    /// The peer's messages per second, answered or delivered (``InboundMessage/messagesThisSecond``).
    private var window = MessageWindow()
    /// Takes every message here, as it is read, instead of the inbound stream (``handleOnEventLoop(_:)``).
    private var handleHere: (@Sendable (InboundMessage) -> Void)?
    /// Frames written but not flushed yet: the end of the read (or of the batch) flushes them all at once.
    private var flushPending = false

    init(
        isClient: Bool,
        limits: WebSocketLimits,
        state: ConnectionState,
        continuation: AsyncStream<InboundMessage>.Continuation,
        logger: Logger
    ) {
        self.isClient = isClient
        self.state = state
        self.continuation = continuation
        self.logger = logger
        self.lifecycle = WebSocketLifecycle(limits: limits, now: .now())
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive {
            self.perform(self.lifecycle.activated(at: .now()), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.perform(self.lifecycle.handlerRemoved(), context: context)
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        self.perform(self.lifecycle.activated(at: .now()), context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.perform(self.lifecycle.channelInactive(), context: context)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        if frame.opcode == .connectionClose {
            var payload = frame.unmaskedData
            let code = payload.readWebSocketErrorCode()
            let text = payload.readString(length: payload.readableBytes) ?? ""
            self.perform(self.lifecycle.closeFrameReceived(code: code, text: text, at: .now()), context: context)
            return
        }
        guard case .handleFrame = self.lifecycle.frameReceived(at: .now()) else { return }
        switch frame.opcode {
        case .text:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                self.perform(self.lifecycle.violated(.invalidUTF8), context: context)
                return
            }
            let receivedAt = InboundMessage.monotonicNow()
            let count = self.window.counted(at: receivedAt)
            if self.answeredInline(text, receivedAt: receivedAt, messagesThisSecond: count, context: context) { return }
            let message = InboundMessage(text: text, receivedAt: receivedAt, messagesThisSecond: count)
            if let handleHere = self.handleHere {
                handleHere(message)
                return
            }
            if case .dropped = self.continuation.yield(message) {
                self.perform(self.lifecycle.violated(.flood), context: context)
            }
        case .binary:
            guard self.acceptsBinary else {
                self.perform(self.lifecycle.violated(.binaryMessage), context: context)
                return
            }
            let receivedAt = InboundMessage.monotonicNow()
            let message = InboundMessage(binary: frame.unmaskedData, receivedAt: receivedAt,
                                         messagesThisSecond: self.window.counted(at: receivedAt))
            if let handleHere = self.handleHere {
                handleHere(message)
                return
            }
            if case .dropped = self.continuation.yield(message) {
                self.perform(self.lifecycle.violated(.flood), context: context)
            }
        case .ping:
            self.write(opcode: .pong, data: frame.unmaskedData, context: context)
        case .pong:
            break
        default:
            self.perform(self.lifecycle.violated(.protocolError("unexpected frame opcode \(frame.opcode)")), context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        self.flushIfPending(context: context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let action: WebSocketLifecycle.Action
        switch error {
        case WebSocketFrameGuard.Violation.protocolError(let detail):
            action = self.lifecycle.violated(.protocolError(detail))
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            action = self.lifecycle.violated(.messageTooBig)
        case let error as NIOWebSocketError:
            action = self.lifecycle.violated(.protocolError("\(error)"))
        case let error as NIOWebSocketFrameAggregator.Error:
            action = self.lifecycle.violated(.protocolError("fragmentation (\(error))"))
        case ByteToMessageDecoderError.dataReceivedInErrorState:
            // The rest of a frame the decoder refused (the violation already started the close).
            action = self.lifecycle.violated(.protocolError("bytes after a framing error"))
        default:
            action = self.lifecycle.connectionFailed("\(error)")
        }
        self.perform(action, context: context)
    }

    // MARK: Called through WebSocketConnection (on the event loop)

    /// Sends one text message; dropped when the connection is closing or closed.
    func send(_ text: String) {
        guard let context = self.context else { return }
        self.send(utf8: context.channel.allocator.buffer(string: text))
    }

    /// Sends one text message already encoded as UTF-8; dropped like ``send(_:)``.
    func send(utf8 data: ByteBuffer) {
        guard let context = self.context else { return }
        self.send(opcode: .text, data: data, context: context)
    }

    /// Sends text messages already encoded as UTF-8, in order, with one flush (one system call) for them all.
    func send(utf8Messages messages: [ByteBuffer]) {
        guard let context = self.context else { return }
        for data in messages { self.send(opcode: .text, data: data, context: context, flush: false) }
        self.flushIfPending(context: context)
    }

    /// From now on, answers the text messages `answer` has a reply for, here as they are read.
    func answerInline(limitPerSecond: Int, _ answer: @escaping @Sendable (String, Double) -> String?) {
        self.inline = InlineAnswers(answer: answer, limitPerSecond: limitPerSecond)
    }

    /// From now on, gives every message to `handle` here instead of the inbound stream.
    func handleOnEventLoop(_ handle: @escaping @Sendable (InboundMessage) -> Void) {
        self.handleHere = handle
    }

    /// Sends one binary message; dropped when the connection is closing or closed.
    func send(binary data: ByteBuffer) {
        guard let context = self.context else { return }
        self.send(opcode: .binary, data: data, context: context)
    }

    /// From now on, binary messages from the peer are delivered instead of closing the connection.
    func acceptBinaryMessages() {
        self.acceptsBinary = true
    }

    private func send(opcode: WebSocketOpcode, data: ByteBuffer, context: ChannelHandlerContext, flush: Bool = true) {
        let action = self.lifecycle.sendRequested(writable: context.channel.isWritable)
        if case .writeMessage = action {
            self.write(opcode: opcode, data: data, context: context, flush: flush)
        } else {
            self.perform(action, context: context)
        }
    }

    /// Starts the close handshake on behalf of the application.
    func close(code: WebSocketErrorCode, reason: String, recordedReason: String) {
        guard let context = self.context else { return }
        self.perform(self.lifecycle.closeRequested(code: code, wireReason: reason, reason: recordedReason), context: context)
    }

    // MARK: Actions

    private func perform(_ action: WebSocketLifecycle.Action, context: ChannelHandlerContext) {
        switch action {
        case .none, .handleFrame, .writeMessage:
            break
        case .startTimers(let pingIn, let idleCheckIn):
            if let pingIn { self.schedulePing(in: pingIn, context: context) }
            if let idleCheckIn { self.scheduleIdleCheck(in: idleCheckIn, context: context) }
        case .sendPing(let nextIn):
            self.write(opcode: .ping, data: context.channel.allocator.buffer(capacity: 0), context: context)
            self.schedulePing(in: nextIn, context: context)
        case .checkIdleAgain(let delay):
            self.scheduleIdleCheck(in: delay, context: context)
        case .startClosing(let closing):
            self.state.record(closing.reason)
            if closing.isFailure {
                self.logger.notice("closing WebSocket", metadata: ["reason": "\(closing.reason)"])
            } else {
                self.logger.debug("closing", metadata: ["reason": "\(closing.reason)"])
            }
            self.cancelKeepAliveTimers()
            var data = context.channel.allocator.buffer(capacity: 2 + Self.maxWireReasonBytes)
            data.write(webSocketErrorCode: closing.code)
            data.writeString(Self.truncatedUTF8(closing.wireReason, maxBytes: Self.maxWireReasonBytes))
            self.write(opcode: .connectionClose, data: data, context: context)
            // Sending FIN after the close frame lets the peer see both even if it is still sending to us.
            context.close(mode: .output, promise: nil)
            self.scheduleCloseTimeout(in: closing.handshakeTimeout, context: context)
        case .echoClose(let code, let reason, let handshakeTimeout):
            self.state.record(reason)
            self.logger.debug("peer closed", metadata: ["reason": "\(reason)"])
            self.cancelKeepAliveTimers()
            var echo = context.channel.allocator.buffer(capacity: 2)
            if let code { echo.write(webSocketErrorCode: code) }
            context.writeAndFlush(Self.wrapOutboundOut(self.makeFrame(opcode: .connectionClose, data: echo)))
                .assumeIsolated()
                .whenComplete { _ in self.perform(self.lifecycle.closeEchoWritten(), context: context) }
            self.scheduleCloseTimeout(in: handshakeTimeout, context: context)
        case .closeChannel(let reason):
            if let reason { self.state.record(reason) }
            self.cancelAllTimers()
            self.state.close(context.channel)
        case .finish(let reason):
            if let reason { self.state.record(reason) }
            self.cancelAllTimers()
            self.continuation.finish()
        }
    }

    // MARK: Timers

    private func schedulePing(in delay: TimeAmount, context: ChannelHandlerContext) {
        self.pingTask = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.perform(self.lifecycle.pingDue(), context: context)
        }
    }

    private func scheduleIdleCheck(in delay: TimeAmount, context: ChannelHandlerContext) {
        self.idleTask = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.perform(self.lifecycle.idleCheckDue(at: .now()), context: context)
        }
    }

    private func scheduleCloseTimeout(in delay: TimeAmount, context: ChannelHandlerContext) {
        self.closeTimeoutTask?.cancel()
        self.closeTimeoutTask = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.perform(self.lifecycle.closeHandshakeTimedOut(), context: context)
        }
    }

    private func cancelKeepAliveTimers() {
        self.pingTask?.cancel()
        self.pingTask = nil
        self.idleTask?.cancel()
        self.idleTask = nil
    }

    private func cancelAllTimers() {
        self.cancelKeepAliveTimers()
        self.closeTimeoutTask?.cancel()
        self.closeTimeoutTask = nil
    }

    // MARK: Inline answers

    /// Whether `text` was answered here (``answerInline(limitPerSecond:_:)``): the reply is written and
    /// flushed with the rest of the read, and the message is not delivered. Once the peer has sent more
    /// than the limit in the current second (`messagesThisSecond`, of any kind), messages are delivered
    /// as usual, with that count, so the application's own flood limit sees the peer's every message.
    private func answeredInline(_ text: String, receivedAt: Double, messagesThisSecond: Int,
                                context: ChannelHandlerContext) -> Bool {
        guard let inline = self.inline, messagesThisSecond <= inline.limitPerSecond,
              let reply = inline.answer(text, receivedAt) else { return false }
        self.send(opcode: .text, data: context.channel.allocator.buffer(string: reply), context: context, flush: false)
        return true
    }

    // MARK: Helpers

    /// Writes one frame; without `flush`, it waits for ``flushIfPending(context:)`` (the end of the read
    /// or of the batch), so several frames leave in one system call.
    private func write(opcode: WebSocketOpcode, data: ByteBuffer, context: ChannelHandlerContext, flush: Bool = true) {
        let frame = Self.wrapOutboundOut(self.makeFrame(opcode: opcode, data: data))
        if flush {
            self.flushPending = false
            context.writeAndFlush(frame, promise: nil)
        } else {
            self.flushPending = true
            context.write(frame, promise: nil)
        }
    }

    private func flushIfPending(context: ChannelHandlerContext) {
        guard self.flushPending else { return }
        self.flushPending = false
        context.flush()
    }

    /// Client frames are masked, server frames are not (RFC 6455 §5.1).
    private func makeFrame(opcode: WebSocketOpcode, data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: self.isClient ? .random() : nil, data: data)
    }

    /// The longest prefix of `text` that fits `maxBytes` of UTF-8 without splitting a character.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> String {
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

/// What ``WebSocketFrameHandler/answerInline(limitPerSecond:_:)`` set: the answering function, and the
/// messages a second (of any kind) past which it is not asked.
struct InlineAnswers {
    let answer: @Sendable (String, Double) -> String?
    let limitPerSecond: Int
}

@available(*, unavailable)
extension WebSocketFrameHandler: Sendable {}
