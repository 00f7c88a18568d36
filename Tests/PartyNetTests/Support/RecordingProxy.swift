import NIOCore
import NIOPosix
@testable import PartyNet
import Synchronization

/// A TCP proxy on 127.0.0.1 that forwards every connection to `target` byte for byte and records every
/// byte that crosses it, both ways: what an eavesdropper on the wire would see.
final class RecordingProxy: Sendable {
    private let recorded = Mutex<[UInt8]>([])
    private let listener: Mutex<(any Channel)?> = Mutex(nil)
    private let children = Mutex<[any Channel]>([])

    /// Every byte seen so far.
    var capture: [UInt8] { recorded.withLock { $0 } }

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
                            try inbound.pipeline.syncOperations.addHandler(Recorder(proxy: self))
                            try inbound.pipeline.syncOperations.addHandler(a)
                            try outbound.pipeline.syncOperations.addHandler(Recorder(proxy: self))
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

    fileprivate func record(_ buffer: ByteBuffer) {
        recorded.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    }

    /// Passes reads on after copying them into the capture.
    private final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let proxy: RecordingProxy
        init(proxy: RecordingProxy) { self.proxy = proxy }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            proxy.record(Self.unwrapInboundIn(data))
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
