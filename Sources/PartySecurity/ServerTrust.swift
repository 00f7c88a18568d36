import Logging
import NIOCore
import NIOSSL
import PartyKit
import Synchronization
import WebSocketTLS
import WebSocketTransport

/// How a member trusts its party server: the same rule for the party connection, the host's relay
/// connection and the guest's media tunnel.
public enum ServerTrust: Sendable, Equatable {
    /// TLS; the server's certificate must have this fingerprint (self-signed servers). Chain and name
    /// are not checked: the fingerprint says everything.
    case pinned(String)
    /// TLS; the chain must lead to the system's trust store or to a root in one of these PEM files, and
    /// name the host.
    case verified(extraRoots: [String])
    /// Plain WebSocket and HTTP (`--insecure`).
    case insecure

    /// What `link` says: insecure, pinned by its `fp`, or verified.
    public init(link: PartyLink, extraRoots: [String] = []) {
        if link.insecure {
            self = .insecure
        } else if let fingerprint = link.fingerprint {
            self = .pinned(fingerprint)
        } else {
            self = .verified(extraRoots: extraRoots)
        }
    }

    /// TLS for one connection to `host`, and the check that records what a pinned server showed (nil when
    /// insecure).
    package func clientTLS(host: String) throws -> (tls: WebSocketClientTLS, check: PinCheck?)? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        let check: PinCheck?
        switch self {
        case .insecure:
            return nil
        case .pinned(let fingerprint):
            // The fingerprint replaces both the chain and the name check, so no trust store is loaded:
            // the system's bundle parsed into every connection's context cost about 1 MB and a few
            // milliseconds each (the load bench's 10,000 connections took 10 GB).
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates([])
            check = PinCheck(expected: fingerprint)
        case .verified(let roots):
            configuration.certificateVerification = .fullVerification
            configuration.additionalTrustRoots = roots.map { .file($0) }
            check = nil
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: configuration) } catch {
            throw SecurityError.configuration("\(error)")
        }
        guard let check else { return (WebSocketClientTLS(context: context, host: host), nil) }
        return (WebSocketClientTLS(context: context, host: host) { certificates, promise in check.verify(certificates, promise) }, check)
    }

    /// Opens a party WebSocket connection under this trust, turning failures into sentences: a pinned
    /// certificate that differs names both fingerprints; a TLS/plain mix-up says which side is which.
    public func connect(host: String, port: Int, path: String, limits: WebSocketLimits, logger: Logger) async throws
        -> WebSocketConnection {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let made = try clientTLS(host: host)
        do {
            return try await WebSocketClient.connect(host: host, port: port, path: path, limits: limits, logger: logger,
                                                     tls: made?.tls)
        } catch {
            throw explain(error, address: address, check: made?.check)
        }
    }

    /// A connection failure in terms of this trust.
    func explain(_ error: any Error, address: String, check: PinCheck?) -> any Error {
        if let check, let seen = check.seen, seen != check.expected {
            return SecurityError.fingerprintMismatch(address: address, expected: check.expected, seen: seen)
        }
        guard let error = error as? WebSocketTransportError else { return error }
        switch (self, error.kind) {
        case (.insecure, .upgradeRejected), (.insecure, .connectionFailed):
            return WebSocketTransportError(error.kind, "\(error.message) (this is a plain --insecure connection: "
                                           + "is \(address) a TLS server? then use its tandem:// link without --insecure)")
        case (_, .tlsFailed):
            return WebSocketTransportError(error.kind, "\(error.message) (an --insecure server needs a tandem+insecure:// link)")
        default:
            return error
        }
    }
}

/// Pins one certificate: records the fingerprint the server showed and accepts only the expected one.
/// Runs on the connection's event loop (hashing one certificate; never blocks).
package final class PinCheck: Sendable {
    let expected: String
    private let shown = Mutex<String?>(nil)

    init(expected: String) {
        self.expected = expected
    }

    /// The fingerprint the server showed (nil before the handshake got that far).
    var seen: String? { shown.withLock { $0 } }

    func verify(_ certificates: [NIOSSLCertificate], _ promise: EventLoopPromise<NIOSSLVerificationResult>) {
        guard let leaf = certificates.first, let fingerprint = try? CertificateFingerprint.of(leaf) else {
            promise.succeed(.failed)
            return
        }
        shown.withLock { $0 = fingerprint }
        promise.succeed(fingerprint == expected ? .certificateVerified : .failed)
    }
}
