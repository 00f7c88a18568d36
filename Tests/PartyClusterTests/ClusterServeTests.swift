import Foundation
import PartyCluster
import PartyKit
import PartyClient
import PartyService
import Testing
import TestSupport

/// `tandem serve --cluster` nodes in this process on loopback, with real members (real players) and
/// the test PostgreSQL: members find their party's node, and a dead node's parties move.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct ClusterServeTests {
    static let key = "ABCDEFGHJKMNPQRSTUVW"
    /// The issue's bound for everyone being back in sync after the owner died (a failure bound only).
    static let recoveryBound = Duration.seconds(15)
    /// The lease of nodes in tests where one is killed: the shortest a node takes
    /// (``ClusterConfiguration/minimumLeaseSeconds``), so its parties move within ``recoveryBound``.
    /// Such tests assert no lease still holds after a while (a stall could have let it lapse).
    static let killedOwnerLease = Duration.seconds(3)

    /// Starts b, then a: a reads the live nodes as it joins, so its welcomes name b from the start.
    static func twoNodes(lease: Duration) async throws -> (TestNode, TestNode) {
        let b = try await TestNode.start("b", lease: lease)
        let a = try await TestNode.start("a", lease: lease)
        try await waitUntil("a lists b", within: .seconds(60), every: .milliseconds(100)) { a.node.nodes.contains(b.address) }
        return (a, b)
    }

    /// Welcomes a member had: one per node that seated it.
    static func welcomes(_ notices: TestMembers.Notices) -> Int { notices.all.filter { $0.hasPrefix("joined party") }.count }

    /// The guest leaves, then the host (which ends the party); each one's run is waited out.
    static func leave(_ guest: PartyMember, _ guestRun: Task<PartyMember.Outcome, Never>,
                      then host: PartyMember, _ hostRun: Task<PartyMember.Outcome, Never>) async {
        await guest.leave()
        _ = await guestRun.value
        await host.leave()
        _ = await hostRun.value
    }

    @Test func aGuestDialingTheWrongNodeJoinsThePartyOnItsOwner() async throws {
        let (a, b) = try await Self.twoNodes(lease: TestDatabase.steadyLease)
        let party = TestDatabase.unique("wrong-node")
        let hostNotices = TestMembers.Notices()
        let host = TestMembers.member(a.link(party, key: Self.key), name: "Hana", create: try TestMembers.config(), notices: hostNotices)
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in its party", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        // Party made on a: the directory says so.
        try await waitUntil("the directory knows the party", within: .seconds(60), every: .milliseconds(100)) { (try? await a.node.directory.lookup(party: party))?.node != nil }
        #expect(try await a.node.directory.lookup(party: party)?.node == a.node.directory.configuration.nodeID)

        let guest = TestMembers.member(b.link(party, key: Self.key), name: "Gus")
        let guestRun = Task { await guest.run() }
        try await waitUntil("the guest, sent from b to a, is synced", within: .seconds(60), every: .milliseconds(100)) { await guest.status.synced }
        #expect(hostNotices.all.contains("Gus joined the party"))
        #expect(await a.server.memberCount == 2)
        #expect(await b.server.partyCount == 0)
        #expect(await b.server.memberCount == 0)
        #expect(await guest.status.participants.map(\.name).sorted() == ["Gus", "Hana"])

        // A wrong key dialled at b is refused there, without a redirect.
        let intruder = TestMembers.member(b.link(party, key: "WRONGKEYWRONGKEYWRON"), name: "X")
        guard case .failed(let reason) = await intruder.run() else { Issue.record("a wrong key joined"); return }
        #expect(reason.contains("wrong key"), "\(reason)")

        await Self.leave(guest, guestRun, then: host, hostRun)
        // The host left, the party ended: a forgets it in the directory.
        try await waitUntil("the ended party leaves the directory", within: .seconds(60), every: .milliseconds(100)) { await TestDatabase.isFree(party, in: b.node.directory) }
        #expect(try await b.node.directory.restore(party: party) == nil)
        for m in [host, guest, intruder] { await m.shutDown() }
        await a.stop()
        await b.stop()
    }

    /// The owner dies (its leases are not released): members reconnect to the other node, which takes
    /// the lease once it runs out, restores the party at a later epoch, and everyone takes their
    /// seat back, the host as host.
    @Test func killingTheOwningNodeMovesThePartyAndItsMembers() async throws {
        let (a, b) = try await Self.twoNodes(lease: Self.killedOwnerLease)
        let party = TestDatabase.unique("takeover")
        let hostNotices = TestMembers.Notices()
        let host = TestMembers.member(a.link(party, key: Self.key), name: "Hana", create: try TestMembers.config(), notices: hostNotices)
        let guestNotices = TestMembers.Notices()
        let guest = TestMembers.member(a.link(party, key: Self.key), name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        let guestRun = Task { await guest.run() }
        try await waitUntil("the guest is synced", within: .seconds(60), every: .milliseconds(100)) { await guest.status.synced }
        await host.request(.play)
        try await waitUntil("the party plays", within: .seconds(60), every: .milliseconds(100)) {
            let g = await guest.status
            return g.playing && (g.position ?? 0) > 0.5
        }
        try await waitUntil("a saved the playing epoch", within: .seconds(60), every: .milliseconds(100)) {
            ((try? await a.node.directory.restore(party: party))?.timeline.playing) == true
        }
        let before = try #require(try await a.node.directory.restore(party: party))
        let hostSeat = await host.status.me
        let guestSeat = await guest.status.me

        let killed = ContinuousClock.now
        await a.kill()
        try await waitUntil("both members welcomed again (by b) and the guest in sync", within: Self.recoveryBound, every: .milliseconds(100)) {
            guard Self.welcomes(hostNotices) == 2, Self.welcomes(guestNotices) == 2 else { return false }
            let g = await guest.status
            return g.synced && g.connected && g.playing
        }
        let recovery = ContinuousClock.now - killed
        // b saves the restored epoch (on its next tick): the epochs went on from a's.
        try await waitUntil("b saved a later epoch than a's last", within: .seconds(60), every: .milliseconds(100)) {
            ((try? await b.node.directory.restore(party: party))?.epoch ?? 0) > before.epoch
        }
        // b holds it (read from its row: a stall of b's renewals may have let the short lease lapse
        // for a moment, which b's next renewal mends).
        #expect(try await TestDatabase.holder(of: party) == b.node.directory.configuration.nodeID)
        // Same seats: the tokens survived the takeover.
        let hostNow = await host.status.me
        #expect(hostNow?.id == hostSeat?.id && hostNow?.role == .host)
        #expect(await guest.status.me?.id == guestSeat?.id)
        #expect(await b.server.memberCount == 2)
        print("cluster takeover: members back in sync \(recovery) after the owner died")
        // The party goes on at b: the host still steers it.
        await host.request(.pause)
        try await waitUntil("the pause reaches the guest via b", within: .seconds(60), every: .milliseconds(100)) { await !guest.status.playing }

        await Self.leave(guest, guestRun, then: host, hostRun)
        await host.shutDown()
        await guest.shutDown()
        await b.stop()
    }

    /// A drained node (SIGTERM) releases its parties: the members' reconnects land on the other node
    /// at once, without waiting for a lease to run out.
    @Test func aDrainedNodeHandsItsPartiesOverAtOnce() async throws {
        let (a, b) = try await Self.twoNodes(lease: TestDatabase.steadyLease)
        let party = TestDatabase.unique("drain")
        let hostNotices = TestMembers.Notices(), guestNotices = TestMembers.Notices()
        let host = TestMembers.member(a.link(party, key: Self.key), name: "Hana", create: try TestMembers.config(), notices: hostNotices)
        let guest = TestMembers.member(a.link(party, key: Self.key), name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        let guestRun = Task { await guest.run() }
        try await waitUntil("the guest is synced", within: .seconds(60), every: .milliseconds(100)) { await guest.status.synced }
        await a.stop()
        // Under the lease (60 s): the release, not an expiry, moved the party. The bound leaves room
        // for a loaded machine (the suite runs in parallel) and still tells the two apart.
        do {
            try await waitUntil("both members welcomed by b", within: .seconds(40), every: .milliseconds(100)) {
                Self.welcomes(hostNotices) == 2 && Self.welcomes(guestNotices) == 2
            }
        } catch {
            Issue.record("host heard \(hostNotices.all); guest heard \(guestNotices.all)")
            throw error
        }
        #expect(await b.server.memberCount == 2)
        #expect(try await b.node.directory.lookup(party: party)?.node == b.node.directory.configuration.nodeID)
        await Self.leave(guest, guestRun, then: host, hostRun)
        await host.shutDown()
        await guest.shutDown()
        await b.stop()
    }

    /// Two nodes placing the same free party at once (its owner gone): exactly one takes it, the
    /// other sends its member to the winner.
    @Test func twoNodesRacingForOnePartyHaveOneWinner() async throws {
        let (a, b) = try await Self.twoNodes(lease: TestDatabase.steadyLease)
        let config = try TestMembers.config()
        for round in 0..<20 {
            let party = TestDatabase.unique("race\(round)")
            // A party some third node made, saved and released.
            guard case .here = try await a.node.place(party: party, key: Self.key, creating: true) else {
                Issue.record("could not create"); return
            }
            await a.node.save(party: party, image: PartyServerCore.PartyImage(config: config, timeline: Timeline(epoch: 4), seats: []),
                              partyClock: 0, sequence: 1)
            await a.node.releaseAll()
            async let first = a.node.place(party: party, key: Self.key, creating: false)
            async let second = b.node.place(party: party, key: Self.key, creating: false)
            let results = try await [first, second]
            let winners = results.filter { if case .here = $0 { true } else { false } }
            try #require(winners.count == 1, "round \(round): \(results)")
            guard case .here(let restore) = winners[0] else { return }
            #expect(restore?.restore.epoch == 4)
            let loser = results.first { if case .here = $0 { false } else { true } }
            let winner = results[0] == winners[0] ? a : b
            #expect(loser == .elsewhere(winner.address))
            await winner.node.releaseAll()
        }
        await a.stop()
        await b.stop()
    }

    /// PostgreSQL restarts under a running party: the party goes on, and afterwards the directory
    /// still sends a new guest from the other node to it.
    @Test func thePartySurvivesADatabaseRestart() async throws {
        let (a, b) = try await Self.twoNodes(lease: TestDatabase.steadyLease)
        let party = TestDatabase.unique("pg-restart")
        let host = TestMembers.member(a.link(party, key: Self.key), name: "Hana", create: try TestMembers.config())
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is synced", within: .seconds(60), every: .milliseconds(100)) { await host.status.synced }
        try await waitUntil("the directory knows the party", within: .seconds(60), every: .milliseconds(100)) { (try? await a.node.directory.lookup(party: party)) != nil }

        let log = try #require(TestDatabase.environment["TANDEM_TEST_POSTGRES_LOG"])
        try await TestDatabase.pgctl(["-l", log, "-m", "fast", "restart"])
        try await waitUntil("the directory works again", within: .seconds(60), every: .milliseconds(100)) { (try? await b.node.directory.lookup(party: party)) != nil }
        #expect(await host.status.connected)
        let guest = TestMembers.member(b.link(party, key: Self.key), name: "Gus")
        let guestRun = Task { await guest.run() }
        try await waitUntil("a new guest dialing b joins the party on a", within: .seconds(60), every: .milliseconds(100)) { await guest.status.synced }
        #expect(await a.server.memberCount == 2)
        await Self.leave(guest, guestRun, then: host, hostRun)
        await host.shutDown()
        await guest.shutDown()
        await a.stop()
        await b.stop()
    }
}
