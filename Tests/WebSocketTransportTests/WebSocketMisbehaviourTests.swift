import Testing
import TestSupport
@testable import WebSocketTransport

/// Peers that break limits or rules, vanish, stay silent or never read; and the keep-alive timers.
@Suite("WebSocket peers that misbehave")
struct WebSocketMisbehaviourTests {
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
        // The default handshake timeout (10 s): the bystander's own upgrade gets all the time a loaded
        // machine needs. The timeout itself is tested on a server of its own, below.
        let harness = try await Harness.start()
        let bystander = try await harness.connect()

        let answer = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send([0x16, 0x03, 0x01, 0x02, 0x00] + Array("\u{1}\u{0}garbage\r\n\r\n".utf8))
                return String(decoding: try await peer.readToEOF(), as: UTF8.self)
            }
        }
        #expect(answer.hasPrefix("HTTP/1.1 400"))

        bystander.send("ok")
        #expect(try await next(bystander.inbound) == "ok")
        await harness.server.stop()
    }

    @Test func silentClientsAreDroppedAfterTheHandshakeTimeout() async throws {
        // Short, so that the test does not wait long; no other connection on this server has to beat it.
        let harness = try await Harness.start(limits: WebSocketLimits(handshakeTimeout: 2))
        // Starts a request and never finishes it: dropped by the handshake timeout, without an answer.
        let silence = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                try await peer.send("GET / HTTP/1.1\r\nHost: x\r\n")
                return try await peer.readUntilDropped()
            }
        }
        #expect(silence.isEmpty)
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
        // The server pings every 0.2 s and drops a peer quiet for 6 s; the raw peer sends nothing but
        // pongs. Timers never fire early, so once it has answered this many pings it has been quiet for
        // 1.5 times the idle timeout, and the test waits on pings, not on a clock. The idle timeout is
        // wide because the peer's loop runs on the test process's cooperative pool (two threads here),
        // which the suite's blocking tests (ffmpeg runs, child processes) can hold for seconds.
        let idleTimeout = 6.0
        let pingInterval = 0.2
        let pingsToAnswer = Int((1.5 * idleTimeout / pingInterval).rounded(.up)) + 1
        let harness = try await Harness.start(limits: WebSocketLimits(idleTimeout: idleTimeout, pingInterval: pingInterval))
        let (answered, reply) = try await within { () -> (Int, RawPeer.Frame?) in
            try await RawPeer.with(port: harness.port) { peer -> (Int, RawPeer.Frame?) in
                #expect(try await peer.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
                var answered = 0
                while answered < pingsToAnswer, let frame = try await peer.readFrame() {
                    guard frame.opcode == 0x9 else { return (answered, frame) }  // a close: the test failed
                    try await peer.send(RawPeer.frame(opcode: 0xA, payload: frame.payload))
                    answered += 1
                }
                try await peer.send(RawPeer.frame(opcode: 0x1, payload: Array("awake".utf8)))
                var reply: RawPeer.Frame?
                repeat { reply = try await peer.readFrame() } while reply?.opcode == 0x9
                return (answered, reply)
            }
        }
        #expect(answered == pingsToAnswer)
        #expect(reply == RawPeer.Frame(fin: true, opcode: 0x1, payload: Array("awake".utf8)))
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
}
