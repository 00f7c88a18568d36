import Foundation
import HTTPRanges
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A plain static file server on loopback for tests, on SwiftNIO: `GET` and `HEAD` of the files in
/// one folder, with single byte ranges (206, 416, `Accept-Ranges`, `Content-Range`) as any web
/// server answers them, keep-alive as the client asks. Its ``Mode`` can be switched at any time to
/// answer as a server without range support (200 with the whole body, the `Range` header ignored,
/// no `Accept-Ranges`), to answer 404 (or another error status) to everything, or never to answer.
///
/// Files are read whole on the event loop when asked for: the test media is a few hundred KiB.
/// Shared by the test targets that need a web server (PartyClientTests' URL items, TandemCLITests'
/// page links for yt-dlp).
public final class StaticFileServer: Sendable {
    public enum Mode: Sendable, Equatable {
        /// A web server with byte ranges (nginx, Apache, S3…).
        case ranges
        /// A server that ignores `Range` (a naive or misconfigured one).
        case noRanges
        /// Every path is 404.
        case notFound
        /// Every request is answered with this status (403, 500…) and a short text body.
        case failing(HTTPResponseStatus)
        /// Requests are read and never answered (a hung server).
        case silent
        /// A live stream over plain HTTP (a radio's, a camera's): the file's bytes and then whatever
        /// it grows by (a file ffmpeg is writing), without a length or byte ranges, until the client goes.
        case endless
    }

    /// The bound loopback port.
    public let port: Int
    private let channel: any Channel
    private let log: RequestLog

