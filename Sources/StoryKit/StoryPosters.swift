/// The navigator's use of a ``PosterCache``: which poster stands in for a story while its player
/// opens, and which posters are made ahead once a story settles.
struct StoryPosters: Sendable {
    /// Stories whose posters are made ahead, relative to the current one: the next, the previous,
    /// and the one after next (browsing usually goes forward). Not the whole list: posters cost a
    /// decode each.
    static let aheadOffsets = [1, -1, 2]

    let cache: PosterCache
    let stories: [Story]

    /// The poster to show for story `index` while its player opens, nil when none is worth making
    /// now: a cached poster, else the story's own image (cheap to decode). A keyframe poster would
    /// be decoded from the same keyframe the player is decoding, as slowly.
    func standIn(for index: Int) async -> Poster? {
        guard stories.indices.contains(index) else { return nil }
        if let poster = await cache.cached(index) { return poster }
        guard stories[index].poster != nil, case .success(let poster) = await cache.poster(for: index) else { return nil }
        return poster
    }

    /// Starts making the posters around story `index` (see ``aheadOffsets``).
    func prefetch(around index: Int) async {
        await cache.prefetch(Self.aheadOffsets.map { index + $0 })
    }
}
