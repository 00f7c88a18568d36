import TandemBase
import TandemApp
import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy that delays each direction like a jittery path (`tandem bench link`): every
/// accepted connection gets its own connection to the target on the same event loop, and a
/// ``DelayedLinkHandler`` on each side. When either side closes, the other is closed once what
/// it was still owed has been delivered.
package final class LinkProxy: Sendable {
    /// Where connections are forwarded.
    package let target: HostPort
    /// The one-way delay's mean and spread, in seconds.
    package let latency: Double, jitter: Double
    /// The seed of the first connection's delays; connection n uses `seed + 2n` (towards the target)
    /// and `seed + 2n + 1` (back).
    package let seed: UInt64
    private let connections = Mutex<UInt64>(0)
    private let listener = Mutex<(any Channel)?>(nil)
    /// Bytes carried towards the target and back, over every connection so far.
    package let bytesToTarget = DelayedLinkHandler.ByteCount(), bytesFromTarget = DelayedLinkHandler.ByteCount()

    /// A proxy to `target` adding `latency ± jitter` seconds each way.
    package init(target: HostPort, latency: Double, jitter: Double, seed: UInt64) {
        self.target = target
        self.latency = latency
        self.jitter = jitter
        self.seed = seed
    }

    /// Starts listening on `address` (port 0: any free port) and returns the bound port.
    package func start(listening address: HostPort, group: any EventLoopGroup) async throws -> Int {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] inbound in connect(inbound) }
            .bind(host: address.host, port: address.port).get()
        listener.withLock { $0 = channel }
        return channel.localAddress?.port ?? address.port
    }

    /// Stops accepting connections (open ones end with their event loop group).
    package func stop() async {
        let channel = listener.withLock { $0 }
        try? await channel?.close()
    }

    /// Connects `inbound` to the target; the inbound side is registered (and starts reading) only
    /// once the outbound one is up, and closed if it cannot be.
    private func connect(_ inbound: any Channel) -> EventLoopFuture<Void> {
        let n = connections.withLock { count in
            defer { count += 1 }
            return count
        }
        let (latency, jitter) = (latency, jitter)
        let toTarget = seed &+ 2 &* n, back = toTarget &+ 1
        let (sent, received) = (bytesToTarget, bytesFromTarget)
        return ClientBootstrap(group: inbound.eventLoop)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { outbound in
                outbound.eventLoop.makeCompletedFuture {
                    try outbound.pipeline.syncOperations.addHandler(DelayedLinkHandler(
                        peer: inbound, direction: LinkDirection(latency: latency, jitter: jitter, seed: back), counted: received))
                }
            }
            .connect(host: target.host, port: target.port)
            .flatMapThrowing { outbound in
                try inbound.pipeline.syncOperations.addHandler(DelayedLinkHandler(
                    peer: outbound, direction: LinkDirection(latency: latency, jitter: jitter, seed: toTarget), counted: sent))
            }
    }
}
