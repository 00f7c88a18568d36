import TandemBase

/// Where a member reaches one node of a cluster of party servers: its host and port, and the
/// SHA-256 fingerprint of its certificate when it is self-signed (nil: verified as usual, or a plain
/// `--insecure` node). Carried by a redirect (``ErrorMessage/redirect``) and by a welcome's list of
/// live nodes (``Welcome/nodes``).
public struct NodeAddress: Sendable, Codable, Equatable, Hashable, CustomStringConvertible {
    public var address: HostPort
    public var fingerprint: String?

    public init(address: HostPort, fingerprint: String? = nil) {
        self.address = address
        self.fingerprint = fingerprint
    }

    public init(host: String, port: Int, fingerprint: String? = nil) {
        self.init(address: HostPort(host: host, port: port), fingerprint: fingerprint)
    }

    public var host: String { address.host }
    public var port: Int { address.port }

    /// `HOST:PORT` (an IPv6 host in brackets), then `#FINGERPRINT` when there is one: how a node
    /// registers its address in the cluster's directory.
    public var description: String { address.description + (fingerprint.map { "#\($0)" } ?? "") }

    /// Parses ``description``'s form; nil when it is not `HOST:PORT[#FINGERPRINT]`.
    public init?(parsing text: String) {
        var rest = Substring(text)
        var fingerprint: String?
        if let hash = rest.firstIndex(of: "#") {
            let fp = String(rest[rest.index(after: hash)...])
            guard PartyLink.isFingerprint(fp) else { return nil }
            fingerprint = fp
            rest = rest[..<hash]
        }
        guard let address = HostPort(parsing: rest, ports: 1...65535) else { return nil }
        self.init(address: address, fingerprint: fingerprint)
    }

    // On the wire: {"host", "port", "fingerprint"}, as before the address had a type of its own.
    private enum CodingKeys: String, CodingKey { case host, port, fingerprint }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(host: try c.decode(String.self, forKey: .host), port: try c.decode(Int.self, forKey: .port),
                  fingerprint: try c.decodeIfPresent(String.self, forKey: .fingerprint))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(address.host, forKey: .host)
        try c.encode(address.port, forKey: .port)
        try c.encodeIfPresent(fingerprint, forKey: .fingerprint)
    }
}

/// `nodes`: a cluster's live nodes, sent to a node's members when they change.
public struct NodeList: Sendable, Codable, Equatable {
    public var nodes: [NodeAddress]
    public init(nodes: [NodeAddress]) { self.nodes = nodes }
}
