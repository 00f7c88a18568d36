import TandemBase

/// Keeps a port on the home router mapped to this machine for as long as its owner runs: drives a
/// ``PortMappingMachine`` with real requests — PCP over a UDP socket of its own, NAT-PMP through
/// libnatpmp, UPnP through libminiupnpc, each blocking call on a thread of its own
/// (``BlockingCall``), never an event loop or the cooperative pool — and tells what happens through
/// ``reports``. ``stop()`` deletes the mapping (at exit, Ctrl-C, SIGTERM); it is the one owner of
/// the mapping, as the caller is of the mapper.
///
/// The first attempt settles (mapped, or known not to work) within about two seconds when the
/// router answers; when none does, a ``PortMappingReport/stillTrying(gateway:after:)`` report comes
/// after ``announceBound`` seconds so that the command prints its LAN link without waiting longer.
public actor PortMapper {
    /// Seconds after which a first attempt that has not settled is reported as still trying: the
    /// host's links are not held longer (the goal is at most 3 s; PCP's and NAT-PMP's waits and the
    /// SSDP search end before this when nothing answers, but a router's slow HTTP may not).
    public static let announceBound = 2.5
    /// Seconds ``stop()`` waits for the deletions: a router that answers takes milliseconds; one that
    /// does not must not hold the exit (its mapping's lifetime then ends it).
    public static let stopBound = 3.0

    /// What happens, in order; finished once the mapper is done.
    public nonisolated let reports: AsyncStream<PortMappingReport>
    private let continuation: AsyncStream<PortMappingReport>.Continuation
    private var machine: PortMappingMachine?
    private let lanAddress: IPv4Address?
    private let check: @Sendable (HostPort) async -> Bool
    private let nonce: [UInt8]
    private var device: UPnPClient.Device?
    private var timer: Task<Void, Never>?
    private var settled = false
    private let done = Awaitable(false)
    private let origin = ContinuousClock.now

    /// A mapper for `internalPort` through the default route's gateway (none: it reports that there
    /// is no router and is done). `lanAddress`: the interface multicast leaves from for the UPnP
    /// search. `check`: whether an address reaches this machine's server (default: a TCP connection
    /// opens), bounded by ``ReachabilityCheck/bound``.
    public init(internalPort: Int, route: DefaultRoute? = DefaultRoute.current(), lanAddress: IPv4Address?,
                check: @escaping @Sendable (HostPort) async -> Bool = ReachabilityCheck.connects(to:)) {
        (reports, continuation) = AsyncStream.makeStream()
        self.lanAddress = lanAddress
        self.check = check
        var rng = SystemRandomNumberGenerator()
        nonce = (0..<12).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        machine = route.map { PortMappingMachine(internalPort: internalPort, gateway: $0.gateway) }
    }

    /// Starts the first attempt; returns at once (what happens comes through ``reports``).
    public func start() {
        guard var machine else {
            // No default route: no router to ask.
            guard !settled else { return }
            settled = true
            continuation.yield(.unavailable(gateway: nil, reasons: []))
            finish()
            return
        }
        guard machine.state == .idle else { return }
        let actions = machine.handle(.start)
        self.machine = machine
        perform(actions)
        let gateway = machine.gateway
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(Self.announceBound))
            await self?.announceIfUnsettled(gateway)
        }
    }

    /// Deletes what is mapped (waiting for requests under way that may still map), at most
    /// ``stopBound`` seconds; then ``reports`` ends.
    public func stop() async {
        guard machine != nil else { return finish() }
        feed(.stopRequested)
        let done = done
        let finished = Task { _ = try? await done.wait { $0 } }
        let bound = Task {
            try? await Task.sleep(for: .seconds(Self.stopBound))
            finished.cancel()
        }
        await finished.value
        bound.cancel()
        finish()
    }

    private func announceIfUnsettled(_ gateway: IPv4Address) {
        guard !settled, !done.value else { return }
        settled = true
        continuation.yield(.stillTrying(gateway: gateway, after: Self.announceBound))
    }

    private var now: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func feed(_ event: PortMappingMachine.Event) {
        guard var machine else { return }
        let actions = machine.handle(event)
        self.machine = machine
        perform(actions)
    }

    private func perform(_ actions: [PortMappingMachine.Action]) {
        guard let machine else { return }
        let internalPort = machine.internalPort, gateway = machine.gateway
        for action in actions {
            switch action {
            case .request(let method, let port, let lifetime):
                let client = mappingClient(method, gateway: gateway)
                Task {
                    let answer = await BlockingCall.run { client(internalPort, port, lifetime) }
                    self.answered(method, answer)
                }
            case .searchUPnP:
                let from = lanAddress
                Task {
                    let found = await BlockingCall.run { UPnPClient.search(from: from) }
                    self.searched(found)
                }
            case .check(let grant):
                let check = check
                Task {
                    let ok = await ReachabilityCheck.bounded(grant.external, check)
                    self.feed(.checked(ok))
                }
            case .delete(let grant):
                let delete = deletion(grant, gateway: gateway)
                Task {
                    await BlockingCall.run { delete() }
                    self.feed(.deleted)
                }
            case .wait(let seconds):
                timer?.cancel()
                timer = Task {
                    do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
                    self.feed(.timerFired)
                }
            case .report(let report):
                if report.settlesFirstAttempt { settled = true }
                continuation.yield(report)
            case .finish:
                finish()
            }
        }
    }

    private func answered(_ method: MappingMethod, _ answer: MappingAnswer) {
        feed(.answered(method, answer, at: now))
    }

    private func searched(_ found: Result<UPnPClient.Device, UPnPClient.SearchFailure>) {
        switch found {
        case .success(let device):
            self.device = device
            feed(.upnpSearched(found: true, detail: ""))
        case .failure(let failure):
            feed(.upnpSearched(found: false, detail: failure.description))
        }
    }

    /// The blocking request of `method`: (internal port, external port, lifetime) → answer.
    private func mappingClient(_ method: MappingMethod, gateway: IPv4Address) -> @Sendable (Int, Int, Int) -> MappingAnswer {
        switch method {
        case .pcp:
            let client = PCPClient(gateway: gateway, nonce: nonce)
            return { client.request(internalPort: $0, externalPort: $1, lifetime: $2) }
        case .natPMP:
            let client = NATPMPClient(gateway: gateway)
            return { client.request(internalPort: $0, externalPort: $1, lifetime: $2) }
        case .upnp:
            guard let device else { return { _, _, _ in .noAnswer("no IGD") } }
            let client = UPnPClient(device: device)
            return { client.request(internalPort: $0, externalPort: $1, lifetime: $2) }
        }
    }

    /// The blocking deletion of `grant`.
    private func deletion(_ grant: PortMappingGrant, gateway: IPv4Address) -> @Sendable () -> Void {
        switch grant.method {
        case .pcp:
            let client = PCPClient(gateway: gateway, nonce: nonce)
            return { _ = client.request(internalPort: grant.internalPort, externalPort: grant.externalPort, lifetime: 0) }
        case .natPMP:
            let client = NATPMPClient(gateway: gateway)
            return { client.delete(internalPort: grant.internalPort) }
        case .upnp:
            guard let device else { return {} }
            let client = UPnPClient(device: device)
            return { client.delete(externalPort: grant.externalPort) }
        }
    }

    private func finish() {
        timer?.cancel()
        timer = nil
        continuation.finish()
        done.withLock { $0 = true }
    }
}
