import Testing
@testable import PortMapping

/// `/proc/net/route` as Linux writes it (native-order hex on this little-endian machine).
@Suite struct DefaultRouteTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"

    @Test func theGatewayOfTheDefaultRoute() throws {
        let text = """
            \(Self.header)
            eth0\t0000A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            eth0\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0

            """
        let route = try #require(DefaultRoute.parse(text))
        #expect(route.interface == "eth0")
        #expect(route.gateway == IPv4Address(192, 168, 0, 1))
    }

    @Test func theLowestMetricWinsAndDownRoutesDoNot() throws {
        let text = """
            \(Self.header)
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            eth0\t00000000\t014DA8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
            tun0\t00000000\t0100000A\t0002\t0\t0\t1\t00000000\t0\t0\t0
            """
        let route = try #require(DefaultRoute.parse(text))
        #expect(route == DefaultRoute(interface: "eth0", gateway: IPv4Address(192, 168, 77, 1)))
    }

    @Test(arguments: ["", Self.header, "\(Self.header)\neth0\t0000A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0", "garbage\nmore garbage"])
    func noDefaultRouteIsNil(_ text: String) {
        #expect(DefaultRoute.parse(text) == nil)
    }
}
