import Foundation
import Testing
import TestSupport

/// `tandem host` at home behind a real NAT (network namespaces, nftables; scripts/netns.sh) and the
/// tests' gateway (scripts/test-gateway/gateway.py: PCP, NAT-PMP, UPnP on the wire, real DNAT rules): the
/// host prints the internet link first and the LAN link after it, a guest on the internet side
/// joins with the printed link and nothing else, streams the file through the router and gets in
/// sync, and no mapping outlives the host, however it ends.
@Suite(.enabled(if: NetworkLab.available, NetworkLab.skipReason))
struct RealNATPartyTests {
    /// The lines of `child`'s standard output holding `a` and then `b`: `a` comes first.
    static func expectOrder(_ child: ChildProcess, _ a: String, before b: String) {
        let lines = child.standardOutput.split(separator: "\n")
        let first = lines.firstIndex { $0.contains(a) }, second = lines.firstIndex { $0.contains(b) }
        #expect(first != nil && second != nil && first! < second!, "\(a) before \(b) in:\n\(child.standardOutput)")
    }

    /// UPnP only, its port taken by another machine: the next port is mapped and said; the guest
    /// joins through it; SIGTERM deletes it.
    @Test func upnpOnlyTakesTheNextPortAndSIGTERMDeletesIt() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "upnp", "--taken", "7777"])
            let host = try lab.host()
            defer { host.kill() }
            let internet = try await NetworkLab.link(of: host, reach: "internet")
            let lan = try await NetworkLab.link(of: host, reach: "lan")
            #expect(internet.hasPrefix("tandem://203.0.113.1:7778/party/lab?key=lab-key&fp="), "\(internet)")
            #expect(lan.hasPrefix("tandem://\(NetworkLab.homeAddress):7777/party/lab?key=lab-key&fp="), "\(lan)")
            Self.expectOrder(host, "\"reach\":\"internet\"", before: "\"reach\":\"lan\"")
            let infos = NetworkLab.infoLines(of: host)
            #expect(infos.contains("the router refused port 7777 (UPnP error 718 (ConflictInMappingEntry)): trying 7778"), "\(infos)")
            #expect(infos.contains { $0.hasPrefix("port 7777 mapped by UPnP on 192.168.77.1 to 203.0.113.1:7778 (7777 was taken): mapped, not checked") },
                    "\(infos)")
            try await lab.guestJoins(internet)
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "upnp")
        }
    }

    /// PCP on a router that hairpins: mapped on the first try and checked from home; the guest joins;
    /// a quit (mpv IPC, as the window's q) deletes the mapping.
    @Test func pcpIsCheckedThroughTheHairpinAndAQuitDeletesIt() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "pcp,natpmp", "--hairpin"])
            let socket = lab.folder.path("host.sock")
            let host = try lab.host(["--ipc", socket])
            defer { host.kill() }
            let internet = try await NetworkLab.link(of: host, reach: "internet")
            #expect(internet.hasPrefix("tandem://203.0.113.1:7777/party/lab?"), "\(internet)")
            #expect(NetworkLab.infoLines(of: host).contains(
                "port 7777 mapped by PCP on 192.168.77.1 to 203.0.113.1:7777: reachable from the internet (checked)"),
                "\(NetworkLab.infoLines(of: host))")
            try await lab.guestJoins(internet)
            let ipc = try await SocketClient.connect(path: socket)
            _ = try await ipc.request(#"{"command":["quit"]}"#)
            #expect(try await host.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "pcp")
        }
    }

    /// A NAT-PMP gateway answers PCP in version 0: NAT-PMP maps (through libnatpmp); Ctrl-C deletes it.
    @Test func natPMPOnlyMapsAndCtrlCDeletesIt() async throws {
        try await NetworkLab.with { lab in
            let gateway = try await lab.gateway(["--methods", "natpmp"])
            let host = try lab.host()
            defer { host.kill() }
            let internet = try await NetworkLab.link(of: host, reach: "internet")
            #expect(internet.hasPrefix("tandem://203.0.113.1:7777/"), "\(internet)")
            #expect(NetworkLab.infoLines(of: host).contains { $0.hasPrefix("port 7777 mapped by NAT-PMP on 192.168.77.1 to 203.0.113.1:7777") })
            try await lab.guestJoins(internet)
            host.interrupt()
            #expect(try await host.exit(within: 60) == .exited(0))
            try await lab.expectNothingMapped(gateway, deleted: "natpmp")
        }
    }

    /// A router that speaks none of them: one line that says so and what to do, the LAN link (the
    /// interface's address, not a host name), and the party goes on; exit 0.
    @Test func noGatewayIsOneClearLineAndTheLANLink() async throws {
        try await NetworkLab.with { lab in
            let host = try lab.host()
            defer { host.kill() }
            let lan = try await NetworkLab.link(of: host, reach: "lan")
            #expect(lan.hasPrefix("tandem://\(NetworkLab.homeAddress):7777/party/lab?"), "\(lan)")
            let said = try await NetworkLab.info(of: host, containing: "no port mapping")
            #expect(said == "no port mapping: the router 192.168.77.1 did not map a port (PCP: nothing answers on port 5351; "
                + "NAT-PMP: nothing answers on port 5351; UPnP: no IGD answered the SSDP search), so guests on the internet cannot "
                + "reach this machine; host the party on a `tandem serve` they can reach (--server HOST:PORT), or forward a TCP port "
                + "on your router to \(NetworkLab.homeAddress):7777 and give --public-address HOST[:PORT]")
            #expect(!host.standardOutput.contains("\"reach\":\"internet\""))
            try await waitUntil("the host in its party") { host.standardOutput.contains("joined party lab") }
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
        }
    }

    /// A router that drops the requests without a word (no ICMP): every wait runs out, and the host
    /// says so in one line, prints the LAN link and plays on.
    @Test func aSilentRouterIsNoAnswerAndTheLANLink() async throws {
        try await NetworkLab.with { lab in
            try await lab.silence()
            let host = try lab.host()
            defer { host.kill() }
            let lan = try await NetworkLab.link(of: host, reach: "lan")
            #expect(lan.hasPrefix("tandem://\(NetworkLab.homeAddress):7777/"), "\(lan)")
            let said = try await NetworkLab.info(of: host, containing: "no port mapping")
            #expect(said.hasPrefix("no port mapping: the router 192.168.77.1 did not map a port (PCP: no answer; NAT-PMP: no answer; "
                + "UPnP: no IGD answered the SSDP search), so guests on the internet cannot reach this machine; "), "\(said)")
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
        }
    }

    /// The router's own WAN address is in 100.64.0.0/10: it maps, but the internet cannot reach it;
    /// the host says so (the CGNAT line), deletes the useless mapping, and prints the LAN link.
    @Test func carrierGradeNATIsSaidAndNothingStaysMapped() async throws {
        try await NetworkLab.with(wan: "100.64.0") { lab in
            let gateway = try await lab.gateway(["--methods", "pcp"])
            let host = try lab.host()
            defer { host.kill() }
            let said = try await NetworkLab.info(of: host, containing: "carrier-grade NAT")
            #expect(said.hasPrefix("the router's external address 100.64.0.1 is in 100.64.0.0/10, carrier-grade NAT"), "\(said)")
            #expect(said.contains("(--server HOST:PORT)") && said.contains("--public-address HOST[:PORT]"), "\(said)")
            let lan = try await NetworkLab.link(of: host, reach: "lan")
            #expect(lan.hasPrefix("tandem://\(NetworkLab.homeAddress):7777/"))
            try await lab.expectNothingMapped(gateway, deleted: "pcp")
            #expect(!host.standardOutput.contains("\"reach\":\"internet\""))
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
        }
    }

    /// A port forwarded by hand on the router and `--public-address`: no mapping asked for, the
    /// forward is the internet link, and the guest joins through it.
    @Test func aManualForwardWithPublicAddress() async throws {
        try await NetworkLab.with { lab in
            try await lab.forward(external: 8000, to: 7777)
            let host = try lab.host(["--public-address", "203.0.113.1:8000"])
            defer { host.kill() }
            let internet = try await NetworkLab.link(of: host, reach: "internet")
            #expect(internet.hasPrefix("tandem://203.0.113.1:8000/party/lab?"), "\(internet)")
            #expect(try await NetworkLab.link(of: host, reach: "lan").hasPrefix("tandem://\(NetworkLab.homeAddress):7777/"))
            // The forward does not hairpin: it cannot be checked from home.
            #expect(NetworkLab.infoLines(of: host).contains("your forward 203.0.113.1:8000 (--public-address): not checked (it does not reach this machine from here)"))
            try await lab.guestJoins(internet)
            host.terminate()
            #expect(try await host.exit(within: 60) == .exited(0))
        }
    }
}
