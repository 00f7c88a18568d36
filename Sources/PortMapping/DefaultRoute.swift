#if canImport(Glibc)
import Glibc
#endif

/// The IPv4 default route: the gateway a home router is (where PCP, NAT-PMP and UPnP requests go)
/// and the interface that leads to it (whose address is the LAN link's host). Read from Linux's
/// `/proc/net/route`, the same table `ip route` shows; no packet is sent to find it.
public struct DefaultRoute: Sendable, Equatable {
    /// The interface's name (`eth0`, `wlan0`).
    public var interface: String
    public var gateway: IPv4Address

    public init(interface: String, gateway: IPv4Address) {
        self.interface = interface
        self.gateway = gateway
    }

    /// Where the kernel shows its IPv4 routes.
    public static let routeTable = "/proc/net/route"

    /// The default route of `/proc/net/route` now; nil when there is none (no network, or a machine
    /// that routes nothing beyond its own links) or the file cannot be read.
    public static func current() -> DefaultRoute? {
        guard let file = fopen(routeTable, "r") else { return nil }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return parse(text)
    }

    /// Route flags (linux/route.h): the route is up, and it goes through a gateway.
    static let up: UInt32 = 0x1, viaGateway: UInt32 = 0x2

    /// The default route in the text of `/proc/net/route` (a header line, then one tab-separated
    /// line per route: interface, destination, gateway, flags, refcount, use, metric, mask…, the
    /// addresses as the kernel's native-order hex of network-order bytes): the up route to 0.0.0.0/0
    /// through a gateway with the lowest metric. Nil when there is none or the text is not that table.
    public static func parse(_ text: String) -> DefaultRoute? {
        var best: (route: DefaultRoute, metric: Int)?
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let destination = UInt32(fields[1], radix: 16), let gateway = UInt32(fields[2], radix: 16),
                  let flags = UInt32(fields[3], radix: 16), let metric = Int(fields[6]), let mask = UInt32(fields[7], radix: 16),
                  destination == 0, mask == 0, flags & up != 0, flags & viaGateway != 0, gateway != 0 else { continue }
            let route = DefaultRoute(interface: String(fields[0]), gateway: address(nativeHex: gateway))
            if best == nil || metric < best!.metric { best = (route, metric) }
        }
        return best?.route
    }

    /// An address as `/proc/net/route` writes it: the 32-bit number whose bytes in memory are the
    /// address's bytes in network order (so `0100A8C0` is 192.168.0.1 on a little-endian machine).
    static func address(nativeHex value: UInt32) -> IPv4Address {
        let b = withUnsafeBytes(of: value) { Array($0) }
        return IPv4Address(b[0], b[1], b[2], b[3])
    }
}
