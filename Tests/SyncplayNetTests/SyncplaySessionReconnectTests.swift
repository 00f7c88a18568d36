import NIOCore
import NIOPosix
import Testing
import TestSupport
import SyncplayKit
@testable import SyncplayNet
@testable import SyncplayGateway
@testable import SyncplayClient

/// Tandem's Syncplay session after losing its server, as Syncplay's client: a server that closes
/// the connection (without `Error`) is connected to again and the session is back in its room; a
/// server gone for good is given up on after the tries; an `Error` is never retried.
@Suite(.serialized) struct SyncplaySessionReconnectTests {
    @Test func aServerThatHangsUpIsRejoinedAndOneGoneIsGivenUpAfterTheTries() async throws {
        let server = try await HangingUpServer.start()
        let port = server.port
        let notices = NoticeLog()
        let session = SyncplaySession(options: .init(host: "127.0.0.1", port: server.port, core: .init(name: "tandem", room: "r"),
                                                     file: nil, mediaFolders: [], playerOptions: Fixtures.headless,
                                                     reconnectTries: 3, logger: Fixtures.quietLogger)) { notices.append($0) }
        let run = Task { await session.run() }
        // Welcomed, hung up on, welcomed again: the session came back by itself.
        try await waitUntil("the session to be welcomed twice", within: 20) {
            notices.all.filter { if case .connected = $0 { true } else { false } }.count >= 2
        }
        #expect(notices.all.contains { if case .connectionLost(let why) = $0 { why.hasPrefix("the server closed the connection") } else { false } })
        // The server goes for good: three tries, then the session fails naming it.
        await server.stop()
        let outcome = try await within(20, "the session to give up") { await run.value }
        await session.shutDown()
        guard case .failed(let reason) = outcome else { Issue.record("not a failure: \(outcome)"); return }
        #expect(reason.hasPrefix("lost the Syncplay server 127.0.0.1:\(port) for good after 3 tries: "), "\(reason)")
    }

    @Test func leavingWhileReconnectingEndsTheSession() async throws {
        let server = try await HangingUpServer.start()
        let notices = NoticeLog()
        let session = SyncplaySession(options: .init(host: "127.0.0.1", port: server.port, core: .init(name: "tandem", room: "r"),
                                                     file: nil, mediaFolders: [], playerOptions: Fixtures.headless,
                                                     logger: Fixtures.quietLogger)) { notices.append($0) }
        let run = Task { await session.run() }
        try await waitUntil("the session to be welcomed", within: 20) {
            notices.all.contains { if case .connected = $0 { true } else { false } }
        }
        await server.stop()
        try await waitUntil("the session to be reconnecting", within: 20) { await session.status.reconnecting }
        await session.leave()
        #expect(try await within(20, "the session to end") { await run.value } == .left)
        await session.shutDown()
    }

    /// A Syncplay server that answers a client's first line with its Hello and a State, then
    /// closes the connection (as the gateway hangs up when its party server restarts).
    final class HangingUpServer: Sendable {
        let channel: any Channel
        var port: Int { channel.localAddress?.port ?? 0 }
        private init(channel: any Channel) { self.channel = channel }

        static func start() async throws -> HangingUpServer {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(Peer()) }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            return HangingUpServer(channel: channel)
        }

        /// Stops listening: tries from now on are refused.
        func stop() async { try? await channel.close() }

        private final class Peer: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            var answered = false

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard !answered, unwrapInboundIn(data).readableBytesView.contains(UInt8(ascii: "\n")) else { return }
                answered = true
                let text = FakeSyncplayServer.hello + FakeSyncplayServer.state
                let channel = context.channel
                channel.writeAndFlush(channel.allocator.buffer(string: text)).whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}