    private init(port: Int, channel: any Channel, log: RequestLog) {
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// Serves the files directly in `root` (no subfolders) on `127.0.0.1`, on a free port.
    public static func start(root: String, mode: Mode = .ranges) async throws -> StaticFileServer {
        let log = RequestLog(mode: mode)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(StaticFileHandler(root: root, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return StaticFileServer(port: channel.localAddress!.port!, channel: channel, log: log)
    }

    /// How the server answers from now on.
    public var mode: Mode {
        get { log.state.withLock { $0.mode } }
        set { log.state.withLock { $0.mode = newValue } }
    }

    /// From now on, requests for the file `name` are answered with `status` (a 403 or 410, as a site
    /// answers a media link that has expired), whatever the ``mode``.
    public func refuse(_ name: String, status: Int) {
        log.state.withLock { $0.refusals["/" + name] = HTTPResponseStatus(statusCode: status) }
    }

    /// From now on, requests for the file `name` without the header `Referer: referer` are refused
    /// with 403, as a site refuses its media to a player that does not say which page it is on.
    public func requireReferer(_ name: String, _ referer: String) {
        log.state.withLock { $0.referers["/" + name] = referer }
    }

    /// Every request so far, as "METHOD /path" plus " range=VALUE" when it had a `Range` header.
    public var requests: [String] { log.state.withLock { $0.requests } }

    /// `http://127.0.0.1:PORT/name`.
    public func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Stops listening (open connections are closed by their clients or the event loop).
    public func stop() async { try? await channel.close() }
}

/// The server's mode and the requests it has had, shared by its connections.
private final class RequestLog: Sendable {
    let state: Mutex<(mode: StaticFileServer.Mode, requests: [String], refusals: [String: HTTPResponseStatus], referers: [String: String])>

    init(mode: StaticFileServer.Mode) { state = Mutex((mode: mode, requests: [], refusals: [:], referers: [:])) }

    /// Records a request for `path` (with its `Referer` header, if any); returns how to answer it.
    func note(_ request: String, path: String, referer: String?) -> StaticFileServer.Mode {
        state.withLock { state in
            state.requests.append(request)
            if let required = state.referers[path], referer != required { return .failing(.forbidden) }
            return state.refusals[path].map { .failing($0) } ?? state.mode
        }
    }
}

/// One connection of a ``StaticFileServer``: answers each request once its end has arrived.
private final class StaticFileHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let root: String
    private let log: RequestLog
    private var head: HTTPRequestHead?

    init(root: String, log: RequestLog) {
        self.root = root
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let range = request.headers.first(name: "range")
        let path = String(request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let mode = log.note("\(request.method) \(request.uri)" + (range.map { " range=\($0)" } ?? ""), path: path,
                            referer: request.headers.first(name: "referer"))
        switch mode {
        case .silent: return
        case .failing(let status):
            return answer(status, body: Array("\(status.code) \(status.reasonPhrase)\n".utf8), request: request, context: context)
        case .ranges, .noRanges, .notFound, .endless: break
        }
        guard request.method == .GET || request.method == .HEAD else {
            return answer(.methodNotAllowed, body: [], request: request, context: context)
        }
        guard mode != .notFound, let bytes = file(request.uri) else {
            return answer(.notFound, body: Array("not found\n".utf8), request: request, context: context)
        }
        var headers = [("Content-Type", Self.contentType(request.uri))]
        if mode == .endless { return stream(request.uri, first: bytes, headers: headers, request: request, context: context) }
        guard mode == .ranges else {
            return answer(.ok, headers: headers, body: bytes, request: request, context: context)
        }
        headers.append(("Accept-Ranges", "bytes"))
        let size = Int64(bytes.count)
        switch ByteRange.resolve(range, size: size) {
        case .whole:
            answer(.ok, headers: headers, body: bytes, request: request, context: context)
        case .partial(let first, let last):
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)"))
            answer(.partialContent, headers: headers, body: Array(bytes[Int(first)...Int(last)]), request: request, context: context)
        case .unsatisfiable:
            headers.append(("Content-Range", "bytes */\(size)"))
            answer(.rangeNotSatisfiable, headers: headers, body: [], request: request, context: context)
        }
    }

    /// How often an endless answer looks for what its file grew by, and for how long at most.
    static let growthPoll = TimeAmount.milliseconds(100)
    static let longestStream = 600

    /// ``StaticFileServer/Mode/endless``: `first`, then the file's new bytes as they come (chunked,
    /// no length), until the client goes or ``longestStream`` polls have passed.
    private func stream(_ uri: String, first: [UInt8], headers: [(String, String)], request: HTTPRequestHead,
                        context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .ok,
                                                             headers: HTTPHeaders(headers + [("Connection", "close")])))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: first)))), promise: nil)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let progress = NIOLoopBoundBox((sent: first.count, polls: 0), eventLoop: context.eventLoop)
        context.eventLoop.scheduleRepeatedTask(initialDelay: Self.growthPoll, delay: Self.growthPoll) { task in
            let (handler, context) = bound.value
            progress.value.polls += 1
            guard context.channel.isActive, progress.value.polls < Self.longestStream else {
                task.cancel()
                context.close(promise: nil)
                return
            }
            guard let bytes = handler.file(uri), bytes.count > progress.value.sent else { return }
            let more = Array(bytes[progress.value.sent...])
            progress.value.sent = bytes.count
            context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: more)))), promise: nil)
        }
    }

    /// The bytes of the file a request path names: a plain name directly in the root, or nil.
    private func file(_ uri: String) -> [UInt8]? {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let name = path.dropFirst()
        guard path.hasPrefix("/"), !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return FileManager.default.contents(atPath: root + "/" + name).map { Array($0) }
    }

    private func answer(_ status: HTTPResponseStatus, headers extra: [(String, String)] = [], body: [UInt8],
                        request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(extra)
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: request.isKeepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method == .GET, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let keepAlive = request.isKeepAlive
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { result in
            if case .failure = result { return bound.value.close(promise: nil) }
            if !keepAlive { bound.value.close(promise: nil) }
        }
    }

    private static func contentType(_ uri: String) -> String {
        let uri = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if uri.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if uri.hasSuffix(".xml") { return "application/rss+xml" }
        if uri.hasSuffix(".m3u8") { return "application/vnd.apple.mpegurl" }
        if uri.hasSuffix(".ts") { return "video/mp2t" }
        if uri.hasSuffix(".mp4") { return "video/mp4" }
        return "application/octet-stream"
    }
}
