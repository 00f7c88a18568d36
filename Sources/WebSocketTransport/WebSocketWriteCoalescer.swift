import NIOCore

/// Joins the bytes written between two flushes into one buffer before TLS, so each flush is one TLS
/// record rather than one per buffer.
///
/// NIO's `WebSocketFrameEncoder` writes a server frame's header as a buffer of its own (it prepends it
/// only to a payload nothing else holds, and an unmasked payload is always held by the frame too), and
/// a TLS handler seals every buffer it is given as its own record. A 200-byte party message thus went
/// out as a 2-byte record and a 200-byte one: twice the sealing, record framing and bookkeeping here,
/// and twice the opening at the peer. A batch of messages (one step's fan-out to a member) becomes one
/// record as well. Installed on TLS connections only: a plain socket gathers buffers into one system
/// call already.
final class WebSocketWriteCoalescer: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Pending bytes past which what is pending goes on at once: TLS records hold 16 KiB, and writes
    /// this large (media chunks) gain nothing from joining but would be copied.
    static let maxJoinedBytes = 16 * 1024
    /// Room for a typical batch (a few party messages), so joining rarely reallocates.
    static let initialCapacity = 1024

    private var pending: ByteBuffer?
    private var promises: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = Self.unwrapOutboundIn(data)
        if buffer.readableBytes > Self.maxJoinedBytes {
            self.forwardPending(context: context)
            context.write(data, promise: promise)
            return
        }
        if let pending = self.pending, pending.readableBytes + buffer.readableBytes > Self.maxJoinedBytes {
            self.forwardPending(context: context)
        }
        // Taken out while appended to, so the append never copies it.
        var joined = self.pending.take()
            ?? context.channel.allocator.buffer(capacity: max(Self.initialCapacity, buffer.readableBytes))
        joined.writeImmutableBuffer(buffer)
        self.pending = joined
        if let promise { self.promises.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {
        self.forwardPending(context: context)
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        // What was written goes on ahead of the close, as it would without this handler.
        self.forwardPending(context: context)
        context.close(mode: mode, promise: promise)
    }

    private func forwardPending(context: ChannelHandlerContext) {
        guard let joined = self.pending.take() else { return }
        let promise: EventLoopPromise<Void>?
        switch self.promises.count {
        case 0: promise = nil
        case 1: promise = self.promises[0]
        default:
            let all = context.eventLoop.makePromise(of: Void.self)
            for each in self.promises { all.futureResult.cascade(to: each) }
            promise = all
        }
        self.promises.removeAll(keepingCapacity: true)
        context.write(Self.wrapOutboundOut(joined), promise: promise)
    }
}
