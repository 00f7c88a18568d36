import NIOCore
import NIOPosix
import Synchronization

/// A TCP relay on loopback in front of `target`, with a gate: while open, each connection is
/// spliced to a new connection to `target`; while shut, it is accepted and closed at once (a
/// server that is not there yet). A test holds a reconnecting client off a restarted server until
/// what it needs there (a re-created party) is in place. Connections already spliced stay.
final class TCPGate: Sendable {
    private let channel: any Channel
    private let flag: Flag

    /// The port clients connect to.
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel, flag: Flag) {
        self.channel = channel
        self.flag = flag
    }

    static func start(target: Int) async throws -> TCPGate {
        let flag = Flag()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                // Failing the initializer closes the accepted connection: the peer sees it close at once.
                guard flag.isOpen else { return child.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
                return ClientBootstrap(group: child.eventLoop)
                    .channelInitializer { out in out.eventLoop.makeCompletedFuture { try out.pipeline.syncOperations.addHandler(Splice(partner: child)) } }
                    .connect(host: "127.0.0.1", port: target)
                    .flatMap { out in child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(Splice(partner: out)) } }
                    .flatMapError { _ in child.close() }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TCPGate(channel: channel, flag: flag)
    }

    func set(open: Bool) { flag.value.withLock { $0 = open } }

    func stop() async { try? await channel.close() }

    /// Whether the gate is open (it starts open), shared with the listener's initializer.
    private final class Flag: Sendable {
        let value = Mutex(true)
        var isOpen: Bool { value.withLock { $0 } }
    }

    /// Writes what one side reads to the other; closes the other when one side closes.
    private final class Splice: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        init(partner: any Channel) { self.partner = partner }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }
}
