import Synchronization

/// The state every pipeline thread reads and the player API writes, behind one lock.
///
/// The player bumps `serial` on every seek: from that instant the presenter and the audio
/// renderer discard anything stamped with an older serial, so no stale frame or sample is
/// ever presented, even before the demuxer has flushed its queues.
final class PlaybackControl: Sendable {
    struct SeekRequest: Sendable {
        var serial: Int
        var position: Double
        /// Frames before this position are decoded but not presented (nil: keyframe seek).
        var accurateTarget: Double?
    }

    struct State: Sendable {
        var serial = 0
        var pendingSeek: SeekRequest?
        var accurateTarget: Double?
        /// The master clock. The audio renderer re-anchors it from what is heard when there is audio.
        var clock = MediaClock()
        /// What the user asked for (the clock may be paused for a preroll while this is false).
        var wantsPlaying = false
        var rate = 1.0
        /// Inaudible speed correction on top of `rate` (±0.5 % at most).
        var correction = 0.0
        /// True from a seek until its first frame is ready: the clock is held.
        var prerolling = true
        var prerollPosition = 0.0
        var videoPrerolled = false
        var audioPrerolled = false
        /// Host time at which playback of the preroll must start (nil: as soon as it is ready).
        var scheduledStart: Double?
        var pendingSteps = 0
        var videoEnded = false
        var audioEnded = false
        var ended = false
        var stopPosition: Double?
        var stats = PlaybackStats()
        var closed = false
        /// A picture has been shown since opening (the first one is announced).
        var presentedAny = false

        /// Lets a pending clock segment take over once its instant has come.
        mutating func settle(at now: Double) {
            let before = clock
            clock.settle(at: now)
            if clock != before { rate = clock.rate / (1 + correction) }
        }

        /// Media position where a pending rate change takes effect, if one is pending while playing.
        var rateSwitchPosition: Double? {
            guard let next = clock.next, !next.isPaused, !clock.isPaused else { return nil }
            return next.anchorPosition
        }

        /// The tempo for audio at media position `media`: a pending rate change applies to the
        /// sound from the position where it takes effect, so what is heard switches on the instant.
        func tempo(forMedia media: Double) -> Double {
            if let next = clock.next, !next.isPaused, !clock.isPaused, media >= next.anchorPosition - 1e-9 {
                return next.rate / (1 + correction)
            }
            return rate
        }
    }

    let hasVideo: Bool
    let hasAudio: Bool
    let fast: Bool
    let time: any TimeSource
    private let state: Mutex<State>
    private let waiters = Mutex<[(serial: Int, resume: @Sendable () -> Void)]>([])
    let events: EventHub

    init(hasVideo: Bool, hasAudio: Bool, fast: Bool, rate: Double, time: any TimeSource, events: EventHub) {
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        self.fast = fast
        self.time = time
        self.events = events
        var initial = State()
        initial.videoPrerolled = !hasVideo
        initial.audioPrerolled = !hasAudio
        initial.rate = rate
        initial.clock.rate = rate
        state = Mutex(initial)
    }

    func read<T>(_ body: (borrowing State) -> T) -> T { state.withLock { body($0) } }

    /// The state after settling any pending clock segment due by `now`.
    func settled<T>(at now: Double, _ body: (borrowing State) -> T) -> T {
        state.withLock { s in
            s.settle(at: now)
            return body(s)
        }
    }

