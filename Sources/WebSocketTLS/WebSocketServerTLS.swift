import NIOCore
import NIOSSL
import WebSocketTransport

/// TLS for every connection a `WebSocketServer` accepts (`wss://`, and `https://` for its responder):
/// a server handler on the context (the identity, protocol versions), first in each pipeline.
public struct WebSocketServerTLS: WebSocketSecurity {
    /// The server's certificate chain, key and protocol versions.
    public let context: NIOSSLContext

    /// - Parameter context: Built from a server `TLSConfiguration`.
    public init(context: NIOSSLContext) {
        self.context = context
    }

    /// Adds the server handler, first in the pipeline.
    public func addHandlers(to pipeline: ChannelPipeline.SynchronousOperations) throws {
        try pipeline.addHandler(NIOSSLServerHandler(context: self.context))
    }
}
