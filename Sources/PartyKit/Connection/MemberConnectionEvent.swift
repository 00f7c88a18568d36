extension MemberConnection {
    /// What happens to a member's connection: what the network did, what the server said, what the
    /// user asked, and time passing. Times (`at`) are on the member's own clock, in seconds.
    public enum Event: Sendable, Equatable {
        /// The member starts: dial the link's node.
        case start
        /// The dial asked for (``Action/dial(_:)``) opened a connection.
        case dialled
        /// The dial asked for failed: `error` says why (shown in a message that gives up).
        case connectionFailed(_ error: String, at: Double)
        /// The server said something on the connection (any message but a node list): it is there, so
        /// a returning member's ``Outage`` is over.
        case heard
        /// A welcome: the member is in the party, on the node it greeted. `nodes`: the cluster's live
        /// nodes it lists (nil: it says nothing of them, what was heard before stands).
        case welcomed(nodes: [NodeAddress]?)
        /// The cluster's live nodes changed (a `nodes` message).
        case nodesChanged([NodeAddress])
        /// The node sent the member to `node`, which serves its party.
        case redirected(to: NodeAddress)
        /// The connection ended; `reason`: what its close said, if anything.
        case closed(reason: String?, at: Double)
        /// The back-off wait asked for (``Action/wait(_:)``) is over.
        case backoffElapsed
        /// The user leaves.
        case leaveRequested
        /// The party ended for the member (`reason`: what the server said).
        case partyEnded(_ reason: String)
        /// The server refused the member for good (wrong key, unknown party, version…): `message`.
        case refused(_ message: String)
    }
}
