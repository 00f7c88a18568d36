import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import TestSupportTLS
import TestSupport
import WebSocketTLS
@testable import WebSocketTransport

/// Over TLS a message is one record, and so is a batch flushed at once (``WebSocketWriteCoalescer``):
/// NIO's frame encoder writes a frame's header as a buffer of its own, which TLS sealed as a record of
/// its own, doubling the records of every message.
@Suite("WebSocket writes over TLS")
struct WebSocketWriteCoalescerTests {
    /// Keep-alive pings would add records of their own: none during these tests.
    static let limits = WebSocketLimits(pingInterval: 3600)

    @Test func eachMessageAndEachBatchIsOneTLSRecordBothWays() async throws {
        let ca = try TestCertificateAuthority()
        let server = WebSocketServer(host: "127.0.0.1", port: 0, path: "/", limits: Self.limits, logger: quiet,
                                     tls: WebSocketServerTLS(context: try ca.serverContext(dnsNames: ["localhost"])))
        let (accepted, arrived) = AsyncStream.makeStream(of: WebSocketConnection.self)
        let port = try await server.start { arrived.yield($0) }
        let proxy = try await TLSRecordProxy(target: port)
        let tls = try ca.clientTLS(host: "localhost")
        let client = try await within {
            try await WebSocketClient.connect(host: "localhost", port: proxy.port, path: "/", limits: Self.limits,
                                              connectTimeout: hangGuardSeconds, logger: quiet,
                                              tls: WebSocketClientTLS(context: tls.context, host: tls.host))
        }
        let member = try #require(try await next(accepted))
        // One exchange each way first, so the handshake's records (session tickets…) are all counted.
        client.send("hello")
        #expect(try await next(member.inbound) == "hello")
        member.send("ready")
        #expect(try await next(client.inbound) == "ready")
        let toClient = proxy.records(.toClient), toServer = proxy.records(.toServer)

        for i in 0..<10 { member.send("message \(i) from the server") }
        for i in 0..<10 { #expect(try await next(client.inbound) == "message \(i) from the server") }
        member.send(utf8Messages: ["a", "batch", "of three"].map { ByteBuffer(string: $0) })
        for text in ["a", "batch", "of three"] { #expect(try await next(client.inbound) == text) }
        for i in 0..<10 { client.send("message \(i) from the client") }
        for i in 0..<10 { #expect(try await next(member.inbound) == "message \(i) from the client") }

        #expect(proxy.records(.toClient) - toClient == 11, "ten messages and one batch")
        #expect(proxy.records(.toServer) - toServer == 10, "ten messages")
        client.close(reason: "done")
        await proxy.stop()
        await server.stop()
    }

    /// The joined bytes are the frames as the encoder made them, in order; a large write (media)
    /// passes on its own, after what was pending; promises of joined writes are kept.
    @Test func joinedBytesAreTheEncodersFramesInOrder() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([WebSocketWriteCoalescer(), WebSocketFrameEncoder()])
        let plain = EmbeddedChannel(handler: WebSocketFrameEncoder())
        let texts = ["one", "two", String(repeating: "x", count: 300)]
        var promises: [EventLoopFuture<Void>] = []
        for text in texts {
            let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text))
            promises.append(channel.write(frame))
            try plain.writeOutbound(frame)
        }
        channel.flush()
        var expected = ByteBuffer()
        while var part = try plain.readOutbound(as: ByteBuffer.self) { expected.writeBuffer(&part) }
        let joined = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(joined == expected)
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "one buffer for the flush")
        for promise in promises { #expect(throws: Never.self) { try promise.wait() } }

        let large = ByteBuffer(repeating: 7, count: WebSocketWriteCoalescer.maxJoinedBytes + 1)
        channel.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "before")), promise: nil)
        channel.write(WebSocketFrame(fin: true, opcode: .binary, data: large), promise: nil)
        channel.flush()
        var out: [ByteBuffer] = []
        while let part = try channel.readOutbound(as: ByteBuffer.self) { out.append(part) }
        #expect(out.last == large, "the large payload is not copied into a joined buffer")
        // The small frame, then the large frame's 4-byte header joined to it (length 126 + 16 bits).
        #expect(out.count == 2)
        #expect(out.first?.readableBytes == 2 + "before".utf8.count + 4, "what was pending went first")
        _ = try channel.finish()
        _ = try plain.finish()
    }
}
