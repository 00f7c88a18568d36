import NIOCore
import NIOWebSocket

/// Enforces the two framing rules NIO's `WebSocketFrameDecoder` leaves to its users, on each decoded
/// frame, before NIO's `NIOWebSocketFrameAggregator` joins fragments (which drops both facts):
///
/// - masking as RFC 6455 §5.1 requires: a server must fail a connection whose client sends an unmasked
///   frame, and a client one whose server sends a masked frame;
/// - reserved bits unset, since no extension is negotiated (RFC 6455 §5.2).
///
/// Size limits need nothing here: the decoder refuses a frame longer than its `maxFrameSize` as soon
/// as it has read the length, before buffering any payload, and the aggregator caps a fragmented
/// message. A frame breaking a rule is dropped and reported as a ``Violation``; later frames pass
/// (a peer's close frame still completes the close handshake).
final class WebSocketFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// A frame that breaks a framing rule.
    enum Violation: Error, Equatable {
        case protocolError(String)
    }

    private let expectMasked: Bool

    /// A guard for the frames a server receives (`expectMaskedFrames`) or a client receives.
    init(expectMaskedFrames: Bool) {
        self.expectMasked = expectMaskedFrames
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        if let violation = Self.check(frame, expectMasked: self.expectMasked) {
            context.fireErrorCaught(violation)
            return
        }
        context.fireChannelRead(data)
    }

    /// The rule `frame` breaks, if any.
    static func check(_ frame: WebSocketFrame, expectMasked: Bool) -> Violation? {
        if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            return .protocolError("reserved frame bits set without a negotiated extension")
        }
        if (frame.maskKey != nil) != expectMasked {
            return .protocolError(expectMasked ? "client frame is not masked" : "server frame is masked")
        }
        return nil
    }
}

@available(*, unavailable)
extension WebSocketFrameGuard: Sendable {}
