/// The master clock of a player with its speed: the segment in force, which always runs at
/// `speed.effective`, and the switches (a pause, a play, a rate change at an instant) still
/// waiting for their instants, kept at the rates asked. The rate and the correction are stored
/// apart; only ``PlaybackSpeed`` combines them, so a change of either never divides the other out.
struct PlaybackClock: Sendable {
    /// Media positions of one instant computed two ways (from sample counts, from clock anchors)
    /// agree to float rounding; this much apart they are the same.
    static let positionTolerance = 1e-9

    private(set) var speed: PlaybackSpeed
    private var current: MediaClock
    /// In order of their instants, each without pending segments of its own.
    private var switches: [MediaClock] = []

    /// Paused at the start.
    init(rate: Double) {
        speed = PlaybackSpeed(rate: rate)
        current = MediaClock(rate: speed.effective)
    }

    /// The clock as a value: the segment in force and the pending switches at their effective speeds.
    var clock: MediaClock {
        var clock = current
        for segment in switches { clock.next = effective(segment) }
        return clock
    }

    /// Whether the segment in force is paused (a pending switch may change that later).
    var isPaused: Bool { current.isPaused }

    /// Media position where a pending rate change takes effect, if one is pending while playing.
    var rateSwitchPosition: Double? {
        guard let next = switches.last, !next.isPaused, !current.isPaused else { return nil }
        return next.anchorPosition
    }

    /// The speed for audio at media position `media`: a pending rate change applies to the sound
    /// from the position where it takes effect, so what is heard switches on the instant.
    func speed(forMedia media: Double) -> PlaybackSpeed {
        if let at = rateSwitchPosition, let next = switches.last, media >= at - Self.positionTolerance {
            return PlaybackSpeed(rate: next.rate, correction: speed.correction)
        }
        return speed
    }

    private func effective(_ segment: MediaClock) -> MediaClock {
        MediaClock(position: segment.anchorPosition, host: segment.anchorHost,
                   rate: PlaybackSpeed(rate: segment.rate, correction: speed.correction).effective, paused: segment.isPaused)
    }

    /// Lets the last switch whose instant has come take over.
    mutating func settle(at now: Double) {
        guard let due = switches.lastIndex(where: { now >= $0.anchorHost }) else { return }
        let segment = switches[due]
        switches.removeFirst(due + 1)
        speed.rate = segment.rate
        current = effective(segment)
    }

    /// Adds a switch to `target` at its instant, replacing those at or after it; one whose instant
    /// has passed applies at once, where it would be by now.
    mutating func switchTo(_ target: MediaClock, at now: Double) {
        settle(at: now)
        switches.removeAll { $0.anchorHost >= target.anchorHost }
        switches.append(MediaClock(position: target.anchorPosition, host: target.anchorHost, rate: target.rate,
                                   paused: target.isPaused))
        settle(at: now)
    }

    /// Restarts at `position` at host time `host` (ahead: held until then), dropping pending switches.
    mutating func restart(position: Double, host: Double, paused: Bool) {
        switches = []
        current = MediaClock(position: position, host: host, rate: speed.effective, paused: paused)
    }

    /// Stops where it is now, dropping pending switches.
    mutating func pause(at now: Double) {
        settle(at: now)
        switches = []
        current.pause(at: now)
    }

    mutating func resume(at now: Double) {
        settle(at: now)
        current.resume(at: now)
    }

    /// Jumps to `position` at `host`, keeping speed, paused state and pending switches.
    mutating func set(position: Double, at host: Double) { current.set(position: position, at: host) }

    /// Jumps so that the clock reaches `position` at `host` while running at its speed from `now`
    /// on, keeping pending switches: a `host` ahead is not held for. Only a running segment that is
    /// still in force at `host` is moved: a switch due by then (a scheduled resume, pause or rate
    /// change) has its own anchor, which what is heard after it describes; and a paused segment
    /// stays where it was paused (re-anchored from sound due after a scheduled resume, it read up to
    /// a device buffer early until the resume).
    mutating func set(position: Double, heardAt host: Double, now: Double) {
        settle(at: now)
        guard !current.isPaused, !switches.contains(where: { $0.anchorHost <= host }) else { return }
        let back = max(0, host - now)
        current.set(position: position - back * current.rate, at: host - back)
    }

    mutating func setRate(_ rate: Double, at now: Double) {
        settle(at: now)
        speed.rate = rate
        current.setRate(speed.effective, at: now)
    }

    /// The correction applies to the segment in force from `now` and to every pending switch.
    mutating func setCorrection(_ correction: Double, at now: Double) {
        settle(at: now)
        speed.correction = correction
        current.setRate(speed.effective, at: now)
    }
}
