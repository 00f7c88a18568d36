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
    /// How many messages the peer had sent in the one-second window this one was read in, this one
    /// included, counting those the connection answered itself and never delivered
    /// (``WebSocketConnection/answerInline(limitPerSecond:_:)``): what a per-second flood limit
    /// compares. Windows follow each other, each starting at the first message after the last one ended.
    public var messagesThisSecond: Int

    public init(text: String, receivedAt: Double, messagesThisSecond: Int = 1) {
        self.text = text
        self.binary = nil
        self.receivedAt = receivedAt
        self.messagesThisSecond = messagesThisSecond
    }

    /// A binary message.
    public init(binary: ByteBuffer, receivedAt: Double, messagesThisSecond: Int = 1) {
        self.text = ""
        self.binary = binary
        self.receivedAt = receivedAt
        self.messagesThisSecond = messagesThisSecond
    }

    /// `CLOCK_MONOTONIC` now, in seconds.
    public static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
