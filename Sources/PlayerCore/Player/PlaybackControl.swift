import Synchronization

/// The ``PlaybackState`` that every pipeline thread reads and the player API drives, behind one
/// lock, and the hands that carry out what its events ask for (telling observers, waking the tasks
/// that wait for a preroll) once the lock is released.
final class PlaybackControl: Sendable {
    let hasVideo: Bool
    let hasAudio: Bool
    let fast: Bool
    let time: any TimeSource
    let events: EventHub
    private let state: Mutex<PlaybackState>
    private let waiters = Mutex<[(serial: Int, resume: @Sendable () -> Void)]>([])

    init(hasVideo: Bool, hasAudio: Bool, fast: Bool, rate: Double, time: any TimeSource, events: EventHub) {
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.fast = fast
        self.time = time
        self.events = events
        state = Mutex(PlaybackState(hasVideo: hasVideo, hasAudio: hasAudio, rate: rate))
    }

    func read<T>(_ body: (borrowing PlaybackState) -> T) -> T { state.withLock { body($0) } }

    /// The state after settling any pending clock switch due by `now`.
    func settled<T>(at now: Double, _ body: (borrowing PlaybackState) -> T) -> T {
        state.withLock { s in
            s.settle(at: now)
            return body(s)
        }
    }

    /// Runs an event that asks for nothing outside the state (it may answer, as ``PlaybackState/stepTaken(serial:position:at:)``).
    @discardableResult
    func send<T>(_ event: (inout PlaybackState) -> T) -> T { state.withLock { event(&$0) } }

    /// Runs an event, then carries out the actions it returns.
    func perform(_ event: (inout PlaybackState) -> [PlaybackAction]) {
        carryOut(state.withLock { event(&$0) })
    }

    /// The master clock's media position now.
    var position: Double {
        let now = time.now()
        return state.withLock { $0.clock.position(at: now) }
    }

    /// Counts a problem played through and tells the observers.
    func warn(_ message: String) { perform { $0.warned(message) } }

    /// Starts a new generation with `event` (a seek or a schedule); returns its serial.
    func beginSeek(_ event: (inout PlaybackState) -> [PlaybackAction]) -> Int {
        let (serial, actions) = state.withLock { s in
            let actions = event(&s)
            return (s.serial, actions)
        }
        carryOut(actions)
        return serial
    }

    /// Suspends until generation `serial` is prerolled (or superseded, or the player closes).
    func waitForPreroll(serial: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if state.withLock({ $0.isPrerollOver(serial: serial) }) { continuation.resume(); return }
            waiters.withLock { $0.append((serial, { continuation.resume() })) }
            // Re-check: preroll may have completed between the two locks.
            if state.withLock({ $0.isPrerollOver(serial: serial) }) { resumeWaiters(olderThan: serial + 1) }
        }
    }

    func close() { perform { $0.closing() } }

    private func carryOut(_ actions: [PlaybackAction]) {
        for action in actions {
            switch action {
            case .emit(let event): events.emit(event)
            case .resumeWaiters(let serial): resumeWaiters(olderThan: serial)
            }
        }
    }

    private func resumeWaiters(olderThan serial: Int) {
        let due = waiters.withLock { list -> [@Sendable () -> Void] in
            let due = list.filter { $0.serial < serial }.map(\.resume)
            list.removeAll { $0.serial < serial }
            return due
        }
        due.forEach { $0() }
    }
}
