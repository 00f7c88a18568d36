import Testing
@testable import PartyKit

/// Time pings back off once the clock estimate has converged, and come back to the steady pace at the
/// first exchange that contradicts it.
@Suite struct PingPacerTests {
    static let calm = PingPacer.Exchange(offsetStep: 0, inconsistency: -0.001, uncertainty: 0.0005, driftKnown: true)

    @Test func burstThenTrackingThenBackOffToTheCap() {
        var pacer = PingPacer()
        #expect(pacer.interval == ClockSync.burstInterval)
        pacer.exchanged(Self.calm)
        #expect(pacer.state == .bursting, "exchanges of the burst do not count")
        pacer.burstEnded()
        #expect(pacer.interval == ClockSync.steadyInterval)
        for _ in 1..<PingPacer.calmExchangesToConverge { pacer.exchanged(Self.calm) }
        #expect(pacer.interval == ClockSync.steadyInterval, "not converged one exchange early")
        pacer.exchanged(Self.calm)
        #expect(pacer.interval == ClockSync.steadyInterval * PingPacer.backOffFactor)
        for _ in 0..<20 { pacer.exchanged(Self.calm) }
        #expect(pacer.interval == PingPacer.maxInterval)
    }

    @Test func noBackOffWithAWideUncertaintyOrAMovingOffset() {
        for exchange in [
            PingPacer.Exchange(offsetStep: 0, inconsistency: -1, uncertainty: PingPacer.convergedUncertainty * 2, driftKnown: true),
            PingPacer.Exchange(offsetStep: PingPacer.calmOffsetStep * 3, inconsistency: -1, uncertainty: 0.0005, driftKnown: true),
            PingPacer.Exchange(offsetStep: PingPacer.calmOffsetStep * 3, inconsistency: -1, uncertainty: 0.0005, driftKnown: false),
        ] {
            var pacer = PingPacer()
            pacer.burstEnded()
            for _ in 0..<100 { pacer.exchanged(exchange) }
            #expect(pacer.interval == ClockSync.steadyInterval, "\(exchange)")
        }
    }

    /// The first stage: a converged offset without a fitted drift slows to the drift-feeding pace (not
    /// further), and the fitted drift then lets it back off to the cap.
    @Test func aConvergedOffsetFeedsTheDriftLineThenBacksOffOnceTheDriftIsFitted() {
        let noDrift = PingPacer.Exchange(offsetStep: 0, inconsistency: -0.001, uncertainty: 0.0005, driftKnown: false)
        var pacer = PingPacer()
        pacer.burstEnded()
        for _ in 1..<PingPacer.calmExchangesToConverge { pacer.exchanged(noDrift) }
        #expect(pacer.interval == ClockSync.steadyInterval, "not converged one exchange early")
        pacer.exchanged(noDrift)
        #expect(pacer.state == .feedingDrift)
        #expect(pacer.interval == PingPacer.driftFeedInterval)
        #expect(PingPacer.driftFeedInterval > ClockSync.steadyInterval && PingPacer.driftFeedInterval < PingPacer.maxInterval)
        for _ in 0..<100 { pacer.exchanged(noDrift) }
        #expect(pacer.interval == PingPacer.driftFeedInterval, "no further without the drift")
        pacer.exchanged(Self.calm)
        #expect(pacer.interval == min(PingPacer.driftFeedInterval * PingPacer.backOffFactor, PingPacer.maxInterval))
        for _ in 0..<20 { pacer.exchanged(Self.calm) }
        #expect(pacer.interval == PingPacer.maxInterval)
        // The drift fit losing its footing feeds it again; it is not a disturbance.
        pacer.exchanged(noDrift)
        #expect(pacer.state == .feedingDrift)
    }

    @Test func aDisturbanceWhileFeedingTheDriftBringsTheSteadyPaceBack() {
        let noDrift = PingPacer.Exchange(offsetStep: 0, inconsistency: -0.001, uncertainty: 0.0005, driftKnown: false)
        for disturbance in [
            PingPacer.Exchange(offsetStep: 0, inconsistency: PingPacer.disturbanceMargin * 2, uncertainty: 0.0005, driftKnown: false),
            PingPacer.Exchange(offsetStep: PingPacer.calmOffsetStep * 3, inconsistency: -1, uncertainty: 0.0005, driftKnown: false),
        ] {
            var pacer = PingPacer()
            pacer.burstEnded()
            for _ in 0..<PingPacer.calmExchangesToConverge { pacer.exchanged(noDrift) }
            #expect(pacer.state == .feedingDrift)
            pacer.exchanged(disturbance)
            #expect(pacer.state == .tracking(calmExchanges: 0), "\(disturbance)")
            #expect(pacer.interval == ClockSync.steadyInterval)
        }
    }

