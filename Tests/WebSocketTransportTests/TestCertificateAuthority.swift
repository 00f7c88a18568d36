import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made in the test: a root, and leaf certificates it signs for given names.
struct TestCertificateAuthority {
    let key = P256.Signing.PrivateKey()
    let name: DistinguishedName
    let certificate: Certificate

    init(commonName: String = "Tandem test CA") throws {
        name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600 * 24,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(key))
    }

    /// The root as NIOSSL sees it, for a client's trust roots.
    var root: NIOSSLCertificate {
        get throws { try NIOSSLCertificate(bytes: Array(certificate.serializeAsPEM().pemString.utf8), format: .pem) }
    }

    /// A server certificate for `dnsNames` signed by this CA, with its key.
    func issue(dnsNames: [String]) throws -> (certificate: NIOSSLCertificate, key: NIOSSLPrivateKey) {
        let leafKey = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600 * 24,
            issuer: name, subject: try DistinguishedName { CommonName(dnsNames.first ?? "server") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(dnsNames.map { .dnsName($0) })
            },
            issuerPrivateKey: .init(key))
        return (try NIOSSLCertificate(bytes: Array(leaf.serializeAsPEM().pemString.utf8), format: .pem),
                try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem))
    }

    /// A server TLS context showing a certificate for `dnsNames`.
    func serverContext(dnsNames: [String]) throws -> NIOSSLContext {
        let (certificate, key) = try issue(dnsNames: dnsNames)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)],
                                                                         privateKey: .privateKey(key)))
    }

    /// Client TLS trusting only this CA, verifying the chain and `host`.
    func clientTLS(host: String) throws -> WebSocketClientTLSBox {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([try root])
        configuration.certificateVerification = .fullVerification
        return WebSocketClientTLSBox(context: try NIOSSLContext(configuration: configuration), host: host)
    }
}

/// What a client needs to dial with TLS (kept apart so this file does not import the module under test).
struct WebSocketClientTLSBox {
    let context: NIOSSLContext
    let host: String
}
