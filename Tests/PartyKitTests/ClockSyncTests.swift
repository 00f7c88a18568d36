import Testing
@testable import PartyKit

/// A client clock against the party clock with a known offset and drift, over a link with
/// random but symmetric one-way delays: `party = offset + local × (1 + drift)`.
struct SyntheticClockLink {
    var offset: Double
    var drift: Double
    /// Fixed one-way latency, and random extra delay (uniform 0…jitter) drawn per direction.
    var latency: Double
    var jitter: Double
    var processing = 0.00005
    var rng: SplitMix64

    init(offset: Double, drift: Double, latency: Double, jitter: Double, seed: UInt64) {
        self.offset = offset
        self.drift = drift
        self.latency = latency
        self.jitter = jitter
        rng = SplitMix64(seed: seed)
    }

    func party(_ local: Double) -> Double { offset + local * (1 + drift) }
    func local(_ party: Double) -> Double { (party - offset) / (1 + drift) }

    private mutating func delay() -> Double { latency + (jitter > 0 ? Double.random(in: 0...jitter, using: &rng) : 0) }

    /// One NTP exchange the client starts at local time `t0`.
    mutating func exchange(at t0: Double) -> ClockSync.Sample {
        let t1 = party(t0) + delay()
        let t2 = t1 + processing
        let t3 = local(t2 + delay())
        return ClockSync.Sample(t0: t0, t1: t1, t2: t2, t3: t3)
    }
}

@Suite struct ClockSyncTests {
    /// Runs `seconds` of exchanges at `rate` Hz starting at local `start`; returns the last local time.
    @discardableResult
    private func run(_ sync: inout ClockSync, _ link: inout SyntheticClockLink, start: Double, seconds: Double,
                     rate: Double = 4) -> Double {
        var t = start
        let end = start + seconds
        while t < end {
            let sample = link.exchange(at: t)
            let kept = sync.add(sample)
            #expect(kept)
            t += 1 / rate
        }
        return sync.samples.last!.t3
    }

    // MARK: Samples

    @Test func sampleArithmeticFollowsNTP() {
        // Client clock 100 s behind the server; 10 ms up, 30 ms down, 5 ms of server processing.
        let s = ClockSync.Sample(t0: 1.0, t1: 101.010, t2: 101.015, t3: 1.045)
        #expect(abs(s.delay - 0.040) < 1e-9)
        #expect(abs(s.offset - 99.990) < 1e-9)  // off by the asymmetry: (10 − 30) / 2 ms
        #expect(abs(s.local - 1.0225) < 1e-12)
    }

