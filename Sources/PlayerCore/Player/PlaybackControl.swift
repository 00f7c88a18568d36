import Synchronization
import TandemBase

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
    /// Generations older than this serial are prerolled, superseded or closed: their waiters go on.
    /// Raised by ``PlaybackAction/resumeWaiters(olderThan:)``; apart from `state`, so the pipeline
    /// threads' locking of the state stays as it is.
    private let released = Awaitable(0)

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

    /// Suspends until generation `serial` is prerolled (or superseded, or the player closes), or
    /// until the task is cancelled.
    func waitForPreroll(serial: Int) async {
        if state.withLock({ $0.isPrerollOver(serial: serial) }) { return }
        // Not over: a `resumeWaiters` action releasing this serial is still to come.
        _ = try? await released.wait(until: { $0 > serial })
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
        released.withLock { $0 = max($0, serial) }
    }
}
