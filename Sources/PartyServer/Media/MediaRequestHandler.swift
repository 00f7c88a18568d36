import HTTPRanges
import NIOCore
import NIOHTTP1
import NIOPosix
import PartyKit
import PartyWeb
import WebSocketTransport

/// Serves the party port's plain HTTP on one connection: the browser guest's page (`/p/ID`, `/web/NAME`:
/// ``WebRoute``) and `GET`/`HEAD /party/ID/media/N`: byte ranges of an item's local file
/// (206, 416, `Accept-Ranges`, `Content-Range`), to holders of the party's media token (a header, or
/// the page's cookie; 403
/// otherwise, and 429 once an address sent too many wrong ones: ``MediaWrongKeys``); 404 for an
/// unknown party or item. The body goes out as a file region (sendfile):
/// the bytes never enter this process's memory, so a reader that stops reading costs a file
/// descriptor and a socket, not a buffer. One request at a time (NIO's pipelining handler sits in
/// front); keep-alive as the client asks.
final class MediaRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A keep-alive connection with no request for this long is closed (players reconnect at once).
    static let idleTimeout = TimeAmount.seconds(30)
    /// Longest a request for a party that just came to this node waits for its host's relay connection:
    /// under the players' read timeout (`InputFile.networkTimeoutMicroseconds`, 10 s).
    static let upstreamWait = Duration.seconds(8)

    let library: PartyMediaLibrary
    private let fileIO: NonBlockingFileIO
    /// The peer's address, by which wrong credentials are counted.
    private let source: String
    private let wrongKeys: MediaWrongKeys
    private var request: HTTPRequestHead?
    private var idleTimer: Scheduled<Void>?
    /// False once the connection is gone: answers still on their way are dropped.
    private(set) var active = true

    init(library: PartyMediaLibrary, fileIO: NonBlockingFileIO, source: String, wrongKeys: MediaWrongKeys) {
        self.library = library
        self.fileIO = fileIO
        self.source = source
        self.wrongKeys = wrongKeys
    }

    func handlerAdded(context: ChannelHandlerContext) { armIdleTimer(context: context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        active = false
        idleTimer?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        active = false
        idleTimer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            idleTimer?.cancel()
            request = head
        case .body:
            break  // media requests have no body; whatever comes is ignored
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: Answering

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = head.isKeepAlive
        guard head.method == .GET || head.method == .HEAD else {
            return refuse(.methodNotAllowed, "only GET and HEAD", extra: [("Allow", "GET, HEAD")], head: head, context: context)
        }
        if let route = WebRoute(target: head.uri) {
            return serve(route, head: head, context: context)
        }
        if let (party, item, request) = WebMediaPath.parse(head.uri) {
            guard let entry = authorized(party: party, head: head, context: context) else { return }
            return serveConverted(request, party: party, item: item, entry: entry, head: head, context: context)
        }
        guard let (party, item) = MediaPath.parse(head.uri) else {
            return refuse(.notFound, "not a party media path", head: head, context: context)
        }
        guard let entry = authorized(party: party, head: head, context: context) else { return }
        guard let path = entry.files[item] else {
            if let size = library.relay.size(party: party, item: item) {
                return relay(party: party, item: item, size: size, head: head, keepAlive: keepAlive, context: context)
            }
            guard library.relay.awaitsUpstream(party: party) else {
                return refuse(.notFound, "no item \(item) in this party", head: head, context: context)
            }
            // The party just came to this node and its host's relay is on its way: a slow answer, not a 404.
            let bound = NIOLoopBound(Pump(handler: self, context: context), eventLoop: context.eventLoop)
            let wait = RelayWait(relay: library.relay, loop: context.eventLoop, party: party, item: item, head: head, keepAlive: keepAlive)
            Task { await wait.run(bound) }
            return
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let range = head.headers.first(name: "range")
        fileIO.openFile(_deprecatedPath: path, eventLoop: loop).whenComplete { result in
            let (handler, context) = bound.value
            handler.opened(result, item: item, path: path, range: range, head: head, keepAlive: keepAlive, context: context)
        }
    }

    /// The party's entry when the request may have its media; otherwise answers it (429 for an address
    /// over the wrong-key limit, 404 for an unknown party, 403 for a missing or wrong credential) and
    /// returns nil.
    private func authorized(party: String, head: HTTPRequestHead, context: ChannelHandlerContext) -> PartyMediaLibrary.Entry? {
        if case .refused(let wait) = wrongKeys.check(source) {
            refuse(.tooManyRequests, WrongKeyLimiter.refusal(retryAfter: wait), extra: [("Retry-After", "\(wait)")],
                   head: head, context: context)
            return nil
        }
        guard let entry = library.entry(party: party) else {
            refuse(.notFound, "no such party here", head: head, context: context)
            return nil
        }
        let presented = MediaToken.presented(authorization: head.headers.first(name: "authorization"),
                                             cookies: head.headers["cookie"])
        guard MediaToken.matches(presented: presented, token: entry.token) else {
            // A request without any credential is a player that has none, not a guess.
            if presented != nil { wrongKeys.recordMiss(source) }
            refuse(.forbidden, "wrong or missing party media credential", head: head, context: context)
            return nil
        }
        return entry
    }

    private func opened(_ result: Result<(NIOFileHandle, FileRegion), any Error>, item: Int, path: String, range: String?,
                        head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        switch result {
        case .failure:
            refuse(.notFound, "item \(item) is not available", head: head, context: context)
        case .success(let (file, region)):
            guard active else {
                try? file.close()
                return
            }
            send(file: file, region: region, path: path, range: range, head: head, keepAlive: keepAlive, context: context)
        }
    }

    private func send(file: NIOFileHandle, region: FileRegion, path: String, range: String?, head: HTTPRequestHead, keepAlive: Bool,
                      context: ChannelHandlerContext) {
        let size = Int64(region.readableBytes)
        var headers = HTTPHeaders([("Accept-Ranges", "bytes"), ("Content-Type", MediaContentType.of(path: path))])
        let status: HTTPResponseStatus
        let body: FileRegion?
        switch ByteRange.resolve(range, size: size) {
        case .unsatisfiable:
            try? file.close()
            return refuse(.rangeNotSatisfiable, "range not satisfiable", extra: [("Content-Range", "bytes */\(size)")],
                          head: head, context: context)
        case .whole:
            status = .ok
            headers.add(name: "Content-Length", value: "\(size)")
            body = size > 0 ? region : nil
        case .partial(let first, let last):
            status = .partialContent
            headers.add(name: "Content-Length", value: "\(last - first + 1)")
            headers.add(name: "Content-Range", value: "bytes \(first)-\(last)/\(size)")
            body = FileRegion(fileHandle: file, readerIndex: Int(first), endIndex: Int(last) + 1)
        }
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if let body, head.method == .GET {
            library.noteServing(bytes: Int64(body.readableBytes))
            context.write(wrapOutboundOut(.body(.fileRegion(body))), promise: nil)
        }
        // The file is closed when the last byte is out or the write failed (the reader left): this
        // handler is its one owner.
        finish(keepAlive: keepAlive, context: context) { try? file.close() }
    }

    func refuse(_ status: HTTPResponseStatus, _ reason: String, extra: [(String, String)] = [], head: HTTPRequestHead,
                        context: ChannelHandlerContext) {
        let text = "\(status.code) \(status.reasonPhrase): \(reason)\n"
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(text.utf8.count)")])
        headers.add(contentsOf: extra)
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        }
        finish(keepAlive: head.isKeepAlive, context: context) {}
    }

    func finish(keepAlive: Bool, context: ChannelHandlerContext, done: @escaping @Sendable () -> Void) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { result in
            done()
            let (handler, context) = bound.value
            if case .failure = result { return context.close(promise: nil) }
            if keepAlive { handler.armIdleTimer(context: context) } else { context.close(promise: nil) }
        }
    }

    private func armIdleTimer(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        guard active else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(in: Self.idleTimeout) { bound.value.close(promise: nil) }
    }
}

/// Makes a ``MediaRequestHandler`` for each connection of the party server that is not a WebSocket.
public struct PartyMediaResponder: HTTPResponder {
    let library: PartyMediaLibrary
    let fileIO = NonBlockingFileIO(threadPool: .singleton)
    let wrongKeys: MediaWrongKeys

    public init(library: PartyMediaLibrary) { self.init(library: library, wrongKeys: MediaWrongKeys()) }

    init(library: PartyMediaLibrary, wrongKeys: MediaWrongKeys) {
        self.library = library
        self.wrongKeys = wrongKeys
    }

    public func makeHandler(remoteAddress: SocketAddress?) -> any ChannelHandler & RemovableChannelHandler {
        MediaRequestHandler(library: library, fileIO: fileIO, source: Self.source(of: remoteAddress), wrongKeys: wrongKeys)
    }

    /// The source wrong credentials are counted by: the peer's IP, grouped as the party port groups it
    /// (``WrongKeyLimiter/source(ofAddress:)``: an IPv6 /64 is one source).
    static func source(of address: SocketAddress?) -> String {
        address?.ipAddress.map(WrongKeyLimiter.source(ofAddress:)) ?? address?.pathname ?? "unknown peer"
    }
}
