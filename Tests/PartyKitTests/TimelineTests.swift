import Testing
@testable import PartyKit

@Suite struct TimelineTests {
    @Test func defaultsAreAPausedStart() {
        let t = Timeline()
        #expect(t.epoch == 0 && t.item == 0 && t.position == 0 && t.partyTime == 0)
        #expect(t.rate == 1 && !t.playing && t.jump && t.reason == nil)
    }

    @Test func positionAdvancesAtRateOnlyWhilePlaying() {
        let playing = Timeline(epoch: 1, position: 10, partyTime: 100, rate: 1.5, playing: true)
        #expect(playing.position(at: 100) == 10)
        #expect(playing.position(at: 102) == 13)
        // Before its instant a playing timeline reads less: the instant lies ahead.
        #expect(playing.position(at: 99) == 8.5)
        let paused = Timeline(epoch: 1, position: 10, partyTime: 100, rate: 1.5, playing: false)
        #expect(paused.position(at: 50) == 10)
        #expect(paused.position(at: 500) == 10)
    }

    @Test func continuedKeepsPositionAndBumpsTheEpoch() {
        let t = Timeline(epoch: 4, item: 2, position: 10, partyTime: 100, rate: 2, playing: true, jump: true, reason: "seek")
        let next = t.continued(at: 103)
        #expect(next.epoch == 5)
        #expect(next.item == 2)
        #expect(next.position == 16)
        #expect(next.partyTime == 103)
        #expect(next.rate == 2)
        #expect(next.playing)
        #expect(!next.jump)
        #expect(next.reason == nil)
        // Continuity: both read the same at and after the instant while nothing else changes.
        #expect(next.position(at: 110) == t.position(at: 110))
    }
}
