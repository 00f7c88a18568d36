import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate and key a party server shows: either files given by the operator (`--cert`,
/// `--cert-key`, e.g. Let's Encrypt; members verify the chain and host name) or a self-signed P-256
/// certificate made on first run and kept in the state folder (members pin its fingerprint).
public struct ServerIdentity: Sendable {
    /// The certificate first, then its intermediates.
    public let chain: [NIOSSLCertificate]
    public let privateKey: NIOSSLPrivateKey
    /// The SHA-256 fingerprint of the leaf certificate (see ``CertificateFingerprint``).
    public let fingerprint: String
    /// Whether this is Tandem's own self-signed certificate: links then carry its fingerprint.
    public let selfSigned: Bool

    /// File names in the state folder.
    public static let certificateFile = "server-cert.pem"
    public static let keyFile = "server-key.pem"
    /// How long a self-signed certificate is valid: 20 years. Links pin it, so it must outlive every link
    /// that was ever shared; nothing is gained by expiring it (a new one breaks every link).
    static let selfSignedLifetime: TimeInterval = 20 * 365 * 24 * 3600
    /// Backdating of the start of validity: 1 day, for members whose clocks are behind.
    static let clockSkewAllowance: TimeInterval = 24 * 3600

    /// The certificate chain and key in PEM files (e.g. `fullchain.pem` and `privkey.pem`).
    public static func load(certificateFile: String, keyFile: String) throws -> ServerIdentity {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificateFile) } catch {
            throw SecurityError.badFile(certificateFile, "not a PEM certificate file (\(error))")
        }
        guard let leaf = chain.first else { throw SecurityError.badFile(certificateFile, "no certificate in it") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyFile, format: .pem) } catch {
            throw SecurityError.badFile(keyFile, "not a PEM private key file (\(error))")
        }
        return ServerIdentity(chain: chain, privateKey: key, fingerprint: try CertificateFingerprint.of(leaf), selfSigned: false)
    }

    /// The self-signed certificate kept in `state`, made (and written 0600) if there is none yet.
    public static func loadOrCreate(in state: StateDirectory) throws -> ServerIdentity {
        if let certificate = try state.read(certificateFile), let key = try state.read(keyFile) {
            do {
                let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificate))
                guard let leaf = chain.first else { throw SecurityError.badFile(state.file(certificateFile), "no certificate in it") }
                let privateKey = try NIOSSLPrivateKey(bytes: Array(key), format: .pem)
                return ServerIdentity(chain: chain, privateKey: privateKey, fingerprint: try CertificateFingerprint.of(leaf),
                                      selfSigned: true)
            } catch let error as SecurityError {
                throw error
            } catch {
                throw SecurityError.badFile(state.file(certificateFile), "cannot be read as a certificate and key (\(error)); "
                                            + "remove it and \(keyFile) to make a new one (old links stop working)")
            }
        }
        let (certificatePEM, keyPEM) = try makeSelfSigned()
        try state.write(Data(keyPEM.utf8), to: keyFile)
        try state.write(Data(certificatePEM.utf8), to: certificateFile)
        return try loadOrCreate(in: state)
    }

    /// A new self-signed P-256 certificate for localhost, 127.0.0.1 and ::1 (members pin it, so the names
    /// matter only to other software), as PEM certificate and PEM key.
    public static func makeSelfSigned(now: Date = Date()) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        do {
            let name = try DistinguishedName { CommonName("Tandem party server") }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now - clockSkewAllowance,
                notValidAfter: now + selfSignedLifetime,
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    KeyUsage(digitalSignature: true)
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([
                        .dnsName("localhost"),
                        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                        .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
                    ])
                },
                issuerPrivateKey: Certificate.PrivateKey(key)
            )
            return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
        } catch {
            throw SecurityError.configuration("cannot make a self-signed certificate: \(error)")
        }
    }

    /// A server TLS context showing this identity (TLS 1.2 and up, NIOSSL's default ciphers).
    public func makeServerContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(privateKey)
        )
        do { return try NIOSSLContext(configuration: configuration) } catch {
            throw SecurityError.configuration("the certificate and key do not make a TLS server (\(error)); do they belong together?")
        }
    }
}
