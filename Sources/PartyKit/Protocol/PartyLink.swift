import Foundation

/// `tandem://HOST:PORT/party/ID?key=SECRET`: everything a participant needs to join.
public struct PartyLink: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var party: String
    public var key: String

    public init(host: String, port: Int, party: String, key: String) {
        self.host = host
        self.port = port
        self.party = party
        self.key = key
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
        guard url.scheme == "tandem" else { throw .invalid(text, "expected tandem://HOST:PORT/party/ID?key=SECRET") }
        guard var host = url.host, !host.isEmpty else { throw .invalid(text, "no host") }
        // Foundation keeps an IPv6 literal's brackets; the socket layer wants the bare address.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = url.port, (1...65535).contains(port) else { throw .invalid(text, "no port") }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "party", !parts[1].isEmpty else { throw .invalid(text, "path must be /party/ID") }
        guard let key = url.queryItems?.first(where: { $0.name == "key" })?.value, !key.isEmpty else {
            throw .invalid(text, "no key")
        }
        self.init(host: host, port: port, party: String(parts[1]), key: key)
    }

    /// The HTTP origin of the party's server (where its media is served): `http://HOST:PORT`.
    public var httpOrigin: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The WebSocket path the server serves this party on.
    public var path: String { "/party/\(party)" }

    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "tandem://\(h):\(port)/party/\(party)?key=\(key)"
    }

    /// A short human-readable party ID ("brave-otter-42") and a random secret.
    public static func generateID<R: RandomNumberGenerator>(using rng: inout R) -> String {
        let adjectives = ["brave", "calm", "eager", "fancy", "gentle", "happy", "jolly", "kind", "lively", "merry",
                          "nice", "proud", "quick", "silly", "witty", "zesty"]
        let animals = ["otter", "panda", "koala", "lynx", "heron", "bison", "gecko", "llama", "moose", "raven",
                       "seal", "tiger", "walrus", "yak", "zebra", "fox"]
        return "\(adjectives.randomElement(using: &rng)!)-\(animals.randomElement(using: &rng)!)-\(Int.random(in: 10...99, using: &rng))"
    }

    public static func generateKey<R: RandomNumberGenerator>(using rng: inout R) -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyz23456789")
        return String((0..<12).map { _ in alphabet.randomElement(using: &rng)! })
    }
}
