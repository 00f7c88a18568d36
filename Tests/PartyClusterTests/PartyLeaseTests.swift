import PartyCluster
import PartyKit
import Testing
import TestSupport

/// Claims, renewals, fencing and restore against a real PostgreSQL, with two directories as two nodes.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct PartyLeaseTests {
    static let key = "ABCDEFGHJKMNPQRSTUVW"
    static let config = PartyConfig(items: [MediaItem(title: "a.mp4", identity: MediaIdentity(duration: 60, streams: []))])

    static func snapshot(epoch: Int, position: Double = 0) -> PartySnapshot {
        PartySnapshot(config: config, timeline: Timeline(epoch: epoch, position: position, partyTime: 100), partyClock: 100)
    }

    /// Both nodes claim at once, round after round: a new party, then (once its winner released it)
    /// a takeover. Every round has exactly one winner, and the loser is sent to it.
    @Test func racingNodesHaveExactlyOneWinner() async throws {
        try await TestDatabase.withTwoNodes { a, b in
            for round in 0..<40 {
                let party = TestDatabase.unique("race\(round)")
                for phase in ["create", "takeover"] {
                    async let claimA = a.claim(party: party, key: Self.key)
                    async let claimB = b.claim(party: party, key: Self.key)
                    let claims = try await [(a, claimA), (b, claimB)]
                    var winners: [(ClusterDirectory, PartyLease)] = []
                    var losers: [PartyOwner] = []
                    for (node, claim) in claims {
                        switch claim {
                        case .claimed(let lease, _): winners.append((node, lease))
                        case .ownedElsewhere(let owner): losers.append(owner)
                        case .wrongKey: Issue.record("wrong key in round \(round) (\(phase))")
                        }
                    }
                    try #require(winners.count == 1, "round \(round) (\(phase)): \(winners.count) winners")
                    let (winner, lease) = winners[0]
                    #expect(losers == [PartyOwner(node: winner.configuration.nodeID, address: winner.configuration.address, epoch: 0)])
                    #expect(try await a.lookup(party: party)?.node == winner.configuration.nodeID)
                    // Free it at once for the takeover phase.
                    try await winner.release(lease)
                }
            }
        }
    }

    @Test func onlyTheOwnerRenewsAndAWrongKeyTakesNothing() async throws {
        try await TestDatabase.withTwoNodes { a, b in
            let party = TestDatabase.unique("renew")
            guard case .claimed(let lease, let snapshot) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("a could not claim a new party"); return
            }
            #expect(snapshot == nil)
            let renewed = try await a.renew(lease)
            #expect(renewed.generation == lease.generation && renewed.validUntil >= lease.validUntil)
            // b presenting a's lease as its own: refused.
            let forged = PartyLease(party: party, node: b.configuration.nodeID, generation: lease.generation, validUntil: .now)
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await b.renew(forged) }
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await b.save(Self.snapshot(epoch: 5), lease: forged) }
            #expect(try await b.claim(party: party, key: Self.key) == .ownedElsewhere(
                PartyOwner(node: a.configuration.nodeID, address: a.configuration.address, epoch: 0)))
            // Released, the party is free, but only for its key.
            try await a.release(lease)
            #expect(try await b.lookup(party: party) == nil)
            #expect(try await b.claim(party: party, key: "WRONGKEYWRONGKEYWRON") == .wrongKey)
            #expect(try await b.lookup(party: party) == nil)
            guard case .claimed(let bLease, _) = try await b.claim(party: party, key: Self.key) else {
                Issue.record("b could not claim the released party"); return
            }
            #expect(bLease.generation == lease.generation + 1)
            try await b.end(bLease)
            #expect(try await a.restore(party: party) == nil)
            #expect(try await a.lookup(party: party) == nil)
        }
    }

    /// a's lease runs out (a stops renewing, as a killed node does: ``TestDatabase/expire(_:)`` ends it
    /// on PostgreSQL's clock, as time would); b takes the party over with a's last snapshot, and a's late
    /// renew and save are refused: they cannot undo b's.
    @Test func anExpiredLeaseIsTakenOverAndTheOldOwnerIsFenced() async throws {
        try await TestDatabase.withTwoNodes { a, b in
            let party = TestDatabase.unique("fence")
            guard case .claimed(let aLease, _) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("a could not claim"); return
            }
            #expect(try await a.save(Self.snapshot(epoch: 3, position: 12), lease: aLease) == .saved)
            #expect(try await b.claim(party: party, key: Self.key) == .ownedElsewhere(
                PartyOwner(node: a.configuration.nodeID, address: a.configuration.address, epoch: 3)))
            try await TestDatabase.expire(aLease)
            #expect(try await b.lookup(party: party) == nil)
            guard case .claimed(let bLease, let restored) = try await b.claim(party: party, key: Self.key) else {
                Issue.record("b could not take over the expired party"); return
            }
            #expect(restored?.timeline == Self.snapshot(epoch: 3, position: 12).timeline)
            #expect(restored?.config == Self.config)
            #expect((restored?.age ?? -1) >= 0)
            #expect(bLease.generation > aLease.generation)

            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await a.renew(aLease) }
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) {
                try await a.save(Self.snapshot(epoch: 9), lease: aLease)
            }
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await a.release(aLease) }
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await a.end(aLease) }
            #expect(try await a.restore(party: party)?.epoch == 3)

            // The new owner's epochs go on; an older save that crosses a newer one is dropped.
            #expect(try await b.save(Self.snapshot(epoch: 4), lease: bLease) == .saved)
            #expect(try await b.save(Self.snapshot(epoch: 2), lease: bLease) == .newerEpochSaved(4))
            #expect(try await a.restore(party: party)?.epoch == 4)
            #expect(try await a.lookup(party: party)?.node == b.configuration.nodeID)
        }
    }

    /// One statement renews all of a node's leases, fenced per party: the one another node took
    /// over is not renewed (the node learns it lost it), the one nobody took is.
    @Test func renewingAllLeasesAtOnceFindsTheLostOne() async throws {
        try await TestDatabase.withTwoNodes { a, b in
            let kept = TestDatabase.unique("kept"), taken = TestDatabase.unique("taken")
            guard case .claimed(let keptLease, _) = try await a.claim(party: kept, key: Self.key),
                  case .claimed(let takenLease, _) = try await a.claim(party: taken, key: Self.key) else {
                Issue.record("a could not claim"); return
            }
            #expect(try await a.renewAll([keptLease, takenLease]).map(\.party).sorted() == [kept, taken].sorted())
            // Both run out (a stalled past its leases); only one is taken meanwhile.
            try await TestDatabase.expire(keptLease)
            try await TestDatabase.expire(takenLease)
            #expect(try await b.lookup(party: taken) == nil)
            guard case .claimed = try await b.claim(party: taken, key: Self.key) else {
                Issue.record("b could not take over"); return
            }
            let renewed = try await a.renewAll([keptLease, takenLease])
            #expect(renewed.map(\.party) == [kept])
            #expect(renewed.first?.generation == keptLease.generation)
            #expect(try await a.lookup(party: kept)?.node == a.configuration.nodeID)
            #expect(try await a.lookup(party: taken)?.node == b.configuration.nodeID)
            #expect(try await a.renewAll([]).isEmpty)
        }
    }

    /// Two saves of the same epoch cross (a second seat saved while the first seat's save is still on its
    /// way): the one taken later wins, whichever arrives last; a claim starts the numbering again.
    @Test func crossingSavesOfOneEpochKeepTheNewerSeats() async throws {
        try await TestDatabase.withTwoNodes { a, _ in
            let party = TestDatabase.unique("seats")
            guard case .claimed(let lease, _) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("a could not claim"); return
            }
            let one = Self.snapshot(epoch: 2, seats: ["s1"]), two = Self.snapshot(epoch: 2, seats: ["s1", "s2"])
            // Taken as 1 then 2, arriving as 2 then 1.
            #expect(try await a.save(two, lease: lease, sequence: 2) == .saved)
            #expect(try await a.save(one, lease: lease, sequence: 1) == .newerSaveOfEpoch(2))
            #expect(try await a.restore(party: party)?.seats.map(\.info.id) == ["s1", "s2"])
            // A newer epoch still wins over any number.
            #expect(try await a.save(Self.snapshot(epoch: 3, seats: ["s1"]), lease: lease, sequence: 3) == .saved)
            #expect(try await a.restore(party: party)?.epoch == 3)
        }
    }

    static func snapshot(epoch: Int, seats: [String]) -> PartySnapshot {
        PartySnapshot(config: config, timeline: Timeline(epoch: epoch, position: 0, partyTime: 100), partyClock: 100,
                      seats: seats.map { PartyServerCore.SavedSeat(info: ParticipantInfo(id: $0, name: $0, role: .participant, joinedAt: 0),
                                                                   tokenHash: "hash-\($0)") })
    }

    /// An owner whose lease ran out while nobody claimed the party (a database outage longer than the
    /// lease) renews it and goes on.
    @Test func anOwnerRenewsItsExpiredLeaseWhileNobodyTookIt() async throws {
        try await TestDatabase.withTwoNodes { a, _ in
            let party = TestDatabase.unique("late")
            guard case .claimed(let lease, _) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("a could not claim"); return
            }
            try await TestDatabase.expire(lease)
            #expect(try await a.lookup(party: party) == nil)
            let renewed = try await a.renew(lease)
            #expect(renewed.generation == lease.generation)
            #expect(try await a.lookup(party: party)?.node == a.configuration.nodeID)
        }
    }

    /// A lease ends by time alone: nobody renews a's short lease, it runs out on PostgreSQL's clock,
    /// and b takes the party over, fencing a. (The other tests end leases with
    /// ``TestDatabase/expire(_:)``.) Nothing here asserts a lease still holds, which a stall on a
    /// loaded machine could break: only that it runs out, within a generous bound, and what follows.
    @Test func aLeaseRunsOutByRealTime() async throws {
        try await TestDatabase.withTwoNodes(lease: Self.shortLease) { a, b in
            let party = TestDatabase.unique("expiry")
            guard case .claimed(let aLease, _) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("a could not claim"); return
            }
            try await waitUntil("a's lease runs out", within: .seconds(60), every: .milliseconds(100)) { await TestDatabase.isFree(party, in: b) }
            guard case .claimed(let bLease, _) = try await b.claim(party: party, key: Self.key) else {
                Issue.record("b could not take over the expired party"); return
            }
            #expect(bLease.generation == aLease.generation + 1)
            await #expect(throws: ClusterDirectoryError.leaseLost(party: party)) { try await a.renew(aLease) }
        }
    }

    /// The lease ``aLeaseRunsOutByRealTime()`` waits out: short, to keep the test quick.
    static let shortLease = Duration.seconds(1)

    @Test func liveNodesListsBoth() async throws {
        try await TestDatabase.withTwoNodes { a, b in
            let nodes = try await a.liveNodes().map(\.node)
            #expect(nodes.contains(a.configuration.nodeID) && nodes.contains(b.configuration.nodeID))
        }
    }
}
