import PartyKit

/// The playlist of `tandem play A B C` as a state machine: events from the player and the keys
/// in, the item to open (or the end) out. Pure: no IO, so every order and loop is unit-tested.
///
/// As mpv: `>` at the last item and `<` at the first do nothing (unless the playlist loops); a
/// file that fails to open is skipped in the direction of travel; when every item failed in a
/// row the playlist finishes rather than spinning. A shuffled playlist that loops is shuffled
/// afresh each time it starts again from its first item, as mpv's `--shuffle --loop-playlist`.
package struct Playlist: Sendable {
    /// What happened.
    package enum Event: Sendable, Equatable {
        /// Playback begins.
        case start
        /// The current item opened (resets the run of failures).
        case opened
        /// The current item played to its end.
        case ended
        /// The current item could not be opened.
        case failed
        /// The viewer asked for the next (`>`, `playlist-next`) or previous (`<`, `playlist-prev`) item.
        case next
        case previous
    }

    /// What to do about it.
    package enum Action: Sendable, Equatable {
        /// Open the item at this index of the items given (not of the play order).
        case open(Int)
        /// Go on with the current item.
        case keep
        /// Nothing more to play.
        case finish
    }

    /// Indices of the items in the order they play (shuffled or as given); a new shuffle each loop.
    package private(set) var order: [Int]
    /// Repeat the current item forever (mpv's `--loop-file`).
    package let loopFile: Bool
    /// Start again from the first item after the last (mpv's `--loop-playlist`).
    package let loopPlaylist: Bool
    /// Where in ``order`` playback is; nil before ``Event/start``.
    package private(set) var position: Int?
    private var forward = true
    private var failuresInRow = 0
    /// Draws each loop's new order; nil when the playlist is not shuffled.
    private var shuffler: SplitMix64?

    /// `count` items, in a random order when `shuffle` (mpv's `--shuffle`), else as given. `seed`
    /// fixes the shuffles (tests); without it they are drawn from the system's generator.
    package init(count: Int, loopFile: Bool = false, loopPlaylist: Bool = false, shuffle: Bool = false, seed: UInt64? = nil) {
        guard shuffle else {
            self.init(order: Array(0..<count), loopFile: loopFile, loopPlaylist: loopPlaylist)
            return
        }
        var system = SystemRandomNumberGenerator()
        var shuffler = SplitMix64(seed: seed ?? system.next())
        self.init(order: Self.shuffled(count: count, using: &shuffler), loopFile: loopFile, loopPlaylist: loopPlaylist)
        self.shuffler = shuffler
    }

    /// A playlist playing `order` (indices of the items), the same order every loop.
    package init(order: [Int], loopFile: Bool = false, loopPlaylist: Bool = false) {
        self.order = order
        self.loopFile = loopFile
        self.loopPlaylist = loopPlaylist
    }

    /// `count` items in a random order drawn from `generator`.
    package static func shuffled<G: RandomNumberGenerator>(count: Int, using generator: inout G) -> [Int] {
        Array(0..<count).shuffled(using: &generator)
    }

    /// The item playing now (an index of the items given).
    package var current: Int? { position.map { order[$0] } }

    package mutating func handle(_ event: Event) -> Action {
        switch event {
        case .start:
            forward = true
            failuresInRow = 0
            return move(to: order.isEmpty ? nil : 0)
        case .opened:
            failuresInRow = 0
            return .keep
        case .ended:
            if loopFile, let position { return move(to: position) }
            forward = true
            return move(to: step(by: 1), reshuffling: true)
        case .failed:
            failuresInRow += 1
            guard failuresInRow < order.count else { return finish() }
            if let target = step(by: forward ? 1 : -1) { return move(to: target, reshuffling: forward) }
            // Going back past the first item: go on forwards from it instead.
            forward = true
            return step(by: 1).map { move(to: $0, reshuffling: true) } ?? finish()
        case .next:
            forward = true
            return step(by: 1).map { move(to: $0, reshuffling: true) } ?? .keep
        case .previous:
            forward = false
            return step(by: -1).map { move(to: $0) } ?? .keep
        }
    }

    /// The order position `delta` from the current one, wrapping when the playlist loops.
    private func step(by delta: Int) -> Int? {
        guard let position else { return nil }
        let target = position + delta
        if order.indices.contains(target) { return target }
        return loopPlaylist ? (target + order.count) % order.count : nil
    }

    /// Moves to order position `target`; `reshuffling` a forward move that wraps from the last
    /// position to the first draws a new order first (only a shuffled playlist has a ``shuffler``).
    private mutating func move(to target: Int?, reshuffling: Bool = false) -> Action {
        guard let target else { return finish() }
        if reshuffling, target == 0, position == order.count - 1, order.count > 1, var shuffler {
            order = Self.shuffled(count: order.count, using: &shuffler)
            self.shuffler = shuffler
        }
        position = target
        return .open(order[target])
    }

    private mutating func finish() -> Action {
        position = nil
        return .finish
    }
}
