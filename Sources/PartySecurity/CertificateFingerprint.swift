import Crypto
import Foundation
import NIOSSL

/// A certificate's SHA-256 fingerprint as party links carry it (`fp=`): the digest of the certificate's
/// DER bytes in base64url without padding (43 characters, e.g. `q2C1…`), short enough for a link.
public enum CertificateFingerprint {
    /// The fingerprint of DER bytes.
    public static func of(der: some Sequence<UInt8>) -> String {
        let digest = SHA256.hash(data: Array(der))
        return Data(digest).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The fingerprint of a certificate.
    public static func of(_ certificate: NIOSSLCertificate) throws -> String {
        of(der: try certificate.toDERBytes())
    }
}
