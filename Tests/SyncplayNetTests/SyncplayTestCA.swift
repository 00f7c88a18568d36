import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made in the test, and a server certificate for localhost it signs,
/// written as syncplay-server's `--tls` folder wants them: privkey.pem, cert.pem, chain.pem.
struct SyncplayTestCA {
    let key = P256.Signing.PrivateKey()
    let name: DistinguishedName
    let root: Certificate

    init() throws {
        name = try DistinguishedName { CommonName("Tandem Syncplay test CA") }
        let now = Date()
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                KeyUsage(keyCertSign: true)
            },
            issuerPrivateKey: .init(key))
    }

    /// Writes the server's files into `folder` and the root into `folder/ca.pem`; returns the root's path.
    func writeServerFolder(_ folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let leafKey = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: name,
            subject: try DistinguishedName { CommonName("localhost") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                // The name for SNI, and the loopback address for a client that connects by it.
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key))
        let rootPEM = try root.serializeAsPEM().pemString
        try leafKey.pemRepresentation.write(toFile: folder + "/privkey.pem", atomically: true, encoding: .utf8)
        try leaf.serializeAsPEM().pemString.write(toFile: folder + "/cert.pem", atomically: true, encoding: .utf8)
        try rootPEM.write(toFile: folder + "/chain.pem", atomically: true, encoding: .utf8)
        try rootPEM.write(toFile: folder + "/ca.pem", atomically: true, encoding: .utf8)
        return folder + "/ca.pem"
    }
}
