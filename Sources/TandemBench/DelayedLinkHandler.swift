import TandemApp
import NIOCore
import Synchronization

/// The I/O of one ``LinkDirection``: what its channel reads is written to `peer` when the
/// direction says so. Both channels of a link live on one event loop, so every call here, every
/// timer and every write completion runs on that loop.
package final class DelayedLinkHandler: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer

    private var direction: LinkDirection<ByteBuffer>
    private let peer: any Channel
    private var channel: (any Channel)?
    private var timer: Scheduled<Void>?
    /// Bytes read on this side, added to a count the proxy shares between its links.
    private let counted: ByteCount?

    /// Forwards what its channel reads to `peer`, delayed by `direction`; adds what it reads to `counted`.
    package init(peer: any Channel, direction: LinkDirection<ByteBuffer>, counted: ByteCount? = nil) {
        self.peer = peer
        self.direction = direction
        self.counted = counted
    }

    /// A running total of bytes, shared by the links of one direction.
    package final class ByteCount: Sendable {
        private let total = Atomic<Int>(0)
        package func add(_ bytes: Int) { total.add(bytes, ordering: .relaxed) }
        package var value: Int { total.load(ordering: .relaxed) }
    }

    /// Now on the monotonic clock NIO's timers use, in seconds.
    package static func now() -> Double { Double(NIODeadline.now().uptimeNanoseconds) / 1e9 }

    package func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        counted?.add(buffer.readableBytes)
        perform(direction.received(buffer, bytes: buffer.readableBytes, at: Self.now()), on: context.eventLoop)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        perform(direction.inputClosed(), on: context.eventLoop)
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset or a failed read: this side is gone, which channelInactive then reports.
        context.close(promise: nil)
    }

    private func perform(_ actions: [LinkDirection<ByteBuffer>.Action], on loop: any EventLoop) {
        for action in actions {
            switch action {
            case .armTimer(let instant):
                timer?.cancel()
                let deadline = NIODeadline.uptimeNanoseconds(UInt64(max(instant, 0) * 1e9))
                timer = loop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
                    perform(direction.timerFired(at: Self.now()), on: loop)
                }
            case .send(let chunks):
                for chunk in chunks {
                    let bytes = chunk.readableBytes
                    peer.write(chunk).assumeIsolated().whenComplete { [self] _ in
                        perform(direction.sent(bytes: bytes), on: loop)
                    }
                }
                peer.flush()
            case .stopReading:
                try? channel?.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            case .startReading:
                try? channel?.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            case .closePeer:
                peer.close(promise: nil)
            }
        }
    }
}
