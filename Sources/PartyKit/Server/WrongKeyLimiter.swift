import DequeModule
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits wrong-key attempts per source address: after ``Policy/limit`` misses within
/// ``Policy/window`` seconds, every attempt from that address is refused until the oldest of those
/// misses is a window old (a sliding window). A pure value: the caller passes its clock's `now`
/// (seconds, monotonic) and owns the one instance.
///
/// Memory and time are bounded: each address keeps at most `limit` miss times, misses older than
/// the window are dropped when the address misses again, and at most ``Policy/maxTrackedAddresses``
/// addresses are tracked: a new one beyond that evicts the address tracked longest (O(1), so a
/// guesser with many addresses cannot make each miss cost a scan).
public struct WrongKeyLimiter: Sendable {
    public struct Policy: Sendable, Equatable {
        /// Misses allowed within a window; the next attempt is refused.
        public var limit: Int
        /// The window, in seconds.
        public var window: Double
        /// Addresses tracked at once (each costs `limit` doubles).
        public var maxTrackedAddresses: Int

        public init(limit: Int, window: Double, maxTrackedAddresses: Int) {
            self.limit = max(1, limit)
            self.window = window
            self.maxTrackedAddresses = max(1, maxTrackedAddresses)
        }

        /// 10 misses a minute: a person mistyping a key a few times never meets it, while a guesser
        /// gets 14 400 tries a day per address, nothing against a key of 96 bits or more. 4096
        /// addresses × 10 times × 8 bytes is about 330 KiB at most.
        public static let standard = Policy(limit: 10, window: 60, maxTrackedAddresses: 4096)
    }

    /// Whether an attempt from an address may go ahead.
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// Refused for this many more seconds (rounded up, at least 1).
        case refused(retryAfter: Int)
    }

    public let policy: Policy
    /// Miss times per address, oldest first, at most `policy.limit` of them.
    private var misses: [String: [Double]] = [:]
    /// The tracked addresses, in the order they were first tracked (oldest first).
    private var order = Deque<String>()

    public init(policy: Policy = .standard) { self.policy = policy }

    /// Addresses currently tracked (for tests and status).
    public var trackedCount: Int { misses.count }

    /// Whether an attempt from `source` at `now` may be checked at all.
    public func check(_ source: String, now: Double) -> Verdict {
        guard let times = misses[source] else { return .allowed }
        let recent = times.filter { now - $0 < policy.window }
        guard recent.count >= policy.limit, let oldest = recent.first else { return .allowed }
        let wait = oldest + policy.window - now
        return .refused(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Notes a wrong key from `source` at `now`.
    public mutating func recordMiss(_ source: String, now: Double) {
        if misses[source] == nil {
            if misses.count >= policy.maxTrackedAddresses, let oldest = order.popFirst() { misses[oldest] = nil }
            order.append(source)
        }
        var times = misses[source, default: []].filter { now - $0 < policy.window }
        times.append(now)
        if times.count > policy.limit { times.removeFirst(times.count - policy.limit) }
        misses[source] = times
    }

    /// The refusal text: says why and when to try again, never the key.
    public static func refusal(retryAfter: Int) -> String {
        "too many wrong keys from this address; try again in \(retryAfter) s"
    }

    /// The source a peer description `IP:PORT` or `[IPv6]:PORT` is counted as: its address
    /// (attempts are counted per address, not per connection), grouped as ``source(ofAddress:)`` says.
    public static func source(ofPeer peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":"),
              !peer[peer.index(after: colon)...].isEmpty,
              peer[peer.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return peer }
        let host = peer[..<colon]
        // A bare IPv6 address without brackets has colons of its own and no port.
        if !host.hasPrefix("["), host.contains(":") { return peer }
        if host.hasPrefix("["), host.hasSuffix("]") { return source(ofAddress: String(host.dropFirst().dropLast())) }
        return source(ofAddress: String(host))
    }

    /// The source an IP address is counted as. IPv6 addresses count per /64: that is what one
    /// subscriber is usually given, so a guesser holding one has 2^64 addresses — counted one by one,
    /// as many fresh allowances. IPv4-mapped IPv6 addresses count as the IPv4 address they are, and
    /// loopback as itself. Text that is no IPv6 address (IPv4, a socket path) is its own source.
    public static func source(ofAddress address: String) -> String {
        var raw = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &raw) == 1 else { return address }
        let bytes = withUnsafeBytes(of: raw) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return "[::1]" }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return "[\(groups.joined(separator: ":"))::]/64"
    }
}
