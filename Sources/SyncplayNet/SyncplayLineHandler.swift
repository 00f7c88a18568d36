import NIOCore
import NIOTLS
import SyncplayKit

/// Splits the bytes from a Syncplay peer into lines with ``SyncplayLineFramer`` and hands each to
/// `deliver`. A line past the limit (or one that never ends) is delivered as an error and the
/// connection is closed: nothing more is read from such a peer.
final class SyncplayLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var framer: SyncplayLineFramer
    private let deliver: @Sendable (SyncplayConnection.Event) -> Void
    private var failed = false

    init(maxLineBytes: Int, deliver: @escaping @Sendable (SyncplayConnection.Event) -> Void) {
        framer = SyncplayLineFramer(maxLineBytes: maxLineBytes)
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let buffer = unwrapInboundIn(data)
        do {
            for line in try framer.feed(buffer.readableBytesView) { deliver(.line(line)) }
        } catch {
            failed = true
            deliver(.refused(error))
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { deliver(.tlsEstablished) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deliver(.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        deliver(.transportError(String(describing: error)))
        context.close(promise: nil)
    }
}
