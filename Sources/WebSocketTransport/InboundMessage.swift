import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One message from the peer (text, or binary on a connection that accepts binary messages), stamped with the instant the transport read it off the socket.
///
/// The stamp is taken on the connection's event loop as the message is decoded, before any task
/// hop, so a consumer that is busy (or an actor queue that is long) does not shift it: time-sync
/// samples (a pong's receive time, t3) must use ``receivedAt``, never the time the message is handled.
public struct InboundMessage: Sendable, Equatable {
    /// The text of a text message; empty for a binary one.
    public var text: String
    /// The payload of a binary message, `nil` for a text message. Only connections that called
    /// ``WebSocketConnection/acceptBinaryMessages()`` deliver them; others close on a binary frame.
    public var binary: ByteBuffer?
    /// Seconds on `CLOCK_MONOTONIC`: the timeline of `MediaTime.MonotonicTimeSource`.
    public var receivedAt: Double

    public init(text: String, receivedAt: Double) {
        self.text = text
        self.binary = nil
        self.receivedAt = receivedAt
    }

    /// A binary message.
    public init(binary: ByteBuffer, receivedAt: Double) {
        self.text = ""
        self.binary = binary
        self.receivedAt = receivedAt
    }

    /// `CLOCK_MONOTONIC` now, in seconds.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
