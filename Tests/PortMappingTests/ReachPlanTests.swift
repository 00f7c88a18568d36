import TandemBase
import Testing
@testable import PortMapping

@Suite struct ReachPlanTests {
    static let lan = IPv4Address(192, 168, 77, 10)

    static func plan(_ listen: String, mapping: Bool = true, publicAddress: String? = nil, interface: IPv4Address? = lan) throws -> ReachPlan {
        ReachPlan.decide(listen: try #require(HostPort(parsing: listen)), port: 7777, mapping: mapping,
                         publicAddress: try publicAddress.map { try PublicAddress(parsing: $0) }, lanAddress: { interface })
    }

    @Test func everyAddressBehindARouterIsMapped() throws {
        #expect(try Self.plan("0.0.0.0:0") == .map(lan: HostPort(host: "192.168.77.10", port: 7777), address: Self.lan))
        #expect(try Self.plan("[::]:0") == .map(lan: HostPort(host: "192.168.77.10", port: 7777), address: Self.lan))
        #expect(try Self.plan("192.168.77.10:0") == .map(lan: HostPort(host: "192.168.77.10", port: 7777), address: Self.lan))
    }

    @Test func loopbackNamesAndIPv6AreAsListened() throws {
        #expect(try Self.plan("127.0.0.1:0") == .asListened(HostPort(host: "127.0.0.1", port: 7777)))
        #expect(try Self.plan("mybox.lan:0") == .asListened(HostPort(host: "mybox.lan", port: 7777)))
        #expect(try Self.plan("[::1]:0") == .asListened(HostPort(host: "::1", port: 7777)))
        #expect(try Self.plan("0.0.0.0:0", interface: nil) == .asListened(HostPort(host: "127.0.0.1", port: 7777)),
                "no interface at all: this machine only")
    }

    @Test func optionsChooseTheOtherPlans() throws {
        let lan = HostPort(host: "192.168.77.10", port: 7777)
        #expect(try Self.plan("0.0.0.0:0", mapping: false) == .lanOnly(lan))
        #expect(try Self.plan("0.0.0.0:0", publicAddress: "home.example.org") == .forwarded(public: HostPort(host: "home.example.org", port: 7777), lan: lan))
        #expect(try Self.plan("0.0.0.0:0", publicAddress: "203.0.113.1:8000") == .forwarded(public: HostPort(host: "203.0.113.1", port: 8000), lan: lan))
        #expect(try Self.plan("0.0.0.0:0", interface: IPv4Address(203, 0, 113, 50)) == .publicInterface(HostPort(host: "203.0.113.50", port: 7777)))
        #expect(try Self.plan("0.0.0.0:0").lan == lan)
    }
}
