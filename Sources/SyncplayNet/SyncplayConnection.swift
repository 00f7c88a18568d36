import NIOCore
import NIOPosix
import NIOSSL
import SyncplayKit

/// A TCP connection to a Syncplay server: lines in as ``Event``s, lines out with ``send(_:)``.
/// It owns its channel; ``close()`` (or the peer) ends it, and `events` then finishes.
public final class SyncplayConnection: Sendable {
    public enum Event: Sendable, Equatable {
        /// One line, without its terminator.
        case line([UInt8])
        /// The peer sent a line past the limit (the connection is being closed).
        case refused(SyncplayProtocolError)
        case transportError(String)
        /// STARTTLS's handshake is done: what follows is encrypted.
        case tlsEstablished
        case closed
    }

    /// How long a connection attempt may take.
    public static let connectTimeout = TimeAmount.seconds(10)

    public let events: AsyncStream<Event>
    private let channel: any Channel

    private init(channel: any Channel, events: AsyncStream<Event>) {
        self.channel = channel
        self.events = events
    }

    /// Connects to `host:port`.
    public static func connect(host: String, port: Int, maxLineBytes: Int = SyncplayCodec.maxLineBytes) async throws -> SyncplayConnection {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let deliver: @Sendable (Event) -> Void = { event in
            continuation.yield(event)
            if event == .closed { continuation.finish() }
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SyncplayLineHandler(maxLineBytes: maxLineBytes, deliver: deliver))
                }
            }
            .connect(host: host, port: port).get()
        return SyncplayConnection(channel: channel, events: events)
    }

    /// Sends one message as a line (never waits).
    public func send(_ message: SyncplayMessage) {
        send(line: SyncplayCodec.encodeLine(message))
    }

    /// Sends raw text (tests use it to misbehave); `text` carries its own terminator.
    public func send(line text: String) {
        channel.writeAndFlush(channel.allocator.buffer(string: text), promise: nil)
    }

    /// STARTTLS: puts a TLS client in front of the line handler now (the server said "true" and
    /// waits for our ClientHello); ``Event/tlsEstablished`` follows the handshake, or a
    /// ``Event/transportError(_:)`` and the close if it fails (an untrusted certificate…).
    public func startTLS(_ configuration: TLSConfiguration, serverHostname: String?) {
        let channel = channel
        channel.eventLoop.execute {
            do {
                let context = try NIOSSLContext(configuration: configuration)
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            } catch {
                channel.pipeline.fireErrorCaught(error)
            }
        }
    }

    public func close() {
        channel.close(promise: nil)
    }
}
