import Foundation
import Testing
import TestSupport

/// A mapping's life on a real NAT (scripts/netns.sh, scripts/test-gateway/gateway.py): a short lease kept
/// by renewals, a gateway that restarts mid-party, and `serve`'s mapping.
@Suite(.enabled(if: NetworkLab.available, NetworkLab.skipReason))
struct RealNATLeaseTests {
    /// A gateway that grants 2 s: renewed before it runs out, again and again, so a guest that comes
    /// after several lifetimes still gets in.
    @Test func aShortLeaseIsRenewed() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "pcp", "--lifetime-cap", "2"])
            let host = try lab.host()
            defer { host.kill() }
            let internet = try await NetworkLab.link(of: host, reach: "internet")
            try await waitUntil("three renewals", within: 60) {
                gateway.standardOutput.components(separatedBy: "renew pcp 7777 ").count > 3
            }
            try await lab.guestJoins(internet)
            #expect(!gateway.standardOutput.contains("expire"), "the lease ran out:\n\(gateway.standardOutput)")
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "pcp")
        }
    }

    /// The gateway restarts mid-party (its mappings and rules gone, its epoch back to 0) and gives the
    /// old port to another machine: the host notices at its next renewal, maps again, says so and
    /// prints the new internet link; a guest joins with it.
    @Test func aRestartedGatewayIsMappedAgainAndTheNewLinkPrinted() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "pcp", "--lifetime-cap", "2", "--reboot-takes-ports"])
            let host = try lab.host()
            defer { host.kill() }
            let first = try await NetworkLab.link(of: host, reach: "internet")
            #expect(first.hasPrefix("tandem://203.0.113.1:7777/"))
            _ = try await gateway.line(within: 60) { $0.hasPrefix("renew pcp 7777 ") }
            gateway.signal(SIGUSR1)
            _ = try await gateway.line(within: 60) { $0 == "reboot" }
            let second = try await NetworkLab.link(of: host, reach: "internet", number: 2)
            #expect(second.hasPrefix("tandem://203.0.113.1:7778/party/lab?"), "\(second)")
            let said = try await NetworkLab.info(of: host, containing: "lost the port mapping")
            #expect(said.hasPrefix("the router lost the port mapping and mapped it again to 203.0.113.1:7778, a new internet link, below"), "\(said)")
            try await lab.guestJoins(second)
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "pcp")
        }
    }

    /// `tandem serve` at home maps its port by UPnP and prints the internet address, then the LAN
    /// address; a host on the internet side creates a party there through the router and a guest
    /// joins it; SIGTERM deletes the mapping.
    @Test func serveMapsItsPortAndSIGTERMDeletesIt() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "upnp"])
            let serve = try lab.tandem(in: .home, as: "server", ["serve", "--cache-size", "0"])
            defer { serve.kill() }
            let internetLine = try await serve.line(startingWith: "internet address ", within: 60)
            #expect(internetLine == "internet address 203.0.113.1:7777: hosts elsewhere use --server 203.0.113.1:7777")
            #expect(try await serve.line(startingWith: "LAN address ", within: 60) == "LAN address \(NetworkLab.homeAddress):7777")
            let host = try lab.tandem(in: .net, as: "host", ["host", NetworkLab.partyFile, "--server", "203.0.113.1:7777", "--headless",
                                                              "--json", "--party", "lab", "--key", "lab-key", "--script", "play@1"])
            defer { host.kill() }
            let linkLine = try await host.line(within: 60) { NetworkLab.party($0) != nil }
            let link = try #require(NetworkLab.party(linkLine)?["link"])
            #expect(link.hasPrefix("tandem://203.0.113.1:7777/party/lab?"), "\(link)")
            // The host's files reach the server through its relay connection, opened once it is in its
            // party: a guest that streams before then is refused the file (the relay's own matter).
            _ = try await serve.output(containing: "relaying media", from: .standardError, within: 60)
            try await lab.guestJoins(link)
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
            serve.terminate()
            #expect(try await serve.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "upnp")
        }
    }
}
