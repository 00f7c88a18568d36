import TandemBase

/// A serving command's reach for its life, from its ``ReachPlan``: the router's mapping kept
/// (``PortMapper``) and the addresses told in order — the internet one first, then the LAN one —
/// through the command's own ``Output``; ``stop()`` deletes the mapping. The one owner of its mapper.
public final class ServingReach: Sendable {
    /// Whom an address is for.
    public enum Audience: String, Sendable {
        /// Guests on the internet.
        case internet
        /// Guests on this LAN.
        case lan
        /// Everyone: the one address there is.
        case everyone
    }

    /// How the command tells what happens.
    public struct Output: Sendable {
        /// What to do when guests on the internet cannot reach this machine (ends the lines that say so).
        public var advice: String
        /// One line for the user.
        public var say: @Sendable (String) -> Void
        /// An address guests dial, and whom for.
        public var address: @Sendable (HostPort, Audience) -> Void

        public init(advice: String, say: @escaping @Sendable (String) -> Void, address: @escaping @Sendable (HostPort, Audience) -> Void) {
            self.advice = advice
            self.say = say
            self.address = address
        }
    }

    private let mapper: PortMapper?
    private let telling: Task<Void, Never>

    /// Starts what `plan` asks for; returns at once. The addresses already given by the plan are told
    /// before this returns, except where a check or the router is waited for.
    /// - Parameter check: whether an address reaches this server (bounded by ``ReachabilityCheck/bound``).
    public init(plan: ReachPlan, output: Output, check: @escaping @Sendable (HostPort) async -> Bool = ReachabilityCheck.connects(to:)) {
        switch plan {
        case .asListened(let address):
            output.address(address, .everyone)
            mapper = nil
            telling = Task {}
        case .publicInterface(let address):
            output.say("\(address.host) is a public address (no router in front): guests anywhere dial it")
            output.address(address, .everyone)
            mapper = nil
            telling = Task {}
        case .lanOnly(let lan):
            output.say("no port mapping (--no-port-mapping): guests on the internet cannot reach this machine; \(output.advice)")
            output.address(lan, .lan)
            mapper = nil
            telling = Task {}
        case .forwarded(let forwarded, let lan):
            mapper = nil
            telling = Task {
                let checked = await ReachabilityCheck.bounded(forwarded, check)
                output.say("your forward \(forwarded) (--public-address): "
                    + (checked ? "reachable from the internet (checked)" : "not checked (it does not reach this machine from here)"))
                output.address(forwarded, .internet)
                output.address(lan, .lan)
            }
        case .map(let lan, let address):
            let mapper = PortMapper(internalPort: lan.port, lanAddress: address, check: check)
            self.mapper = mapper
            telling = Task {
                await mapper.start()
                await LinkAnnouncer.follow(mapper.reports, advice: output.advice, say: output.say,
                                           internet: { output.address($0.external, .internet) },
                                           lan: { output.address(lan, .lan) })
            }
        }
    }

    /// Deletes the mapping (bounded by ``PortMapper/stopBound``) and waits for the last lines.
    public func stop() async {
        await mapper?.stop()
        telling.cancel()
        await telling.value
    }
}
