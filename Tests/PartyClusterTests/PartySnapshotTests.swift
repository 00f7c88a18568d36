import Foundation
import PartyCluster
import PartyKit
import Testing

@Suite struct PartySnapshotTests {
    static let config = PartyConfig(items: [MediaItem(title: "a.mp4", identity: MediaIdentity(duration: 60, streams: []))])

    @Test func restoreEvaluatesThePlayingTimelineAtItsAge() {
        let timeline = Timeline(epoch: 7, item: 0, position: 10, partyTime: 100, rate: 2, playing: true)
        let snapshot = PartySnapshot(config: Self.config, timeline: timeline, partyClock: 101, age: 4)
        // Saved at party clock 101, read 4 s later: the timeline at 105 is 10 + 5 × 2.
        #expect(snapshot.restore == PartyConfig.Restore(epoch: 7, item: 0, position: 20, rate: 2, playing: true))
        #expect(snapshot.restoringConfig.restore == snapshot.restore)
    }

    @Test func restoreOfAPausedOrFutureTimelineKeepsItsPosition() {
        let paused = Timeline(epoch: 3, item: 0, position: 42, partyTime: 10, rate: 1, playing: false)
        #expect(PartySnapshot(config: Self.config, timeline: paused, partyClock: 11, age: 100).restore.position == 42)
        // A seek whose instant lies ahead of the save and its age: it starts at its position.
        let ahead = Timeline(epoch: 4, item: 0, position: 30, partyTime: 50, rate: 1, playing: true)
        #expect(PartySnapshot(config: Self.config, timeline: ahead, partyClock: 49.5, age: 0.2).restore.position == 30)
    }

    @Test func jsonKeepsConfigTimelineAndClockButNotTheAge() throws {
        var config = Self.config
        config.restore = .init(epoch: 1, item: 0, position: 0, rate: 1, playing: false)
        let snapshot = PartySnapshot(config: config, timeline: Timeline(epoch: 2), partyClock: 5, age: 9)
        #expect(snapshot.config.restore == nil)
        let back = try JSONDecoder().decode(PartySnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(back == PartySnapshot(config: Self.config, timeline: Timeline(epoch: 2), partyClock: 5))
    }
}

@Suite struct PartyKeyHashTests {
    @Test func matchesOnlyItsKeyAndSaltsEveryParty() {
        let a = PartyKeyHash(key: "ABCDEFGHJKMNPQRSTUVW")
        let b = PartyKeyHash(key: "ABCDEFGHJKMNPQRSTUVW")
        #expect(a.matches(key: "ABCDEFGHJKMNPQRSTUVW"))
        #expect(!a.matches(key: "ABCDEFGHJKMNPQRSTUVX"))
        #expect(!a.matches(key: ""))
        #expect(a.salt != b.salt && a.hash != b.hash)
        #expect(!a.hash.contains("ABCDEFGH") && a.hash.count == 64 && a.salt.count == 32)
        #expect(!PartyKeyHash(salt: "zz", hash: a.hash).matches(key: "ABCDEFGHJKMNPQRSTUVW"))
    }
}
