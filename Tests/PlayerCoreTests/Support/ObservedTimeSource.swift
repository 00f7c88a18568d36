import Foundation
import PlayerCore
import Synchronization
import TestSupport

/// A host clock that moves only when told (as ``ManualTimeSource``) and counts how often the
/// presentation thread has read it since it last moved: a test waits for the presenter to have
/// seen a time, instead of sleeping and hoping it has.
final class ObservedTimeSource: TimeSource {
    /// Reads by the presenter since the time last moved. After two, the turn of its loop that read
    /// the new time has finished: a picture it chose to show then is shown.
    static let readsForAFullTurn = 2
    /// Thread name prefix of the player's presentation thread.
    static let presenterThread = "tandem.present"

    private let state: Mutex<(time: Double, presenterReads: Int)>

    init(_ start: Double = 0) { state = Mutex((start, 0)) }

    func now() -> Double {
        let presenter = Thread.current.name?.hasPrefix(Self.presenterThread) ?? false
        return state.withLock { s in
            if presenter { s.presenterReads += 1 }
            return s.time
        }
    }

    func set(_ seconds: Double) { state.withLock { $0 = (seconds, 0) } }
    func advance(by seconds: Double) { state.withLock { $0 = ($0.time + seconds, 0) } }

    /// Waits (polling, bounded) until the presenter has made a full turn at the current time.
    func presenterHasLooked(seconds: Double = defaultBound) async -> Bool {
        await eventually(within: seconds) { state.withLock { $0.presenterReads >= Self.readsForAFullTurn } }
    }
}
