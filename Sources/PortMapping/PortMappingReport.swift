/// What port mapping tells the user, as it happens. ``line(advice:)`` gives each one plain line.
public enum PortMappingReport: Sendable, Equatable {
    /// Mapped for the first time: guests on the internet dial `grant.external`. `checked`: a connection
    /// to it from here (through the router, "hairpin") reached this machine. `asked`: the external
    /// port asked for (another one means that one was taken).
    case mapped(PortMappingGrant, checked: Bool, asked: Int, gateway: IPv4Address)
    /// The router refused `port` (taken, or not allowed): `next` is tried.
    case portRefused(Int, reason: String, next: Int)
    /// No way worked: nothing answered, or the answers said no. `reasons`: each method's.
    case unavailable(gateway: IPv4Address?, reasons: [String])
    /// The router mapped, but its external address is itself behind another NAT (carrier-grade NAT
    /// or a private address): guests on the internet cannot reach it. The mapping was deleted.
    case behindAnotherNAT(PortMappingGrant)
    /// A renewal failed or showed the router lost its state (a restart): mapping again.
    case renewalFailed(reason: String)
    /// Mapped again after a loss: guests dial `grant.external` — the same as `previous` or a new link.
    case remapped(PortMappingGrant, previous: PortMappingGrant, checked: Bool)
    /// The first attempt has not settled after `after` seconds (the router answers slowly, or not at
    /// all and a wait is still running out): the command prints its LAN link now; an internet link
    /// follows if the port is mapped after all.
    case stillTrying(gateway: IPv4Address, after: Double)
    /// Mapped again after a loss failed: the internet link does not work until a later try succeeds.
    case lost(previous: PortMappingGrant, reason: String, retryIn: Double)

    /// Whether this report settles the first attempt (mapped, or known not to work): a command waits
    /// for one before it prints its links.
    public var settlesFirstAttempt: Bool {
        switch self {
        case .mapped, .unavailable, .behindAnotherNAT: true
        default: false
        }
    }

    /// Whether the command prints its LAN link once this report is out (it does so once).
    public var showsLANLink: Bool {
        if case .stillTrying = self { return true }
        return settlesFirstAttempt
    }

    /// The mapping guests on the internet should dial after this report, if it gives one.
    public var internetAddress: PortMappingGrant? {
        switch self {
        case .mapped(let grant, _, _, _), .remapped(let grant, _, _): grant
        default: nil
        }
    }

    /// "reachable from the internet (checked)" or "mapped, not checked" and why not.
    public static func reachability(checked: Bool) -> String {
        checked ? "reachable from the internet (checked)"
            : "mapped, not checked (this router does not let its own network reach its external address)"
    }

    /// The report as one line. `advice`: what to do when guests on the internet cannot reach this
    /// machine (it differs between `host` and `serve`).
    public func line(advice: String) -> String {
        switch self {
        case .mapped(let grant, let checked, let asked, let gateway):
            let taken = grant.externalPort == asked ? "" : " (\(asked) was taken)"
            return "port \(grant.internalPort) mapped by \(grant.method) on \(gateway) to \(grant.external)\(taken): "
                + Self.reachability(checked: checked)
        case .portRefused(let port, let reason, let next):
            return "the router refused port \(port) (\(reason)): trying \(next)"
        case .unavailable(let gateway, let reasons):
            let router = gateway.map { "the router \($0)" } ?? "no router (no default route)"
            let details = reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"
            return "no port mapping: \(router) did not map a port\(details), so guests on the internet cannot reach this machine; \(advice)"
        case .behindAnotherNAT(let grant):
            let kind = grant.externalAddress.scope == .carrierGradeNAT
                ? "in 100.64.0.0/10, carrier-grade NAT: your provider's NAT is in front of it"
                : "not a public address: another router is in front of it"
            return "the router's external address \(grant.externalAddress) is \(kind), so guests on the internet cannot reach this machine; \(advice)"
        case .renewalFailed(let reason):
            return "the router did not renew the port mapping (\(reason)): mapping it again"
        case .remapped(let grant, let previous, let checked):
            let what = grant.sameLink(as: previous) ? "the same link as before" : "a new internet link, below"
            return "the router lost the port mapping and mapped it again to \(grant.external), \(what): " + Self.reachability(checked: checked)
        case .stillTrying(let gateway, let after):
            return "the router \(gateway) has not mapped a port within \(after) s: the LAN link is below; "
                + "an internet link follows if it maps one"
        case .lost(let previous, let reason, let retry):
            return "the port mapping to \(previous.external) is gone and the router does not map it again (\(reason)): "
                + "guests on the internet cannot join until it does; trying again in \(Int(retry)) s"
        }
    }
}
