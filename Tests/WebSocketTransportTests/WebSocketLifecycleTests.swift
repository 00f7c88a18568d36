import NIOCore
import NIOWebSocket
import Testing
@testable import WebSocketTransport

/// The close and idle state machine on its own: events in, actions out, time given by the test.
@Suite("WebSocket lifecycle")
struct WebSocketLifecycleTests {
    private let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private let limits = WebSocketLimits(maxMessageBytes: 1000, idleTimeout: 1, pingInterval: 0.25, maxQueuedMessages: 8)
    private let handshake = WebSocketLifecycle.closeHandshakeTimeout

    private func at(_ seconds: Double) -> NIODeadline {
        self.start + Seconds.timeAmount(seconds)
    }

    private func opened(_ limits: WebSocketLimits? = nil) -> WebSocketLifecycle {
        var lifecycle = WebSocketLifecycle(limits: limits ?? self.limits, now: self.start)
        _ = lifecycle.activated(at: self.start)
        return lifecycle
    }

    private func closing(
        _ code: WebSocketErrorCode,
        _ reason: String,
        wire: String? = nil,
        failure: Bool = true
    ) -> WebSocketLifecycle.Action {
        .startClosing(.init(code: code, wireReason: wire ?? reason, reason: reason, isFailure: failure, handshakeTimeout: self.handshake))
    }

    @Test func activationStartsTheTimersOnce() {
        var lifecycle = WebSocketLifecycle(limits: self.limits, now: self.start)
        #expect(lifecycle.activated(at: self.start) == .startTimers(pingIn: .milliseconds(250), idleCheckIn: .seconds(1)))
        #expect(lifecycle.activated(at: self.at(0.1)) == .none)

        var quiet = WebSocketLifecycle(limits: WebSocketLimits(idleTimeout: nil, pingInterval: 0), now: self.start)
        #expect(quiet.activated(at: self.start) == .none)
    }

    @Test func pingsRepeatWhileOpen() {
        var lifecycle = self.opened()
        #expect(lifecycle.pingDue() == .sendPing(nextIn: .milliseconds(250)))
        #expect(lifecycle.pingDue() == .sendPing(nextIn: .milliseconds(250)))
        _ = lifecycle.closeRequested(code: .normalClosure, wireReason: "", reason: "closed locally")
        #expect(lifecycle.pingDue() == .none)
    }

    /// Pongs (any frame) push the idle deadline back; a quiet peer is closed one timeout after its last frame.
    @Test func framesKeepTheConnectionAliveAndSilenceClosesIt() {
        var lifecycle = self.opened()
        for tick in 1...8 {  // a pong every 0.25 s for 2 s: twice the idle timeout
            #expect(lifecycle.frameReceived(at: self.at(Double(tick) * 0.25)) == .handleFrame)
            if tick % 4 == 0 {
                #expect(lifecycle.idleCheckDue(at: self.at(Double(tick) * 0.25)) == .checkIdleAgain(in: .seconds(1)))
            }
        }
        #expect(lifecycle.idleCheckDue(at: self.at(2.6)) == .checkIdleAgain(in: .milliseconds(400)))
        #expect(lifecycle.idleCheckDue(at: self.at(3)) == self.closing(.goingAway, "idle timeout (no frame for 1 s)", wire: "idle timeout"))
        #expect(lifecycle.phase == .closing)
        #expect(lifecycle.idleCheckDue(at: self.at(4)) == .none)
    }

    @Test func noIdleTimeoutNeverCloses() {
        var lifecycle = self.opened(WebSocketLimits(idleTimeout: nil))
        #expect(lifecycle.idleCheckDue(at: self.at(1e6)) == .none)
        #expect(lifecycle.phase == .open)
    }

