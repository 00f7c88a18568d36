/// When Tandem's Syncplay client tries its server again after losing it, as Syncplay's own client
/// does (client.py's retry policy for its reconnecting service): a wait of 0.1 s × 2^min(try, 5),
/// so 0.2 s, 0.4 s … then every 3.2 s, for up to ``maxTries`` tries since it was last in the room.
/// Only a lost connection is retried: an `Error` from the server is final, as for Syncplay.
public struct SyncplayReconnect: Sendable, Equatable {
    /// Syncplay's unit of wait, doubled with every try.
    public static let baseDelay = 0.1
    /// Doublings at most: once the server stays away, one try every 0.1 s × 2⁵ = 3.2 s (Syncplay's
    /// `min(retries, 5)`), gentle on a server coming back and quick enough that nobody waits long.
    public static let maxDoublings = 5
    /// Tries before giving up for good: Syncplay's RECONNECT_RETRIES (about 53 minutes of 3.2 s
    /// waits), enough for any restart or takeover; a server gone longer is gone.
    public static let maxTries = 999

    /// Tries without getting back into the room allowed.
    public let limit: Int
    /// Tries made since the session was last in the room.
    public private(set) var tries = 0

    public init(limit: Int = Self.maxTries) {
        self.limit = limit
    }

    /// The connection was lost, or a try failed: seconds to wait before the next try, or nil when
    /// the tries are used up.
    public mutating func nextDelay() -> Double? {
        guard tries < limit else { return nil }
        tries += 1
        return Self.baseDelay * Double(1 << min(tries, Self.maxDoublings))
    }

    /// Back in the room: a later loss starts from the shortest wait again.
    public mutating func rejoined() {
        tries = 0
    }
}
