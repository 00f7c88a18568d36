import PlayerCore

/// What a stories UI draws, readable at any time without waiting on the navigator: the current
/// story, the neighbour during a swipe, posters and the position indicator.
public struct StorySnapshot: Sendable {
    /// A story on screen (or sliding in).
    public struct Card: Sendable {
        public var index: Int
        public var title: String
        /// Nil while it opens, or when it failed.
        public var player: Player?
        /// Shown until `ready`.
        public var poster: Poster?
        /// Its first picture has reached the video sink.
        public var ready: Bool
        /// Why it cannot play, when it cannot.
        public var error: String?
    }

    public var count: Int
    public var current: Card?
    /// The story a swipe is bringing in.
    public var neighbour: Card?
    /// Swipe progress toward the neighbour, 0…1 (the UI's finger position).
    public var transitionProgress: Double
    /// Players alive now (at most two).
    public var livePlayers: Int

    /// The segment indicator: index, count and how much of the current story has played.
    public var indicator: StoryIndicator {
        let index = current?.index ?? 0
        guard let player = current?.player, let duration = player.duration, duration > 0 else {
            return StoryIndicator(index: index, count: count, progress: 0)
        }
        return StoryIndicator(index: index, count: count, progress: min(max(player.position / duration, 0), 1))
    }

    static func empty(count: Int) -> StorySnapshot {
        StorySnapshot(count: count, current: nil, neighbour: nil, transitionProgress: 0, livePlayers: 0)
    }
}
