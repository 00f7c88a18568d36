import Foundation
import Logging
import NIOCore
import NIOWebSocket
@testable import WebSocketTransport
import Testing
import TestSupport

@Suite("WebSocket transport")
struct WebSocketTransportTests {
    @Test func echoRoundTrip() async throws {
        let harness = try await Harness.start()
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        #expect(server.remoteDescription.hasPrefix("127.0.0.1:"))
        #expect(client.remoteDescription == "127.0.0.1:\(harness.port)")

        client.send(#"{"type":"hello","name":"Zoë 🎬"}"#)
        #expect(try await next(client.inbound) == #"{"type":"hello","name":"Zoë 🎬"}"#)
        client.send("")
        #expect(try await next(client.inbound) == "")

        client.close(reason: "bye")
        try await drain(client.inbound)
        try await drain(server.inbound)
        #expect(client.closeReason == "closed locally (code 1000: bye)")
        #expect(server.closeReason == "peer closed (code 1000: bye)")
        client.send("dropped after close")  // must not crash
        await harness.server.stop()
    }

    @Test func hundredMessagesArriveInOrder() async throws {
        let harness = try await Harness.start()
        let client = try await harness.connect()
        for index in 0..<100 { client.send("message \(index)") }
        var received: [String] = []
        for _ in 0..<100 {
            guard let text = try await next(client.inbound) else { break }
            received.append(text)
        }
        #expect(received == (0..<100).map { "message \($0)" })
        await harness.server.stop()
    }

    @Test func twoClientsAreIndependent() async throws {
        let harness = try await Harness.start()
        let first = try await harness.connect()
        let second = try await harness.connect()
        first.send("one")
        second.send("two")
        #expect(try await next(second.inbound) == "two")
        #expect(try await next(first.inbound) == "one")
        first.close()
        try await drain(first.inbound)
        second.send("still here")
        #expect(try await next(second.inbound) == "still here")
        await harness.server.stop()
    }

    @Test func serverCanPushWithoutBeingAsked() async throws {
        let harness = try await Harness.start(echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        server.send("state 1")
        server.send("state 2")
        #expect(try await next(client.inbound) == "state 1")
        #expect(try await next(client.inbound) == "state 2")
        await harness.server.stop()
    }

    @Test func oneEncodedBufferGoesToEveryConnection() async throws {
        let harness = try await Harness.start(echo: false)
        let first = try await harness.connect()
        let firstServer = try await harness.nextConnection()
        let second = try await harness.connect()
        let secondServer = try await harness.nextConnection()
        let shared = ByteBuffer(string: #"{"type":"timeline","reason":"Zoë: pause"}"#)
        firstServer.send(utf8: shared)
        secondServer.send(utf8: shared)
        firstServer.send(utf8: shared)
        #expect(try await next(first.inbound) == #"{"type":"timeline","reason":"Zoë: pause"}"#)
        #expect(try await next(first.inbound) == #"{"type":"timeline","reason":"Zoë: pause"}"#)
        #expect(try await next(second.inbound) == #"{"type":"timeline","reason":"Zoë: pause"}"#)
        #expect(shared.readableBytes == #"{"type":"timeline","reason":"Zoë: pause"}"#.utf8.count, "the buffer is only read")
        await harness.server.stop()
    }

    @Test func greetingSentDuringTheUpgradeArrives() async throws {
        let server = WebSocketServer(host: "127.0.0.1", port: 0, logger: quiet)
        let port = try await server.start { connection in
            connection.send("welcome")  // still inside the upgrade, on the event loop
            connection.send("to the party")
        }
        let client = try await WebSocketClient.connect(
            host: "127.0.0.1", port: port, path: "/", connectTimeout: hangGuardSeconds, logger: quiet
        )
        #expect(try await next(client.inbound) == "welcome")
        #expect(try await next(client.inbound) == "to the party")
        await server.stop()
    }

    @Test func droppingAClientConnectionClosesIt() async throws {
        let harness = try await Harness.start()
        var client: WebSocketConnection? = try await harness.connect()
        let server = try await harness.nextConnection()
        #expect(client != nil)
        client = nil
        try await drain(server.inbound)
        #expect(server.closeReason == "peer closed (code 1001)")
        await harness.server.stop()
    }

    @Test func connectToClosedPortIsRefused() async throws {
        // A port bound but not listening refuses connections, and no other test can take it meanwhile
        // (a port freed by a stopped server could be reused by a parallel test's server).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let error = await #expect(throws: WebSocketTransportError.self) {
            _ = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/", logger: quiet)
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.message == "connection refused by 127.0.0.1:\(port)")
    }

    @Test func wrongPathFailsTheUpgradeClearly() async throws {
        let harness = try await Harness.start(path: "/party")
        let error = await #expect(throws: WebSocketTransportError.self) {
            _ = try await harness.connect(path: "/elsewhere")
        }
        #expect(error?.kind == .upgradeRejected)
        #expect(error?.message == "127.0.0.1:\(harness.port) did not answer the WebSocket upgrade of /elsewhere (HTTP 404 Not Found)")

        let lookalike = await #expect(throws: WebSocketTransportError.self) {
            _ = try await harness.connect(path: "/partyx")
        }
        #expect(lookalike?.message.contains("HTTP 404") == true)

        // Paths below the server path are accepted and reported.
        let client = try await harness.connect(path: "/party/ABC123?token=x")
        let server = try await harness.nextConnection()
        #expect(server.requestPath == "/party/ABC123")
        #expect(client.requestPath == "/party/ABC123?token=x")
        client.send("in")
        #expect(try await next(client.inbound) == "in")
        await harness.server.stop()
    }

