import Testing
@testable import PartyKit

/// A party saved on one server core and restored on another, as two cluster nodes do.
@Suite struct PartyServerCoreSnapshotTests {
    @Test func aRestoredPartyContinuesItsEpochsAndGivesEveryoneTheirSeatBack() throws {
        let first = ServerHarness()
        let aliceToken = try #require(first.join(1, name: "Alice", create: PartyConfig(items: ["movie.mp4"]), at: 0)?.token)
        let bobToken = try #require(first.join(2, name: "Bob", at: 1)?.token)
        first.send(1, .command(Command(id: 1, action: .play)), at: 2)
        let image = try #require(first.core.image(of: first.party))
        // Tokens are never in the image, only their hashes.
        #expect(image.seats.map(\.info.name) == ["Alice", "Bob"])
        #expect(!image.seats.contains { $0.tokenHash == aliceToken || $0.tokenHash == bobToken })

        let second = ServerHarness()
        let restore = PartyConfig.Restore(epoch: image.timeline.epoch, item: image.timeline.item, position: 5,
                                          rate: image.timeline.rate, playing: image.timeline.playing)
        _ = second.core.restore(party: second.party, key: second.key, config: image.config, restore: restore, seats: image.seats, now: 100)
        #expect(second.core.timeline(of: second.party)?.epoch == image.timeline.epoch + 1)
        // Bob comes back first with his token: his seat, not a new one.
        second.core.reclaimSeat(party: second.party, token: bobToken)
        let bob = try #require(second.join(2, name: "Bob", resume: bobToken, at: 101))
        #expect(bob.you.id == image.seats[1].info.id && bob.you.role == .participant)
        #expect(bob.timeline.epoch == image.timeline.epoch + 1)
        // The host too: still the host.
        second.core.reclaimSeat(party: second.party, token: aliceToken)
        let alice = try #require(second.join(1, name: "Alice", create: image.config, resume: aliceToken, at: 101))
        #expect(alice.you.role == .host && alice.you.id == image.seats[0].info.id)
        // A stranger's made-up token takes nothing; a new seat number follows the restored ones.
        second.core.reclaimSeat(party: second.party, token: "made-up")
        let carol = try #require(second.join(3, name: "Carol", resume: "made-up", at: 102))
        #expect(carol.you.role == .participant && !image.seats.map(\.info.id).contains(carol.you.id))
        // The image of the restored party keeps the same hashes (reclaimed seats hash their token again).
        #expect(Set(try #require(second.core.image(of: second.party)).seats.map(\.tokenHash)).isSuperset(of: image.seats.map(\.tokenHash)))
    }

    @Test func anEvictedPartyTellsItsMembersToReconnect() {
        let h = ServerHarness()
        h.standardParty()
        let out = h.core.evict(party: h.party, reason: "the party moved to another server")
        #expect(out.errors(to: 1).map(\.code) == [.serverShutdown] && out.errors(to: 2).map(\.code) == [.serverShutdown])
        #expect(Set(out.closed) == [1, 2])
        #expect(h.core.partyCount == 0)
        #expect(out.last == .partyClosed(h.party))
    }
}
