import Foundation
import PartyKit
import PartySecurity
import PortMapping
import TandemBase

extension HostSession {
    /// The links of a party served here, from where it listens and `--no-port-mapping` /
    /// `--public-address` (``ReachPlan``): the router asked for a mapping, the internet link printed
    /// first and the LAN link (the interface's address) after it, plain lines on the way. Returns at
    /// once: the router is asked while the party starts, and the links follow within about 3 s.
    func startReach(port: Int, output: PartyOutput, servedFingerprint: String?,
                    link: @escaping @Sendable (HostPort) -> PartyLink) -> ServingReach {
        let plan = ReachPlan.decide(listen: options.listen, port: port, mapping: !options.noPortMapping,
                                    publicAddress: options.publicAddress,
                                    lanAddress: { InterfaceAddresses.lanAddress() })
        let forward = plan.lan.map { "to \($0) " } ?? ""
        let advice = "host the party on a `tandem serve` they can reach (--server HOST:PORT), or forward a TCP port on your router "
            + "\(forward)and give --public-address HOST[:PORT]"
        return ServingReach(plan: plan, output: .init(advice: advice, say: { output.line($0) }, address: { address, audience in
            output.link(link(address), reach: audience == .everyone ? nil : audience.rawValue)
        }), check: Self.reachabilityCheck(expecting: servedFingerprint))
    }

    /// Whether an address reaches this party's server: with TLS, a handshake there shows this server's
    /// own certificate (not merely something listening); without, a TCP connection opens.
    static func reachabilityCheck(expecting fingerprint: String?) -> @Sendable (HostPort) async -> Bool {
        guard let fingerprint else { return ReachabilityCheck.connects(to:) }
        return { address in await ServerProbe.shows(fingerprint: fingerprint, host: address.host, port: address.port) }
    }
}
