/// Limits and timers shared by ``WebSocketServer`` connections and ``WebSocketClient`` connections.
///
/// The defaults suit the watch-party protocol: small JSON messages, a few per second, over links
/// that may sit behind NAT boxes which forget idle flows.
public struct WebSocketLimits: Sendable, Equatable {
    /// The largest text message accepted from the peer, in bytes of UTF-8, after continuation frames are
    /// joined. A larger message closes the connection with code 1009 (message too big). Default 64 KiB.
    public var maxMessageBytes: Int

    /// Seconds without any frame from the peer (pongs count) after which the connection is closed.
    /// `nil` never times out. Default 30.
    public var idleTimeout: Double?

    /// Seconds between the WebSocket pings this side sends to keep NAT mappings and idle detection alive.
    /// Zero or less sends no pings. Default 5.
    public var pingInterval: Double

    /// How many received messages may wait unread in ``WebSocketConnection/inbound``. A peer that gets
    /// further ahead of the reader is closed with reason "flood" instead of growing memory. Default 1024.
    public var maxQueuedMessages: Int

    /// Seconds a server waits for a new TCP connection to complete its HTTP upgrade before dropping it.
    /// Default 10.
    public var handshakeTimeout: Double

    /// Creates limits; every parameter has the documented default.
    public init(
        maxMessageBytes: Int = 64 * 1024,
        idleTimeout: Double? = 30,
        pingInterval: Double = 5,
        maxQueuedMessages: Int = 1024,
        handshakeTimeout: Double = 10
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.idleTimeout = idleTimeout
        self.pingInterval = pingInterval
        self.maxQueuedMessages = maxQueuedMessages
        self.handshakeTimeout = handshakeTimeout
    }
}

extension WebSocketLimits {
    /// Outbound bytes below which a connection that was too full to write counts as writable again
    /// (NIO's low write-buffer watermark): a few messages' worth, so writability does not flap.
    static let outboundLowWatermark = 64 * 1024

    /// Outbound bytes waiting to be sent above which the peer counts as not reading, and the next
    /// ``WebSocketConnection/send(_:)`` closes the connection ("too slow"): at least 1 MiB, and room for
    /// four of the largest messages, so that a burst of full-size messages does not trip it.
    var outboundHighWatermark: Int {
        max(1 << 20, 4 * self.maxMessageBytes)
    }

    /// The largest frame NIO's decoder accepts, checked on the frame's length before its payload is
    /// read: the message limit, but never below 125 bytes (the largest control frame, RFC 6455 §5.5)
    /// nor above what the decoder supports (`UInt32.max`).
    var maxFrameSize: Int {
        min(max(self.maxMessageBytes, 125), Int(UInt32.max))
    }
}
