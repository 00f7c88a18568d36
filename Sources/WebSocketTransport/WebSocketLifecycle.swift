import NIOCore
import NIOWebSocket

/// The life of one WebSocket as a pure state machine: open → closing → closed, with the keep-alive
/// ping timer, the idle timer and the close handshake's deadline.
///
/// Each event returns the one ``Action`` that follows; ``WebSocketFrameHandler`` feeds it channel
/// events and performs the actions (writes, timers, closing the channel). It does no I/O and reads no
/// clock: events that need the time are given it.
struct WebSocketLifecycle {
    /// Where the connection stands.
    enum Phase: Equatable {
        /// Messages flow both ways.
        case open
        /// A close frame went out (ours, or the echo of the peer's); waiting for the peer's close frame,
        /// the echo to be written, or the close handshake timeout, and then the channel closes.
        case closing
        /// The channel is closed or closing for good.
        case closed
    }

    /// Something the peer did wrong, or a limit it broke.
    enum Violation: Equatable {
        case binaryMessage
        case invalidUTF8
        /// A message (or a frame of one) above `WebSocketLimits.maxMessageBytes`.
        case messageTooBig
        /// More received messages waiting unread than `WebSocketLimits.maxQueuedMessages`.
        case flood
        /// More bytes waiting to be sent than `WebSocketLimits.outboundHighWatermark`.
        case tooSlow
        /// Framing rules broken: `detail` says which.
        case protocolError(String)
    }

    /// A close frame to send.
    struct Closing: Equatable {
        var code: WebSocketErrorCode
        /// The reason on the wire (cut to 123 UTF-8 bytes when sent).
        var wireReason: String
        /// The reason kept in ``WebSocketConnection/closeReason``.
        var reason: String
        /// Whether the peer or the link is at fault (logged louder than an orderly close).
        var isFailure: Bool
        /// How long the peer has to answer before the channel closes anyway.
        var handshakeTimeout: TimeAmount
    }

    /// What the handler does next.
    enum Action: Equatable {
        case none
        /// Handle the frame's content: deliver a text message, answer a ping.
        case handleFrame
        /// Write the message the application asked to send.
        case writeMessage
        /// Start the keep-alive ping timer and the idle timer; `nil` leaves one off.
        case startTimers(pingIn: TimeAmount?, idleCheckIn: TimeAmount?)
        /// Send a ping; `pingDue` again after `nextIn`.
        case sendPing(nextIn: TimeAmount)
        /// `idleCheckDue` again after the delay.
        case checkIdleAgain(in: TimeAmount)
        /// Record the reason, stop the ping and idle timers, send the close frame, half-close our side,
        /// and `closeHandshakeTimedOut` after its timeout.
        case startClosing(Closing)
        /// Record the reason, stop the ping and idle timers, echo the peer's close `code` (none if it
        /// sent none), `closeEchoWritten` once written, `closeHandshakeTimedOut` if that takes too long.
        case echoClose(code: WebSocketErrorCode?, reason: String, handshakeTimeout: TimeAmount)
        /// Record the reason if any, stop every timer, close the channel.
        case closeChannel(reason: String?)
        /// Record the reason if any, stop every timer, finish the inbound stream.
        case finish(reason: String?)
    }

    /// How long to wait for the peer to finish the close handshake before dropping the TCP connection:
    /// long enough for a peer across the world to answer, short enough not to keep sockets of peers that
    /// vanished.
    static let closeHandshakeTimeout = TimeAmount.seconds(2)

    private let limits: WebSocketLimits
    private(set) var phase = Phase.open
    private var timersStarted = false
    private var lastActivity: NIODeadline

    /// A lifecycle for an open connection; `now` counts as its last activity.
    init(limits: WebSocketLimits, now: NIODeadline) {
        self.limits = limits
        self.lastActivity = now
    }

    // MARK: Events

    /// The channel is active with the handler in place (may be reported twice; acts once).
    mutating func activated(at now: NIODeadline) -> Action {
        guard case .open = self.phase, !self.timersStarted else { return .none }
        self.timersStarted = true
        self.lastActivity = now
        let ping = self.limits.pingInterval > 0 ? Seconds.timeAmount(self.limits.pingInterval) : nil
        let idle = self.idleTimeout
        return ping == nil && idle == nil ? .none : .startTimers(pingIn: ping, idleCheckIn: idle)
    }

    /// A frame other than a close frame arrived (pongs and pings count as activity too).
    mutating func frameReceived(at now: NIODeadline) -> Action {
        self.lastActivity = now
        return self.phase == .open ? .handleFrame : .none
    }

