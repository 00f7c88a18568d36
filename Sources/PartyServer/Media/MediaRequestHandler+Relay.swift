import HTTPRanges
import NIOCore
import NIOHTTP1
import PartyKit

/// Items whose bytes come from their host through its relay connection (`tandem serve`).
extension MediaRequestHandler {
    /// Chunks the relay fetches ahead of the one being sent, per response: enough to keep a
    /// long-latency host link busy (16 × 32 KiB in flight), bounded so one reader cannot fill the cache.
    static let relayWindow: Int64 = 16

    /// A relayed item: the bytes come from the host through the relay, chunk by chunk, each
    /// written once the previous one has gone out (the reader's pace bounds what is held).
    func relay(party: String, item: Int, size: Int64, head: HTTPRequestHead, keepAlive: Bool,
               context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Accept-Ranges", "bytes"), ("Content-Type", "application/octet-stream")])
        let status: HTTPResponseStatus
        let first: Int64, last: Int64
        switch ByteRange.resolve(head.headers.first(name: "range"), size: size) {
        case .unsatisfiable:
            return refuse(.rangeNotSatisfiable, "range not satisfiable", extra: [("Content-Range", "bytes */\(size)")],
                          head: head, context: context)
        case .whole:
            (status, first, last) = (.ok, 0, size - 1)
        case .partial(let f, let l):
            (status, first, last) = (.partialContent, f, l)
            headers.add(name: "Content-Range", value: "bytes \(f)-\(l)/\(size)")
        }
        headers.add(name: "Content-Length", value: "\(max(0, last - first + 1))")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        guard head.method == .GET, last >= first else { return finish(keepAlive: keepAlive, context: context) {} }
        library.noteServing(bytes: last - first + 1)
        let bound = NIOLoopBound(Pump(handler: self, context: context), eventLoop: context.eventLoop)
        let job = RelayJob(relay: library.relay, loop: context.eventLoop, party: party, item: item, first: first, last: last,
                           keepAlive: keepAlive)
        Task { await job.run(bound) }
    }

    /// The handler and its context, bound to their event loop for the relay job.
    struct Pump {
        let handler: MediaRequestHandler
        let context: ChannelHandlerContext
    }

    /// Waits for the relay connection of a party that just came to this node, then answers.
    struct RelayWait: Sendable {
        let relay: MediaRelay
        let loop: any EventLoop
        let party: String
        let item: Int
        let head: HTTPRequestHead
        let keepAlive: Bool

        func run(_ bound: NIOLoopBound<Pump>) async {
            let size = await relay.size(party: party, item: item, waiting: MediaRequestHandler.upstreamWait)
            let (party, item, head, keepAlive) = (party, item, head, keepAlive)
            loop.execute {
                let pump = bound.value
                guard pump.handler.active else { return }
                guard let size else {
                    return pump.handler.refuse(.notFound, "no item \(item) in this party", head: head, context: pump.context)
                }
                pump.handler.relay(party: party, item: item, size: size, head: head, keepAlive: keepAlive, context: pump.context)
            }
        }
    }

    /// Sends `first...last` of a relayed item to one reader.
    struct RelayJob: Sendable {
        let relay: MediaRelay
        let loop: any EventLoop
        let party: String
        let item: Int
        let first: Int64
        let last: Int64
        let keepAlive: Bool

        func run(_ bound: NIOLoopBound<Pump>) async {
            let chunk = Int64(RelayProtocol.chunkBytes)
            var position = first
            do {
                while position <= last {
                    let index = position / chunk, lastIndex = last / chunk
                    if index < lastIndex {
                        relay.prefetch(party: party, item: item, indices: index + 1...min(index + MediaRequestHandler.relayWindow, lastIndex))
                    }
                    let bytes = try await relay.chunk(party: party, item: item, index: index)
                    let start = Int(position - index * chunk), end = Int(min(last - index * chunk, Int64(bytes.count) - 1))
                    guard start <= end else { throw MediaRelay.Failure(description: "short chunk \(index) of item \(item)") }
                    let slice = Array(bytes[start...end])
                    try await write(slice, bound)
                    position += Int64(slice.count)
                }
                let keepAlive = self.keepAlive
                loop.execute { bound.value.handler.finish(keepAlive: keepAlive, context: bound.value.context) {} }
            } catch {
                // A body cut short (the host left, the reader left): the reader sees a short read.
                loop.execute { bound.value.context.close(promise: nil) }
            }
        }

        private func write(_ bytes: [UInt8], _ bound: NIOLoopBound<Pump>) async throws {
            let loop = self.loop
            try await loop.flatSubmit { () -> EventLoopFuture<Void> in
                let pump = bound.value
                guard pump.handler.active else { return loop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
                let buffer = pump.context.channel.allocator.buffer(bytes: bytes)
                return pump.context.writeAndFlush(pump.handler.wrapOutboundOut(.body(.byteBuffer(buffer))))
            }.get()
        }
    }
}
