import Foundation
import NIOCore
import NIOPosix
@testable import PartySecurity
@testable import PartyServer
@testable import PartyClient
import Synchronization

/// A TCP proxy on 127.0.0.1 that forwards every connection to `target` byte for byte and records every
/// byte that crosses it, both ways: what an eavesdropper on the wire would see.
final class RecordingProxy: Sendable {
    /// Bytes per connection: what the client sent, and what it got.
    private struct Conversation {
        var upstream: [UInt8] = []
        var downstream: [UInt8] = []
    }

    private let conversations = Mutex<[ObjectIdentifier: Conversation]>([:])
    private let listener: Mutex<(any Channel)?> = Mutex(nil)
    private let children = Mutex<[any Channel]>([])

    /// What an eavesdropper learns: every byte seen, plus the payloads of the WebSocket frames clients
    /// sent in the clear (client frames are masked with a key that travels in the frame, so anyone on the
    /// wire can unmask them).
    var capture: [UInt8] {
        conversations.withLock { all in
            all.values.flatMap { $0.upstream + $0.downstream + Self.unmaskedClientFrames($0.upstream) }
        }
    }

    /// How many bytes the clients sent through the proxy, over every connection: what they uploaded.
    var clientByteCount: Int {
        conversations.withLock { all in all.values.reduce(0) { $0 + $1.upstream.count } }
    }

    /// The payloads of a plain WebSocket client's frames after its HTTP upgrade request; nothing for
    /// anything else (TLS records, plain HTTP).
    static func unmaskedClientFrames(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard text.hasPrefix("GET "), text.lowercased().contains("upgrade: websocket"),
              let end = text.range(of: "\r\n\r\n") else { return [] }
        var index = text.utf8.distance(from: text.startIndex, to: end.upperBound)
        var out: [UInt8] = []
        while index + 2 <= bytes.count {
            var length = Int(bytes[index + 1] & 0x7f)
            let masked = bytes[index + 1] & 0x80 != 0
            index += 2
            if length == 126, index + 2 <= bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            } else if length == 127, index + 8 <= bytes.count {
                length = bytes[index..<(index + 8)].reduce(0) { $0 << 8 | Int($1) }
                index += 8
            }
            var mask: [UInt8] = [0, 0, 0, 0]
            if masked, index + 4 <= bytes.count {
                mask = Array(bytes[index..<(index + 4)])
                index += 4
            }
            guard index + length <= bytes.count else { break }
            out += bytes[index..<(index + length)].enumerated().map { $0.element ^ mask[$0.offset % 4] }
            index += length
        }
        return out
    }

    /// Starts forwarding to `127.0.0.1:targetPort`; returns the proxy's port.
    func start(targetPort: Int) async throws -> Int {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { [self] inbound in
                children.withLock { $0.append(inbound) }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connect(host: "127.0.0.1", port: targetPort)
                    .flatMap { outbound in
                        self.children.withLock { $0.append(outbound) }
                        let (a, b) = GlueHandler.matchedPair()
                        return inbound.eventLoop.makeCompletedFuture {
                            let id = ObjectIdentifier(inbound)
                            try inbound.pipeline.syncOperations.addHandler(Recorder(proxy: self, id: id, upstream: true))
                            try inbound.pipeline.syncOperations.addHandler(a)
                            try outbound.pipeline.syncOperations.addHandler(Recorder(proxy: self, id: id, upstream: false))
                            try outbound.pipeline.syncOperations.addHandler(b)
                        }.flatMap { inbound.setOption(.autoRead, value: true) }
                    }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        listener.withLock { $0 = channel }
        return channel.localAddress!.port!
    }

    func stop() async {
        try? await listener.withLock { $0 }?.close()
        for child in children.withLock({ $0 }) { try? await child.close() }
    }

    fileprivate func record(_ buffer: ByteBuffer, id: ObjectIdentifier, upstream: Bool) {
        conversations.withLock { all in
            if upstream {
                all[id, default: Conversation()].upstream.append(contentsOf: buffer.readableBytesView)
            } else {
                all[id, default: Conversation()].downstream.append(contentsOf: buffer.readableBytesView)
            }
        }
    }

    /// Passes reads on after copying them into the capture.
    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let proxy: RecordingProxy
        let id: ObjectIdentifier
        let upstream: Bool
        init(proxy: RecordingProxy, id: ObjectIdentifier, upstream: Bool) {
            self.proxy = proxy
            self.id = id
            self.upstream = upstream
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            proxy.record(Self.unwrapInboundIn(data), id: id, upstream: upstream)
            context.fireChannelRead(data)
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `text`'s UTF-8 bytes occur anywhere in these bytes.
    func contains(utf8 text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
