import NIOCore
import NIOPosix

/// A Syncplay server that says Hello and then behaves as told: well (a State every
/// ``stateInterval``), or badly (garbage, an oversized line, a line that never ends).
final class FakeSyncplayServer: Sendable {
    enum Behaviour: Sendable {
        case good
        case garbage
        case oversized(bytes: Int)
        case neverEnding
        /// A server older than STARTTLS: asked for TLS, it calls the command unknown and drops the
        /// client (as Syncplay 1.2–1.5 servers do); asked nothing, it behaves well.
        case preTLS
    }

    static let stateInterval = TimeAmount.milliseconds(200)
    static let hello = #"{"Hello": {"username": "tandem", "room": {"name": "r"}, "version": "1.6.9", "realversion": "1.6.9", "motd": ""}}"# + "\r\n"
    static let state = #"{"State": {"ping": {"latencyCalculation": 12345.5, "serverRtt": 0}, "playstate": {"position": 0, "paused": true, "doSeek": false, "setBy": null}}}"# + "\r\n"

    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel) { self.channel = channel }

    static func start(_ behaviour: Behaviour) async throws -> FakeSyncplayServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Peer(behaviour: behaviour))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return FakeSyncplayServer(channel: channel)
    }

    func stop() async { try? await channel.close() }

    private final class Peer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let behaviour: Behaviour
        var greeted = false
        var timer: RepeatedTask?

        init(behaviour: Behaviour) { self.behaviour = behaviour }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            guard !greeted, bytes.readableBytesView.contains(UInt8(ascii: "\n")) else { return }
            if case .preTLS = behaviour, String(buffer: bytes).contains("\"TLS\"") {
                write(context, #"{"Error": {"message": "Unknown command {'startTLS': 'send'}"}}"# + "\r\n")
                context.close(promise: nil)
                return
            }
            greeted = true
            write(context, Self.helloLine)
            let loop = context.eventLoop
            let bound = NIOLoopBound(context, eventLoop: loop)
            switch behaviour {
            case .good, .preTLS:
                timer = loop.scheduleRepeatedTask(initialDelay: .zero, delay: FakeSyncplayServer.stateInterval) { _ in
                    Self.write(bound.value, FakeSyncplayServer.state)
                }
            case .garbage:
                write(context, "this is not json at all\r\n")
            case .oversized(let size):
                write(context, "{\"Chat\": \"" + String(repeating: "a", count: size) + "\"}\r\n")
            case .neverEnding:
                let chunk = String(repeating: "x", count: 8192)
                timer = loop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(5)) { _ in
                    Self.write(bound.value, chunk)
                }
            }
        }

        static let helloLine = FakeSyncplayServer.hello

        func channelInactive(context: ChannelHandlerContext) {
            timer?.cancel()
            context.fireChannelInactive()
        }

        private func write(_ context: ChannelHandlerContext, _ text: String) { Self.write(context, text) }

        private static func write(_ context: ChannelHandlerContext, _ text: String) {
            guard context.channel.isActive else { return }
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: text)), promise: nil)
        }
    }
}
