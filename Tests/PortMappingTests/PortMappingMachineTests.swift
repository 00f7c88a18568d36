import Testing
@testable import PortMapping

/// The mapping state machine, event by event: what it asks for, what it reports.
@Suite struct PortMappingMachineTests {
    static let gateway = IPv4Address(192, 168, 77, 1)
    static let external = IPv4Address(203, 0, 113, 1)
    static let lifetime = PortMappingMachine.requestedLifetime

    static func grant(_ method: MappingMethod, port: Int = 7777, address: IPv4Address = external, lifetime: Int = 600,
                      epoch: UInt32? = 100) -> PortMappingGrant {
        PortMappingGrant(method: method, externalAddress: address, externalPort: port, internalPort: 7777, lifetime: lifetime,
                         epoch: method == .upnp ? nil : epoch)
    }

    static func started() -> PortMappingMachine {
        var machine = PortMappingMachine(internalPort: 7777, gateway: gateway)
        #expect(machine.handle(.start) == [.request(.pcp, externalPort: 7777, lifetime: lifetime), .searchUPnP])
        return machine
    }

    /// A machine holding `grant`, checked, at time 0.
    static func mapped(_ grant: PortMappingGrant) -> PortMappingMachine {
        var machine = started()
        if grant.method == .natPMP { _ = machine.handle(.answered(.pcp, .speaksNATPMPOnly, at: 0)) }
        if grant.method == .upnp {
            _ = machine.handle(.answered(.pcp, .noAnswer("no answer"), at: 0))
            _ = machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 0))
            _ = machine.handle(.upnpSearched(found: true, detail: ""))
        }
        _ = machine.handle(.answered(grant.method, .granted(grant), at: 0))
        _ = machine.handle(.checked(true))
        return machine
    }

    @Test func pcpGrantedIsCheckedReportedAndRenewedAtHalfItsLifetime() {
        var machine = Self.started()
        let grant = Self.grant(.pcp)
        #expect(machine.handle(.answered(.pcp, .granted(grant), at: 1)) == [.check(grant)])
        #expect(machine.handle(.upnpSearched(found: true, detail: "")) == [], "UPnP is not needed: PCP mapped")
        #expect(machine.handle(.checked(true)) == [.report(.mapped(grant, checked: true, asked: 7777, gateway: Self.gateway)), .wait(300)])
        #expect(machine.handle(.timerFired) == [.request(.pcp, externalPort: 7777, lifetime: Self.lifetime)])
        // The renewal: the same link, the epoch kept pace (300 s there and here).
        let renewed = Self.grant(.pcp, epoch: 400)
        #expect(machine.handle(.answered(.pcp, .granted(renewed), at: 301)) == [.wait(300)])
    }

    @Test func aNATPMPGatewayIsAskedInNATPMP() {
        var machine = Self.started()
        #expect(machine.handle(.answered(.pcp, .speaksNATPMPOnly, at: 0)) == [.request(.natPMP, externalPort: 7777, lifetime: Self.lifetime)])
        let grant = Self.grant(.natPMP)
        #expect(machine.handle(.answered(.natPMP, .granted(grant), at: 0)) == [.check(grant)])
        #expect(machine.handle(.checked(false)) == [.report(.mapped(grant, checked: false, asked: 7777, gateway: Self.gateway)), .wait(300)])
    }

    @Test func upnpMapsWhenPCPAndNATPMPDoNotWhicheverEndsFirst() {
        // The IGD is found before NAT-PMP gives up: UPnP waits its turn.
        var machine = Self.started()
        #expect(machine.handle(.upnpSearched(found: true, detail: "")) == [])
        #expect(machine.handle(.answered(.pcp, .noAnswer("no answer"), at: 0)) == [.request(.natPMP, externalPort: 7777, lifetime: Self.lifetime)])
        #expect(machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 0)) == [.request(.upnp, externalPort: 7777, lifetime: Self.lifetime)])
        // NAT-PMP gives up first: UPnP maps once the search has found the IGD.
        var other = Self.started()
        _ = other.handle(.answered(.pcp, .noAnswer("no answer"), at: 0))
        #expect(other.handle(.answered(.natPMP, .noAnswer("no answer"), at: 0)) == [])
        #expect(other.handle(.upnpSearched(found: true, detail: "")) == [.request(.upnp, externalPort: 7777, lifetime: Self.lifetime)])
    }

    @Test func aTakenPortTriesTheNextAndSaysSo() {
        var machine = Self.started()
        _ = machine.handle(.answered(.pcp, .refused(MappingRefusal(.other, "PCP NOT_AUTHORIZED")), at: 0))
        let taken = MappingRefusal(.portTaken, "UPnP error 718 (ConflictInMappingEntry)")
        #expect(machine.handle(.upnpSearched(found: true, detail: "")) == [.request(.upnp, externalPort: 7777, lifetime: Self.lifetime)])
        #expect(machine.handle(.answered(.upnp, .refused(taken), at: 0))
                == [.report(.portRefused(7777, reason: taken.text, next: 7778)), .request(.upnp, externalPort: 7778, lifetime: Self.lifetime)])
        let grant = Self.grant(.upnp, port: 7778)
        #expect(machine.handle(.answered(.upnp, .granted(grant), at: 0)) == [.check(grant)])
        #expect(machine.handle(.checked(true)) == [.report(.mapped(grant, checked: true, asked: 7777, gateway: Self.gateway)), .wait(300)])
    }

    @Test func tenTakenPortsInARowGiveUp() {
        var machine = Self.started()
        _ = machine.handle(.answered(.pcp, .noAnswer("no answer"), at: 0))
        _ = machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 0))
        _ = machine.handle(.upnpSearched(found: true, detail: ""))
        let taken = MappingRefusal(.portTaken, "taken")
        for _ in 1..<PortMappingMachine.maximumPortTries { _ = machine.handle(.answered(.upnp, .refused(taken), at: 0)) }
        #expect(machine.handle(.answered(.upnp, .refused(taken), at: 0))
                == [.report(.unavailable(gateway: Self.gateway, reasons: ["PCP: no answer", "NAT-PMP: no answer", "UPnP: taken"]))])
        #expect(machine.handle(.stopRequested) == [.finish])
    }

    @Test func anIGDWithPermanentLeasesOnlyIsAskedForOne() {
        var machine = Self.started()
        _ = machine.handle(.answered(.pcp, .noAnswer("no answer"), at: 0))
        _ = machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 0))
        _ = machine.handle(.upnpSearched(found: true, detail: ""))
        #expect(machine.handle(.answered(.upnp, .refused(MappingRefusal(.permanentLeasesOnly, "725")), at: 0))
                == [.request(.upnp, externalPort: 7777, lifetime: 0)])
        let grant = Self.grant(.upnp, lifetime: 0)
        _ = machine.handle(.answered(.upnp, .granted(grant), at: 0))
        #expect(machine.handle(.checked(true)).last == .wait(PortMappingMachine.permanentRecheck))
        #expect(machine.handle(.timerFired) == [.request(.upnp, externalPort: 7777, lifetime: 0)])
    }

    @Test func nothingAnsweringIsOneReportWithEveryReason() {
        var machine = Self.started()
        _ = machine.handle(.answered(.pcp, .noAnswer("nothing answers on port 5351"), at: 0))
        _ = machine.handle(.answered(.natPMP, .noAnswer("nothing answers on port 5351"), at: 0))
        #expect(machine.handle(.upnpSearched(found: false, detail: "no IGD answered the SSDP search"))
                == [.report(.unavailable(gateway: Self.gateway, reasons: [
                    "PCP: nothing answers on port 5351", "NAT-PMP: nothing answers on port 5351", "UPnP: no IGD answered the SSDP search"]))])
        #expect(machine.state == .unavailable)
        #expect(machine.handle(.timerFired) == [])
    }

    @Test(arguments: [IPv4Address(100, 64, 0, 1), IPv4Address(10, 0, 0, 2)])
    func anExternalAddressBehindAnotherNATIsDeletedAndSaidSo(_ address: IPv4Address) {
        var machine = Self.started()
        let grant = Self.grant(.pcp, address: address)
        #expect(machine.handle(.answered(.pcp, .granted(grant), at: 0)) == [.delete(grant), .report(.behindAnotherNAT(grant))])
        #expect(machine.handle(.stopRequested) == [], "the deletion is under way")
        #expect(machine.handle(.deleted) == [.finish])
    }

    @Test func aRestartedGatewayOnTheSameLinkIsSaidOnce() {
        var machine = Self.mapped(Self.grant(.pcp, epoch: 100))
        _ = machine.handle(.timerFired)
        let again = Self.grant(.pcp, epoch: 2)
        #expect(machine.handle(.answered(.pcp, .granted(again), at: 300))
                == [.report(.remapped(again, previous: Self.grant(.pcp, epoch: 100), checked: true)), .wait(300)])
    }

    @Test func aRenewalOnAnotherPortIsCheckedAndANewLink() {
        let before = Self.grant(.pcp, epoch: 100)
        var machine = Self.mapped(before)
        _ = machine.handle(.timerFired)
        let moved = Self.grant(.pcp, port: 7778, epoch: 1)
        #expect(machine.handle(.answered(.pcp, .granted(moved), at: 300)) == [.check(moved)])
        #expect(machine.handle(.checked(true)) == [.report(.remapped(moved, previous: before, checked: true)), .wait(300)])
    }

    @Test func aFailedRenewalMapsAgainFromScratchAndKeepsTryingIfThatFails() {
        let before = Self.grant(.natPMP)
        var machine = Self.mapped(before)
        #expect(machine.handle(.timerFired) == [.request(.natPMP, externalPort: 7777, lifetime: Self.lifetime)])
        #expect(machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 300))
                == [.report(.renewalFailed(reason: "NAT-PMP: no answer")), .request(.pcp, externalPort: 7777, lifetime: Self.lifetime), .searchUPnP])
        _ = machine.handle(.answered(.pcp, .noAnswer("no answer"), at: 301))
        _ = machine.handle(.answered(.natPMP, .noAnswer("no answer"), at: 302))
        let retry = PortMappingMachine.retryAfterLoss
        #expect(machine.handle(.upnpSearched(found: false, detail: "none"))
                == [.report(.lost(previous: before, reason: "PCP: no answer; NAT-PMP: no answer; UPnP: none", retryIn: retry)), .wait(retry)])
        #expect(machine.handle(.timerFired) == [.request(.pcp, externalPort: 7777, lifetime: Self.lifetime), .searchUPnP])
        let back = Self.grant(.pcp, epoch: 5)
        #expect(machine.handle(.answered(.pcp, .granted(back), at: 340)) == [.check(back)])
        #expect(machine.handle(.checked(true)) == [.report(.remapped(back, previous: before, checked: true)), .wait(300)])
    }

    @Test func stoppingDeletesWhatIsMapped() {
        let grant = Self.grant(.upnp)
        var machine = Self.mapped(grant)
        #expect(machine.handle(.stopRequested) == [.delete(grant)])
        #expect(machine.handle(.timerFired) == [], "no renewal while stopping")
        #expect(machine.handle(.deleted) == [.finish])
        #expect(machine.isFinished)
    }

    @Test func stoppingWaitsForARequestThatMayStillMap() {
        var machine = Self.started()
        #expect(machine.handle(.stopRequested) == [], "PCP's request is under way")
        let late = Self.grant(.pcp)
        #expect(machine.handle(.answered(.pcp, .granted(late), at: 0)) == [.delete(late)])
        #expect(machine.handle(.upnpSearched(found: true, detail: "")) == [])
        #expect(machine.handle(.deleted) == [.finish])
    }

    @Test func stoppingDuringARenewalDeletesWhateverItCameTo() {
        let grant = Self.grant(.pcp)
        var failed = Self.mapped(grant)
        _ = failed.handle(.timerFired)
        #expect(failed.handle(.stopRequested) == [])
        #expect(failed.handle(.answered(.pcp, .noAnswer("no answer"), at: 1)) == [.delete(grant)], "it may still be there")
        #expect(failed.handle(.deleted) == [.finish])

        var renewed = Self.mapped(grant)
        _ = renewed.handle(.timerFired)
        _ = renewed.handle(.stopRequested)
        let moved = Self.grant(.pcp, port: 7778)
        #expect(renewed.handle(.answered(.pcp, .granted(moved), at: 1)) == [.delete(moved)])
    }

    @Test func stoppingWhileCheckingDeletesTheGrant() {
        var machine = Self.started()
        let grant = Self.grant(.pcp)
        _ = machine.handle(.answered(.pcp, .granted(grant), at: 0))
        #expect(machine.handle(.stopRequested) == [.delete(grant)])
        #expect(machine.handle(.checked(true)) == [], "a late check reports nothing")
        #expect(machine.handle(.deleted) == [.finish])
    }

    @Test func lateAndStrayEventsChangeNothing() {
        var machine = Self.started()
        #expect(machine.handle(.start) == [])
        #expect(machine.handle(.answered(.natPMP, .granted(Self.grant(.natPMP)), at: 0)) == [], "NAT-PMP was not asked")
        #expect(machine.handle(.answered(.upnp, .granted(Self.grant(.upnp)), at: 0)) == [], "UPnP was not asked")
        #expect(machine.handle(.checked(true)) == [])
        #expect(machine.handle(.deleted) == [])
        #expect(machine.handle(.timerFired) == [])
    }
}
