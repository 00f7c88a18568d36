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

    @Test func noBackOffWithoutAFittedDriftOrWithAWideUncertainty() {
        for exchange in [
            PingPacer.Exchange(offsetStep: 0, inconsistency: -1, uncertainty: 0.0005, driftKnown: false),
            PingPacer.Exchange(offsetStep: 0, inconsistency: -1, uncertainty: PingPacer.convergedUncertainty * 2, driftKnown: true),
            PingPacer.Exchange(offsetStep: PingPacer.calmOffsetStep * 3, inconsistency: -1, uncertainty: 0.0005, driftKnown: true),
        ] {
            var pacer = PingPacer()
            pacer.burstEnded()
            for _ in 0..<100 { pacer.exchanged(exchange) }
            #expect(pacer.interval == ClockSync.steadyInterval, "\(exchange)")
        }
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
