import Foundation
import Logging
import NIOWebSocket
@testable import WebSocketTransport
import Testing

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

    @Test func greetingSentDuringTheUpgradeArrives() async throws {
        let server = WebSocketServer(host: "127.0.0.1", port: 0, logger: quiet)
        let port = try await server.start { connection in
            connection.send("welcome")  // still inside the upgrade, on the event loop
            connection.send("to the party")
        }
        let client = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/", logger: quiet)
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

    @Test func messageAtLimitPassesAndOverLimitCloses() async throws {
        let limits = WebSocketLimits(maxMessageBytes: 1024)
        let harness = try await Harness.start(limits: limits)
        let client = try await harness.connect(limits: limits)
        let server = try await harness.nextConnection()

        let atLimit = String(repeating: "a", count: 1024)
        client.send(atLimit)
        #expect(try await next(client.inbound) == atLimit)

        client.send(String(repeating: "b", count: 1025))
        try await drain(server.inbound)
        try await drain(client.inbound)
        #expect(server.closeReason == "message too big (over 1024 bytes)")
        #expect(client.closeReason?.hasPrefix("peer closed (code 1009") == true)
        await harness.server.stop()
    }

    @Test func fragmentedMessagesAreJoinedAndCountedAgainstTheLimit() async throws {
        let harness = try await Harness.start(limits: WebSocketLimits(maxMessageBytes: 1000), echo: false)
        let frames = try await RawPeer.with(port: harness.port) { peer in
            let head = try await peer.upgrade()
            #expect(head?.hasPrefix("HTTP/1.1 101") == true)
            try await peer.send(
                RawPeer.frame(opcode: 0x1, payload: Array("hel".utf8), fin: false)
                    + RawPeer.frame(opcode: 0x9, payload: Array("ping!".utf8))  // control frames may interleave
                    + RawPeer.frame(opcode: 0x0, payload: Array("lo".utf8), fin: true)
            )
            // Fragments adding up to more than the limit.
            try await peer.send(RawPeer.frame(opcode: 0x1, payload: Array(repeating: 0x61, count: 600), fin: false))
            try await peer.send(RawPeer.frame(opcode: 0x0, payload: Array(repeating: 0x61, count: 600), fin: true))
            var frames: [RawPeer.Frame] = []
            while let frame = try await peer.readFrame() { frames.append(frame) }
            return frames
        }
        let server = try await harness.nextConnection()
        #expect(frames.first == RawPeer.Frame(fin: true, opcode: 0xA, payload: Array("ping!".utf8)))
        #expect(frames.last?.closeCode == 1009)
        #expect(try await drain(server.inbound) == ["hello"])
        #expect(server.closeReason == "message too big (over 1000 bytes)")
        await harness.server.stop()
    }

    @Test func binaryAndUnmaskedFramesAreRejected() async throws {
        let harness = try await Harness.start()
        let binaryClose = try await RawPeer.with(port: harness.port) { peer in
            _ = try await peer.upgrade()
            try await peer.send(RawPeer.frame(opcode: 0x2, payload: [1, 2, 3]))
            return try await peer.readFrame()
        }
        #expect(binaryClose?.closeCode == 1003)
        let first = try await harness.nextConnection()
        try await drain(first.inbound)
        #expect(first.closeReason == "binary frames are not supported")

        let unmaskedClose = try await RawPeer.with(port: harness.port) { peer in
            _ = try await peer.upgrade()
            try await peer.send(RawPeer.frame(opcode: 0x1, payload: Array("hi".utf8), masked: false))
            return try await peer.readFrame()
        }
        #expect(unmaskedClose?.closeCode == 1002)
        let second = try await harness.nextConnection()
        try await drain(second.inbound)
        #expect(second.closeReason == "protocol error: client frame is not masked")

        let invalidUTF8 = try await RawPeer.with(port: harness.port) { peer in
            _ = try await peer.upgrade()
            try await peer.send(RawPeer.frame(opcode: 0x1, payload: [0xC3, 0x28]))
            return try await peer.readFrame()
        }
        #expect(invalidUTF8?.closeCode == 1007)
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

        try await within { await harness.server.stop() }
        try await drain(first.inbound)
        try await drain(second.inbound)
        #expect(first.closeReason == "peer closed (code 1001: server stopping)")
        #expect(second.closeReason == "peer closed (code 1001: server stopping)")
        // That the stopped server's port refuses is not checked here: a test running alongside may
        // have been given that port already. `connectToClosedPortIsRefused` covers refusal.
        #expect(harness.server.openConnectionCount == 0)
    }

    @Test func peerVanishingMidFrameDoesNotHurtOthers() async throws {
        let harness = try await Harness.start()
        let bystander = try await harness.connect()
        let bystanderServerSide = try await harness.nextConnection()

        try await RawPeer.with(port: harness.port) { peer in
            let head = try await peer.upgrade()
            #expect(head?.hasPrefix("HTTP/1.1 101 Switching Protocols") == true)
            let frame = RawPeer.frame(opcode: 0x1, payload: Array(repeating: 0x41, count: 300))
            try await peer.send(Array(frame.prefix(100)))
        }  // closes the socket halfway through the frame
        let vanished = try await harness.nextConnection()
        #expect(vanished !== bystanderServerSide)
        #expect(try await drain(vanished.inbound).isEmpty)
        #expect(vanished.closeReason?.hasPrefix("connection lost") == true)

        // A header cut short too.
        try await RawPeer.with(port: harness.port) { peer in
            _ = try await peer.upgrade()
            try await peer.send([0x81, 0xFE, 0x01])
        }
        let cutHeader = try await harness.nextConnection()
        try await drain(cutHeader.inbound)
        #expect(cutHeader.closeReason != nil)

        bystander.send("still fine")
        #expect(try await next(bystander.inbound) == "still fine")
        // Nothing left behind by the vanished peers (the registry forgets a socket once it is fully closed).
        let server = harness.server
        #expect(try await within { await eventually { server.openConnectionCount == 1 } })
        await harness.server.stop()
        #expect(harness.server.openConnectionCount == 0)
    }

    @Test func garbageClientsAreDropped() async throws {
        // Long enough for the garbage to arrive on a loaded machine, short enough to wait out below.
        let harness = try await Harness.start(limits: WebSocketLimits(handshakeTimeout: 2))
        let bystander = try await harness.connect()

        let answer = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send([0x16, 0x03, 0x01, 0x02, 0x00] + Array("\u{1}\u{0}garbage\r\n\r\n".utf8))
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(answer.hasPrefix("HTTP/1.1 400"))

        // Starts a request and never finishes it: dropped by the handshake timeout, without an answer.
        let silence = try await within(10) {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET / HTTP/1.1\r\nHost: x\r\n")
                return try await peer.readToEOF()
            }
        }
        #expect(silence.isEmpty)

        bystander.send("ok")
        #expect(try await next(bystander.inbound) == "ok")
        await harness.server.stop()
    }

    @Test func pingIsAnsweredWithPong() async throws {
        let harness = try await Harness.start()
        let pong = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                _ = try await peer.upgrade()
                try await peer.send(RawPeer.frame(opcode: 0x9, payload: Array("t=42".utf8)))
                return try await peer.readFrame()
            }
        }
        #expect(pong == RawPeer.Frame(fin: true, opcode: 0xA, payload: Array("t=42".utf8)))
        await harness.server.stop()
    }

    @Test func idlePeerIsClosed() async throws {
        // A raw peer: a WebSocketClient would also have to finish its side of the upgrade within the
        // short idle timeout, which a loaded machine does not promise.
        let harness = try await Harness.start(limits: WebSocketLimits(idleTimeout: 0.3, pingInterval: 0))
        let frames = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                #expect(try await peer.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
                var frames: [RawPeer.Frame] = []
                while let frame = try await peer.readFrame() { frames.append(frame) }
                return frames
            }
        }
        #expect(frames == [RawPeer.Frame(fin: true, opcode: 0x8, payload: [0x03, 0xE9] + Array("idle timeout".utf8))])
        let server = try await harness.nextConnection()
        try await drain(server.inbound)
        #expect(server.closeReason == "idle timeout (no frame for 0.3 s)")
        await harness.server.stop()
    }

    @Test func pingsKeepAQuietConnectionAlive() async throws {
        // Quiet for over twice the idle timeout; the timeout is wide enough that a loaded machine
        // (a stalled ping) does not trip it.
        let harness = try await Harness.start(limits: WebSocketLimits(idleTimeout: 1.5, pingInterval: 0.1))
        let client = try await harness.connect(limits: WebSocketLimits(idleTimeout: 1.5, pingInterval: 0.1))
        try await Task.sleep(for: .seconds(3.5))
        #expect(client.closeReason == nil)
        client.send("awake")
        #expect(try await next(client.inbound) == "awake")
        await harness.server.stop()
    }

    @Test func floodingAnUnreadConnectionClosesIt() async throws {
        let harness = try await Harness.start(limits: WebSocketLimits(maxQueuedMessages: 16), echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        for index in 0..<200 { client.send("spam \(index)") }
        try await drain(client.inbound)
        #expect(server.closeReason?.hasPrefix("flood") == true)
        #expect(client.closeReason == "peer closed (code 1008: flood)")
        let queued = try await drain(server.inbound)
        #expect(queued == (0..<16).map { "spam \($0)" })
        await harness.server.stop()
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
        let reader = Task { for await _ in client.inbound {} }
        try await Task.sleep(for: .milliseconds(50))
        reader.cancel()
        try await drain(server.inbound)
        #expect(server.closeReason == "peer closed (code 1001)")
        await harness.server.stop()
    }
}
