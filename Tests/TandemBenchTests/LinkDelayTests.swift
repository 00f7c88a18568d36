import PartyKit
import Testing
@testable import TandemBench

/// `tandem bench link`: the delay schedule (in order, each delay within latency ± jitter) and one
/// direction's state machine (timers, bounded buffering, closing after delivery).
@Suite struct LinkDelayTests {
    static let latency = 0.05, jitter = 0.02
    /// Slack for the floating-point sums arrival + delay.
    static let tolerance = 1e-9

    @Test func delaysSpanLatencyPlusMinusJitter() {
        let schedule = LinkDelaySchedule(latency: Self.latency, jitter: Self.jitter)
        #expect(abs(schedule.delay(draw: 0) - 0.03) < Self.tolerance)
        #expect(abs(schedule.delay(draw: 0.5) - 0.05) < Self.tolerance)
        #expect(abs(schedule.delay(draw: 1) - 0.07) < Self.tolerance)
        #expect(abs(schedule.delay(draw: 7) - 0.07) < Self.tolerance)  // draws are clamped
        // Jitter larger than the latency would mean negative delays: it is cut to the latency.
        #expect(LinkDelaySchedule(latency: 0.01, jitter: 0.05).delay(draw: 0) == 0)
    }

    @Test func aShortDrawWaitsForTheChunkAhead() {
        var schedule = LinkDelaySchedule(latency: Self.latency, jitter: Self.jitter)
        #expect(abs(schedule.departure(arrivedAt: 1, draw: 1) - 1.07) < Self.tolerance)
        // Would leave at 1.031, before the chunk ahead: it leaves with it instead.
        #expect(abs(schedule.departure(arrivedAt: 1.001, draw: 0) - 1.07) < Self.tolerance)
        #expect(abs(schedule.departure(arrivedAt: 2, draw: 0) - 2.03) < Self.tolerance)
    }

    @Test func departuresAreInOrderAndWithinBounds() {
        var rng = SplitMix64(seed: 42)
        var schedule = LinkDelaySchedule(latency: Self.latency, jitter: Self.jitter)
        var arrival = 0.0, previous = -Double.infinity
        var heldBack = 0
        for _ in 0..<10_000 {
            // Bursts (same instant) and gaps up to twice the jitter: some chunks are held back.
            arrival += Bool.random(using: &rng) ? 0 : Double.random(in: 0...(2 * Self.jitter), using: &rng)
            let departure = schedule.departure(arrivedAt: arrival, using: &rng)
            #expect(departure >= previous)
            #expect(departure - arrival >= Self.latency - Self.jitter - Self.tolerance)
            #expect(departure - arrival <= Self.latency + Self.jitter + Self.tolerance)
            if departure == previous { heldBack += 1 }  // draws are continuous: equal only when held back
            previous = departure
        }
        #expect(heldBack > 0)
    }

    @Test func spacedChunksGetTheirOwnDrawAcrossTheWholeRange() {
        var rng = SplitMix64(seed: 7)
        var schedule = LinkDelaySchedule(latency: Self.latency, jitter: Self.jitter)
        // Arrivals further apart than the whole jitter range are never held back.
        let delays = (0..<1000).map { i in
            let arrival = Double(i) * 3 * Self.jitter
            return schedule.departure(arrivedAt: arrival, using: &rng) - arrival
        }
        #expect(delays.min()! < Self.latency - 0.9 * Self.jitter)
        #expect(delays.max()! > Self.latency + 0.9 * Self.jitter)
    }

    /// Binary fractions, so that the sums below are exact.
    static let exactLatency = 0.0625, step = 0.0078125

    @Test func directionSendsEachChunkAtItsDepartureInOrder() {
        var direction = LinkDirection<Int>(latency: Self.exactLatency, jitter: 0, seed: 1)
        #expect(direction.received(1, bytes: 10, at: 1) == [.armTimer(at: 1.0625)])
        #expect(direction.received(2, bytes: 10, at: 1 + Self.step) == [])  // the timer is for the head
        #expect(direction.received(3, bytes: 10, at: 1 + Self.step) == [])
        #expect(direction.timerFired(at: 1.0625 - Self.step) == [.armTimer(at: 1.0625)])  // early: nothing due
        #expect(direction.timerFired(at: 1.0625) == [.send([1]), .armTimer(at: 1.0625 + Self.step)])
        #expect(direction.timerFired(at: 1.5) == [.send([2, 3])])
        #expect(direction.heldBytes == 30)  // until the writes complete
        for _ in 0..<3 { #expect(direction.sent(bytes: 10) == []) }
        #expect(direction.heldBytes == 0)
    }

    @Test func directionStopsReadingWhenFullAndResumesAtLowWater() {
        typealias Direction = LinkDirection<Int>
        var direction = Direction(latency: Self.latency, jitter: 0, seed: 1)
        let quarter = Direction.highWater / 4
        for i in 0..<3 { _ = direction.received(i, bytes: quarter, at: 0) }
        #expect(direction.received(3, bytes: quarter, at: 0) == [.stopReading])
        #expect(direction.received(4, bytes: 1, at: 0) == [])  // already stopped: said once
        #expect(direction.timerFired(at: 1) == [.send([0, 1, 2, 3, 4])])
        #expect(direction.sent(bytes: quarter) == [])  // still above the low water
        #expect(direction.sent(bytes: quarter) == [])
        #expect(direction.sent(bytes: 1) == [.startReading])
    }

    @Test func directionClosesThePeerOnceEverythingHeldIsDelivered() {
        var direction = LinkDirection<Int>(latency: Self.latency, jitter: 0, seed: 1)
        _ = direction.received(1, bytes: 5, at: 0)
        #expect(direction.inputClosed() == [])  // still owes chunk 1
        #expect(direction.timerFired(at: 1) == [.send([1])])
        #expect(direction.sent(bytes: 5) == [.closePeer])
        #expect(direction.inputClosed() == [])  // once

        var idle = LinkDirection<Int>(latency: Self.latency, jitter: 0, seed: 1)
        #expect(idle.inputClosed() == [.closePeer])
    }
}
