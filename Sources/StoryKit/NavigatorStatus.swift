import PlayerCore
import Synchronization

/// What the navigator's serial task last published: read at any time without waiting for the
/// operation under way (a UI draws from it, and a `prepared` callback may read it).
struct NavigatorStatus: Sendable {
    var snapshot: StorySnapshot
    /// The current story's index (kept when the navigator stops).
    var index: Int
    var census: PlayerCensus

    /// Pipeline threads alive: the current and neighbour players', and any a close left running.
    var threads: Int {
        census.threads(of: [snapshot.current?.player, snapshot.neighbour?.player].compactMap { $0 })
    }
}

/// Where the serial task publishes the ``NavigatorStatus`` and the navigator reads it.
final class NavigatorBoard: Sendable {
    private let status: Mutex<NavigatorStatus>

    init(count: Int) {
        status = Mutex(NavigatorStatus(snapshot: .empty(count: count), index: 0, census: PlayerCensus()))
    }

    func publish(_ latest: NavigatorStatus) { status.withLock { $0 = latest } }

    var latest: NavigatorStatus { status.withLock { $0 } }
}
