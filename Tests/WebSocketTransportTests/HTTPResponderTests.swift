import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOWebSocket
import Testing
import TestSupport
@testable import WebSocketTransport

@Suite("Plain HTTP next to the WebSocket")
struct HTTPResponderTests {
    @Test func getAndHeadOnOneKeepAliveConnection() async throws {
        let responder = EchoResponder()
        let harness = try await Harness.start(path: "/party/", httpResponder: responder)
        let (get, head, after) = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party/ABC/media/3 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-99\r\n\r\n")
                let get = try await peer.readHTTPResponse()
                try await peer.send("HEAD /party/ABC/media/3 HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try await peer.readHTTPResponse(hasBody: false)
                // Had the HEAD answer carried a body, it would be read here instead of this answer.
                try await peer.send("GET /elsewhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let after = try await peer.readHTTPResponse()
                return (get, head, after)
            }
        }
        #expect(get?.head.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(get?.body == "GET /party/ABC/media/3")
        #expect(head?.head.hasPrefix("HTTP/1.1 200 OK") == true)
        // Framing headers as for a body ("HEAD /party/ABC/media/3"), no body bytes.
        #expect(head?.head.lowercased().contains("content-length: 23") == true)
        #expect(after?.body == "GET /elsewhere")
        #expect(responder.seen.prefix(3) == [
            .request("GET /party/ABC/media/3"), .request("HEAD /party/ABC/media/3"), .request("GET /elsewhere"),
        ])
        await harness.server.stop()
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let harness = try await Harness.start(path: "/party/", httpResponder: EchoResponder())
        let bodies = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send(
                    "GET /party/A/media/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /party/A/media/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                )
                return [try await peer.readHTTPResponse()?.body, try await peer.readHTTPResponse()?.body]
            }
        }
        #expect(bodies == ["GET /party/A/media/1", "GET /party/A/media/2"])
        await harness.server.stop()
    }

    @Test func upgradesStillWorkNextToTheResponder() async throws {
        let responder = EchoResponder()
        let harness = try await Harness.start(path: "/party/", httpResponder: responder)
        let client = try await harness.connect(path: "/party/ABC")
        client.send("hello")
        #expect(try await next(client.inbound) == "hello")

        // A failed WebSocket upgrade of the WebSocket path is still refused by the server...
        let refused = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party/ABC HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(refused.hasPrefix("HTTP/1.1 400 Bad Request"))
        // ...so the first request the responder sees is this one.
        let answer = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party/ABC/media/0 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try await peer.readHTTPResponse()?.body
            }
        }
        #expect(answer == "GET /party/ABC/media/0")
        #expect(try await responder.nextRequest() == "GET /party/ABC/media/0")

        client.send("still open")
        #expect(try await next(client.inbound) == "still open")
        await harness.server.stop()
    }

    @Test func withoutAResponderOtherPathsGet404AndAreClosed() async throws {
        let harness = try await Harness.start(path: "/party/")
        let response = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party HTTP/1.1\r\nHost: x\r\n\r\nGET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n")
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(response.hasPrefix("HTTP/1.1 426 Upgrade Required"))
        #expect(!response.contains("404"))  // closed after the first answer
        let notFound = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n")
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(notFound.hasPrefix("HTTP/1.1 404 Not Found"))
        await harness.server.stop()
    }

    @Test func aClientHangingUpMidResponseLeavesNothingBehind() async throws {
        let responder = EchoResponder()
        let harness = try await Harness.start(path: "/party/", httpResponder: responder)
        let head = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET \(EchoResponder.bigPath) HTTP/1.1\r\nHost: x\r\n\r\n")
                return try await peer.readHTTPHead()
            }  // hangs up with most of the body unread
        }
        #expect(head?.contains("Content-Length: \(EchoResponder.bigBodyBytes)") == true)
        try await responder.nextRemoval()
        let server = harness.server
        #expect(await eventually { server.openConnectionCount == 0 })

        let answer = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party/x/media/1 HTTP/1.1\r\nHost: x\r\n\r\n")
                return try await peer.readHTTPResponse()?.body
            }
        }
        #expect(answer == "GET /party/x/media/1")
        await harness.server.stop()
    }

    /// NIO's upgrade handler holds the request head back while an upgrader decides; when the upgrade is
    /// refused it delivers the head after the request's end was already read. The responder still gets
    /// the head intact, then the end.
    @Test func aHeadHeldBackByTheUpgradeHandlerReachesTheResponderIntact() throws {
        let responder = EchoResponder()
        let (channel, decision) = try Self.embeddedServerPipeline(responder: responder, handshakeTimeout: 0)
        try channel.writeInbound(ByteBuffer(string:
            "GET /party/1/media/2 HTTP/1.1\r\nHost: x\r\nX-Test: kept\r\nUpgrade: websocket\r\nConnection: upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ))
        #expect(responder.seen.isEmpty)  // held back: the upgrader has not decided
        decision.succeed(nil)
        #expect(responder.seen == [.request("GET /party/1/media/2 kept")])
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: HTTPGateHandler.self) }

        let output = try Self.readOutbound(channel)
        #expect(output.hasPrefix("HTTP/1.1 200 OK"))
        #expect(output.hasSuffix("GET /party/1/media/2"))
        _ = try channel.finish()
    }

    /// The handshake timeout drops a connection that sent no request, and stops once the connection is
    /// handed to the responder (which owns its idle timeout from then on).
    @Test func theHandshakeTimeoutStopsAtTheHandOver() throws {
        let timeout = 5.0
        let (idle, unused) = try Self.embeddedServerPipeline(responder: EchoResponder(), handshakeTimeout: timeout)
        idle.embeddedEventLoop.advanceTime(by: .seconds(Int64(timeout) + 1))
        #expect(!idle.isActive)
        unused.succeed(nil)  // NIO checks that no promise is dropped unfulfilled

        let (served, decision) = try Self.embeddedServerPipeline(responder: EchoResponder(), handshakeTimeout: timeout)
        decision.succeed(nil)
        try served.writeInbound(ByteBuffer(string: "GET /party/1/media/2 HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try Self.readOutbound(served).hasSuffix("GET /party/1/media/2"))
        served.embeddedEventLoop.advanceTime(by: .seconds(Int64(timeout) + 1))
        #expect(served.isActive)
        _ = try served.finish()
    }

    /// An active embedded channel with the server's HTTP pipeline (NIO's codec and upgrade handler, then
    /// the gate on path `/ws`); the WebSocket upgrader's decision is left to the caller's promise.
    private static func embeddedServerPipeline(
        responder: EchoResponder,
        handshakeTimeout: Double
    ) throws -> (EmbeddedChannel, EventLoopPromise<HTTPHeaders?>) {
        let channel = EmbeddedChannel()
        let decision = channel.eventLoop.makePromise(of: HTTPHeaders?.self)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 14,
            automaticErrorHandling: false,
            shouldUpgrade: { _, _ in decision.futureResult },
            upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededVoidFuture() }
        )
        let sync = channel.pipeline.syncOperations
        try sync.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        try sync.addHandler(
            HTTPGateHandler(
                path: "/ws",
                responder: responder,
                handshakeTimeout: handshakeTimeout,
                state: ConnectionState(),
                logger: quiet
            )
        )
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, decision)
    }

    /// Everything the channel wrote so far, as text.
    private static func readOutbound(_ channel: EmbeddedChannel) throws -> String {
        var output = ""
        while let part = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { output += String(buffer: buffer) }
        }
        return output
    }
}