    /// On a jittery link with a drifting clock (15 ms of jitter, 150 ppm), the pings slow down long
    /// before the drift is fitted (which takes about a minute there), and the estimate stays within a
    /// few milliseconds meanwhile (a frame is 40 ms).
    @Test func clockSyncSlowsDownBeforeTheDriftIsFittedOnAJitteryLink() throws {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 100, drift: 150e-6, latency: 0.01, jitter: 0.015, seed: 11)
        var t = 0.0
        var slowedAt: Double?
        var worst = 0.0
        while t < 60 {
            sync.add(link.exchange(at: t))
            if slowedAt == nil, sync.nextInterval > ClockSync.steadyInterval {
                slowedAt = t
                #expect(!sync.driftFitted, "slowed down only once the drift was fitted")
            }
            if t > 10, let estimate = sync.estimate { worst = max(worst, abs(estimate.party(fromLocal: t) - link.party(t))) }
            t += sync.nextInterval
        }
        let slowed = try #require(slowedAt, "never slowed down")
        #expect(slowed < 20, "slowed down only after \(slowed) s")
        #expect(worst < 3e-3, "clock error up to \(worst * 1000) ms")
    }

    @Test func aDisturbanceBringsTheSteadyPaceBack() {
        var pacer = PingPacer()
        pacer.burstEnded()
        for _ in 0..<40 { pacer.exchanged(Self.calm) }
        #expect(pacer.interval == PingPacer.maxInterval)
        pacer.exchanged(.init(offsetStep: 0, inconsistency: PingPacer.disturbanceMargin * 2, uncertainty: 0.0005, driftKnown: true))
        #expect(pacer.state == .tracking(calmExchanges: 0))
        #expect(pacer.interval == ClockSync.steadyInterval)
        // It backs off again only after a fresh run of calm exchanges.
        for _ in 0..<PingPacer.calmExchangesToConverge { pacer.exchanged(Self.calm) }
        #expect(pacer.interval > ClockSync.steadyInterval)
    }

    /// A backed-off estimate that moves within its bounds (not a disturbance) goes back one stage, to the
    /// drift-feeding pace, not to the steady pace; calm again, it backs off anew.
    @Test func aWobbleWhileBackedOffFallsBackOneStage() {
        var pacer = PingPacer()
        pacer.burstEnded()
        for _ in 0..<40 { pacer.exchanged(Self.calm) }
        #expect(pacer.interval == PingPacer.maxInterval)
        pacer.exchanged(.init(offsetStep: PingPacer.calmOffsetStep * 3, inconsistency: -0.001, uncertainty: 0.0005, driftKnown: true))
        #expect(pacer.state == .feedingDrift)
        #expect(pacer.interval == PingPacer.driftFeedInterval)
        pacer.exchanged(Self.calm)
        #expect(pacer.interval == min(PingPacer.driftFeedInterval * PingPacer.backOffFactor, PingPacer.maxInterval))
    }

    /// A member of a loaded server on loopback: a round trip of microseconds plus up to 3 ms of queueing
    /// each way. Its estimate wobbles by tenths of a millisecond as fast exchanges age out of the window;
    /// it must not answer each wobble with ten pings a second (those pings are the server's load). Over
    /// four minutes after the first it stays near one ping a second, and its clock within half a millisecond.
    @Test func aLoadedServersJitterKeepsThePingsBackedOff() throws {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 100, drift: 100e-6, latency: 30e-6, jitter: 3e-3, seed: 5)
        var t = 0.0
        var pings = 0
        var errors: [Double] = []
        while t < 300 {
            sync.add(link.exchange(at: t))
            t += sync.nextInterval
            guard t > 60 else { continue }
            pings += 1
            let estimate = try #require(sync.estimate)
            errors.append(abs(estimate.party(fromLocal: t) - link.party(t)))
        }
        let rate = Double(pings) / 240
        #expect(rate < 1.2, "\(rate) pings a second")
        errors.sort()
        let p95 = errors[errors.count * 95 / 100]
        #expect(p95 < 0.5e-3, "clock error p95 \(p95 * 1000) ms")
    }

    /// The clock sync on a quiet link, paced by itself: it backs off to the cap, keeps its estimate, and
    /// is back at the steady pace one exchange after the server's clock steps by 50 ms.
    @Test func clockSyncBacksOffOnAQuietLinkAndSpeedsUpAfterAStep() throws {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 100, drift: 80e-6, latency: 0.01, jitter: 0.0002, seed: 7)
        var t = 0.0
        var exchanges = 0
        while t < 60 {
            sync.add(link.exchange(at: t))
            t += sync.nextInterval
            exchanges += 1
        }
        #expect(sync.nextInterval == PingPacer.maxInterval)
        // Far fewer than the steady pace's 600 exchanges in a minute.
        #expect(exchanges < 300, "\(exchanges) exchanges")
        let estimate = try #require(sync.estimate)
        #expect(abs(estimate.party(fromLocal: t) - link.party(t)) < 0.5e-3)

        link.offset += 0.05
        sync.add(link.exchange(at: t))
        #expect(sync.nextInterval == ClockSync.steadyInterval)
        // At the steady pace, the estimate follows the step within the offset window, then backs off again.
        while t < 120 {
            t += sync.nextInterval
            sync.add(link.exchange(at: t))
        }
        let after = try #require(sync.estimate)
        #expect(abs(after.party(fromLocal: t) - link.party(t)) < 0.5e-3)
        #expect(sync.nextInterval > ClockSync.steadyInterval)
    }
}
