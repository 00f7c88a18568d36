import MediaTime
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

    @Test func futureAnchorHoldsItsPositionUntilItsInstant() {
        // "Be at 10 s at host time 50": before 50 the clock holds 10, so no later picture is due yet.
        let clock = MediaClock(position: 10, host: 50, rate: 1, paused: false)
        #expect(clock.position(at: 49) == 10)
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

@Suite struct MediaClockSwitchTests {
    @Test func pendingPauseFreezesOnItsInstant() {
        var clock = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        clock.next = MediaClock(position: 5, host: 5, rate: 1, paused: true)
        #expect(clock.position(at: 4.9) == 4.9)
        #expect(clock.position(at: 5) == 5)
        #expect(clock.position(at: 9) == 5)
        #expect(!clock.isPaused(at: 4.99) && clock.isPaused(at: 5))
        clock.settle(at: 4)
        #expect(clock.next != nil)
        clock.settle(at: 6)
        #expect(clock.next == nil && clock.isPaused && clock.anchorPosition == 5)
    }

    @Test func pendingRateChangeKeepsTheOldRateUntilItsInstant() {
        var clock = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        clock.next = MediaClock(position: 2, host: 2, rate: 2, paused: false)
        #expect(clock.position(at: 1) == 1)
        #expect(clock.position(at: 3) == 4)
        #expect(clock.rate(at: 1) == 1 && clock.rate(at: 2) == 2)
    }

    @Test func pausedClockStartsOnAPendingPlay() {
        var clock = MediaClock(position: 7, host: 0, rate: 1, paused: true)
        clock.next = MediaClock(position: 7, host: 10, rate: 1, paused: false)
        #expect(clock.position(at: 9.99) == 7)
        #expect(clock.position(at: 10.5) == 7.5)
    }
}

@Suite struct MediaClockHoldTests {
    @Test func rateChangeDuringAHoldKeepsTheInstant() {
        var clock = MediaClock(position: 2, host: 10, rate: 1, paused: false)
        clock.setRate(1.005, at: 9.5)
        #expect(clock.anchorHost == 10 && clock.position(at: 9.9) == 2)
        #expect(abs(clock.position(at: 11) - 3.005) < 1e-12)
    }
}

@Suite struct MediaClockChainTests {
    @Test func pauseThenPlayDecidedBackToBackBothHold() {
        var clock = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        clock.next = MediaClock(position: 5, host: 5, rate: 1, paused: true)
        clock.next = MediaClock(position: 5, host: 6, rate: 1, paused: false)
        #expect(clock.position(at: 5.5) == 5)
        #expect(clock.position(at: 6.5) == 5.5)
        clock.settle(at: 5.2)
        #expect(clock.isPaused && clock.next?.anchorHost == 6)
    }

    @Test func aLaterDecisionReplacesPendingSegmentsAtOrAfterItsInstant() {
        var clock = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        clock.next = MediaClock(position: 7, host: 7, rate: 2, paused: false)
        clock.next = MediaClock(position: 6, host: 6, rate: 1, paused: true)
        #expect(clock.position(at: 8) == 6)
    }
}
