extension MemberConnection {
    /// Where a member's connection to its party is. Each case carries what exists only then: the node
    /// being dialled or greeted, the redirects followed on the way, the back-off wait, the outcome.
    ///
    /// Transitions, all made by ``MemberConnection/handle(_:)``'s named events:
    /// - ``idle(_:)`` → ``dialling(_:)`` on ``Event/start``;
    /// - ``dialling(_:)`` → ``greeting(_:)`` on ``Event/dialled``, or → ``backingOff(_:delay:)`` on
    ///   ``Event/connectionFailed(_:at:)`` of a member that was in the party (to the next live node of a
    ///   cluster), else → ``over(_:)``;
    /// - ``greeting(_:)`` → ``seated(_:)`` on ``Event/welcomed(nodes:)``;
    /// - ``greeting(_:)`` or ``seated(_:)`` → ``redirected(_:to:)`` on ``Event/redirected(to:)``, whose
    ///   close dials the node named (→ ``dialling(_:)``), or gives up past ``MemberConnection/maxRedirects``;
    /// - ``greeting(_:)`` or ``seated(_:)`` → ``backingOff(_:delay:)`` on ``Event/closed(reason:at:)``
    ///   (a member never seated gives up instead);
    /// - ``backingOff(_:delay:)`` → ``dialling(_:)`` on ``Event/backoffElapsed``;
    /// - any but ``over(_:)`` → ``over(_:)`` on ``Event/leaveRequested``; while connected, on
    ///   ``Event/partyEnded(_:)`` or ``Event/refused(_:)``.
    ///
    /// Any other event in a state is out of order and changes nothing (a connection that opens when
    /// none is being dialled is closed).
    public enum State: Sendable, Equatable {
        /// Not started: ``Event/start`` dials this node (the link's).
        case idle(Target)
        /// Opening a connection to the leg's target.
        case dialling(Leg)
        /// Connected to the leg's target, the hello out, no welcome yet.
        case greeting(Leg)
        /// Welcomed by this node: in the party.
        case seated(Target)
        /// The node on the leg's connection sent the member to `to`; the connection is closing, and its
        /// close dials `to`.
        case redirected(Leg, to: NodeAddress)
        /// Waiting `delay` seconds before dialling the leg's target: the same node again after a lost
        /// connection, the next live node of a cluster after a failed dial. The leg is always
        /// ``Standing/returning(_:)`` with an ``Outage``.
        case backingOff(Leg, delay: Double)
        /// Done, for good: left, the party ended, or given up.
        case over(Outcome)
    }

    /// One way (back) into the party: the node dialled, the redirects that led there, and whether the
    /// member was in the party before.
    public struct Leg: Sendable, Equatable {
        /// The node dialled (or greeted, or waited for).
        public var target: Target
        /// Redirects followed in a row without a welcome (reset by a welcome and by a failed dial).
        public var hops: Int
        /// Whether the member is joining or coming back, and how long it has been away.
        public var standing: Standing

        public init(target: Target, hops: Int = 0, standing: Standing) {
            self.target = target
            self.hops = hops
            self.standing = standing
        }
    }

    /// Whether a member not in its party now ever was.
    public enum Standing: Sendable, Equatable {
        /// Never seated yet: failing to get in is final (a wrong address, a server that closes on it)
        /// and it says its first hello.
        case newcomer
        /// Seated before: it takes its seat back, and retries with back-off. `outage`: the tries lost
        /// in a row since the server was last heard from; nil when none was (just redirected, or the
        /// server has answered since).
        case returning(Outage?)
    }

    /// Tries lost in a row without a word from the server, since a member was last in its party.
    public struct Outage: Sendable, Equatable {
        /// Connections lost and dials failed in a row: the back-off doubles with each.
        public var failures: Int
        /// When the first of them happened (the member's clock): ``MemberConnection/reconnectGiveUp``
        /// seconds later a failed dial gives up.
        public var since: Double

        public init(failures: Int, since: Double) {
            self.failures = failures
            self.since = since
        }
    }
}

extension MemberConnection.State {
    /// The node this state is about: to dial, dialled, greeted, seated at or waited for; nil once over.
    public var target: Target? {
        switch self {
        case .idle(let target), .seated(let target): target
        case .dialling(let leg), .greeting(let leg), .redirected(let leg, _), .backingOff(let leg, _): leg.target
        case .over: nil
        }
    }

    /// How it ended; nil until it has.
    public var outcome: MemberConnection.Outcome? {
        if case .over(let outcome) = self { outcome } else { nil }
    }
}
