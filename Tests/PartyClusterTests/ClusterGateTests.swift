import Foundation
import Logging
import PartyCluster
import PartyKit
import PartyServer
import PartyClient
import PartyService
import Synchronization
import Testing
import TestSupport

/// What a node's gate does with hellos for parties it does not hold, against the test PostgreSQL.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct ClusterGateTests {
    /// Wrong keys that a node which does not hold the party finds wrong (in the directory) count
    /// against the address as they do at the owner: past the limit, even the right key from that
    /// address is refused unread.
    @Test func wrongKeysAtANodeWithoutThePartyAreLimited() async throws {
        let (a, b) = try await ClusterServeTests.twoNodes(lease: TestDatabase.steadyLease)
        let party = TestDatabase.unique("guessed")
        let host = TestMembers.member(a.link(party, key: ClusterServeTests.key), name: "Hana", create: try TestMembers.config())
        let hostRun = Task { await host.run() }
        try await waitUntil("the directory knows the party", within: .seconds(60), every: .milliseconds(100)) { (try? await a.node.directory.lookup(party: party))?.node != nil }

        let limit = WrongKeyLimiter.Policy.standard.limit
        for attempt in 0..<limit {
            // A hello that would create the party: b asks the directory, which finds the key wrong
            // (no redirect to a, whose core would count it).
            let guesser = TestMembers.member(b.link(party, key: "WRONGKEYWRONGKEY\(1000 + attempt)"), name: "X",
                                             create: try TestMembers.config())
            let outcome = await guesser.run()
            await guesser.shutDown()
            guard case .failed(let reason) = outcome else { Issue.record("a wrong key joined"); return }
            #expect(reason.contains("wrong key for party"), "\(reason)")
        }
        // The right key, from the same address, now: refused at b, never redirected to a.
        let late = TestMembers.member(b.link(party, key: ClusterServeTests.key), name: "Late")
        let ended = Mutex<PartyMember.Outcome?>(nil)
        let lateRun = Task {
            let outcome = await late.run()
            ended.withLock { $0 = outcome }
        }
        try await waitUntil("the late member is refused or joins", within: .seconds(60), every: .milliseconds(100)) { await late.status.me != nil || ended.withLock { $0 } != nil }
        if await late.status.me != nil {
            Issue.record("joined past the wrong-key limit")
            await late.leave()
        }
        await lateRun.value
        await late.shutDown()
        let outcome = ended.withLock { $0 }
        guard case .failed(let reason)? = outcome else { Issue.record("not refused: \(String(describing: outcome))"); return }
        #expect(reason.contains("too many wrong keys"), "\(reason)")
        #expect(await a.server.memberCount == 1)

        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await a.stop()
        await b.stop()
    }
}

extension ClusterGateTests {
    /// A node listens before it has joined its cluster (its port is part of its address): a host
    /// dialling it then is told to try again, not given a party the directory never hears of; once
    /// joined, the same hello claims the party in the directory.
    @Test func aNodeTakesNoHelloBeforeItHasJoined() async throws {
        let url = try #require(TestDatabase.url)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test.joining"))
        await server.awaitCluster()
        let port = try await server.start()
        let party = TestDatabase.unique("early")
        let link = PartyLink(host: "127.0.0.1", port: port, party: party, key: ClusterServeTests.key, insecure: true)

        let early = TestMembers.member(link, name: "Early", create: try TestMembers.config())
        let ended = Mutex<PartyMember.Outcome?>(nil)
        let earlyRun = Task {
            let outcome = await early.run()
            ended.withLock { $0 = outcome }
        }
        try await waitUntil("the early host is answered", within: .seconds(60), every: .milliseconds(100)) { await early.status.me != nil || ended.withLock { $0 } != nil }
        if await early.status.me != nil {
            Issue.record("a party was made before the node joined its cluster")
            await early.leave()
        }
        await earlyRun.value
        await early.shutDown()
        guard case .failed(let reason)? = ended.withLock({ $0 }) else { Issue.record("not refused"); return }
        #expect(reason.contains("joining its cluster; try again"), "\(reason)")
        #expect(await server.partyCount == 0)

        // Joined: the same hello makes the party, and the directory knows it.
        let release = AsyncStream<Void>.makeStream()
        let joined = AsyncStream<ClusterNode>.makeStream()
        let node = Task {
            try await ClusterNode.run(url: url, nodeID: TestDatabase.unique("joining"), address: NodeAddress(host: "127.0.0.1", port: port),
                                      leaseLength: TestDatabase.steadyLease, logger: Logger(label: "test.joining")) { cluster in
                await server.joinCluster(cluster)
                joined.continuation.yield(cluster)
                for await _ in release.stream { break }
                await server.drainCluster()
            }
        }
        var cluster: ClusterNode?
        for await made in joined.stream { cluster = made; break }
        let host = TestMembers.member(link, name: "Hana", create: try TestMembers.config())
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        #expect(try await cluster?.directory.lookup(party: party)?.node == cluster?.directory.configuration.nodeID)
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        release.continuation.yield()
        _ = try? await node.value
        await server.stop()
    }
}

extension ClusterGateTests {
    /// A node that joins after the members did is announced to them (`nodes`, protocol 5): a member
    /// whose node dies can reconnect to it, not only to the nodes its welcome listed.
    ///
    /// A node lists another as live while its heartbeat is younger than a lease, so the nodes run on a
    /// long lease (a short one could drop b from a's list during a stall); c is then announced on a's
    /// next read of the nodes, within a third of it: 30 s keeps that wait near 10 s, and b in a's list
    /// through a stall of up to about 20 s.
    static let announcedNodeLease: Duration = .seconds(30)

    @Test func aNodeAddedLaterIsAnnouncedToMembers() async throws {
        let (a, b) = try await ClusterServeTests.twoNodes(lease: Self.announcedNodeLease)
        let party = TestDatabase.unique("late-node")
        let host = TestMembers.member(a.link(party, key: ClusterServeTests.key), name: "Hana", create: try TestMembers.config())
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        #expect(await host.clusterNodes.contains(b.address))
        let c = try await TestNode.start("c", lease: Self.announcedNodeLease)
        try await waitUntil("a tells its member about c", within: .seconds(60), every: .milliseconds(100)) { await host.clusterNodes.contains(c.address) }
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        for node in [a, b, c] { await node.stop() }
    }
}
