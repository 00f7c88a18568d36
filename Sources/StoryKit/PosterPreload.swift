/// Which stories' posters are loaded ahead, and which are ready, as a state machine the
/// navigator's serial task owns: events in (a story settled, a load finished, a swipe wants one),
/// the indices to load out. The loads themselves run beside the serial task (they may cross a
/// slow network), so a swipe never waits for one: it shows what is ready at once.
struct PosterPreload: Sendable {
    /// Stories loaded ahead of the current one: itself, the next, the previous and the one after
    /// next (browsing mostly goes forward). Not the whole list: each poster costs a decode.
    static let aheadOffsets = [0, 1, -1, 2]
    /// Ready posters farther than this from the current story are let go (the ``PosterCache``
    /// keeps its own, fewer, copies): a jump back finds them there.
    static let keepDistance = 3

    private enum Entry: Sendable, Equatable {
        case loading
        case ready(Poster)
        /// No poster could be made: not tried again for this list.
        case failed
    }

    let count: Int
    private var entries: [Int: Entry] = [:]

    init(count: Int) { self.count = count }

    /// Story `index` became the current one (or the list starts there): returns the stories whose
    /// posters to load now (those around it not ready, under way or failed), marked under way.
    mutating func settled(at index: Int) -> [Int] {
        for (i, entry) in entries where abs(i - index) > Self.keepDistance {
            if case .ready = entry { entries[i] = nil }
        }
        return Self.aheadOffsets.map { index + $0 }.filter { want($0) }
    }

    /// Story `index` is wanted now (a jump past the stories loaded ahead): true when its load
    /// should start (it is neither ready, under way nor failed); it is then marked under way.
    mutating func want(_ index: Int) -> Bool {
        guard index >= 0, index < count, entries[index] == nil else { return false }
        entries[index] = .loading
        return true
    }

    /// A load finished: `poster`, or nil when none could be made.
    mutating func loaded(_ index: Int, _ poster: Poster?) {
        guard index >= 0, index < count else { return }
        entries[index] = poster.map(Entry.ready) ?? .failed
    }

    /// The poster of story `index` if it is ready.
    func poster(for index: Int) -> Poster? {
        guard case .ready(let poster)? = entries[index] else { return nil }
        return poster
    }

    /// Its load is under way.
    func isLoading(_ index: Int) -> Bool { entries[index] == .loading }
}
