import PartyKit
import PlayerCore
import StoryKit

/// What a member shows of itself: the status line's figures, and its sound output as the party hears of it.
extension PartyMember {
    public struct Status: Sendable {
        public var party: String
        public var me: ParticipantInfo?
        public var participants: [ParticipantInfo]
        public var skewMs: Double?
        public var synced: Bool
        public var position: Double?
        public var duration: Double?
        public var playing: Bool
        public var connected: Bool
        /// Media items in the party (several: a story party).
        public var items: Int
        /// A live item: seconds its player has read beyond the moment shown — how far behind the live
        /// edge it is (a live input reads on to the edge: PlayerCore's `ReadAhead.Limits.live`); nil for other items.
        public var behindLive: Double? = nil
        /// The party's item now (its timeline's), nil before the welcome.
        public var item: Int? = nil
    }

    public var status: Status {
        let shown = playback.snapshot
        return Status(party: options.link.party, me: core.me, participants: core.participants, skewMs: core.lastError.map { $0 * 1000 },
               synced: core.isSynced && shown.pendingShows == 0 && shown.player != nil,
               position: shown.player?.position, duration: shown.player?.duration,
               playing: core.timeline?.playing ?? false, connected: socket != nil, items: core.config?.items.count ?? 0,
               behindLive: Self.behindLive(shown, items: core.config?.items ?? []), item: core.timeline?.item)
    }

    /// For a live item shown: what its player has read beyond its moment (reading stops at the edge).
    static func behindLive(_ shown: MemberPlayback.Snapshot, items: [MediaItem]) -> Double? {
        guard let item = shown.item, items.indices.contains(item), items[item].live != nil, let player = shown.player else { return nil }
        return player.buffer.readAhead
    }

    /// This member's seat token (after the welcome): what proves a host's relay connection.
    public var seatToken: String? { core.token }

    /// The player, for IPC and sinks (nil before the first timeline is applied).
    public var currentPlayer: Player? { playback.snapshot.player }

    /// The item shown now (nil before the first timeline is applied).
    public var currentItem: Int? { playback.snapshot.item }

    /// The story navigator that plays the party's items (nil before the first timeline).
    public var stories: StoryNavigator? { playback.snapshot.navigator }

    /// The player's sound output as the party hears of it (nil: no sound output).
    static func outputReport(_ player: Player) -> OutputReport? {
        guard let output = player.audioOutput else { return nil }
        let committed = player.soundCommitted
        let queued = max(0, output.reportedDelay - output.audioDelay)
        return OutputReport(driver: output.driver, device: output.device.isEmpty ? nil : output.device,
                            delayMs: output.reportedDelay * 1000, audioDelayMs: output.audioDelay * 1000,
                            renderedMs: max(0, committed - queued) * 1000)
    }
}