    @Test func plainHTTPRequestsGetAnAnswerAndAreClosed() async throws {
        let harness = try await Harness.start(path: "/party")
        let response = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET /party HTTP/1.1\r\nHost: x\r\n\r\n")
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(response.hasPrefix("HTTP/1.1 426 Upgrade Required"))
        await harness.server.stop()
    }

    @Test func serverStopFinishesClientStreams() async throws {
        let harness = try await Harness.start()
        let first = try await harness.connect()
        let second = try await harness.connect()
        first.send("ping")
        #expect(try await next(first.inbound) == "ping")
        // Both established on the server's side too: a client has its 101 before the server's side of
        // the upgrade is done, and a connection stopped in between closes without the close frame.
        _ = try await harness.nextConnection()
        _ = try await harness.nextConnection()

        try await within { await harness.server.stop() }
        try await drain(first.inbound)
        try await drain(second.inbound)
        #expect(first.closeReason == "peer closed (code 1001: server stopping)")
        #expect(second.closeReason == "peer closed (code 1001: server stopping)")
        // That the stopped server's port refuses is not checked here: a test running alongside may
        // have been given that port already. `connectToClosedPortIsRefused` covers refusal.
        #expect(harness.server.openConnectionCount == 0)
    }

    @Test func bindingAPortInUseNamesTheAddress() async throws {
        let harness = try await Harness.start()
        let second = WebSocketServer(host: "127.0.0.1", port: harness.port, logger: quiet)
        let error = await #expect(throws: WebSocketTransportError.self) {
            _ = try await second.start { _ in }
        }
        #expect(error?.message == "could not listen on 127.0.0.1:\(harness.port): address already in use")
        await second.stop()
        let third = await #expect(throws: WebSocketTransportError.self) {
            _ = try await harness.server.start { _ in }
        }
        #expect(third?.kind == .invalidState)
        await harness.server.stop()
    }

    @Test func cancellingTheReaderClosesTheConnection() async throws {
        let harness = try await Harness.start()
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        let (reading, isReading) = AsyncStream.makeStream(of: Void.self)
        let reader = Task { for await _ in client.inbound { isReading.yield() } }
        client.send("echo me")
        _ = try await next(reading)  // the reader is inside its loop
        reader.cancel()
        try await drain(server.inbound)
        #expect(server.closeReason == "peer closed (code 1001)")
        await harness.server.stop()
    }
}
