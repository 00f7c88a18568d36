import NIOCore

/// One half of a byte pipe between two channels on the same event loop (after swift-nio's
/// connect-proxy example): what one side reads the other writes. Backpressure: a side reads only
/// while its partner is in place and can take more (`read` is held until the partner is added or
/// becomes writable again). When one side closes, the other finishes writing what it has, then closes.
final class GlueHandler {
    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    private init() {}

    /// Two handlers glued to each other: add one to each channel.
    static func matchedPair() -> (GlueHandler, GlueHandler) {
        let first = GlueHandler()
        let second = GlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    private func partnerWrite(_ data: NIOAny) {
        context?.write(data, promise: nil)
    }

    private func partnerFlush() {
        context?.flush()
    }

    /// The partner closed: flush what is queued, then close (a plain close would drop queued bytes).
    private func partnerClosed() {
        guard let context else { return }
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    private func partnerBecameWritable() {
        if pendingRead {
            pendingRead = false
            context?.read()
        }
    }

    /// Whether this side can take bytes now: in place, connected, and below its high watermark.
    private var partnerWritable: Bool {
        guard let channel = context?.channel else { return false }
        return channel.isActive && channel.isWritable
    }
}

extension GlueHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The partner may have held a read back while this side was not there yet.
        if context.channel.isActive, context.channel.isWritable { partner?.partnerBecameWritable() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.partner = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        // The partner may have held a read back until this side was connected.
        partner?.partnerBecameWritable()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.partnerWrite(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.partnerFlush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.partnerClosed()
        partner = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            partner?.partnerBecameWritable()
        }
    }

    func read(context: ChannelHandlerContext) {
        if let partner, partner.partnerWritable {
            context.read()
        } else {
            pendingRead = true
        }
    }
}

@available(*, unavailable)
extension GlueHandler: Sendable {}