    /// The peer sent a close frame with `code` and `text`.
    mutating func closeFrameReceived(code: WebSocketErrorCode?, text: String, at now: NIODeadline) -> Action {
        self.lastActivity = now
        switch self.phase {
        case .open:
            self.phase = .closing
            var reason = "peer closed"
            if let code {
                reason += " (code \(UInt16(webSocketErrorCode: code))\(text.isEmpty ? "" : ": \(text)"))"
            }
            return .echoClose(code: code, reason: reason, handshakeTimeout: Self.closeHandshakeTimeout)
        case .closing:
            self.phase = .closed
            return .closeChannel(reason: nil)
        case .closed:
            return .none
        }
    }

    /// The application sends a message; `writable` is whether the channel's outbound buffer is below
    /// its high watermark.
    mutating func sendRequested(writable: Bool) -> Action {
        guard case .open = self.phase else { return .none }
        return writable ? .writeMessage : self.violated(.tooSlow)
    }

    /// The application closes with `code` and `wireReason`; `reason` is what ``WebSocketConnection/closeReason`` keeps.
    mutating func closeRequested(code: WebSocketErrorCode, wireReason: String, reason: String) -> Action {
        guard case .open = self.phase else { return .none }
        return self.startClosing(code: code, wireReason: wireReason, reason: reason, isFailure: false)
    }

    /// The peer broke a rule or a limit. Once closing, later violations change nothing.
    mutating func violated(_ violation: Violation) -> Action {
        guard case .open = self.phase else { return .none }
        let limits = self.limits
        switch violation {
        case .binaryMessage:
            return self.fail(.unacceptableData, "binary frames are not supported")
        case .invalidUTF8:
            return self.fail(.dataInconsistentWithMessage, "text message is not valid UTF-8")
        case .messageTooBig:
            return self.fail(.messageTooLarge, "message too big (over \(limits.maxMessageBytes) bytes)")
        case .flood:
            return self.fail(
                .policyViolation,
                "flood: more than \(limits.maxQueuedMessages) received messages waiting unread",
                wire: "flood"
            )
        case .tooSlow:
            return self.fail(
                .policyViolation,
                "peer too slow: more than \(limits.outboundHighWatermark) bytes waiting to be sent",
                wire: "too slow"
            )
        case .protocolError(let detail):
            return self.fail(.protocolError, "protocol error: \(detail)")
        }
    }

    /// The ping timer fired.
    mutating func pingDue() -> Action {
        guard case .open = self.phase, self.limits.pingInterval > 0 else { return .none }
        return .sendPing(nextIn: Seconds.timeAmount(self.limits.pingInterval))
    }

    /// The idle timer fired: closes if nothing arrived for the idle timeout, else checks again when it
    /// would run out.
    mutating func idleCheckDue(at now: NIODeadline) -> Action {
        guard case .open = self.phase, let timeout = self.idleTimeout, let seconds = self.limits.idleTimeout else {
            return .none
        }
        let quiet = now - self.lastActivity
        guard quiet >= timeout else { return .checkIdleAgain(in: timeout - quiet) }
        return self.startClosing(
            code: .goingAway,
            wireReason: "idle timeout",
            reason: "idle timeout (no frame for \(Seconds.text(seconds)) s)",
            isFailure: true
        )
    }

    /// The echo of the peer's close frame was written (or failed to be).
    mutating func closeEchoWritten() -> Action {
        guard case .closing = self.phase else { return .none }
        self.phase = .closed
        return .closeChannel(reason: nil)
    }

    /// The peer did not finish the close handshake in time.
    mutating func closeHandshakeTimedOut() -> Action {
        guard case .closing = self.phase else { return .none }
        self.phase = .closed
        return .closeChannel(reason: "close handshake timed out")
    }

    /// An I/O error, such as a failed write or read.
    mutating func connectionFailed(_ description: String) -> Action {
        guard self.phase != .closed else { return .none }
        self.phase = .closed
        return .closeChannel(reason: "connection error: \(description)")
    }

    /// The TCP connection is gone. A reason recorded before (a close handshake) wins over this one.
    mutating func channelInactive() -> Action {
        self.phase = .closed
        return .finish(reason: "connection lost: the peer closed TCP without a WebSocket close frame")
    }

    /// The handler left the pipeline.
    mutating func handlerRemoved() -> Action {
        self.phase = .closed
        return .finish(reason: nil)
    }

    // MARK: Helpers

    private var idleTimeout: TimeAmount? {
        guard let idle = self.limits.idleTimeout, idle > 0 else { return nil }
        return Seconds.timeAmount(idle)
    }

    private mutating func fail(_ code: WebSocketErrorCode, _ reason: String, wire: String? = nil) -> Action {
        self.startClosing(code: code, wireReason: wire ?? reason, reason: reason, isFailure: true)
    }

    private mutating func startClosing(code: WebSocketErrorCode, wireReason: String, reason: String, isFailure: Bool) -> Action {
        self.phase = .closing
        return .startClosing(
            Closing(
                code: code,
                wireReason: wireReason,
                reason: reason,
                isFailure: isFailure,
                handshakeTimeout: Self.closeHandshakeTimeout
            )
        )
    }
}
