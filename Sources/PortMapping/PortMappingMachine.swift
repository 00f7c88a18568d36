/// A port mapping on the home router as a pure state machine, in the swift-nio style: named events
/// in (``Event``: what the gateway answered, time passing, the owner stopping), actions out
/// (``Action``: requests, a search, a check, a wait, reports). It knows no sockets and no C library;
/// ``PortMapper`` drives it.
///
/// The attempt: PCP (RFC 6887) first and, when the gateway does not speak it, NAT-PMP (RFC 6886) —
/// both on the gateway's port 5351 — while a UPnP IGD is searched for at the same time (its SSDP
/// search takes a second whatever the answer, so searching only after PCP and NAT-PMP failed would
/// double the wait); UPnP maps only when PCP and NAT-PMP did not. A UPnP refusal of a taken port
/// tries the next port. A grant whose external address is carrier-grade NAT or private is deleted
/// and said to be useless. Otherwise the external address is checked (a connection from here) and
/// the mapping is renewed at half its lifetime; a renewal that fails, or whose epoch says the gateway
/// restarted, maps again and says whether the link changed. Stopping deletes what is mapped,
/// including what a request still under way may grant.
public struct PortMappingMachine: Sendable {
    /// The lifetime asked for, in seconds: a process killed without deleting its mapping leaves the
    /// port open at most this long, and one renewal every five minutes costs one small exchange.
    public static let requestedLifetime = 600
    /// Ports tried in a row when UPnP refuses them as taken: a router that refuses ten neighbouring
    /// ports will not grant the eleventh, and each try is one exchange on the LAN.
    public static let maximumPortTries = 10
    /// The shortest wait before a renewal, in seconds: a gateway that grants a lifetime of a second
    /// or two is not asked again in a loop.
    public static let minimumRenewal = 1.0
    /// How often a permanent UPnP mapping (lease 0) is asked for again, in seconds: it cannot expire,
    /// but a router that restarts forgets it, and this notices within a minute.
    public static let permanentRecheck = 60.0
    /// How long after a failed attempt to map again (after a loss) the next one starts, in seconds:
    /// a restarting router is back within a minute, and an attempt every 30 s costs nothing.
    public static let retryAfterLoss = 30.0

    public let internalPort: Int
    public let gateway: IPv4Address
    public private(set) var state: State = .idle

    /// A machine for `internalPort` (asked for as the external port too) through `gateway`.
    public init(internalPort: Int, gateway: IPv4Address) {
        self.internalPort = internalPort
        self.gateway = gateway
    }

    /// Whether the machine is done: nothing mapped, nothing under way.
    public var isFinished: Bool { state == .finished }

