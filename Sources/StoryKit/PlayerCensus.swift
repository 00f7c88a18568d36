import PlayerCore

/// The navigator's count of its players: alive from before a player's threads start (it is
/// opening) until its close has returned, the most ever alive at once, and pipeline threads a
/// close left running. The two-player budget is checked against it.
struct PlayerCensus: Sendable, Equatable {
    /// Players alive now: opening, open, or closing.
    private(set) var livePlayers = 0
    /// The most players ever alive at once.
    private(set) var peakLivePlayers = 0
    /// Pipeline threads still running after their player's close returned (should stay 0).
    private(set) var leakedThreads = 0

    init() {}

    /// A player starts opening: it counts from now, before its threads start.
    mutating func opening() {
        livePlayers += 1
        peakLivePlayers = max(peakLivePlayers, livePlayers)
    }

    /// The player that was opening could not be opened: there is nothing to close.
    mutating func failedToOpen() {
        livePlayers -= 1
    }

    /// A player's close returned with `threadsLeft` of its threads still running (0 when clean).
    mutating func closed(threadsLeft: Int) {
        livePlayers -= 1
        leakedThreads += threadsLeft
    }

    /// Pipeline threads alive: those of the open `players`, and any a close left behind.
    func threads(of players: [Player]) -> Int {
        players.map(\.runningThreads).reduce(0, +) + leakedThreads
    }
}
