import NIOSSL
import TestSupportTLS

extension TestCertificateAuthority {
    /// Client TLS trusting only this CA, verifying the chain and `host`.
    func clientTLS(host: String) throws -> WebSocketClientTLSBox {
        WebSocketClientTLSBox(context: try clientContext(), host: host)
    }
}

/// What a client needs to dial with TLS (kept apart so this file does not import the module under test).
struct WebSocketClientTLSBox {
    let context: NIOSSLContext
    let host: String
}
