import PartyKit
import PartySecurity
import TandemBase

/// The node of a cluster a member dials, and how it trusts it: the target of the member's
/// connection (``MemberConnection``), which picks the node and leaves the trust to this.
public struct ClusterTarget: DialTarget {
    public var address: HostPort
    public var trust: ServerTrust

    public init(address: HostPort, trust: ServerTrust) {
        self.address = address
        self.trust = trust
    }

    public init(host: String, port: Int, trust: ServerTrust) {
        self.init(address: HostPort(host: host, port: port), trust: trust)
    }

    public var host: String { address.host }
    public var port: Int { address.port }

    /// The node's HTTP origin (media of a plain `--insecure` party).
    var httpOrigin: String { "http://\(address)" }

    /// The node a redirect names. Its fingerprint, given over a connection this member already trusts,
    /// is pinned; without one the certificate is verified as the link's was (plain stays plain).
    public func following(_ node: NodeAddress) -> ClusterTarget {
        let trust: ServerTrust
        switch (self.trust, node.fingerprint) {
        case (.insecure, _): trust = .insecure
        case (_, let fp?): trust = .pinned(fp)
        case (.verified(let roots), nil): trust = .verified(extraRoots: roots)
        case (.pinned, nil): trust = .verified(extraRoots: [])
        }
        return ClusterTarget(address: node.address, trust: trust)
    }
}