    @discardableResult
    func update<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }

    /// The master clock's media position now.
    var position: Double {
        let now = time.now()
        return state.withLock { $0.clock.position(at: now) }
    }

    /// Counts a problem played through and tells the observers.
    func warn(_ message: String) {
        state.withLock { $0.stats.warnings += 1 }
        events.emit(.warning(message))
    }

    // MARK: Seeking and preroll

    /// Starts a new generation at `position`; returns its serial.
    func beginSeek(to position: Double, accurate: Bool, startAt hostTime: Double?) -> Int {
        let now = time.now()
        let serial = state.withLock { s -> Int in
            s.serial += 1
            s.pendingSeek = SeekRequest(serial: s.serial, position: position, accurateTarget: accurate ? position : nil)
            s.accurateTarget = accurate ? position : nil
            s.prerolling = true
            s.prerollPosition = position
            s.videoPrerolled = !hasVideo
            s.audioPrerolled = !hasAudio
            s.videoEnded = false
            s.audioEnded = false
            s.ended = false
            s.pendingSteps = 0
            s.scheduledStart = hostTime
            s.stats.endPosition = position
            s.clock.pause(at: now)
            s.clock.set(position: position, at: now)
            return s.serial
        }
        resumeWaiters(olderThan: serial)
        return serial
    }

    /// The demuxer takes the request it must carry out.
    func takeSeek() -> SeekRequest? { state.withLock { s in defer { s.pendingSeek = nil }; return s.pendingSeek } }

    /// The first frame of `serial` has been presented (video) or buffered (audio).
    func markPrerolled(serial: Int, video: Bool, position: Double? = nil) {
        let now = time.now()
        let done = state.withLock { s -> Bool in
            guard s.serial == serial, s.prerolling else { return false }
            if video {
                s.videoPrerolled = true
                // Keyframe seeks land where the keyframe is: the clock starts from the picture.
                if s.accurateTarget == nil, let position { s.prerollPosition = position; s.clock.set(position: position, at: now) }
            } else {
                s.audioPrerolled = true
            }
            guard s.videoPrerolled && s.audioPrerolled else { return false }
            s.prerolling = false
            let start = s.scheduledStart ?? now
            s.clock = MediaClock(position: s.prerollPosition, host: s.wantsPlaying ? start : now,
                                 rate: s.rate * (1 + s.correction), paused: !s.wantsPlaying)
            return true
        }
        if done {
            resumeWaiters(olderThan: serial + 1)
            events.emit(.seekCompleted(position: state.withLock { $0.prerollPosition }))
        }
    }

    /// Suspends until generation `serial` is prerolled (or superseded, or the player closes).
    func waitForPreroll(serial: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s in s.serial != serial || !s.prerolling || s.closed }
            if ready { continuation.resume(); return }
            waiters.withLock { $0.append((serial, { continuation.resume() })) }
            // Re-check: preroll may have completed between the two locks.
            let readyNow = state.withLock { s in s.serial != serial || !s.prerolling || s.closed }
            if readyNow { resumeWaiters(olderThan: serial + 1) }
        }
    }

    func resumeWaiters(olderThan serial: Int) {
        let due = waiters.withLock { list -> [@Sendable () -> Void] in
            let due = list.filter { $0.serial < serial }.map(\.resume)
            list.removeAll { $0.serial < serial }
            return due
        }
        due.forEach { $0() }
    }

    func close() {
        state.withLock { $0.closed = true }
        resumeWaiters(olderThan: .max)
    }

    // MARK: Ends

    /// A stream has reached its end for `serial`; emits `.ended` when every stream has.
    func markEnded(serial: Int, video: Bool) {
        let stats = state.withLock { s -> PlaybackStats? in
            guard s.serial == serial else { return nil }
            if video { s.videoEnded = true; s.videoPrerolled = true } else { s.audioEnded = true; s.audioPrerolled = true }
            let videoDone = !hasVideo || s.videoEnded
            let audioDone = !hasAudio || s.audioEnded
            guard videoDone, audioDone, !s.ended else { return nil }
            s.ended = true
            return s.stats
        }
        // A stream that ends before any frame (seek past the end) still completes the preroll.
        markPrerolled(serial: serial, video: video)
        if let stats { events.emit(.ended(stats)) }
    }
}

/// Counters reported at the end of playback.
public struct PlaybackStats: Sendable, Equatable, Codable {
    public var videoFrames = 0
    /// Audio samples per channel, at the source rate.
    public var audioSamples = 0
    public var droppedFrames = 0
    /// Problems met and played through (each also a `.warning` event).
    public var warnings = 0
    /// Media position where the last presented picture or sample ends.
    public var endPosition = 0.0
    public init() {}
}
