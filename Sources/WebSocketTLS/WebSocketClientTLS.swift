import NIOCore
import NIOSSL
import WebSocketTransport

/// TLS for the client side of a `WebSocketClient` connection (`wss://`): the context (trust roots,
/// verification mode), the name to send and check, and an optional callback that replaces the chain check
/// (for example pinning one certificate by its fingerprint).
///
/// The TLS handler is the first in the pipeline, so everything above it (the HTTP upgrade, the frames) is
/// the same as for a plain connection.
public struct WebSocketClientTLS: WebSocketSecurity {
    /// Trust roots, protocol versions and the verification mode.
    public let context: NIOSSLContext
    /// The server name for SNI and host name checks; `nil` for an IP address (NIOSSL then checks the
    /// certificate's IP address entries against the peer's address).
    public let serverHostname: String?
    /// Replaces NIOSSL's certificate verification when set (see `NIOSSLCustomVerificationCallback`). It is
    /// used only when the context's `certificateVerification` is not `.none`.
    public let verify: (@Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResult>) -> Void)?

    /// - Parameters:
    ///   - context: Built from a client `TLSConfiguration`.
    ///   - host: The host being dialled; an IP address is not sent as SNI.
    ///   - verify: Replaces the chain check (pinning); `nil` keeps NIOSSL's.
    public init(
        context: NIOSSLContext,
        host: String,
        verify: (@Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResult>) -> Void)? = nil
    ) {
        self.context = context
        self.serverHostname = Self.isIPAddress(host) ? nil : host
        self.verify = verify
    }

    /// A new client handler for one connection.
    public func makeHandler() throws -> NIOSSLClientHandler {
        if let verify = self.verify {
            return try NIOSSLClientHandler(
                context: self.context,
                serverHostname: self.serverHostname,
                customVerificationCallback: { certificates, promise in verify(certificates, promise) }
            )
        }
        return try NIOSSLClientHandler(context: self.context, serverHostname: self.serverHostname)
    }

    /// Adds the client handler, first in the pipeline.
    public func addHandlers(to pipeline: ChannelPipeline.SynchronousOperations) throws {
        try pipeline.addHandler(self.makeHandler())
    }

    public func describe(_ error: any Error, address: String) -> String? {
        Self.describeTLS(error, address: address)
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

extension WebSocketClientTLS {
    /// Describes a TLS failure of a connection to `address` for a person, or `nil` if `error` is not one.
    static func describeTLS(_ error: any Error, address: String) -> String? {
        switch error {
        case let error as NIOSSLError:
            switch error {
            case .handshakeFailed(let reason):
                let text = "\(reason)"
                if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG")
                    || text.contains("HTTP_REQUEST") || text.contains("RECORD_TOO_LARGE") {
                    return "\(address) does not speak TLS (a plain ws:// server?)"
                }
                if text.contains("CERTIFICATE_VERIFY_FAILED") {
                    return "TLS with \(address) failed: its certificate is not trusted"
                }
                return "TLS handshake with \(address) failed: \(text)"
            case .uncleanShutdown:
                return "\(address) closed the TLS connection during the handshake"
            default:
                return "TLS with \(address) failed: \(error)"
            }
        case let error as NIOSSLExtraError:
            return "TLS with \(address) failed: \(error)"
        case let error as BoringSSLError:
            return "TLS with \(address) failed: \(error)"
        default:
            return nil
        }
    }
}
