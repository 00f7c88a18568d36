import Synchronization

/// Back-pressure for one client: counts request lines queued but not yet handled, so the server
/// stops reading from a client that sends faster than the application answers.
final class IPCReadThrottle: Sendable {
    private struct State {
        var pending = 0
        var paused = false
    }

    /// Stop reading when this many lines are waiting.
    let highWater: Int
    /// Resume reading when the queue has drained to this many.
    let lowWater: Int
    private let state = Mutex(State())

    init(highWater: Int = 64, lowWater: Int = 8) {
        self.highWater = highWater
        self.lowWater = lowWater
    }

    /// A line was queued; returns `true` when reading should now pause.
    func lineQueued() -> Bool {
        state.withLock { state in
            state.pending += 1
            guard !state.paused, state.pending >= highWater else { return false }
            state.paused = true
            return true
        }
    }

    /// A queued line was handled; returns `true` when reading should now resume.
    func lineHandled() -> Bool {
        state.withLock { state in
            state.pending -= 1
            guard state.paused, state.pending <= lowWater else { return false }
            state.paused = false
            return true
        }
    }
}
