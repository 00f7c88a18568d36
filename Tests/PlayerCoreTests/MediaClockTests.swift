import PlayerCore
import Testing

@Suite struct MediaClockTests {
    @Test func pausedClockIsFrozen() {
        let clock = MediaClock(position: 3, host: 10, rate: 1, paused: true)
        #expect(clock.position(at: 10) == 3)
        #expect(clock.position(at: 99) == 3)
        #expect(clock.hostTime(of: 4) == nil)
    }

    @Test func playingClockAdvancesAtRate() {
        let clock = MediaClock(position: 1, host: 100, rate: 2, paused: false)
        #expect(clock.position(at: 101) == 3)
        #expect(clock.hostTime(of: 5) == 102)
    }

    @Test func pauseResumeAndRateChangeAreContinuous() {
        var clock = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        clock.pause(at: 2)
        #expect(clock.position(at: 5) == 2)
        clock.resume(at: 5)
        #expect(clock.position(at: 6) == 3)
        clock.setRate(0.5, at: 6)
        #expect(clock.position(at: 6) == 3)
        #expect(clock.position(at: 8) == 4)
    }

    @Test func futureAnchorReadsBeforeItsPosition() {
        // "Be at 10 s at host time 50": before 50 the clock is short of 10, so nothing is due yet.
        let clock = MediaClock(position: 10, host: 50, rate: 1, paused: false)
        #expect(clock.position(at: 49) == 9)
        #expect(clock.position(at: 50) == 10)
        #expect(clock.hostTime(of: 10.04) == 50.04)
    }

    @Test func manualTimeSourceMovesOnlyWhenTold() {
        let time = ManualTimeSource(5)
        #expect(time.now() == 5)
        time.advance(by: 0.25)
        #expect(time.now() == 5.25)
        time.set(1)
        #expect(time.now() == 1)
    }
}