    @Test func estimateMapsBothWays() {
        let e = ClockSync.Estimate(offset: 123.456, drift: 150e-6, reference: 5000, uncertainty: 0, minDelay: 0)
        #expect(abs(e.party(fromLocal: 5000) - 5123.456) < 1e-9)
        #expect(abs(e.party(fromLocal: 6000) - (6123.456 + 0.15)) < 1e-9)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<1000 {
            let local = Double.random(in: -1e6...1e6, using: &rng)
            #expect(abs(e.local(fromParty: e.party(fromLocal: local)) - local) < 1e-6)
        }
    }

    @Test func noEstimateBeforeTheFirstSample() {
        let sync = ClockSync()
        #expect(sync.estimate == nil)
        #expect(sync.party(fromLocal: 1) == nil)
        #expect(sync.local(fromParty: 1) == nil)
        #expect(sync.isBursting)
    }

    @Test func oneSampleGivesItsOwnOffset() throws {
        var sync = ClockSync()
        let s = ClockSync.Sample(t0: 10, t1: 110.01, t2: 110.01, t3: 10.02)
        let kept = sync.add(s)
        #expect(kept)
        let e = try #require(sync.estimate)
        #expect(abs(e.offset - 100) < 1e-9)
        #expect(e.drift == 0)
        #expect(abs(e.minDelay - 0.02) < 1e-9)
        #expect(abs(e.uncertainty - 0.01) < 1e-9)
        #expect(abs(try #require(sync.party(fromLocal: 20)) - 120) < 1e-9)
    }

    // MARK: Accuracy

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func quietLinkFindsOffsetAndDrift(seed: UInt64) throws {
        var link = SyntheticClockLink(offset: 123.456, drift: 150e-6, latency: 0.010, jitter: 0.0002, seed: seed)
        var sync = ClockSync()
        let last = run(&sync, &link, start: 1000, seconds: 60)
        let e = try #require(sync.estimate)
        #expect(abs(e.drift - 150e-6) < 20e-6, "drift \(e.drift * 1e6) ppm")
        // Right now, and still right a few seconds later on the drift line.
        for ahead in [0.0, 1, 5] {
            let error = e.party(fromLocal: last + ahead) - link.party(last + ahead)
            #expect(abs(error) < 0.001, "offset error \(error * 1000) ms at +\(ahead) s")
        }
        #expect(abs(e.local(fromParty: link.party(last)) - last) < 0.001)
        // The reported bound holds.
        #expect(abs(e.party(fromLocal: last) - link.party(last)) <= e.uncertainty)
        #expect(e.minDelay > 0.0199 && e.minDelay < 0.0205, "min delay \(e.minDelay)")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func jitteryLinkStaysWithinAFewMilliseconds(seed: UInt64) throws {
        var link = SyntheticClockLink(offset: -123.456, drift: -150e-6, latency: 0.040, jitter: 0.020, seed: seed)
        var sync = ClockSync()
        let last = run(&sync, &link, start: 50, seconds: 60)
        let e = try #require(sync.estimate)
        let error = e.party(fromLocal: last) - link.party(last)
        #expect(abs(error) < 0.004, "offset error \(error * 1000) ms")
        #expect(abs(e.drift) <= ClockSync.maxDrift)
        #expect(abs(error) <= e.uncertainty)
    }

    @Test func zeroDriftIsFoundAsZero() throws {
        var link = SyntheticClockLink(offset: 7, drift: 0, latency: 0.005, jitter: 0.0001, seed: 11)
        var sync = ClockSync()
        let last = run(&sync, &link, start: 0, seconds: 30)
        let e = try #require(sync.estimate)
        #expect(abs(e.drift) < 10e-6)
        #expect(abs(e.party(fromLocal: last) - link.party(last)) < 0.0005)
    }

    @Test func aFarOutlierDoesNotMoveTheEstimate() throws {
        var link = SyntheticClockLink(offset: 50, drift: 100e-6, latency: 0.010, jitter: 0.0002, seed: 5)
        var sync = ClockSync()
        let last = run(&sync, &link, start: 0, seconds: 20)
        let before = try #require(sync.estimate)
        // A reply held back 400 ms on the way back (a retransmission): a wildly asymmetric sample.
        let t0 = last + 0.1
        let t1 = link.party(t0) + 0.010
        let kept = sync.add(ClockSync.Sample(t0: t0, t1: t1, t2: t1, t3: link.local(t1 + 0.410)))
        #expect(kept)
        let after = try #require(sync.estimate)
        #expect(abs(after.party(fromLocal: t0) - before.party(fromLocal: t0)) < 0.0002)
    }

    // MARK: Impossible samples

    @Test(arguments: [
        ClockSync.Sample(t0: 0, t1: 10, t2: 10.5, t3: 0.1),          // negative delay: the server took longer than the round trip
        ClockSync.Sample(t0: 5, t1: 10, t2: 10, t3: 4.9),            // t3 before t0
        ClockSync.Sample(t0: 0, t1: 5, t2: 4.9, t3: 1),              // t2 before t1, with a positive delay
        ClockSync.Sample(t0: .nan, t1: 10, t2: 10, t3: 1),
        ClockSync.Sample(t0: 0, t1: .nan, t2: 10, t3: 1),
        ClockSync.Sample(t0: 0, t1: 10, t2: .nan, t3: 1),
        ClockSync.Sample(t0: 0, t1: 10, t2: 10, t3: .nan),
        ClockSync.Sample(t0: 0, t1: 10, t2: 10, t3: .infinity),
        ClockSync.Sample(t0: -.infinity, t1: 10, t2: 10, t3: 1),
        ClockSync.Sample(t0: 0, t1: -.infinity, t2: .infinity, t3: .infinity),
    ])
    func impossibleSamplesAreIgnored(_ bad: ClockSync.Sample) throws {
        var sync = ClockSync()
        let keptAlone = sync.add(bad)
        #expect(!keptAlone)
        #expect(sync.samples.isEmpty)
        #expect(sync.estimate == nil)

        var link = SyntheticClockLink(offset: 1, drift: 0, latency: 0.01, jitter: 0.001, seed: 1)
        run(&sync, &link, start: 0, seconds: 5)
        let count = sync.samples.count
        let estimate = sync.estimate
        let keptLater = sync.add(bad)
        #expect(!keptLater)
        #expect(sync.samples.count == count)
        #expect(sync.estimate == estimate)
    }

    @Test func zeroDelaySampleIsKept() {
        var sync = ClockSync()
        let kept = sync.add(ClockSync.Sample(t0: 1, t1: 2, t2: 2, t3: 1))
        #expect(kept)
        #expect(sync.samples.count == 1)
    }

    // MARK: Pacing and window

    @Test func burstThenSteadyPacing() {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 0, drift: 0, latency: 0.01, jitter: 0.001, seed: 2)
        var t = 0.0
        for i in 0..<ClockSync.burstCount {
            #expect(sync.isBursting, "sample \(i)")
            #expect(sync.nextInterval == ClockSync.burstInterval)
            // Rejected samples do not count towards the burst.
            let keptBad = sync.add(ClockSync.Sample(t0: t, t1: 1, t2: 0, t3: t))
            #expect(!keptBad)
            sync.add(link.exchange(at: t))
            t += sync.nextInterval
        }
        #expect(sync.samples.count == ClockSync.burstCount)
        #expect(!sync.isBursting)
        #expect(sync.nextInterval == ClockSync.steadyInterval)
        sync.add(link.exchange(at: t))
        #expect(sync.nextInterval == ClockSync.steadyInterval)
        #expect(ClockSync.burstInterval < ClockSync.steadyInterval)
    }

    @Test func samplesOlderThanTheWindowAreForgotten() {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 0, drift: 0, latency: 0.01, jitter: 0, seed: 2)
        for i in 0..<150 {
            sync.add(link.exchange(at: Double(i)))
            let span = sync.samples.last!.local - sync.samples.first!.local
            #expect(span <= ClockSync.windowSeconds)
        }
        #expect(sync.samples.count == 61)
        #expect(sync.samples.first!.t0 == 89)
        #expect(sync.samples.last!.t0 == 149)
    }

    @Test func sampleCountIsCapped() {
        var sync = ClockSync()
        var link = SyntheticClockLink(offset: 0, drift: 0, latency: 0.001, jitter: 0, seed: 2)
        for i in 0..<600 { sync.add(link.exchange(at: Double(i) * 0.05)) }
        #expect(sync.samples.count == ClockSync.maxSamples)
        #expect(sync.samples.first!.t0 == Double(600 - ClockSync.maxSamples) * 0.05)
    }

    @Test func windowBeforeDriftIsKnownWidensWithJitter() {
        var quiet = SyntheticClockLink(offset: 0, drift: 0, latency: 0.01, jitter: 0, seed: 1)
        let calm = (0..<20).map { quiet.exchange(at: Double($0) * 0.25) }
        #expect(ClockSync.noDriftWindow(calm, latest: calm.last!.local) == ClockSync.offsetWindowNoDrift.lowerBound)

        var noisy = SyntheticClockLink(offset: 0, drift: 0, latency: 0.01, jitter: 0.05, seed: 1)
        let rough = (0..<20).map { noisy.exchange(at: Double($0) * 0.25) }
        #expect(ClockSync.noDriftWindow(rough, latest: rough.last!.local) == ClockSync.offsetWindowNoDrift.upperBound)

        #expect(ClockSync.noDriftWindow([], latest: 0) == ClockSync.offsetWindowNoDrift.lowerBound)
    }

    @Test func driftIsNotTrustedFromTooFewBuckets() {
        var link = SyntheticClockLink(offset: 0, drift: 300e-6, latency: 0.01, jitter: 0, seed: 1)
        // Four seconds: four one-second buckets, fewer than the five a fit needs.
        let few = stride(from: 0.0, to: 3.9, by: 0.25).map { link.exchange(at: $0) }
        #expect(ClockSync.fitDrift(few) == nil)
        let enough = stride(from: 0.0, to: 20, by: 0.25).map { link.exchange(at: $0) }
        let drift = ClockSync.fitDrift(enough)
        #expect(drift.map { abs($0 - 300e-6) < 1e-6 } == true)
    }

    @Test func fittedDriftIsClampedToThePhysicalBound() throws {
        var link = SyntheticClockLink(offset: 0, drift: 5000e-6, latency: 0.01, jitter: 0, seed: 1)
        let samples = stride(from: 0.0, to: 20, by: 0.25).map { link.exchange(at: $0) }
        #expect(try #require(ClockSync.fitDrift(samples)) == ClockSync.maxDrift)
    }
}
