extension MemberConnection {
    /// What the driver does for a member's connection. Only ``dial(_:)`` and ``wait(_:)`` take time:
    /// their ends are fed back as ``Event/dialled`` (or ``Event/connectionFailed(_:at:)``) and
    /// ``Event/backoffElapsed``.
    public enum Action: Sendable, Equatable {
        /// Open a connection to the node.
        case dial(Target)
        /// Say the first hello on the new connection (``ParticipantCore/start(now:)``): never seated.
        case sayHello
        /// Say the hello that takes the seat back (``ParticipantCore/reconnect(now:)``).
        case sayHelloAgain
        /// Close the connection (the one just opened, when the member left while it was dialled).
        case close(reason: String)
        /// Say bye on the connection and close it.
        case sayBye
        /// The member is in the party on this node: what its media follows.
        case seated(Target)
        /// Wait this many seconds, then feed ``Event/backoffElapsed``.
        case wait(Double)
        /// Tell the user (or the log) what happened.
        case report(Report)
        /// Over: stop (a wait in progress included), with this outcome.
        case finish(Outcome)
    }

    /// What a member's connection tells the user on its way.
    public enum Report: Sendable, Equatable {
        /// The connection to its node was lost; it reconnects.
        case connectionLost
        /// Following a redirect to this node.
        case redirected(to: NodeAddress)
    }

    /// How a member's time in its party ended.
    public enum Outcome: Sendable, Equatable {
        /// It left.
        case left
        /// The party ended; why, as the server said.
        case ended(String)
        /// It could not get in, or back in: why, naming the server where that is what failed.
        case failed(String)
    }
}
