import Testing
@testable import SyncplayKit

@Suite struct SyncplayPingTests {
    @Test func roundTripAverageAndForwardDelay() {
        var ping = SyncplayPing()
        ping.received(echoed: 100, peerRtt: 0.2, now: 100.1)
        #expect(abs(ping.rtt - 0.1) < 1e-9)
        #expect(abs(ping.averageRtt - 0.1) < 1e-9)
        // The peer's trip was slower than ours: half our average.
        #expect(abs(ping.forwardDelay - 0.05) < 1e-9)
        ping.received(echoed: 200, peerRtt: 0.1, now: 200.3)
        let average = 0.1 * SyncplayPing.movingAverageWeight + 0.3 * (1 - SyncplayPing.movingAverageWeight)
        #expect(abs(ping.averageRtt - average) < 1e-9)
        // Ours was 0.2 s slower than the peer's: that asymmetry is put on the way here.
        #expect(abs(ping.forwardDelay - (average / 2 + 0.2)) < 1e-9)
    }

    @Test func aMissingOrFutureTimestampChangesNothingUseful() {
        var ping = SyncplayPing()
        ping.received(echoed: 0, peerRtt: 0, now: 5)
        #expect(ping == SyncplayPing())
        ping.received(echoed: 10, peerRtt: 0, now: 5)
        #expect(ping.averageRtt == 0)
        #expect(ping.forwardDelay == 0)
    }
}
