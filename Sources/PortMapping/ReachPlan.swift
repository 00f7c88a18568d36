import TandemBase

/// How a serving command (`host` serving its party, `serve`) becomes reachable, decided from where it
/// listens and its options, before anything is sent.
public enum ReachPlan: Sendable, Equatable {
    /// Listening on loopback, a host name or an IPv6 address: the one address, as given; nothing to map.
    case asListened(HostPort)
    /// `--no-port-mapping`: the LAN address only.
    case lanOnly(HostPort)
    /// The interface's own address is public (no NAT in front): one address for everyone.
    case publicInterface(HostPort)
    /// `--public-address`: the port forwarded by hand (checked from here), then the LAN address.
    case forwarded(public: HostPort, lan: HostPort)
    /// Ask the router for a mapping of the LAN address's port.
    case map(lan: HostPort, address: IPv4Address)

    /// The LAN address, when the plan has one apart from the internet's.
    public var lan: HostPort? {
        switch self {
        case .asListened, .publicInterface: nil
        case .lanOnly(let lan), .forwarded(_, let lan), .map(let lan, _): lan
        }
    }

    /// The plan for a server listening on `listen` (its port now bound: `port`).
    /// - Parameters:
    ///   - mapping: false with `--no-port-mapping`.
    ///   - lanAddress: the LAN interface's address, asked only when listening on every address.
    public static func decide(listen: HostPort, port: Int, mapping: Bool, publicAddress: PublicAddress?,
                              lanAddress: () -> IPv4Address?) -> ReachPlan {
        let wildcard = listen.host.isEmpty || listen.host == "0.0.0.0" || listen.host == "::"
        let address = wildcard ? lanAddress() : IPv4Address(listen.host)
        guard let address, address.scope != .loopback else {
            // A name, IPv6, loopback, or no interface at all: the address as given (this machine's own
            // when listening everywhere without an interface).
            let host = wildcard ? "127.0.0.1" : listen.host
            return .asListened(HostPort(host: host, port: port))
        }
        let lan = HostPort(host: address.description, port: port)
        if let publicAddress { return .forwarded(public: publicAddress.resolved(servingPort: port), lan: lan) }
        if address.scope == .global { return .publicInterface(lan) }
        return mapping ? .map(lan: lan, address: address) : .lanOnly(lan)
    }
}
