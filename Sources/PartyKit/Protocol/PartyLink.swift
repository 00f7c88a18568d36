import Foundation

/// Everything a participant needs to join, and how to trust the server:
///
/// - `tandem://HOST:PORT/party/ID?key=SECRET&fp=FINGERPRINT`: TLS; the server's certificate is the one
///   whose SHA-256 fingerprint (of its DER bytes, base64url without padding: 43 characters) is `fp`.
///   The host name does not matter then (self-signed certificates are pinned, not verified).
/// - `tandem://HOST:PORT/party/ID?key=SECRET`: TLS with a certificate that chains to a trusted root and
///   names HOST (for example a Let's Encrypt certificate given to `tandem serve --cert`).
/// - `tandem+insecure://HOST:PORT/party/ID?key=SECRET`: plain WebSocket and HTTP, only for members that
///   say `--insecure` themselves.
public struct PartyLink: Sendable, Equatable, CustomStringConvertible {
    /// The scheme of TLS links.
    public static let scheme = "tandem"
    /// The scheme of plain links: a different scheme, so no one follows one by accident.
    public static let insecureScheme = "tandem+insecure"

    public var host: String
    public var port: Int
    public var party: String
    public var key: String
    /// The server certificate's SHA-256 fingerprint to pin (see ``CertificateFingerprint`` in PartyNet);
    /// `nil` verifies the certificate's chain and host name instead.
    public var fingerprint: String?
    /// A plain (no TLS) party.
    public var insecure: Bool

    public init(host: String, port: Int, party: String, key: String, fingerprint: String? = nil, insecure: Bool = false) {
        self.host = host
        self.port = port
        self.party = party
        self.key = key
        self.fingerprint = insecure ? nil : fingerprint
        self.insecure = insecure
    }

    public enum ParseError: Error, CustomStringConvertible {
        case invalid(String, String)
        public var description: String {
            switch self { case .invalid(let link, let why): "invalid party link \"\(Self.redacted(link))\": \(why)" }
        }

        /// `link` with its key's value replaced by `…`: an error names the link, never its secret.
        static func redacted(_ link: String) -> String {
            link.replacingOccurrences(of: "([?&]key=)[^&#]*", with: "$1…", options: .regularExpression)
        }
    }

    public init(parsing text: String) throws(ParseError) {
        guard let url = URLComponents(string: text) else { throw .invalid(text, "not a URL") }
        guard url.scheme == Self.scheme || url.scheme == Self.insecureScheme else {
            throw .invalid(text, "expected tandem://HOST:PORT/party/ID?key=SECRET")
        }
        guard var host = url.host, !host.isEmpty else { throw .invalid(text, "no host") }
        // Foundation keeps an IPv6 literal's brackets; the socket layer wants the bare address.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = url.port, (1...65535).contains(port) else { throw .invalid(text, "no port") }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "party", !parts[1].isEmpty else { throw .invalid(text, "path must be /party/ID") }
        guard let key = url.queryItems?.first(where: { $0.name == "key" })?.value, !key.isEmpty else {
            throw .invalid(text, "no key")
        }
        let insecure = url.scheme == Self.insecureScheme
        let fingerprint = url.queryItems?.first(where: { $0.name == "fp" })?.value
        if let fingerprint {
            guard !insecure else { throw .invalid(text, "an insecure link has no fp") }
            guard Self.isFingerprint(fingerprint) else {
                throw .invalid(text, "fp must be a SHA-256 fingerprint (43 base64url characters)")
            }
        }
        self.init(host: host, port: port, party: String(parts[1]), key: key, fingerprint: fingerprint, insecure: insecure)
    }

    /// Whether `text` has the shape of a fingerprint: 32 bytes in base64url without padding.
    public static func isFingerprint(_ text: String) -> Bool {
        text.count == 43 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// The HTTP origin of the party's server (where its media is served): `https://HOST:PORT`, or
    /// `http://` for an insecure party.
    public var httpOrigin: String {
        "\(insecure ? "http" : "https")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The browser guest's link: the party's page on its server (`/p/ID`), with the key (and the pinned
    /// certificate's fingerprint, for a careful guest to compare) in the fragment, which a browser never
    /// sends in a request, so it is in no request line and no log.
    public var browserLink: String {
        "\(httpOrigin)/p/\(party)#key=\(key)" + (fingerprint.map { "&fp=\($0)" } ?? "")
    }

    /// The WebSocket path the server serves this party on.
    public var path: String { "/party/\(party)" }

    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        let scheme = insecure ? Self.insecureScheme : Self.scheme
        return "\(scheme)://\(h):\(port)/party/\(party)?key=\(key)" + (fingerprint.map { "&fp=\($0)" } ?? "")
    }

    /// A short human-readable party ID ("brave-otter-42") and a random secret.
    public static func generateID<R: RandomNumberGenerator>(using rng: inout R) -> String {
        let adjectives = ["brave", "calm", "eager", "fancy", "gentle", "happy", "jolly", "kind", "lively", "merry",
                          "nice", "proud", "quick", "silly", "witty", "zesty"]
        let animals = ["otter", "panda", "koala", "lynx", "heron", "bison", "gecko", "llama", "moose", "raven",
                       "seal", "tiger", "walrus", "yak", "zebra", "fox"]
        return "\(adjectives.randomElement(using: &rng)!)-\(animals.randomElement(using: &rng)!)-\(Int.random(in: 10...99, using: &rng))"
    }

    /// The alphabet of generated keys: 32 letters and digits without the easily confused 0/o and 1/l,
    /// so each character carries exactly 5 bits.
    public static let keyAlphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    /// Characters in a generated key: 20 × 5 = 100 bits, beyond guessing at any rate a server allows.
    public static let keyLength = 20

    /// A random join secret of ``keyLength`` characters from ``keyAlphabet`` (the host passes a
    /// `SystemRandomNumberGenerator`).
    public static func generateKey<R: RandomNumberGenerator>(using rng: inout R) -> String {
        String((0..<keyLength).map { _ in keyAlphabet.randomElement(using: &rng)! })
    }
}
