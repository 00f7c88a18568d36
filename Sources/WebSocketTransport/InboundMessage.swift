#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One text message from the peer, stamped with the instant the transport read it off the socket.
///
/// The stamp is taken on the connection's event loop as the message is decoded, before any task
/// hop, so a consumer that is busy (or an actor queue that is long) does not shift it: time-sync
/// samples (a pong's receive time, t3) must use ``receivedAt``, never the time the message is handled.
public struct InboundMessage: Sendable, Equatable {
    public var text: String
    /// Seconds on `CLOCK_MONOTONIC`: the timeline of `MediaTime.MonotonicTimeSource`.
    public var receivedAt: Double

    public init(text: String, receivedAt: Double) {
        self.text = text
        self.receivedAt = receivedAt
    }

    /// `CLOCK_MONOTONIC` now, in seconds.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
