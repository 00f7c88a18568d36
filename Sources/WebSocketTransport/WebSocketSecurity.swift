import NIOCore

/// The layer that goes first in a connection's pipeline, under the HTTP upgrade and the frames: TLS
/// (`wss://`, and `https://` for a server's ``HTTPResponder``). This module links no TLS library; the
/// WebSocketTLS module provides it on NIOSSL (`WebSocketServerTLS`, `WebSocketClientTLS`).
///
/// A connection with a security layer is treated as one that encrypts in memory: a responder's
/// sendfile bodies are read into buffers first (``FileRegionReader``), and each flush of frames leaves
/// as one write (``WebSocketWriteCoalescer``, one TLS record).
public protocol WebSocketSecurity: Sendable {
    /// Adds this layer's handlers to a new connection's pipeline, before any other handler. Called on
    /// the channel's event loop, once per connection.
    func addHandlers(to pipeline: ChannelPipeline.SynchronousOperations) throws

    /// A failure of this layer on a connection to `address` (`host:port`) as a sentence for a person
    /// ("127.0.0.1:8443 does not speak TLS (a plain ws:// server?)"); `nil` if `error` is not one of its
    /// own. A client's upgrade fails with it as a ``WebSocketTransportError/Kind/tlsFailed`` error.
    func describe(_ error: any Error, address: String) -> String?
}

extension WebSocketSecurity {
    /// Describes none: for a layer whose failures only close the connection (a server's).
    public func describe(_ error: any Error, address: String) -> String? { nil }
}
