import Logging
import PartySecurity
import PortMapping
import ServiceLifecycle
import TandemBase

/// `serve`'s reach as a service: once the party port listens, the home router is asked to forward a
/// port to it (``ServingReach``: PCP, NAT-PMP, UPnP), or `public.address` is checked; the internet
/// address is said first, then the LAN address (the interface's, never the host name). At the
/// group's shutdown (SIGTERM, SIGINT, the end of `--duration`) — after the drain, before the party
/// port stops — the mapping is deleted. Listening on loopback or a name, it says nothing more than
/// `listening on`.
struct PortMappingService: Service, CustomStringConvertible {
    let description = "port mapping"
    let listen: HostPort
    let mapping: Bool
    let publicAddress: PublicAddress?
    /// The party's certificate fingerprint (nil: insecure): what the reachability check expects.
    let fingerprint: String?
    /// Returns the party port once it listens.
    let partyPort: @Sendable () async throws -> Int
    let say: @Sendable (String) -> Void
    let logger: Logger

    func run() async throws {
        let port: Int
        do { port = try await cancelWhenGracefulShutdown(partyPort) } catch { return }
        let plan = ReachPlan.decide(listen: listen, port: port, mapping: mapping, publicAddress: publicAddress,
                                    lanAddress: { InterfaceAddresses.lanAddress() })
        if case .asListened = plan {
            try? await gracefulShutdown()
            return
        }
        let forward = plan.lan.map { "to \($0) " } ?? ""
        let say = say
        let check = Self.check(expecting: fingerprint)
        let reach = ServingReach(plan: plan, output: .init(
            advice: "run it where hosts can reach it, or forward a TCP port on your router \(forward)and give --public-address HOST[:PORT]",
            say: say,
            address: { address, audience in
                switch audience {
                case .internet: say("internet address \(address): hosts elsewhere use --server \(address)")
                case .lan: say("LAN address \(address)")
                case .everyone: say("address \(address)")
                }
            }), check: check)
        // Returns at the group's graceful shutdown; throws when it is cancelled: the mapping goes either way.
        try? await gracefulShutdown()
        await reach.stop()
        logger.info("stopped", metadata: ["part": "\(description)"])
    }

    /// Whether an address reaches this server: with TLS, a handshake there shows its own certificate;
    /// without, a TCP connection opens.
    static func check(expecting fingerprint: String?) -> @Sendable (HostPort) async -> Bool {
        guard let fingerprint else { return ReachabilityCheck.connects(to:) }
        return { address in await ServerProbe.shows(fingerprint: fingerprint, host: address.host, port: address.port) }
    }
}
