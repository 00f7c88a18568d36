import Testing
@testable import PartyKit

/// A controller behind a reference, so a decision can be checked inside `#expect`.
private final class Loop {
    var controller: SyncController
    init(tuning: SyncController.Tuning = .init()) { controller = SyncController(tuning: tuning) }
    func update(error: Double, drift: Double, rate: Double, now: Double) -> SyncController.Decision {
        controller.update(error: error, drift: drift, rate: rate, now: now)
    }
    func noteSeek(at now: Double) { controller.noteSeek(at: now) }
    var maxCorrectionUsed: Double { controller.maxCorrectionUsed }
    var tuning: SyncController.Tuning { controller.tuning }
}

@Suite struct SyncControllerTests {
    private func correction(_ decision: SyncController.Decision) -> Double? {
        if case .correct(let c) = decision { return c }
        return nil
    }

    @Test func defaultsAreTheDocumentedOnes() {
        let t = SyncController.Tuning()
        #expect(t.deadband == 0.0005)
        #expect(t.gain == 0.5)
        #expect(t.maxCorrection == 0.005)
        #expect(t.seekThreshold == 0.2)
        #expect(t.seekPersistence == 3)
        #expect(t.seekCooldown == 3)
    }

    @Test func aheadSlowsDownAndBehindSpeedsUp() throws {
        let c = Loop()
        let ahead = try #require(correction(c.update(error: 0.004, drift: 0, rate: 1, now: 0)))
        #expect(ahead < 0)
        #expect(abs(ahead - -0.002) < 1e-12)  // gain 0.5/s × 4 ms
        let behind = try #require(correction(c.update(error: -0.004, drift: 0, rate: 1, now: 0.1)))
        #expect(behind > 0)
        #expect(abs(behind - 0.002) < 1e-12)
    }

    @Test func correctionIsProportionalToTheError() throws {
        let c = Loop()
        let small = try #require(correction(c.update(error: 0.001, drift: 0, rate: 1, now: 0)))
        let large = try #require(correction(c.update(error: 0.003, drift: 0, rate: 1, now: 0)))
        #expect(abs(large - 3 * small) < 1e-12)
    }

    @Test func correctionIsPerMediaSecondAtTheCurrentRate() throws {
        let c = Loop()
        // At double speed the same media error is removed in half the wall time: half the correction.
        let fast = try #require(correction(c.update(error: 0.004, drift: 0, rate: 2, now: 0)))
        #expect(abs(fast - -0.001) < 1e-12)
        // A zero rate cannot divide by zero.
        let stopped = try #require(correction(c.update(error: 0.004, drift: 0, rate: 0, now: 0)))
        #expect(stopped.isFinite)
        #expect(stopped == -0.005)
    }

    @Test func driftIsFedForward() throws {
        let c = Loop()
        #expect(c.update(error: 0, drift: 120e-6, rate: 1, now: 0) == .correct(120e-6))
        #expect(c.update(error: 0, drift: -80e-6, rate: 1, now: 0) == .correct(-80e-6))
        let both = try #require(correction(c.update(error: 0.002, drift: 120e-6, rate: 1, now: 0)))
        #expect(abs(both - (120e-6 - 0.001)) < 1e-12)
    }

    @Test func correctionIsClamped() {
        let c = Loop()
        #expect(c.update(error: 0.1, drift: 0, rate: 1, now: 0) == .correct(-0.005))
        #expect(c.update(error: -0.1, drift: 0, rate: 1, now: 0) == .correct(0.005))
        #expect(c.update(error: 0, drift: 0.01, rate: 1, now: 0) == .correct(0.005))
        #expect(c.update(error: 0.15, drift: 0.002, rate: 1, now: 0) == .correct(-0.005))
        #expect(c.maxCorrectionUsed == 0.005)

        var custom = SyncController.Tuning()
        custom.maxCorrection = 0.001
        let d = Loop(tuning: custom)
        #expect(d.update(error: 0.01, drift: 0, rate: 1, now: 0) == .correct(-0.001))
    }

    @Test func errorsInsideTheDeadbandOnlyCompensateDrift() throws {
        let c = Loop()
        #expect(c.update(error: 0.0004, drift: 0, rate: 1, now: 0) == .correct(0))
        #expect(c.update(error: -0.0004, drift: 50e-6, rate: 1, now: 0) == .correct(50e-6))
        #expect(c.update(error: 0.0005, drift: 0, rate: 1, now: 0) == .correct(0))  // the edge is still noise
        let outside = try #require(correction(c.update(error: 0.0006, drift: 0, rate: 1, now: 0)))
        #expect(abs(outside - -0.0003) < 1e-12)
    }

