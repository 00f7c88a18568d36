/// Syncplay's latency estimate, one per side: the round trip measured from one's own echoed
/// timestamp, a moving average of it, and the one-way "forward delay" a peer's state has aged by
/// when it arrives — half the average round trip, plus how much slower this trip was than the
/// peer's last one (delay that is not symmetric is put on the way here).
public struct SyncplayPing: Sendable, Equatable {
    /// Weight of the old average in the moving average (Syncplay's PING_MOVING_AVERAGE_WEIGHT).
    public static let movingAverageWeight = 0.85

    /// The last round trip (seconds); 0 before the first.
    public private(set) var rtt = 0.0
    public private(set) var averageRtt = 0.0
    /// How old a state is on arrival (seconds): what a playing position is advanced by.
    public private(set) var forwardDelay = 0.0

    public init() {}

    /// Our timestamp `echoed` came back at `now` (same clock); `peerRtt` is the peer's last round trip.
    public mutating func received(echoed: Double, peerRtt: Double, now: Double) {
        // Syncplay ignores a missing (zero) timestamp and nonsense.
        guard echoed != 0, echoed.isFinite, peerRtt.isFinite else { return }
        let trip = now - echoed
        rtt = trip
        guard trip >= 0, peerRtt >= 0 else { return }
        averageRtt = averageRtt == 0 ? trip : averageRtt * Self.movingAverageWeight + trip * (1 - Self.movingAverageWeight)
        forwardDelay = peerRtt < trip ? averageRtt / 2 + (trip - peerRtt) : averageRtt / 2
    }
}