    /// Feeds one event; returns what the driver does now, in order. An event that does not belong in
    /// the current state (a late answer, a stale timer) changes nothing and asks for nothing.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .start:
            guard state == .idle else { return [] }
            return probe(asking: internalPort, previous: nil)
        case .answered(let method, let answer, let now):
            return answered(method, answer, now: now)
        case .upnpSearched(let found, let detail):
            guard case .probing(var probe) = state, probe.upnp == .searching else { return [] }
            probe.upnp = found ? .found : .notFound
            if !found { probe.failures[.upnp] = detail }
            return afterPMP(probe)
        case .checked(let ok):
            guard case .checking(let checking) = state else { return [] }
            return checked(checking, ok: ok)
        case .deleted:
            return deleted()
        case .timerFired:
            switch state {
            case .mapped(let held):
                state = .renewing(held)
                let lifetime = held.grant.method == .upnp ? held.grant.lifetime : Self.requestedLifetime
                return [.request(held.grant.method, externalPort: held.grant.externalPort, lifetime: lifetime)]
            case .waitingToRetry(let previous):
                return probe(asking: previous.externalPort, previous: previous)
            default:
                return []
            }
        case .stopRequested:
            return stop()
        }
    }

    // MARK: The attempt

    private mutating func probe(asking port: Int, previous: PortMappingGrant?) -> [Action] {
        state = .probing(Probe(asked: port, port: port, upnpLifetime: Self.requestedLifetime, previous: previous))
        return [.request(.pcp, externalPort: port, lifetime: Self.requestedLifetime), .searchUPnP]
    }

    private mutating func answered(_ method: MappingMethod, _ answer: MappingAnswer, now: Double) -> [Action] {
        switch state {
        case .probing(var probe):
            if method == .upnp {
                guard probe.upnp == .asking else { return [] }
                return upnpAnswered(answer, probe, now: now)
            }
            guard probe.pmp == .asking(method) else { return [] }
            switch (method, answer) {
            case (_, .granted(let grant)):
                return granted(grant, probe, now: now)
            case (.pcp, .speaksNATPMPOnly), (.pcp, .noAnswer):
                // No PCP here: a NAT-PMP gateway answers version 0 (an old one may not answer at all).
                if let why = answer.failure, answer != .speaksNATPMPOnly { probe.failures[.pcp] = why }
                probe.pmp = .asking(.natPMP)
                state = .probing(probe)
                return [.request(.natPMP, externalPort: probe.asked, lifetime: Self.requestedLifetime)]
            default:
                // A refusal (PCP's NOT_AUTHORIZED…): NAT-PMP on the same port would say the same.
                probe.pmp = .failed
                probe.failures[method] = answer.failure ?? ""
                return afterPMP(probe)
            }
        case .renewing(let held):
            guard method == held.grant.method else { return [] }
            return renewed(held, answer, now: now)
        case .stopping(var stopping):
            guard stopping.requestsInFlight > 0 else { return [] }
            stopping.requestsInFlight -= 1
            var actions: [Action] = []
            if case .granted(let grant) = answer {
                stopping.deleting += 1
                actions.append(.delete(grant))
            } else if let held = stopping.held {
                // The renewal failed: the mapping it renewed may still be there.
                stopping.deleting += 1
                actions.append(.delete(held))
            }
            stopping.held = nil
            state = .stopping(stopping)
            return actions + finishIfDone()
        default:
            return []
        }
    }

    /// PCP and NAT-PMP are done (failed) or the IGD search ended: UPnP's turn, once both are known.
    private mutating func afterPMP(_ probe: Probe) -> [Action] {
        var probe = probe
        guard probe.pmp == .failed else {
            state = .probing(probe)
            return []
        }
        switch probe.upnp {
        case .searching, .asking:
            state = .probing(probe)
            return []
        case .found:
            probe.upnp = .asking
            state = .probing(probe)
            return [.request(.upnp, externalPort: probe.port, lifetime: probe.upnpLifetime)]
        case .notFound, .failed:
            return failed(probe)
        }
    }

    private mutating func upnpAnswered(_ answer: MappingAnswer, _ probe: Probe, now: Double) -> [Action] {
        var probe = probe
        switch answer {
        case .granted(let grant):
            return granted(grant, probe, now: now)
        case .refused(let refusal) where refusal.kind == .portTaken && probe.refusedPorts + 1 < Self.maximumPortTries:
            let refused = probe.port
            probe.refusedPorts += 1
            probe.port = refused == 65535 ? 1024 : refused + 1
            state = .probing(probe)
            return [.report(.portRefused(refused, reason: refusal.text, next: probe.port)),
                    .request(.upnp, externalPort: probe.port, lifetime: probe.upnpLifetime)]
        case .refused(let refusal) where refusal.kind == .permanentLeasesOnly && probe.upnpLifetime != 0:
            probe.upnpLifetime = 0
            state = .probing(probe)
            return [.request(.upnp, externalPort: probe.port, lifetime: 0)]
        default:
            probe.upnp = .failed
            probe.failures[.upnp] = answer.failure ?? ""
            return failed(probe)
        }
    }

    /// Every method failed.
    private mutating func failed(_ probe: Probe) -> [Action] {
        guard let previous = probe.previous else {
            state = .unavailable
            return [.report(.unavailable(gateway: gateway, reasons: probe.reasons))]
        }
        state = .waitingToRetry(previous: previous)
        return [.report(.lost(previous: previous, reason: probe.reasons.joined(separator: "; "), retryIn: Self.retryAfterLoss)),
                .wait(Self.retryAfterLoss)]
    }

    private mutating func granted(_ grant: PortMappingGrant, _ probe: Probe, now: Double) -> [Action] {
        switch grant.externalAddress.scope {
        case .global:
            state = .checking(Checking(grant: grant, heardAt: now, previous: probe.previous, asked: probe.asked))
            return [.check(grant)]
        default:
            state = .unusable(deleting: true)
            return [.delete(grant), .report(.behindAnotherNAT(grant))]
        }
    }

    private mutating func checked(_ checking: Checking, ok: Bool) -> [Action] {
        let grant = checking.grant
        state = .mapped(Held(grant: grant, epoch: grant.epoch.map { GatewayEpoch(server: $0, client: checking.heardAt) }, checked: ok))
        let report: PortMappingReport = checking.previous.map { .remapped(grant, previous: $0, checked: ok) }
            ?? .mapped(grant, checked: ok, asked: checking.asked, gateway: gateway)
        return [.report(report), .wait(Self.renewalDelay(grant))]
    }

    /// Half the lifetime (at least ``minimumRenewal``); ``permanentRecheck`` for a permanent mapping.
    public static func renewalDelay(_ grant: PortMappingGrant) -> Double {
        grant.lifetime == 0 ? permanentRecheck : max(minimumRenewal, Double(grant.lifetime) / 2)
    }

    // MARK: Renewals

    private mutating func renewed(_ held: Held, _ answer: MappingAnswer, now: Double) -> [Action] {
        guard case .granted(let grant) = answer else {
            let reason = "\(held.grant.method): \(answer.failure ?? "")"
            return [.report(.renewalFailed(reason: reason))] + probe(asking: held.grant.externalPort, previous: held.grant)
        }
        let epoch = grant.epoch.map { GatewayEpoch(server: $0, client: now) }
        let restarted = held.epoch.flatMap { before in epoch.map { before.restarted(at: $0) } } ?? false
        guard grant.sameLink(as: held.grant), grant.externalAddress.scope == .global else {
            // Another address or port: say so once it is checked (or that it is useless).
            return granted(grant, Probe(asked: held.grant.externalPort, port: grant.externalPort,
                                        upnpLifetime: grant.lifetime, previous: held.grant), now: now)
        }
        state = .mapped(Held(grant: grant, epoch: epoch, checked: held.checked))
        var actions: [Action] = []
        if restarted {
            actions.append(.report(.remapped(grant, previous: held.grant, checked: held.checked)))
        }
        return actions + [.wait(Self.renewalDelay(grant))]
    }

    // MARK: Stopping

    private mutating func stop() -> [Action] {
        switch state {
        case .idle, .unavailable, .waitingToRetry, .finished, .unusable(deleting: false):
            state = .finished
            return [.finish]
        case .unusable(deleting: true):
            state = .stopping(Stopping(requestsInFlight: 0, deleting: 1, held: nil))
            return []
        case .probing(let probe):
            state = .stopping(Stopping(requestsInFlight: probe.requestsInFlight, deleting: 0, held: nil))
            return finishIfDone()
        case .checking(let checking):
            state = .stopping(Stopping(requestsInFlight: 0, deleting: 1, held: nil))
            return [.delete(checking.grant)]
        case .mapped(let held):
            state = .stopping(Stopping(requestsInFlight: 0, deleting: 1, held: nil))
            return [.delete(held.grant)]
        case .renewing(let held):
            state = .stopping(Stopping(requestsInFlight: 1, deleting: 0, held: held.grant))
            return []
        case .stopping:
            return []
        }
    }

    private mutating func deleted() -> [Action] {
        switch state {
        case .unusable(deleting: true):
            state = .unusable(deleting: false)
            return []
        case .stopping(var stopping) where stopping.deleting > 0:
            stopping.deleting -= 1
            state = .stopping(stopping)
            return finishIfDone()
        default:
            return []
        }
    }

    private mutating func finishIfDone() -> [Action] {
        guard case .stopping(let stopping) = state, stopping.requestsInFlight == 0, stopping.deleting == 0 else { return [] }
        state = .finished
        return [.finish]
    }
}