    @Test func anOrderlyLocalClose() {
        var lifecycle = self.opened()
        #expect(lifecycle.sendRequested(writable: true) == .writeMessage)
        #expect(
            lifecycle.closeRequested(code: .normalClosure, wireReason: "bye", reason: "closed locally (code 1000: bye)")
                == .startClosing(.init(code: .normalClosure, wireReason: "bye", reason: "closed locally (code 1000: bye)", isFailure: false, handshakeTimeout: self.handshake))
        )
        // Closing: nothing more is sent or delivered, a second close changes nothing.
        #expect(lifecycle.sendRequested(writable: true) == .none)
        #expect(lifecycle.frameReceived(at: self.at(0.1)) == .none)
        #expect(lifecycle.closeRequested(code: .goingAway, wireReason: "", reason: "again") == .none)
        // The peer's close frame completes the handshake.
        #expect(lifecycle.closeFrameReceived(code: .normalClosure, text: "", at: self.at(0.2)) == .closeChannel(reason: nil))
        #expect(lifecycle.phase == .closed)
        #expect(lifecycle.closeHandshakeTimedOut() == .none)
        #expect(lifecycle.channelInactive() == .finish(reason: "connection lost: the peer closed TCP without a WebSocket close frame"))
    }

    @Test func aPeerThatNeverAnswersTheCloseIsDropped() {
        var lifecycle = self.opened()
        _ = lifecycle.closeRequested(code: .normalClosure, wireReason: "", reason: "closed locally")
        #expect(lifecycle.closeHandshakeTimedOut() == .closeChannel(reason: "close handshake timed out"))
        #expect(lifecycle.phase == .closed)
        #expect(lifecycle.closeFrameReceived(code: .normalClosure, text: "", at: self.at(3)) == .none)
    }

    @Test func thePeerClosesFirst() {
        var lifecycle = self.opened()
        #expect(
            lifecycle.closeFrameReceived(code: .normalClosure, text: "bye", at: self.at(0.5))
                == .echoClose(code: .normalClosure, reason: "peer closed (code 1000: bye)", handshakeTimeout: self.handshake)
        )
        #expect(lifecycle.frameReceived(at: self.at(0.6)) == .none)
        #expect(lifecycle.closeEchoWritten() == .closeChannel(reason: nil))
        #expect(lifecycle.closeHandshakeTimedOut() == .none)

        var bare = self.opened()
        #expect(bare.closeFrameReceived(code: nil, text: "", at: self.at(0.5)) == .echoClose(code: nil, reason: "peer closed", handshakeTimeout: self.handshake))
        // An echo that cannot be written in time does not keep the socket.
        #expect(bare.closeHandshakeTimedOut() == .closeChannel(reason: "close handshake timed out"))
        #expect(bare.closeEchoWritten() == .none)
    }

    @Test func violationsCloseWithTheirCodeAndOnlyTheFirstCounts() {
        let cases: [(WebSocketLifecycle.Violation, WebSocketLifecycle.Action)] = [
            (.binaryMessage, self.closing(.unacceptableData, "binary frames are not supported")),
            (.invalidUTF8, self.closing(.dataInconsistentWithMessage, "text message is not valid UTF-8")),
            (.messageTooBig, self.closing(.messageTooLarge, "message too big (over 1000 bytes)")),
            (.flood, self.closing(.policyViolation, "flood: more than 8 received messages waiting unread", wire: "flood")),
            (.protocolError("client frame is not masked"), self.closing(.protocolError, "protocol error: client frame is not masked")),
        ]
        for (violation, expected) in cases {
            var lifecycle = self.opened()
            #expect(lifecycle.violated(violation) == expected)
            #expect(lifecycle.violated(.binaryMessage) == .none)
        }
    }

    @Test func aPeerThatDoesNotReadIsClosedOnTheNextSend() {
        var lifecycle = self.opened()
        #expect(
            lifecycle.sendRequested(writable: false)
                == self.closing(.policyViolation, "peer too slow: more than 1048576 bytes waiting to be sent", wire: "too slow")
        )
    }

    @Test func ioErrorsCloseAtOnceAndTheStreamFinishes() {
        var lifecycle = self.opened()
        #expect(lifecycle.connectionFailed("Connection reset by peer") == .closeChannel(reason: "connection error: Connection reset by peer"))
        #expect(lifecycle.connectionFailed("again") == .none)
        #expect(lifecycle.pingDue() == .none)
        #expect(lifecycle.handlerRemoved() == .finish(reason: nil))
    }
}
