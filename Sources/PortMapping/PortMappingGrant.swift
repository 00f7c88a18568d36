import TandemBase

/// The three ways to ask a home router for a port mapping, in the order they are tried.
public enum MappingMethod: String, Sendable, Hashable, CustomStringConvertible {
    /// Port Control Protocol (RFC 6887), NAT-PMP's successor on the same port.
    case pcp = "PCP"
    /// NAT Port Mapping Protocol (RFC 6886).
    case natPMP = "NAT-PMP"
    /// UPnP Internet Gateway Device: SSDP discovery, then SOAP actions on the device's control URL.
    case upnp = "UPnP"

    public var description: String { rawValue }
}

/// A mapping a gateway granted: its external address and port forward to this machine's port.
public struct PortMappingGrant: Sendable, Equatable {
    public var method: MappingMethod
    public var externalAddress: IPv4Address
    public var externalPort: Int
    public var internalPort: Int
    /// Seconds it lasts unless renewed; 0: until deleted (an IGD that only keeps permanent leases).
    public var lifetime: Int
    /// PCP's and NAT-PMP's epoch: the gateway's seconds since its state began (nil for UPnP).
    public var epoch: UInt32?

    public init(method: MappingMethod, externalAddress: IPv4Address, externalPort: Int, internalPort: Int, lifetime: Int,
                epoch: UInt32? = nil) {
        self.method = method
        self.externalAddress = externalAddress
        self.externalPort = externalPort
        self.internalPort = internalPort
        self.lifetime = lifetime
        self.epoch = epoch
    }

    /// Where guests on the internet dial.
    public var external: HostPort { HostPort(host: externalAddress.description, port: externalPort) }

    /// Whether guests dial the same address and port as with `other`: the link is unchanged.
    public func sameLink(as other: PortMappingGrant) -> Bool {
        externalAddress == other.externalAddress && externalPort == other.externalPort
    }
}

/// Why a gateway said no to a mapping.
public struct MappingRefusal: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The external port is taken (by another machine's mapping, or the router itself): another
        /// port may work.
        case portTaken
        /// The gateway keeps only permanent mappings (UPnP error 725): ask again with lease 0.
        case permanentLeasesOnly
        /// Anything else (not authorized, out of resources…): this method will not map.
        case other
    }

    public var kind: Kind
    /// What the gateway said, for the user: `UPnP error 718 (ConflictInMappingEntry)`.
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

/// What one mapping request came to.
public enum MappingAnswer: Sendable, Equatable {
    case granted(PortMappingGrant)
    /// The gateway answered PCP in NAT-PMP (version 0) or with UNSUPP_VERSION: ask in NAT-PMP.
    case speaksNATPMPOnly
    case refused(MappingRefusal)
    /// Nothing came back in time, or the request could not be sent: why.
    case noAnswer(String)

    /// A few words on what went wrong, for a message (nil for a grant).
    var failure: String? {
        switch self {
        case .granted: nil
        case .speaksNATPMPOnly: "speaks NAT-PMP only"
        case .refused(let refusal): refusal.text
        case .noAnswer(let why): why
        }
    }
}
