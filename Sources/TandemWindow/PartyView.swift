import PlayerCore
import Synchronization

/// What the window shows of the member, refreshed a few times a second (the member is an actor;
/// the window's turn must not wait on it).
public final class PartyView: Sendable {
    public static let refreshInterval = Duration.milliseconds(100)

    /// The member's state as the window shows it.
    public struct Status: Sendable {
        public var party: String
        public var watching: Int
        public var synced: Bool
        public var connected: Bool
        public var skewMs: Double?
        /// Media items in the party (several: a story party, with the segment indicator).
        public var items: Int
        /// This member's sound output ("pulse on speakers: 92 ms reported").
        public var output: String?
        /// A live item: seconds behind the live edge (shown as "LIVE −Ns" for a duration); nil otherwise.
        public var behindLive: Double? = nil

        public init(party: String, watching: Int, synced: Bool, connected: Bool, skewMs: Double?, items: Int,
                    output: String? = nil) {
            self.output = output
            self.party = party
            self.watching = watching
            self.synced = synced
            self.connected = connected
            self.skewMs = skewMs
            self.items = items
        }
    }

    public struct Snapshot: Sendable {
        public var status: Status?
        public var player: Player?
        public var item: Int?
    }

    private let state = Mutex(Snapshot())

    public init() {}

    public func update(status: Status, player: Player?, item: Int?) {
        state.withLock { $0 = Snapshot(status: status, player: player, item: item) }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }
}
