import NIOCore

/// Serves the HTTP requests of a ``WebSocketServer`` connection that are not WebSocket upgrades, on the
/// same port as the WebSocket (for example media byte ranges next to the party's WebSocket).
///
/// A connection's first request decides: a valid WebSocket upgrade for the server's path is upgraded;
/// a request that asks for a WebSocket upgrade of that path but fails it is answered 400 by the server;
/// any other request hands the whole connection to a handler from ``makeHandler(remoteAddress:)``.
/// Later requests on a keep-alive connection go straight to that handler, even ones that ask for an
/// upgrade (NIO upgrades only the first request of a connection).
///
/// The handler sits behind NIO's HTTP/1.1 server codec with pipelining assistance (requests reach it one
/// at a time: the next head arrives after the previous response's `.end` was written) and with NIO's
/// protocol error handler (malformed HTTP gets a 400 and the connection closes). ``WebSocketServer/stop()``
/// closes its connection like any other.
public protocol HTTPResponder: Sendable {
    /// A new handler for one connection, added to the pipeline behind NIO's HTTP/1.1 server codec
    /// (InboundIn = `HTTPServerRequestPart`, OutboundOut = `HTTPServerResponsePart`). It receives the
    /// connection's first request from its head on, and owns the connection from then on: keep-alive,
    /// closing, its own idle timeout, respecting `channelWritabilityChanged` for large bodies, and errors
    /// such as a peer that disconnects mid-response.
    ///
    /// Called on the connection's event loop; must not block.
    func makeHandler(remoteAddress: SocketAddress?) -> any ChannelHandler & RemovableChannelHandler
}
