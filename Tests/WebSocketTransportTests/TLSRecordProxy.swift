import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on loopback that counts the TLS application-data records (content type 23) crossing it
/// in each direction: what a TLS peer's writes become on the wire.
final class TLSRecordProxy: Sendable {
    enum Direction: Sendable { case toServer, toClient }

    let port: Int
    private let listener: any Channel
    private let box: CountBox

    /// Listens on 127.0.0.1:0 and forwards each connection to 127.0.0.1:`target`.
    init(target: Int) async throws {
        let box = CountBox()
        listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        outbound.pipeline.addHandler(Forwarder(to: inbound, direction: .toClient, box: box))
                    }
                    .connect(host: "127.0.0.1", port: target)
                    .flatMap { outbound in
                        inbound.pipeline.addHandler(Forwarder(to: outbound, direction: .toServer, box: box)).flatMap {
                            inbound.setOption(.autoRead, value: true)
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
        self.box = box
    }

    /// Application-data records seen so far going `direction`.
    func records(_ direction: Direction) -> Int { box.counts.withLock { $0[direction, default: 0] } }

    func stop() async { try? await listener.close() }

    final class CountBox: Sendable {
        let counts = Mutex<[Direction: Int]>([:])
    }

    /// Forwards what one side reads to the other, parsing TLS record headers as they pass.
    private final class Forwarder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let peer: any Channel
        let direction: Direction
        let box: CountBox
        /// Bytes of a record header or body not yet complete.
        private var carry = ByteBuffer()

        init(to peer: any Channel, direction: Direction, box: CountBox) {
            self.peer = peer
            self.direction = direction
            self.box = box
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = Self.unwrapInboundIn(data)
            carry.writeBuffer(&bytes)
            var found = 0
            while carry.readableBytes >= 5,
                  let type = carry.getInteger(at: carry.readerIndex, as: UInt8.self),
                  let length = carry.getInteger(at: carry.readerIndex + 3, as: UInt16.self),
                  carry.readableBytes >= 5 + Int(length) {
                if type == 23 { found += 1 }
                carry.moveReaderIndex(forwardBy: 5 + Int(length))
            }
            carry.discardReadBytes()
            if found > 0 { box.counts.withLock { $0[direction, default: 0] += found } }
            peer.writeAndFlush(data, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
