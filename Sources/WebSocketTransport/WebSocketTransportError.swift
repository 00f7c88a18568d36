/// An error from starting a ``WebSocketServer`` or connecting a ``WebSocketClient``.
///
/// ``message`` is a complete sentence for a person: it names the `host:port` and the reason,
/// e.g. "connection refused by 127.0.0.1:9000".
public struct WebSocketTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for callers that react differently (for example retry after `refused`).
    public enum Kind: Sendable, Equatable {
        /// The server could not listen on its address (in use, no permission, unknown host).
        case bindFailed
        /// ``WebSocketServer/start(onConnection:)`` was called twice or after ``WebSocketServer/stop()``.
        case invalidState
        /// Nothing listens on the address: the peer refused the TCP connection.
        case connectionRefused
        /// The host name could not be resolved.
        case unknownHost
        /// The TCP connection or the HTTP upgrade did not finish in time.
        case timedOut
        /// The peer answered, but not with a WebSocket upgrade (wrong path, not a WebSocket server).
        case upgradeRejected
        /// The connection failed or closed some other way during connect or upgrade.
        case connectionFailed
        /// The TLS handshake failed: the peer does not speak TLS, or its certificate was refused.
        case tlsFailed
    }

    /// The category of the failure.
    public let kind: Kind
    /// A sentence naming `host:port` and the reason.
    public let message: String

    /// Creates an error; `message` should name `host:port`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { self.message }
}
