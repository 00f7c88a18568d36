import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made in the test: a root, and server certificates it signs for given
/// names, as NIOSSL objects or written as PEM files the way an operator (or syncplay-server) has them.
public struct TestCertificateAuthority: Sendable {
    public let key: P256.Signing.PrivateKey
    public let name: DistinguishedName
    /// The root certificate.
    public let certificate: Certificate

    public init(commonName: String = "Tandem test CA") throws {
        key = P256.Signing.PrivateKey()
        name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(key))
    }

    /// The root as PEM.
    public var rootPEM: String { get throws { try certificate.serializeAsPEM().pemString } }

    /// The root as NIOSSL sees it, for a client's trust roots.
    public var root: NIOSSLCertificate {
        get throws { try NIOSSLCertificate(bytes: Array(rootPEM.utf8), format: .pem) }
    }

    /// A server certificate for `dnsNames` (and `ipAddresses`, raw bytes: `[127, 0, 0, 1]`) signed by
    /// this CA, and its key, both PEM. Its subject's common name is the first name.
    public func issuePEM(dnsNames: [String], ipAddresses: [[UInt8]] = []) throws -> (certificate: String, key: String) {
        let leafKey = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400,
            issuer: name, subject: try DistinguishedName { CommonName(dnsNames.first ?? "server") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(dnsNames.map { .dnsName($0) } + ipAddresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) })
            },
            issuerPrivateKey: .init(key))
        return (try leaf.serializeAsPEM().pemString, leafKey.pemRepresentation)
    }

    /// A server certificate for `dnsNames` signed by this CA, with its key, as NIOSSL objects.
    public func issue(dnsNames: [String]) throws -> (certificate: NIOSSLCertificate, key: NIOSSLPrivateKey) {
        let (certificate, key) = try issuePEM(dnsNames: dnsNames)
        return (try NIOSSLCertificate(bytes: Array(certificate.utf8), format: .pem),
                try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem))
    }

    /// A server TLS context showing a certificate for `dnsNames`.
    public func serverContext(dnsNames: [String]) throws -> NIOSSLContext {
        let (certificate, key) = try issue(dnsNames: dnsNames)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)],
                                                                         privateKey: .privateKey(key)))
    }

    /// A client TLS context trusting only this CA, verifying the chain and the host name.
    public func clientContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([try root])
        configuration.certificateVerification = .fullVerification
        return try NIOSSLContext(configuration: configuration)
    }

    /// Writes `ca.pem` (the root, for `--ca`), `cert.pem` (for `dnsName`) and `key.pem` into
    /// `folder`, as `tandem --cert/--cert-key` take them; returns their paths.
    public func write(serverName dnsName: String, into folder: String) throws -> (ca: String, cert: String, key: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (certificate, key) = try issuePEM(dnsNames: [dnsName])
        let paths = (ca: folder + "/ca.pem", cert: folder + "/cert.pem", key: folder + "/key.pem")
        try rootPEM.write(toFile: paths.ca, atomically: true, encoding: .utf8)
        try certificate.write(toFile: paths.cert, atomically: true, encoding: .utf8)
        try key.write(toFile: paths.key, atomically: true, encoding: .utf8)
        return paths
    }

    /// Writes syncplay-server's `--tls` folder (privkey.pem, cert.pem for localhost and 127.0.0.1,
    /// chain.pem) and the root into `folder/ca.pem`; returns the root's path.
    public func writeSyncplayServerFolder(_ folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The name for SNI, and the loopback address for a client that connects by it.
        let (certificate, key) = try issuePEM(dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
        let root = try rootPEM
        try key.write(toFile: folder + "/privkey.pem", atomically: true, encoding: .utf8)
        try certificate.write(toFile: folder + "/cert.pem", atomically: true, encoding: .utf8)
        try root.write(toFile: folder + "/chain.pem", atomically: true, encoding: .utf8)
        try root.write(toFile: folder + "/ca.pem", atomically: true, encoding: .utf8)
        return folder + "/ca.pem"
    }
}
