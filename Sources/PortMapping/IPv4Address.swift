/// An IPv4 address as four bytes: what a gateway, an interface and a mapping's external side are,
/// and the scope that decides whether guests on the internet can reach it.
public struct IPv4Address: Sendable, Hashable, CustomStringConvertible {
    public let bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = (a, b, c, d) }

    /// Parses dotted-quad text (`192.168.1.1`); nil for anything else (a name, IPv6, a fifth part,
    /// a part above 255, a leading zero that some parsers read as octal).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var values: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                  part == "0" || !part.hasPrefix("0"), let value = UInt8(part) else { return nil }
            values.append(value)
        }
        self.init(values[0], values[1], values[2], values[3])
    }

    /// From the address as a host-order 32-bit number (`a << 24 | b << 16 | c << 8 | d`).
    public init(hostOrder value: UInt32) {
        self.init(UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// The address as a host-order 32-bit number.
    public var hostOrder: UInt32 {
        UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
    }

    /// The four bytes in network order.
    public var octets: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3] }

    public var description: String { "\(bytes.0).\(bytes.1).\(bytes.2).\(bytes.3)" }

    public static func == (a: IPv4Address, b: IPv4Address) -> Bool { a.hostOrder == b.hostOrder }
    public func hash(into hasher: inout Hasher) { hasher.combine(hostOrder) }

    /// Whether the address lies in `base/length`.
    public func isIn(_ base: IPv4Address, prefix length: Int) -> Bool {
        let mask: UInt32 = length == 0 ? 0 : ~UInt32(0) << (32 - length)
        return hostOrder & mask == base.hostOrder & mask
    }

    /// Where an address can be reached from.
    public enum Scope: Sendable, Equatable {
        /// Routed on the internet: guests anywhere can reach it.
        case global
        /// RFC 1918 (10/8, 172.16/12, 192.168/16): a home or office network, behind a router.
        case privateNetwork
        /// RFC 6598's shared address space (100.64.0.0/10): the inside of a carrier-grade NAT, so a
        /// router with such an external address is behind another NAT it cannot map ports on.
        case carrierGradeNAT
        /// 127/8: this machine only.
        case loopback
        /// 169.254/16: one link, no router.
        case linkLocal
        /// 0/8, multicast (224/4) and 240/4: not an address a guest can dial.
        case unusable
    }

    /// Where guests can reach this address from. The documentation ranges (RFC 5737: 192.0.2/24,
    /// 198.51.100/24, 203.0.113/24) count as global: they stand for public addresses in examples and
    /// in the tests' network namespaces, which must never use real ones.
    public var scope: Scope {
        if isIn(IPv4Address(10, 0, 0, 0), prefix: 8) || isIn(IPv4Address(172, 16, 0, 0), prefix: 12)
            || isIn(IPv4Address(192, 168, 0, 0), prefix: 16) { return .privateNetwork }
        if isIn(IPv4Address(100, 64, 0, 0), prefix: 10) { return .carrierGradeNAT }
        if isIn(IPv4Address(127, 0, 0, 0), prefix: 8) { return .loopback }
        if isIn(IPv4Address(169, 254, 0, 0), prefix: 16) { return .linkLocal }
        if isIn(IPv4Address(0, 0, 0, 0), prefix: 8) || isIn(IPv4Address(224, 0, 0, 0), prefix: 3) { return .unusable }
        return .global
    }

    /// The IPv4-mapped IPv6 form (`::ffff:a.b.c.d`), 16 bytes: how PCP carries IPv4 addresses.
    public var mappedIPv6: [UInt8] { Array(repeating: 0, count: 10) + [0xFF, 0xFF] + octets }

    /// The address in an IPv4-mapped IPv6 form; nil when the 16 bytes are not one.
    public init?(mappedIPv6 bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        guard b.count == 16, b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF else { return nil }
        self.init(b[12], b[13], b[14], b[15])
    }

    /// 0.0.0.0: "any" in a request (PCP's suggested external address when there is no preference).
    public static let any = IPv4Address(0, 0, 0, 0)
}
