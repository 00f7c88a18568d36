/// When the navigator moves on by itself: when the current story ends, or when a story that failed
/// to open has shown its poster and error for a while. A state machine: the navigator reports what
/// happens (named events) and does what the returned ``Action`` says; timers are the navigator's,
/// identified by the slot they were started for, so a stale one is recognised and ignored.
struct AutoAdvance: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Nothing current, or auto-advance is off, or it already moved on.
        case idle
        /// Slot `slot` (story `index`) plays: its end moves on.
        case playing(slot: Int, index: Int)
        /// Slot `slot` (story `index`) failed to open: the dwell timer moves on.
        case dwelling(slot: Int, index: Int)
    }

    enum Action: Sendable, Equatable {
        case none
        /// Start a timer of `seconds`, then report ``timerFired(slot:)`` with `slot`.
        case startTimer(seconds: Double, slot: Int)
        /// Go to story `index`.
        case advance(to: Int)
        /// The last story is over: announce the end of the list.
        case finish
    }

    let isEnabled: Bool
    /// Seconds a failed story stays on screen before moving on.
    let failedStoryDwell: Double
    /// Stories in the list.
    let count: Int
    private(set) var state = State.idle

    init(isEnabled: Bool, failedStoryDwell: Double, count: Int) {
        self.isEnabled = isEnabled
        self.failedStoryDwell = failedStoryDwell
        self.count = count
    }

    /// Slot `slot` (story `index`) became the current story; `failed`: it could not be opened.
    mutating func becameCurrent(slot: Int, index: Int, failed: Bool) -> Action {
        guard isEnabled else { return .none }
        if failed {
            state = .dwelling(slot: slot, index: index)
            return .startTimer(seconds: failedStoryDwell, slot: slot)
        }
        state = .playing(slot: slot, index: index)
        return .none
    }

    /// The player of slot `slot` reached its end.
    mutating func ended(slot: Int) -> Action {
        guard case .playing(slot, let index) = state else { return .none }
        return moveOn(from: index)
    }

    /// The timer started for slot `slot` went off.
    mutating func timerFired(slot: Int) -> Action {
        guard case .dwelling(slot, let index) = state else { return .none }
        return moveOn(from: index)
    }

    /// Nothing is current any more (the navigator stopped).
    mutating func stopped() {
        state = .idle
    }

    private mutating func moveOn(from index: Int) -> Action {
        state = .idle
        return index + 1 < count ? .advance(to: index + 1) : .finish
    }
}
