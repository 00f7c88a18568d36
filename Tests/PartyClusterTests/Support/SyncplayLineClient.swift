import Foundation
import NIOCore
import NIOPosix
import SyncplayKit

/// A Syncplay client reduced to its line protocol on a raw TCP connection: it says `Hello` (room,
/// MD5 of the password, as Syncplay's client does) and reads the gateway's answer.
enum SyncplayLineClient {
    /// The gateway's answer to a `Hello` from this address: its `Hello` line (joined) or its `Error`
    /// line (refused; the gateway then closes); nil when it closed without either.
    static func hello(host: String = "127.0.0.1", port: Int, room: String, password: String) async throws -> String? {
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineReader(sink: sink))
                }
            }
            .connect(host: host, port: port).get()
        let hello = SyncplayMessage.hello(SyncplayHello(username: "guesser", password: SyncplayPrivacy.passwordDigest(password),
                                                        room: room, version: "1.2.255", realVersion: "1.6.9"))
        try await channel.writeAndFlush(channel.allocator.buffer(string: SyncplayCodec.encodeLine(hello))).get()
        defer { channel.close(promise: nil) }
        for await line in lines where line.hasPrefix(#"{"Hello""#) || line.hasPrefix(#"{"Error""#) { return line }
        return nil
    }

    /// Splits what arrives into lines; the stream finishes when the connection closes.
    private final class LineReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let sink: AsyncStream<String>.Continuation
        var pending = ""
        init(sink: AsyncStream<String>.Continuation) { self.sink = sink }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            pending += String(buffer: unwrapInboundIn(data))
            // "\r\n" is one Character in Swift.
            while let end = pending.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }) {
                sink.yield(String(pending[..<end]).trimmingCharacters(in: .whitespacesAndNewlines))
                pending = String(pending[pending.index(after: end)...])
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            sink.finish()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
    }
}
