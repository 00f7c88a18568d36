import Crypto
import Foundation
import X509

/// A certificate authority made in the test, writing PEM files as an operator would have them: the
/// root (for `--ca`), and a server certificate and key it signs (for `--cert`/`--cert-key`).
struct TestCA {
    let key = P256.Signing.PrivateKey()
    let name: DistinguishedName
    let root: Certificate

    init() throws {
        name = try DistinguishedName { CommonName("Tandem party test CA") }
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

    /// Writes `ca.pem`, `cert.pem` (for `dnsName`) and `key.pem` into `folder`; returns their paths.
    func write(serverName dnsName: String, into folder: String) throws -> (ca: String, cert: String, key: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let leafKey = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86400, issuer: name,
            subject: try DistinguishedName { CommonName(dnsName) }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName(dnsName)])
            },
            issuerPrivateKey: .init(key))
        let paths = (ca: folder + "/ca.pem", cert: folder + "/cert.pem", key: folder + "/key.pem")
        try root.serializeAsPEM().pemString.write(toFile: paths.ca, atomically: true, encoding: .utf8)
        try leaf.serializeAsPEM().pemString.write(toFile: paths.cert, atomically: true, encoding: .utf8)
        try leafKey.pemRepresentation.write(toFile: paths.key, atomically: true, encoding: .utf8)
        return paths
    }
}
