import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport
@testable import WebSocketTransport

/// A test ``HTTPResponder``: answers every request with `"METHOD URI"` as its body (no body for HEAD),
/// or with ``bigBodyBytes`` bytes for ``bigPath``; keeps the connection alive when the request allows it.
/// Records what its handlers saw.
final class EchoResponder: HTTPResponder {
    enum Event: Sendable, Equatable {
        /// A request head reached a handler: `"METHOD URI"`, plus the value of its `X-Test` header if any.
        case request(String)
        /// A handler left its connection (the connection closed).
        case removed
    }

    /// A body large enough not to fit in the socket buffers, so a client can hang up mid-response.
    static let bigBodyBytes = 32 << 20
    static let bigPath = "/party/big/media/0"

    private let log = Mutex<[Event]>([])
    private let continuation: AsyncStream<Event>.Continuation
    /// Every event, in order.
    let events: AsyncStream<Event>

    init() {
        (self.events, self.continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// The events so far.
    var seen: [Event] { self.log.withLock { $0 } }

    func record(_ event: Event) {
        self.log.withLock { $0.append(event) }
        self.continuation.yield(event)
    }

    /// The next request event, skipping removals.
    func nextRequest() async throws -> String? {
        try await within {
            for await event in self.events {
                if case .request(let text) = event { return text }
            }
            return nil
        }
    }

    /// Waits for the next removal.
    func nextRemoval() async throws {
        _ = try await within {
            for await event in self.events where event == .removed { return true }
            return false
        }
    }

    func makeHandler(remoteAddress: SocketAddress?) -> any ChannelHandler & RemovableChannelHandler {
        EchoHTTPHandler(responder: self)
    }
}

final class EchoHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: EchoResponder
    private var request: HTTPRequestHead?

    init(responder: EchoResponder) {
        self.responder = responder
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.responder.record(.removed)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            self.request = head
            let tag = head.headers["X-Test"].first.map { " \($0)" } ?? ""
            self.responder.record(.request("\(head.method) \(head.uri)\(tag)"))
        case .body:
            break
        case .end:
            guard let head = self.request else { return }
            self.request = nil
            self.respond(context: context, to: head)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respond(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let body = head.uri == EchoResponder.bigPath
            ? ByteBuffer(repeating: 0x61, count: EchoResponder.bigBodyBytes)
            : ByteBuffer(string: "\(head.method) \(head.uri)")
        var headers = HTTPHeaders([("Content-Length", String(body.readableBytes))])
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        }
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }
}

@available(*, unavailable)
extension EchoHTTPHandler: Sendable {}
