import NIOCore
import NIOTLS
import SyncplayKit

/// Splits the bytes from a Syncplay peer into lines with ``SyncplayLineFramer`` and hands each to
/// `deliver`. A line past the limit (or one that never ends) is delivered as an error and the
/// connection is closed: nothing more is read from such a peer.
/// With `answersRefusals` (the gateway's side) the peer is first told why, in an `Error` line.
package final class SyncplayLineHandler: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer

    private var framer: SyncplayLineFramer
    private let deliver: @Sendable (SyncplayConnection.Event) -> Void
    private let answersRefusals: Bool
    private var failed = false

    package init(maxLineBytes: Int, answersRefusals: Bool = false, deliver: @escaping @Sendable (SyncplayConnection.Event) -> Void) {
        framer = SyncplayLineFramer(maxLineBytes: maxLineBytes)
        self.answersRefusals = answersRefusals
        self.deliver = deliver
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let buffer = unwrapInboundIn(data)
        do {
            for line in try framer.feed(buffer.readableBytesView) { deliver(.line(line)) }
        } catch {
            failed = true
            deliver(.refused(error))
            guard answersRefusals else { return context.close(promise: nil) }
            let channel = context.channel
            let line = SyncplayCodec.encodeLine(.error("refused \(error.description)"))
            channel.writeAndFlush(channel.allocator.buffer(string: line), promise: nil)
            SyncplayLingeringClose.close(channel)
        }
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { deliver(.tlsEstablished) }
        context.fireUserInboundEventTriggered(event)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        deliver(.closed)
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        deliver(.transportError(String(describing: error)))
        context.close(promise: nil)
    }
}
