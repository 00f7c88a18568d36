import NIOCore
import NIOPosix
import Synchronization
import SyncplayKit

/// A fake Syncplay client on a raw TCP connection: sends whatever bytes it is told (good lines,
/// garbage, a line that never ends) and keeps what comes back, for tests of the gateway.
final class RawSyncplayPeer: Sendable {
    private let channel: any Channel
    private let received = Mutex<String>("")
    private let closedFlag = Mutex(false)

    private init(channel: any Channel) { self.channel = channel }

    static func connect(host: String = "127.0.0.1", port: Int) async throws -> RawSyncplayPeer {
        let box = Mutex<RawSyncplayPeer?>(nil)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Reader { event in
                        guard let peer = box.withLock({ $0 }) else { return }
                        switch event {
                        case .bytes(let text): peer.received.withLock { $0 += text }
                        case .closed: peer.closedFlag.withLock { $0 = true }
                        }
                    })
                }
            }
            .connect(host: host, port: port).get()
        let peer = RawSyncplayPeer(channel: channel)
        box.withLock { $0 = peer }
        return peer
    }

    /// Everything received so far.
    var text: String { received.withLock { $0 } }
    /// The gateway closed the connection.
    var isClosed: Bool { closedFlag.withLock { $0 } || !channel.isActive }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    func send(_ message: SyncplayMessage) async throws { try await send(SyncplayCodec.encodeLine(message)) }

    func close() async { try? await channel.close() }

    private final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        enum Event { case bytes(String), closed }
        let deliver: @Sendable (Event) -> Void
        init(_ deliver: @escaping @Sendable (Event) -> Void) { self.deliver = deliver }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            deliver(.bytes(String(buffer: unwrapInboundIn(data))))
        }

        func channelInactive(context: ChannelHandlerContext) {
            deliver(.closed)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
    }
}
