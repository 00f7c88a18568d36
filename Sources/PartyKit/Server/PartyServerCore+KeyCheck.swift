/// Credentials checked under the per-address wrong-key limits (``WrongKeyLimiter``).
extension PartyServerCore {
    /// What ``checkKey(party:source:now:matches:)`` found.
    public enum KeyCheck: Sendable, Equatable {
        /// The credential matches: the party's key, for the hello that follows.
        case accepted(key: String)
        case unknownParty
        case wrongKey
        /// Too many wrong keys from this address (``WrongKeyLimiter``): not even looked at.
        case refused(retryAfter: Int)
    }

    /// Checks a credential for `party` that is not the key itself (a Syncplay client's MD5 of it, at
    /// the Syncplay gateway) under the same per-address limits as a hello: an address over the limit
    /// is refused unread, a miss counts. `matches` is given the key and must compare in constant time.
    public mutating func checkKey(party: String, source: String?, now: Double, matches: (String) -> Bool) -> KeyCheck {
        if let source, case .refused(let wait) = wrongKeys.check(source, now: now) { return .refused(retryAfter: wait) }
        guard let key = parties[party]?.key else { return .unknownParty }
        guard matches(key) else {
            if let source { wrongKeys.recordMiss(source, now: now) }
            return .wrongKey
        }
        return .accepted(key: key)
    }

    /// The address connection `id`'s wrong keys count against (``connected(_:source:now:)``); nil when
    /// it is not limited, or gone.
    public func source(of id: Int) -> String? { connections[id]?.source }

    /// Whether `source` may have a key looked at now, for keys checked elsewhere (a cluster node asks
    /// its directory about parties it does not hold). One count per address for every way in — hellos,
    /// Syncplay passwords, parties here or elsewhere — so switching gains a guesser no tries.
    public func wrongKeyVerdict(source: String, now: Double) -> WrongKeyLimiter.Verdict {
        wrongKeys.check(source, now: now)
    }

    /// Counts a wrong key found elsewhere (the directory said so) against `source`.
    public mutating func recordWrongKey(source: String, now: Double) {
        wrongKeys.recordMiss(source, now: now)
    }
}
