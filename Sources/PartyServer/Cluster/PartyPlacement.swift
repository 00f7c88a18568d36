import PartyKit

/// Where parties live in a cluster of `tandem serve` nodes, as a party server sees it: the directory
/// behind it (PostgreSQL, in PartyService) decides, holds this node's leases and renews them.
///
/// Every call may wait on the network: the runner makes them from tasks of their own, never on the
/// path of its members' messages.
public protocol PartyPlacement: Sendable {
    /// The live nodes' addresses (this one's included), as last read: what welcomes list.
    var nodes: [NodeAddress] { get }
    /// This node's own address.
    var address: NodeAddress { get }
    /// Parties this node lost (its lease on them ran out or another node took them): the runner stops
    /// serving them. Read by one task only.
    var lostParties: AsyncStream<String> { get }

    /// Where a hello for `party`, which this node does not hold, belongs. `creating`: the hello
    /// creates the party (a host), so a party nobody knows is claimed for it.
    func place(party: String, key: String, creating: Bool) async throws -> PartyPlacementResult
    /// Saves the party's state under this node's lease (dropped quietly if the lease is gone: the
    /// party then arrives on ``lostParties``). `sequence` grows with every save this node starts, so
    /// of two saves that cross, the later-taken one wins.
    func save(party: String, image: PartyServerCore.PartyImage, partyClock: Double, sequence: Int) async
    /// The party ended here: forget it in the directory.
    func end(party: String) async
    /// Gives up every lease, keeping the snapshots, so other nodes take the parties at once (a drain).
    func releaseAll() async
}

/// What ``PartyPlacement/place(party:key:creating:)`` decided.
public enum PartyPlacementResult: Sendable, Equatable {
    /// This node holds the party's lease now; `restore`: its state as the last owner saved it.
    case here(restore: PartyRestore?)
    /// Another live node serves it: send the member there.
    case elsewhere(NodeAddress)
    /// The party exists and this is not its key.
    case wrongKey
    /// No node knows the party (and the hello does not create it).
    case unknown
}

/// A party's saved state, for ``PartyServerCore/restore(party:key:config:restore:seats:now:)``.
public struct PartyRestore: Sendable, Equatable {
    public var config: PartyConfig
    /// Where the party is now (the saved timeline evaluated at the time of the read).
    public var restore: PartyConfig.Restore
    public var seats: [PartyServerCore.SavedSeat]

    public init(config: PartyConfig, restore: PartyConfig.Restore, seats: [PartyServerCore.SavedSeat]) {
        self.config = config
        self.restore = restore
        self.seats = seats
    }
}
