/// Counts a peer's messages in consecutive one-second windows, each starting at the first message
/// after the previous one ended: the windows of a per-second flood limit. Counted here, on the event
/// loop, for every message, so an application's limit sees the ones the transport answered itself
/// (``WebSocketConnection/answerInline(limitPerSecond:_:)``) too (``InboundMessage/messagesThisSecond``).
struct MessageWindow {
    /// A window's length, in seconds: limits are per second.
    static let length = 1.0

    private var start = -Double.infinity
    private var count = 0

    /// Counts one message read at `receivedAt` (seconds on `CLOCK_MONOTONIC`); returns how many its
    /// window has now, itself included.
    mutating func counted(at receivedAt: Double) -> Int {
        if receivedAt - start >= Self.length {
            start = receivedAt
            count = 0
        }
        count += 1
        return count
    }
}
