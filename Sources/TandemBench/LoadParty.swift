import TandemApp
import Synchronization

/// One party of a `tandem bench load` run, as its members see it: the commands its host sent in the
/// window, keyed by the epoch each will cause, with the instant each left the host.
package final class LoadParty: Sendable {
    package let index: Int
    package let id: String
    package let key: String
    private let commands = Mutex<[Int: Double]>([:])

    package init(index: Int, id: String, key: String) {
        self.index = index
        self.id = id
        self.key = key
    }

    /// The host's command that makes epoch `epoch` left at `sentAt` (seconds, monotonic).
    package func commandSent(causing epoch: Int, at sentAt: Double) {
        commands.withLock { $0[epoch] = sentAt }
    }

    /// When the command that made `epoch` left its host; nil for an epoch no window command made.
    package func sentAt(ofEpoch epoch: Int) -> Double? {
        commands.withLock { $0[epoch] }
    }

    package var commandCount: Int { commands.withLock { $0.count } }
}
