import Foundation
import NIOCore
import NIOPosix

/// A bare TCP client for transport tests: writes raw bytes, speaks just enough HTTP and WebSocket framing
/// by hand to misbehave on purpose.
struct RawPeer {
    /// One frame as read from a server (servers never mask).
    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]

        /// The status code of a close frame.
        var closeCode: UInt16? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return UInt16(payload[0]) << 8 | UInt16(payload[1])
        }
    }

    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var pending: [UInt8] = []

    /// Connects to `127.0.0.1:port`, runs `body`, then closes the socket (FIN).
    static func with<T: Sendable>(port: Int, _ body: (inout RawPeer) async throws -> T) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var peer = RawPeer(iterator: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&peer)
        }
    }

    private init(iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.iterator = iterator
        self.outbound = outbound
    }

    func send(_ bytes: [UInt8]) async throws {
        try await self.outbound.write(ByteBuffer(bytes: bytes))
    }

    func send(_ text: String) async throws {
        try await self.send(Array(text.utf8))
    }

    /// Reads more bytes into `pending`; false at EOF.
    private mutating func fill() async throws -> Bool {
        guard let chunk = try await self.iterator.next() else { return false }
        self.pending += chunk.readableBytesView
        return true
    }

    /// Everything until the peer closes.
    mutating func readToEOF() async throws -> [UInt8] {
        while try await self.fill() {}
        defer { self.pending = [] }
        return self.pending
    }

    /// Everything until the server drops the connection, by a FIN or a reset: a server that closes
    /// while its peer's bytes are still unread in the kernel's buffer resets the connection, and
    /// for a dropped peer either way is the same answer.
    mutating func readUntilDropped() async throws -> [UInt8] {
        do {
            while try await self.fill() {}
        } catch let error as IOError where error.errnoCode == ECONNRESET {
            // Dropped with a reset: what came before it is the answer.
        }
        defer { self.pending = [] }
        return self.pending
    }

    /// The HTTP response head (through the blank line), or nil at EOF.
    mutating func readHTTPHead() async throws -> String? {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = self.pending.indices.first(where: { self.pending[$0...].starts(with: terminator) }) {
                let head = String(decoding: self.pending[..<(end + 4)], as: UTF8.self)
                self.pending.removeFirst(end + 4)
                return head
            }
            guard try await self.fill() else { return nil }
        }
    }

    /// Exactly `count` bytes, or nil at EOF before that.
    mutating func readBytes(_ count: Int) async throws -> [UInt8]? {
        while self.pending.count < count {
            guard try await self.fill() else { return nil }
        }
        defer { self.pending.removeFirst(count) }
        return Array(self.pending.prefix(count))
    }

    /// One HTTP response: its head and its body as announced by `Content-Length` (no body when
    /// `hasBody` is false, as for HEAD requests), or nil at EOF.
    mutating func readHTTPResponse(hasBody: Bool = true) async throws -> (head: String, body: String)? {
        guard let head = try await self.readHTTPHead() else { return nil }
        let length = head.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        guard hasBody else { return (head, "") }
        guard let body = try await self.readBytes(length) else { return nil }
        return (head, String(decoding: body, as: UTF8.self))
    }

    /// Sends a WebSocket upgrade request for `path` and returns the response head.
    mutating func upgrade(path: String = "/") async throws -> String? {
        try await self.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        return try await self.readHTTPHead()
    }

    /// Reads one server frame, or nil at EOF.
    mutating func readFrame() async throws -> Frame? {
        while true {
            if self.pending.count >= 2 {
                var length = Int(self.pending[1] & 0x7F)
                var offset = 2
                if length == 126, self.pending.count >= 4 {
                    length = Int(self.pending[2]) << 8 | Int(self.pending[3])
                    offset = 4
                } else if length == 127, self.pending.count >= 10 {
                    length = self.pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    offset = 10
                }
                if length < 126 || offset > 2, self.pending.count >= offset + length {
                    let frame = Frame(
                        fin: self.pending[0] & 0x80 != 0,
                        opcode: self.pending[0] & 0x0F,
                        payload: Array(self.pending[offset..<(offset + length)])
                    )
                    self.pending.removeFirst(offset + length)
                    return frame
                }
            }
            guard try await self.fill() else { return nil }
        }
    }

    /// Encodes one frame; client frames are masked unless `masked` is false.
    static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126:
            bytes.append(maskBit | UInt8(payload.count))
        case ..<65536:
            bytes.append(maskBit | 126)
            bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += key
        bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return bytes
    }
}
