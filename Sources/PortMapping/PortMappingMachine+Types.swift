extension PortMappingMachine {
    /// What happens to a port mapping: what the gateway answered, what the driver found, time
    /// passing, the owner stopping. Times (`at`) are on this machine's clock, in seconds.
    public enum Event: Sendable, Equatable {
        /// Begin: ask the gateway (PCP, then NAT-PMP) and search for a UPnP IGD at once.
        case start
        /// A ``Action/request(_:externalPort:lifetime:)`` came to this.
        case answered(MappingMethod, MappingAnswer, at: Double)
        /// The ``Action/searchUPnP`` ended: an IGD was found, or not (`detail`: why not).
        case upnpSearched(found: Bool, detail: String)
        /// The ``Action/check(_:)`` ended: a connection to the external address reached this machine.
        case checked(Bool)
        /// A ``Action/delete(_:)`` ended (whatever the gateway said: there is nothing more to do).
        case deleted
        /// The ``Action/wait(_:)`` asked for is over.
        case timerFired
        /// The owner is done (exit, Ctrl-C, SIGTERM): delete what is mapped, then finish.
        case stopRequested
    }

    /// What the driver does. ``request(_:externalPort:lifetime:)``, ``searchUPnP``, ``check(_:)``,
    /// ``delete(_:)`` and ``wait(_:)`` take time; their ends come back as events.
    public enum Action: Sendable, Equatable {
        /// Ask the gateway by `method` to map `externalPort` to the internal port for `lifetime` seconds
        /// (the same request renews a mapping). Feeds ``Event/answered(_:_:at:)``.
        case request(MappingMethod, externalPort: Int, lifetime: Int)
        /// Look for a UPnP Internet Gateway Device (SSDP). Feeds ``Event/upnpSearched(found:detail:)``.
        case searchUPnP
        /// Connect to the grant's external address from here. Feeds ``Event/checked(_:)``.
        case check(PortMappingGrant)
        /// Delete the mapping at the gateway. Feeds ``Event/deleted``.
        case delete(PortMappingGrant)
        /// Feed ``Event/timerFired`` after this many seconds (at most one wait is ever pending).
        case wait(Double)
        /// Tell the user.
        case report(PortMappingReport)
        /// Nothing is mapped and nothing is under way: the driver is done.
        case finish
    }

    /// Where the mapping is.
    public enum State: Sendable, Equatable {
        case idle
        /// Asking the gateway, and searching for an IGD.
        case probing(Probe)
        /// Granted: checking whether the external address reaches this machine.
        case checking(Checking)
        /// Mapped, waiting for the renewal's time.
        case mapped(Held)
        /// Mapped, a renewal under way.
        case renewing(Held)
        /// Lost and not mapped again: waiting to try again.
        case waitingToRetry(previous: PortMappingGrant)
        /// Mapped, but behind another NAT: deleted (`deleting` until the gateway has been told).
        case unusable(deleting: Bool)
        /// No method worked on the first attempt: nothing to keep.
        case unavailable
        case stopping(Stopping)
        case finished
    }

    /// An attempt to map: PCP then NAT-PMP on one side, UPnP on the other.
    public struct Probe: Sendable, Equatable {
        public enum PMPStage: Sendable, Equatable { case asking(MappingMethod), failed }
        public enum UPnPStage: Sendable, Equatable { case searching, found, notFound, asking, failed }

        public var pmp: PMPStage = .asking(.pcp)
        public var upnp: UPnPStage = .searching
        /// The external port asked for first (the internal port, or the lost mapping's).
        public var asked: Int
        /// The external port UPnP asks for now (the next after each one refused as taken).
        public var port: Int
        /// The lease UPnP asks for (0 once the IGD said it keeps permanent leases only).
        public var upnpLifetime: Int
        /// Ports UPnP found taken so far.
        public var refusedPorts = 0
        /// The mapping lost, when this attempt maps again after a loss.
        public var previous: PortMappingGrant?
        /// What each method that failed said.
        public var failures: [MappingMethod: String] = [:]

        /// The failures as lines, in the order the methods are tried (whichever ended first).
        var reasons: [String] {
            [MappingMethod.pcp, .natPMP, .upnp].compactMap { method in failures[method].map { "\(method): \($0)" } }
        }

        /// Mapping requests under way (each may still create a mapping at the gateway).
        var requestsInFlight: Int { (pmp == .failed ? 0 : 1) + (upnp == .asking ? 1 : 0) }
    }

    /// A grant being checked.
    public struct Checking: Sendable, Equatable {
        public var grant: PortMappingGrant
        /// When the grant was heard (for its epoch).
        public var heardAt: Double
        public var previous: PortMappingGrant?
        public var asked: Int
    }

    /// A mapping held.
    public struct Held: Sendable, Equatable {
        public var grant: PortMappingGrant
        /// The gateway's epoch when last heard (PCP, NAT-PMP).
        public var epoch: GatewayEpoch?
        /// Whether its external address was seen to reach this machine.
        public var checked: Bool
    }

    /// Stopping: waiting for the requests under way, then for the deletions.
    public struct Stopping: Sendable, Equatable {
        public var requestsInFlight: Int
        public var deleting: Int
        /// Held when a renewal was under way: deleted once its answer came.
        public var held: PortMappingGrant?
    }
}
