import Testing
@testable import PortMapping

@Suite struct IPv4AddressTests {
    @Test(arguments: ["192.168.1.1", "0.0.0.0", "255.255.255.255", "100.64.0.1"])
    func dottedQuadsParseAndPrintBack(_ text: String) throws {
        #expect(try #require(IPv4Address(text)).description == text)
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "a.b.c.d", "1.2.3.-4", "::1", "1..2.3", " 1.2.3.4"])
    func otherTextIsNoAddress(_ text: String) {
        #expect(IPv4Address(text) == nil)
    }

    /// What guests on the internet can reach: private and shared (CGNAT) space cannot be; the
    /// documentation ranges stand for public addresses (the tests' namespaces use them as such).
    @Test(arguments: [
        ("10.1.2.3", IPv4Address.Scope.privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("172.32.0.1", .global), ("192.168.77.1", .privateNetwork),
        ("100.64.0.1", .carrierGradeNAT), ("100.127.255.254", .carrierGradeNAT), ("100.63.255.255", .global), ("100.128.0.1", .global),
        ("127.0.0.1", .loopback), ("169.254.10.1", .linkLocal), ("0.1.2.3", .unusable), ("239.255.255.250", .unusable),
        ("203.0.113.1", .global), ("198.51.100.7", .global), ("192.0.2.1", .global), ("8.8.8.8", .global),
    ])
    func scopes(_ text: String, _ scope: IPv4Address.Scope) throws {
        #expect(try #require(IPv4Address(text)).scope == scope, "\(text)")
    }

    @Test func theIPv4MappedFormRoundTrips() throws {
        let address = try #require(IPv4Address("203.0.113.9"))
        #expect(address.mappedIPv6 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 203, 0, 113, 9])
        #expect(IPv4Address(mappedIPv6: address.mappedIPv6) == address)
        #expect(IPv4Address(mappedIPv6: [UInt8](repeating: 0, count: 16)) == nil, "all zeros is IPv6's ::, not IPv4")
        #expect(IPv4Address(mappedIPv6: [UInt8](repeating: 0xFF, count: 12)) == nil, "12 bytes are not an address")
    }

    @Test func hostOrderRoundTrips() {
        let address = IPv4Address(192, 168, 0, 1)
        #expect(address.hostOrder == 0xC0A8_0001)
        #expect(IPv4Address(hostOrder: 0xC0A8_0001) == address)
    }
}
