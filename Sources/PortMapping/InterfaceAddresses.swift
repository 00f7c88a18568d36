#if canImport(Glibc)
import Glibc
#endif

/// This machine's IPv4 interface addresses (`getifaddrs`): the LAN link's host is the address of the
/// interface the default route leaves by — an address guests on the same network can dial, where
/// the machine's host name may resolve nowhere but here.
public enum InterfaceAddresses {
    /// Every up IPv4 address, by interface name, in the order the kernel lists them.
    public static func all() -> [(interface: String, address: IPv4Address)] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [(String, IPv4Address)] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard let socketAddress = entry.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET),
                  entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            found.append((String(cString: entry.pointee.ifa_name), IPv4Address(hostOrder: UInt32(bigEndian: address.s_addr))))
        }
        return found
    }

    /// The address guests on the LAN reach this machine at: the default route's interface's (its
    /// first), else the first address that is neither loopback nor link-local; nil when there is none.
    public static func lanAddress(route: DefaultRoute? = DefaultRoute.current()) -> IPv4Address? {
        let addresses = all()
        if let route, let onRoute = addresses.first(where: { $0.interface == route.interface }) { return onRoute.address }
        return addresses.first { $0.address.scope != .loopback && $0.address.scope != .linkLocal }?.address
    }
}
