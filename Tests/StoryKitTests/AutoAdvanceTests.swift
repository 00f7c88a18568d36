import Testing
@testable import StoryKit

@Suite struct AutoAdvanceTests {
    static let dwell = 3.0

    static func machine(enabled: Bool = true, count: Int = 3) -> AutoAdvance {
        AutoAdvance(isEnabled: enabled, failedStoryDwell: dwell, count: count)
    }

    @Test func theEndOfTheCurrentStoryGoesToTheNextThenFinishes() {
        var auto = Self.machine()
        #expect(auto.becameCurrent(slot: 7, index: 1, failed: false) == .none)
        #expect(auto.ended(slot: 7) == .advance(to: 2))
        #expect(auto.ended(slot: 7) == .none, "it moved on once")
        #expect(auto.becameCurrent(slot: 8, index: 2, failed: false) == .none)
        #expect(auto.ended(slot: 8) == .finish)
        #expect(auto.state == .idle)
    }

    @Test func aFailedStoryDwellsThenMovesOn() {
        var auto = Self.machine()
        #expect(auto.becameCurrent(slot: 3, index: 0, failed: true) == .startTimer(seconds: Self.dwell, slot: 3))
        #expect(auto.ended(slot: 3) == .none, "a failed story has no end of its own")
        #expect(auto.timerFired(slot: 3) == .advance(to: 1))
        #expect(auto.timerFired(slot: 3) == .none)
    }

    @Test func staleEventsAreIgnored() {
        var auto = Self.machine()
        _ = auto.becameCurrent(slot: 1, index: 0, failed: true)
        _ = auto.becameCurrent(slot: 2, index: 1, failed: false)
        #expect(auto.timerFired(slot: 1) == .none, "the timer of a story no longer current")
        #expect(auto.ended(slot: 1) == .none)
        #expect(auto.ended(slot: 2) == .advance(to: 2))
    }

    @Test func stoppingOrTurningItOffMovesNothing() {
        var auto = Self.machine()
        _ = auto.becameCurrent(slot: 1, index: 0, failed: false)
        auto.stopped()
        #expect(auto.ended(slot: 1) == .none)

        var off = Self.machine(enabled: false)
        #expect(off.becameCurrent(slot: 1, index: 0, failed: true) == .none)
        #expect(off.timerFired(slot: 1) == .none)
        #expect(off.becameCurrent(slot: 2, index: 1, failed: false) == .none)
        #expect(off.ended(slot: 2) == .none)
    }
}
