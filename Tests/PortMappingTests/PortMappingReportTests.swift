import Testing
@testable import PortMapping

/// The lines a user reads.
@Suite struct PortMappingReportTests {
    static let advice = "use --server"
    static let gateway = IPv4Address(192, 168, 77, 1)

    static func grant(port: Int = 7777, address: IPv4Address = IPv4Address(203, 0, 113, 1)) -> PortMappingGrant {
        PortMappingGrant(method: .upnp, externalAddress: address, externalPort: port, internalPort: 7777, lifetime: 600)
    }

    @Test func mappedSaysWhetherItWasChecked() {
        #expect(PortMappingReport.mapped(Self.grant(), checked: true, asked: 7777, gateway: Self.gateway).line(advice: Self.advice)
                == "port 7777 mapped by UPnP on 192.168.77.1 to 203.0.113.1:7777: reachable from the internet (checked)")
        #expect(PortMappingReport.mapped(Self.grant(port: 7778), checked: false, asked: 7777, gateway: Self.gateway).line(advice: Self.advice)
                .hasPrefix("port 7777 mapped by UPnP on 192.168.77.1 to 203.0.113.1:7778 (7777 was taken): mapped, not checked"))
    }

    @Test func whatCannotWorkSaysWhatToDo() {
        let none = PortMappingReport.unavailable(gateway: Self.gateway, reasons: ["PCP: no answer", "UPnP: none"]).line(advice: Self.advice)
        #expect(none == "no port mapping: the router 192.168.77.1 did not map a port (PCP: no answer; UPnP: none), "
                + "so guests on the internet cannot reach this machine; use --server")
        #expect(PortMappingReport.unavailable(gateway: nil, reasons: []).line(advice: Self.advice).contains("no router (no default route)"))
        let cgnat = PortMappingReport.behindAnotherNAT(Self.grant(address: IPv4Address(100, 64, 0, 1))).line(advice: Self.advice)
        #expect(cgnat.contains("100.64.0.1 is in 100.64.0.0/10, carrier-grade NAT") && cgnat.hasSuffix("; use --server"))
        let doubleNAT = PortMappingReport.behindAnotherNAT(Self.grant(address: IPv4Address(10, 0, 0, 2))).line(advice: Self.advice)
        #expect(doubleNAT.contains("10.0.0.2 is not a public address: another router is in front of it"))
    }

    @Test func whichReportsPrintWhichLinks() {
        let grant = Self.grant()
        #expect(PortMappingReport.mapped(grant, checked: true, asked: 7777, gateway: Self.gateway).internetAddress == grant)
        #expect(PortMappingReport.remapped(grant, previous: grant, checked: true).internetAddress == grant)
        #expect(PortMappingReport.stillTrying(gateway: Self.gateway, after: 2.5).showsLANLink)
        #expect(!PortMappingReport.stillTrying(gateway: Self.gateway, after: 2.5).settlesFirstAttempt)
        #expect(!PortMappingReport.portRefused(7777, reason: "taken", next: 7778).showsLANLink)
        #expect(PortMappingReport.remapped(Self.grant(port: 7778), previous: grant, checked: false).line(advice: "")
                .contains("a new internet link, below"))
        #expect(PortMappingReport.remapped(grant, previous: grant, checked: true).line(advice: "").contains("the same link as before"))
    }
}