    @Test func maxCorrectionUsedTracksTheLargestMagnitude() {
        let c = Loop()
        #expect(c.maxCorrectionUsed == 0)
        _ = c.update(error: 0.002, drift: 0, rate: 1, now: 0)
        #expect(abs(c.maxCorrectionUsed - 0.001) < 1e-12)
        _ = c.update(error: -0.004, drift: 0, rate: 1, now: 0)
        #expect(abs(c.maxCorrectionUsed - 0.002) < 1e-12)
        _ = c.update(error: 0, drift: 0, rate: 1, now: 0)
        #expect(abs(c.maxCorrectionUsed - 0.002) < 1e-12)
    }

    @Test func reseekOnlyAfterPersistentLargeErrors() {
        let c = Loop()
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.0) == .correct(-0.005))
        #expect(c.update(error: -0.3, drift: 0, rate: 1, now: 10.1) == .correct(0.005))
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.2) == .reseek)
    }

    @Test func aSmallErrorBreaksTheStreak() {
        let c = Loop()
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.0) != .reseek)
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.1) != .reseek)
        #expect(c.update(error: 0.1, drift: 0, rate: 1, now: 10.2) != .reseek)
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.3) != .reseek)
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.4) != .reseek)
        #expect(c.update(error: 0.3, drift: 0, rate: 1, now: 10.5) == .reseek)
    }

    @Test func thresholdItselfIsNotLarge() {
        let c = Loop()
        for i in 0..<10 {
            #expect(c.update(error: 0.2, drift: 0, rate: 1, now: Double(i)) == .correct(-0.005))
        }
    }

    @Test func cooldownPreventsASecondReseek() {
        let c = Loop()
        for t in [10.0, 10.1] { _ = c.update(error: 0.5, drift: 0, rate: 1, now: t) }
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 10.2) == .reseek)
        // The error persists (the seek has not landed yet): no second seek within the cool-down.
        var t = 10.3
        while t < 13.15 {
            #expect(c.update(error: 0.5, drift: 0, rate: 1, now: t) == .correct(-0.005), "at \(t)")
            t += 0.1
        }
        // Once the cool-down is over, a still-persistent error re-seeks again.
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 13.25) == .reseek)
    }

    @Test func noteSeekResetsTheStreakAndStartsTheCooldown() {
        let c = Loop()
        _ = c.update(error: 0.5, drift: 0, rate: 1, now: 0.0)
        _ = c.update(error: 0.5, drift: 0, rate: 1, now: 0.1)
        c.noteSeek(at: 0.15)
        // The streak starts over…
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 0.2) != .reseek)
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 0.3) != .reseek)
        // …and even a full streak waits out the cool-down from the command's seek.
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 0.4) != .reseek)
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 3.1) != .reseek)
        #expect(c.update(error: 0.5, drift: 0, rate: 1, now: 3.2) == .reseek)
    }

    @Test func customPersistenceAndThreshold() {
        var tuning = SyncController.Tuning()
        tuning.seekPersistence = 1
        tuning.seekThreshold = 0.05
        tuning.seekCooldown = 0
        let c = Loop(tuning: tuning)
        #expect(c.update(error: 0.06, drift: 0, rate: 1, now: 0) == .reseek)
        #expect(c.update(error: 0.06, drift: 0, rate: 1, now: 0) == .reseek)
        #expect(c.update(error: 0.04, drift: 0, rate: 1, now: 0) == .correct(-0.005))
    }

    /// Closed loop: a player whose clock runs 150 ppm slow starts 30 ms behind; the corrections
    /// bring it within a millisecond without overshooting past the deadband.
    @Test func closedLoopConvergesWithoutOscillating() {
        let c = Loop()
        let drift = 150e-6
        var error = -0.030
        var crossings = 0
        let dt = 0.1
        for step in 0..<600 {
            let now = Double(step) * dt
            guard case .correct(let correction) = c.update(error: error, drift: drift, rate: 1, now: now) else {
                Issue.record("unexpected re-seek")
                return
            }
            let previous = error
            // The player runs at (1 + correction) of its own clock, which is (1 − drift) of party time.
            error += ((1 + correction) * (1 - drift) - 1) * dt
            if previous.sign != error.sign, abs(error) > c.tuning.deadband { crossings += 1 }
        }
        #expect(abs(error) < 0.001)
        #expect(crossings == 0)
    }
}
