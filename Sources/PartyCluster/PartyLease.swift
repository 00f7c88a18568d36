/// A node's hold on a party, as ``ClusterDirectory/claim(party:key:)`` or
/// ``ClusterDirectory/renew(_:)`` granted it.
///
/// `generation` is the fencing token: every successful claim of the party, by any node, increases it,
/// and renew, save and release only act on the row while it still has this generation. So a node that
/// lost the party (its lease ran out and another node claimed it) can neither extend nor overwrite it,
/// however late its requests arrive.
public struct PartyLease: Sendable, Equatable {
    public let party: String
    public let node: String
    public let generation: Int64
    /// Until when this node may act as the owner, on its own clock: the lease length counted from
    /// before the request was sent, so it never outlasts the database's own expiry (which counts
    /// from when the statement ran). Past it, stop serving the party unless a renew succeeded.
    public let validUntil: ContinuousClock.Instant

    public init(party: String, node: String, generation: Int64, validUntil: ContinuousClock.Instant) {
        self.party = party
        self.node = node
        self.generation = generation
        self.validUntil = validUntil
    }
}

/// The node that serves a party: where its members go.
public struct PartyOwner: Sendable, Equatable {
    public let node: String
    /// The owner's advertised address, as it registered it (``ClusterConfiguration/address``).
    public let address: String
    /// The latest epoch the owner saved.
    public let epoch: Int

    public init(node: String, address: String, epoch: Int) {
        self.node = node
        self.address = address
        self.epoch = epoch
    }
}

/// How a claim ended.
public enum PartyClaim: Sendable, Equatable {
    /// This node owns the party now. `snapshot` is its last saved state when it existed before (a
    /// takeover, or this node claiming again), nil for a new party.
    case claimed(PartyLease, snapshot: PartySnapshot?)
    /// Another node holds a live lease on it: send the member there.
    case ownedElsewhere(PartyOwner)
    /// The party exists and the key is not its key. Nothing changed.
    case wrongKey
}

/// How a save ended, when the lease still held.
public enum PartySaveOutcome: Sendable, Equatable {
    case saved
    /// A snapshot of a newer epoch is already saved (two saves crossed); this one was dropped.
    case newerEpochSaved(Int)
    /// A later save of the same epoch (a newer seat list) is already there; this one was dropped.
    case newerSaveOfEpoch(Int)
}
