import NIOCore
import NIOWebSocket
import Testing
import TestSupport
@testable import WebSocketTransport

/// Framing rules at the edge: what NIO's decoder enforces and what ``WebSocketFrameGuard`` adds.
@Suite("WebSocket framing")
struct WebSocketFramingTests {
    /// The decoder refuses a frame by its announced length, before any payload arrives.
    @Test func aTooLongFrameIsRefusedBeforeItsPayloadArrives() async throws {
        let harness = try await Harness.start(limits: WebSocketLimits(maxMessageBytes: 1024), echo: false)
        let close = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                #expect(try await peer.upgrade()?.hasPrefix("HTTP/1.1 101") == true)
                // A text frame header announcing 1 GiB, with its mask key, and not one byte of payload.
                let length = (0..<8).reversed().map { UInt8(((1 << 30) >> ($0 * 8)) & 0xFF) }
                try await peer.send([0x81, 0x80 | 127] + length + [1, 2, 3, 4])
                return try await peer.readFrame()
            }
        }
        #expect(close?.closeCode == 1009)
        let server = try await harness.nextConnection()
        try await drain(server.inbound)
        #expect(server.closeReason == "message too big (over 1024 bytes)")
        await harness.server.stop()
    }

    /// NIO's decoder accepts reserved bits; the guard refuses them, since no extension is negotiated.
    @Test func reservedBitsAreRefused() async throws {
        let harness = try await Harness.start()
        let close = try await within {
            try await RawPeer.with(port: harness.port) { peer in
                _ = try await peer.upgrade()
                var frame = RawPeer.frame(opcode: 0x1, payload: Array("compressed?".utf8))
                frame[0] |= 0x40  // RSV1, as permessage-deflate would set
                try await peer.send(frame)
                return try await peer.readFrame()
            }
        }
        #expect(close?.closeCode == 1002)
        let server = try await harness.nextConnection()
        #expect(try await drain(server.inbound).isEmpty)
        #expect(server.closeReason == "protocol error: reserved frame bits set without a negotiated extension")
        await harness.server.stop()
    }

    /// NIO's decoder accepts frames masked either way; RFC 6455 §5.1 wants each side to refuse the wrong one.
    @Test func maskingDirectionIsEnforcedBothWays() {
        let masked = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: "x"))
        let unmasked = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "x"))
        #expect(WebSocketFrameGuard.check(masked, expectMasked: true) == nil)
        #expect(WebSocketFrameGuard.check(unmasked, expectMasked: true) == .protocolError("client frame is not masked"))
        #expect(WebSocketFrameGuard.check(unmasked, expectMasked: false) == nil)
        #expect(WebSocketFrameGuard.check(masked, expectMasked: false) == .protocolError("server frame is masked"))
    }
}
