import Synchronization

/// One party of a `tandem bench load` run, as its members see it: the commands its host sent in the
/// window, keyed by the epoch each will cause, with the instant each left the host.
final class LoadParty: Sendable {
    let index: Int
    let id: String
    let key: String
    private let commands = Mutex<[Int: Double]>([:])

    init(index: Int, id: String, key: String) {
        self.index = index
        self.id = id
        self.key = key
    }

    /// The host's command that makes epoch `epoch` left at `sentAt` (seconds, monotonic).
    func commandSent(causing epoch: Int, at sentAt: Double) {
        commands.withLock { $0[epoch] = sentAt }
    }

    /// When the command that made `epoch` left its host; nil for an epoch no window command made.
    func sentAt(ofEpoch epoch: Int) -> Double? {
        commands.withLock { $0[epoch] }
    }

    var commandCount: Int { commands.withLock { $0.count } }
}
