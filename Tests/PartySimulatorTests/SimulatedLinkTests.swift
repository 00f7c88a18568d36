import Testing
@testable import PartySimulator
import PartyKit

@Suite struct SimulatedLinkTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
        var a = SplitMix64(seed: 12345), b = SplitMix64(seed: 12345), c = SplitMix64(seed: 12346)
        let xs = (0..<100).map { _ in a.next() }
        #expect(xs == (0..<100).map { _ in b.next() })
        #expect(xs != (0..<100).map { _ in c.next() })
        #expect(Set(xs).count == 100)
    }

    @Test func fixedLatencyWithoutJitterOrLoss() {
        var link = SimulatedLink(latency: 0.05, jitter: 0, loss: 0)
        var rng = SplitMix64(seed: 1)
        #expect(link.deliveryTime(sentAt: 10, using: &rng) == 10.05)
        #expect(link.deliveryTime(sentAt: 11, using: &rng) == 11.05)
        #expect(link.retransmitTimeout == 0.2)
    }

    @Test func jitterStaysWithinItsBounds() {
        var link = SimulatedLink(latency: 0.05, jitter: 0.02, loss: 0)
        var rng = SplitMix64(seed: 2)
        var delays: [Double] = []
        for i in 0..<2000 {
            let sent = Double(i)  // far apart: ordering never holds one back
            delays.append(link.deliveryTime(sentAt: sent, using: &rng) - sent)
        }
        #expect(delays.allSatisfy { $0 >= 0.03 - 1e-9 && $0 <= 0.07 + 1e-9 })
        #expect(delays.min()! < 0.032 && delays.max()! > 0.068)
        let mean = delays.reduce(0, +) / Double(delays.count)
        #expect(abs(mean - 0.05) < 0.002)
    }

    @Test func delayNeverDropsBelowATenthOfTheLatency() {
        var link = SimulatedLink(latency: 0.01, jitter: 0.05, loss: 0)
        var rng = SplitMix64(seed: 3)
        for i in 0..<1000 {
            let sent = Double(i)
            #expect(link.deliveryTime(sentAt: sent, using: &rng) - sent >= 0.001 - 1e-12)
        }
    }

    @Test func messagesArriveInOrder() {
        var link = SimulatedLink(latency: 0.05, jitter: 0.04, loss: 0.05)
        var rng = SplitMix64(seed: 4)
        var last = -Double.infinity
        var sent = 0.0
        for _ in 0..<5000 {
            sent += Double.random(in: 0...0.01, using: &rng)
            let arrival = link.deliveryTime(sentAt: sent, using: &rng)
            #expect(arrival >= last)
            #expect(arrival > sent)
            last = arrival
        }
    }

    @Test func lossDelaysByARetransmission() {
        var link = SimulatedLink(latency: 0.05, jitter: 0, loss: 0.5)
        var rng = SplitMix64(seed: 5)
        var retransmissions = 0.0
        let n = 4000
        for i in 0..<n {
            let sent = Double(i) * 10
            let delay = link.deliveryTime(sentAt: sent, using: &rng) - sent
            let k = (delay - 0.05) / (link.retransmitTimeout + 0.05)
            // A whole number of retransmissions, each a timeout plus another trip.
            #expect(abs(k - k.rounded()) < 1e-6)
            retransmissions += k.rounded()
        }
        // Geometric: p / (1 − p) = 1 retransmission per message on average.
        #expect(abs(retransmissions / Double(n) - 1) < 0.1)
    }


    @Test func simulatedClockMapsBothWays() {
        let clock = SimulatedClock(offset: -321.5, drift: 150e-6)
        #expect(clock.local(0) == -321.5)
        #expect(abs(clock.local(1000) - (-321.5 + 1000.15)) < 1e-9)
        var rng = SplitMix64(seed: 6)
        for _ in 0..<1000 {
            let t = Double.random(in: 0...1e5, using: &rng)
            #expect(abs(clock.trueTime(clock.local(t)) - t) < 1e-8)
        }
    }

    @Test func timeSourceFollowsTheWorldOnItsOwnClock() {
        let world = SimulatedWorldTime()
        let source = SimulatedTimeSource(world: world, clock: SimulatedClock(offset: 100, drift: 0.5))
        #expect(world.value == 0)
        #expect(source.now() == 100)
        world.set(10)
        #expect(world.value == 10)
        #expect(source.now() == 115)
    }
}
