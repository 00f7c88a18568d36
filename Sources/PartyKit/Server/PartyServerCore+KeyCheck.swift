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
}
