extension ParticipantCore {
    /// A member's place in the party, from its welcome on: who it is, the party as it last heard,
    /// and how its player follows the timeline (``PlayerPhase``).
    public struct Seat: Sendable, Equatable {
        public internal(set) var me: ParticipantInfo
        /// Given back in a reconnect's hello to take the same seat.
        public internal(set) var token: String
        public internal(set) var config: PartyConfig
        /// The party's latest timeline epoch (the player may still be on an earlier one: ``player``).
        public internal(set) var timeline: Timeline
        public internal(set) var participants: [ParticipantInfo]
        /// In a cluster: the live nodes the last welcome listed, where to reconnect if this node dies.
        public internal(set) var nodes: [NodeAddress]
        /// How the player follows the timeline: the clock measured, seeking, or following.
        public internal(set) var player: PlayerPhase
        /// Whether the stream ran dry and the player is refilling it.
        var buffering = BufferingWatch()
        /// The rate correction in force.
        var correction = 0.0
        /// The player's error against the timeline at the last check (seconds, + ahead).
        public internal(set) var lastError: Double?
        /// The party clock at the last check (what a host restores its party from).
        var lastPartyNow: Double?

        /// The seat a first welcome gives: nothing applied yet.
        init(welcome: Welcome) {
            me = welcome.you
            token = welcome.token
            config = welcome.config
            timeline = welcome.timeline
            participants = welcome.participants
            nodes = welcome.nodes ?? []
            player = .measuring
        }

        /// Welcomed again (after a reconnect, or a server that said it twice): the same seat, the
        /// party as the welcome says. Back on an epoch it already follows (or an older one), the
        /// player applies it again once the clock is measured anew.
        mutating func welcomedAgain(_ welcome: Welcome) {
            if welcome.timeline.epoch <= player.appliedEpoch { player.follow(epoch: welcome.timeline.epoch - 1) }
            me = welcome.you
            token = welcome.token
            config = welcome.config
            participants = welcome.participants
            timeline = welcome.timeline
            if let listed = welcome.nodes { nodes = listed }
        }

        /// Whether the player follows the timeline now (its seek landed, its stream not dry).
        var isSynced: Bool { player.isFollowing && !buffering.isActive }
    }
}
