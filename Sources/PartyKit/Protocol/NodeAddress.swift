/// Where a member reaches one node of a cluster of party servers: its host and port, and the
/// SHA-256 fingerprint of its certificate when it is self-signed (nil: verified as usual, or a plain
/// `--insecure` node). Carried by a redirect (``ErrorMessage/redirect``) and by a welcome's list of
/// live nodes (``Welcome/nodes``).
public struct NodeAddress: Sendable, Codable, Equatable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var fingerprint: String?

    public init(host: String, port: Int, fingerprint: String? = nil) {
        self.host = host
        self.port = port
        self.fingerprint = fingerprint
    }

    /// `HOST:PORT` (an IPv6 host in brackets), then `#FINGERPRINT` when there is one: how a node
    /// registers its address in the cluster's directory.
    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "\(h):\(port)" + (fingerprint.map { "#\($0)" } ?? "")
    }

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
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
              (1...65535).contains(port) else { return nil }
        var host = rest[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        self.init(host: String(host), port: port, fingerprint: fingerprint)
    }
}

/// `nodes`: a cluster's live nodes, sent to a node's members when they change.
public struct NodeList: Sendable, Codable, Equatable {
    public var nodes: [NodeAddress]
    public init(nodes: [NodeAddress]) { self.nodes = nodes }
}
