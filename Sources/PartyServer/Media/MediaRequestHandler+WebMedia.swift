import NIOCore
import NIOHTTP1
import PartyKit

/// `/party/ID/media/N/web/…`: what the browser page plays of an item its browser cannot open as it
/// is (``WebMediaPath``), made by the party's ``WebMediaSource`` — or, on `tandem serve`, by the
/// party's host, through its relay connection (``MediaRelay/piece(party:item:_:)``). The credential
/// was checked as for the media itself; the bytes are made off the event loop and written when ready.
extension MediaRequestHandler {
    /// The longest reason a 500 carries: one line for people, never a dump.
    static let maxFailureReason = 300

    func serveConverted(_ request: WebMediaRequest, party: String, item: Int, entry: PartyMediaLibrary.Entry, head: HTTPRequestHead,
                        context: ChannelHandlerContext) {
        guard let source = entry.web else {
            return serveRelayed(request, party: party, item: item, head: head, context: context)
        }
        guard entry.files[item] != nil else {
            return refuse(.notFound, "no item \(item) in this party", head: head, context: context)
        }
        answer(request, item: item, head: head, context: context) { try await source.answer(item: item, request) }
    }

    /// A piece of a relayed item, from the party's host (a party that just came to this node waits
    /// for its host's relay connection, as its media does).
    private func serveRelayed(_ request: WebMediaRequest, party: String, item: Int, head: HTTPRequestHead,
                              context: ChannelHandlerContext) {
        let relay = library.relay
        guard relay.relays(party: party) || relay.awaitsUpstream(party: party) else {
            return refuse(.notFound, MediaRelay.notConverted, head: head, context: context)
        }
        answer(request, item: item, head: head, context: context) {
            guard await relay.size(party: party, item: item, waiting: Self.upstreamWait) != nil else {
                throw WebMediaUnavailable(relay.relays(party: party) ? "no item \(item) in this party" : MediaRelay.notConverted)
            }
            return try await relay.piece(party: party, item: item, request)
        }
    }

    /// Answers `request` with what `make` makes, off the event loop.
    private func answer(_ request: WebMediaRequest, item: Int, head: HTTPRequestHead, context: ChannelHandlerContext,
                        _ make: @escaping @Sendable () async throws -> [UInt8]) {
        let loop = context.eventLoop
        let bound = NIOLoopBound(Pump(handler: self, context: context), eventLoop: loop)
        Task {
            let result: Result<[UInt8], any Error>
            do { result = .success(try await make()) } catch { result = .failure(error) }
            loop.execute {
                let pump = bound.value
                guard pump.handler.active else { return }
                pump.handler.converted(result, request: request, item: item, head: head, context: pump.context)
            }
        }
    }

    private func converted(_ result: Result<[UInt8], any Error>, request: WebMediaRequest, item: Int, head: HTTPRequestHead,
                           context: ChannelHandlerContext) {
        let bytes: [UInt8]
        switch result {
        case .failure(let unavailable as WebMediaUnavailable):
            return refuse(.notFound, Self.oneLine(unavailable.reason), head: head, context: context)
        case .failure(RelayPieceFailure.unavailable(let reason)):
            return refuse(.notFound, Self.oneLine(reason), head: head, context: context)
        case .failure(RelayPieceFailure.conversion(let reason)):
            return refuse(.internalServerError, Self.oneLine("converting item \(item): \(reason)"), head: head, context: context)
        case .failure(RelayPieceFailure.relay(let reason)):
            return refuse(.badGateway, Self.oneLine("item \(item): \(reason)"), head: head, context: context)
        case .failure(let error):
            return refuse(.internalServerError, Self.oneLine("converting item \(item): \(error)"), head: head, context: context)
        case .success(let made):
            bytes = made
        }
        var headers = HTTPHeaders([("Content-Type", request.contentType), ("Content-Length", "\(bytes.count)"),
                                   ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-cache")])
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        if head.method == .GET, !bytes.isEmpty {
            library.noteServing(bytes: Int64(bytes.count))
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
        }
        finish(keepAlive: head.isKeepAlive, context: context) {}
    }

    /// `text` on one line, cut to ``maxFailureReason`` characters.
    static func oneLine(_ text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > maxFailureReason ? String(flat.prefix(maxFailureReason)) + "…" : flat
    }
}
