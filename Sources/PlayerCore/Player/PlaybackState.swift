/// Where playback stands, as a state machine: the player API and the pipeline threads drive it
/// through named events, and the events that must be heard outside return ``PlaybackAction``s for
/// the owner (``PlaybackControl``) to carry out once its lock is released. A pure value: host time
/// comes in with each event, so it runs as is on a manual clock in tests.
///
/// Every seek bumps `serial`: from that instant the presenter and the audio renderer discard
/// anything stamped with an older serial, so no stale frame or sample is presented, even before
/// the demuxer has flushed its queues.
///
/// The master clock and its speed (rate and correction apart) are a ``PlaybackClock``.
struct PlaybackState: Sendable {
    /// A played stream, for the events that come per stream.
    enum Stream: Sendable { case video, audio }

    /// A seek for the demuxer to carry out.
    struct SeekRequest: Sendable, Equatable {
        var serial: Int
        var position: Double
        /// Frames before this position are decoded but not presented (nil: keyframe seek).
        var accurateTarget: Double?
    }

    let hasVideo: Bool
    let hasAudio: Bool
    /// The generation: bumped by every seek.
    private(set) var serial = 0
    private var pendingSeek: SeekRequest?
    /// The current generation's accurate-seek target (nil: keyframe seek).
    private(set) var accurateTarget: Double?
    /// What the user asked for (the clock may be paused for a preroll while this is true).
    private(set) var wantsPlaying = false
    private var master: PlaybackClock
    /// True from a seek until its first frame is ready: the clock is held.
    private(set) var prerolling = true
    private(set) var prerollPosition = 0.0
    private var videoPrerolled: Bool
    private var audioPrerolled: Bool
    /// When playback of the preroll starts once it is ready.
    enum PrerollStart: Sendable, Equatable {
        /// As soon as it is ready.
        case atOnce
        /// At this host time.
        case at(Double)
        /// When this running clock reaches the preroll's position (a clock switch during the
        /// preroll): the picture lands where the switch's clock is, not where the seek's was.
        case following(MediaClock)
    }
    private var scheduledStart = PrerollStart.atOnce
    /// The clock was started on an instant (a scheduled start or resume, as a party's commands are),
    /// so the first sound heard must meet it: silence until its sample is due, or the sound skipped
    /// ahead to where the clock is by then. The sound cannot always make the instant: one that is
    /// closer than the device's queue (a slow stream's preroll, a command that arrived late) finds
    /// the queue already filled with silence past it. Anchoring the clock on that sound, as a plain
    /// start does, would drag the clock back by the difference and put the member behind the party.
    /// False after a plain start or play: there the first sound heard is the clock. Cleared by the
    /// first sound heard.
    private(set) var soundMeetsClock = false
    private var pendingSteps = 0
    private var videoEnded = false
    private var audioEnded = false
    /// Every played stream has reached its end.
    private(set) var ended = false
    /// Playback ends at this media position instead of the end of the file.
    private(set) var stopPosition: Double?
    private(set) var stats = PlaybackStats()
    private(set) var closed = false
    /// A picture has been shown since opening (the first one is announced).
    private var presentedAny = false

    init(hasVideo: Bool, hasAudio: Bool, rate: Double) {
        self.hasVideo = hasVideo
        self.hasAudio = hasAudio
        master = PlaybackClock(rate: rate)
        videoPrerolled = !hasVideo
        audioPrerolled = !hasAudio
    }

    // MARK: Views

    /// The master clock: the segment in force and the pending switches, at their effective speeds.
    var clock: MediaClock { master.clock }
    var speed: PlaybackSpeed { master.speed }
    /// Media position where a pending rate change takes effect, if one is pending while playing.
    var rateSwitchPosition: Double? { master.rateSwitchPosition }
    /// The speed for audio at media position `media` (a pending rate change applies from its position).
    func speed(forMedia media: Double) -> PlaybackSpeed { master.speed(forMedia: media) }

    /// The first picture of this generation is still to be shown (it covers the preroll).
    var awaitsFirstPicture: Bool { prerolling && !videoPrerolled }

    /// Whether a task waiting for the preroll of generation `serial` may go on.
    func isPrerollOver(serial: Int) -> Bool { self.serial != serial || !prerolling || closed }

    // MARK: Time passing

    /// Lets the last clock switch whose instant has come take over.
    mutating func settle(at now: Double) { master.settle(at: now) }

    // MARK: Seeking and preroll

    /// A seek to `position` (accurate: the first frame shown is the first at or after it), held
    /// until prerolled, then started at `hostTime` (nil: at once) if playing. Starts a generation.
    mutating func seekRequested(to position: Double, accurate: Bool, startAt hostTime: Double? = nil,
                                at now: Double) -> [PlaybackAction] {
        settle(at: now)
        serial += 1
        accurateTarget = accurate ? position : nil
        pendingSeek = SeekRequest(serial: serial, position: position, accurateTarget: accurateTarget)
        prerolling = true
        soundMeetsClock = false
        prerollPosition = position
        videoPrerolled = !hasVideo
        audioPrerolled = !hasAudio
        (videoEnded, audioEnded, ended) = (false, false, false)
        pendingSteps = 0
        scheduledStart = hostTime.map(PrerollStart.at) ?? .atOnce
        stats.endPosition = position
        master.pause(at: now)
        master.set(position: position, at: now)
        return [.resumeWaiters(olderThan: serial)]
    }

    /// "Be at `position` at host time `hostTime`, playing": an accurate seek that starts on the instant.
    mutating func scheduled(position: Double, at hostTime: Double, now: Double) -> [PlaybackAction] {
        wantsPlaying = true
        return seekRequested(to: position, accurate: true, startAt: hostTime, at: now) + [.emit(.stateChanged(.playing))]
    }

    /// The demuxer takes the seek it must carry out.
    mutating func seekTaken() -> SeekRequest? {
        defer { pendingSeek = nil }
        return pendingSeek
    }

    /// The first frame of `serial` has been presented (video, at media `position`) or enough
    /// sound buffered (audio). When every stream is, the clock starts: the preroll is done.
    mutating func streamPrerolled(_ stream: Stream, serial: Int, position: Double? = nil, at now: Double) -> [PlaybackAction] {
        guard serial == self.serial, prerolling else { return [] }
        switch stream {
        case .video:
            videoPrerolled = true
            // Keyframe seeks land where the keyframe is: the clock starts from the picture.
            if accurateTarget == nil, let position {
                prerollPosition = position
                master.set(position: position, at: now)
            }
        case .audio:
            audioPrerolled = true
        }
        return prerollDone(at: now)
    }

    private mutating func prerollDone(at now: Double) -> [PlaybackAction] {
        guard prerolling, videoPrerolled, audioPrerolled else { return [] }
        prerolling = false
        let start: Double = switch scheduledStart {
        case .atOnce: now
        case .at(let host): host
        case .following(let clock): clock.hostTime(of: prerollPosition) ?? now
        }
        master.restart(position: prerollPosition, host: wantsPlaying ? start : now, paused: !wantsPlaying)
        soundMeetsClock = wantsPlaying && (scheduledStart != .atOnce || start < now)
        return [.resumeWaiters(olderThan: serial + 1), .emit(.seekCompleted(position: prerollPosition))]
    }

    /// A stream has reached its end for `serial` (or its stop position). Playback ends when every
    /// stream has; a stream that ends before any frame (a seek past the end) still completes the preroll.
    mutating func streamEnded(_ stream: Stream, serial: Int, at now: Double) -> [PlaybackAction] {
        guard serial == self.serial else { return [] }
        switch stream {
        case .video: (videoEnded, videoPrerolled) = (true, true)
        case .audio: (audioEnded, audioPrerolled) = (true, true)
        }
        var actions = prerollDone(at: now)
        if (!hasVideo || videoEnded), (!hasAudio || audioEnded), !ended {
            ended = true
            actions.append(.emit(.ended(stats)))
        }
        return actions
    }

    // MARK: Transport

    mutating func play(at now: Double) -> [PlaybackAction] {
        settle(at: now)
        wantsPlaying = true
        soundMeetsClock = false
        if !prerolling, master.isPaused { master.resume(at: now) }
        return [.emit(.stateChanged(.playing))]
    }

    /// Plays from the current position so that playback resumes exactly at host time `hostTime`.
    mutating func playScheduled(at hostTime: Double, now: Double) -> [PlaybackAction] {
        settle(at: now)
        wantsPlaying = true
        if prerolling {
            scheduledStart = .at(hostTime)
        } else {
            // A resume: the sound that follows the pause meets the instant. (Already playing, the
            // clock goes on unbroken and the sound with it.)
            soundMeetsClock = master.isPaused
            let position = master.isPaused ? clock.anchorPosition : clock.position(at: hostTime)
            master.restart(position: position, host: hostTime, paused: false)
        }
        return [.emit(.stateChanged(.playing))]
    }

    mutating func pause(at now: Double) -> [PlaybackAction] {
        wantsPlaying = false
        scheduledStart = .atOnce
        soundMeetsClock = false
        master.pause(at: now)
        return [.emit(.stateChanged(.paused))]
    }

    /// Pause, and show the next picture.
    mutating func stepRequested(at now: Double) {
        wantsPlaying = false
        master.pause(at: now)
        pendingSteps += 1
    }

    /// The presenter is about to show the picture at `position` for a pending step: true (and the
    /// clock moved to it first, so whoever sees the picture sees the position with it) if one is pending.
    mutating func stepTaken(serial: Int, position: Double, at now: Double) -> Bool {
        guard serial == self.serial, pendingSteps > 0 else { return false }
        pendingSteps -= 1
        master.set(position: position, at: now)
        return true
    }

    /// Switches to `target` at its anchor instant without seeking (an instant already past applies
    /// at once, where it would be by now). During a preroll it sets how the preroll starts.
    mutating func switchClock(to target: MediaClock, at now: Double) -> [PlaybackAction] {
        wantsPlaying = !target.isPaused
        scheduledStart = .atOnce
        let announce = PlaybackAction.emit(.stateChanged(target.isPaused ? .paused : .playing))
        if prerolling {
            // The clock is held: the preroll starts it at this rate, paused here, or playing when
            // the target's clock reaches the preroll's position.
            master.setRate(target.rate, at: now)
            if target.isPaused { prerollPosition = target.anchorPosition } else { scheduledStart = .following(target) }
        } else {
            // A resume on the target's instant: its first sound meets it (see `playScheduled`).
            if master.isPaused, !target.isPaused { soundMeetsClock = true }
            master.switchTo(target, at: now)
        }
        return [announce]
    }

    mutating func setRate(_ rate: Double, at now: Double) { master.setRate(rate, at: now) }

    /// The sync correction on top of the rate; pending switches take it too.
    mutating func setCorrection(_ correction: Double, at now: Double) { master.setCorrection(correction, at: now) }

    mutating func setStopPosition(_ position: Double?) { stopPosition = position }

    // MARK: What the pipeline reports

    /// A picture of `serial` reached the video sink at `hostTime`.
    mutating func picturePresented(serial: Int, position: Double, duration: Double, at hostTime: Double) -> [PlaybackAction] {
        var actions: [PlaybackAction] = []
        if serial == self.serial {
            stats.videoFrames += 1
            stats.endPosition = max(stats.endPosition, position + duration)
            if !presentedAny { actions.append(.emit(.firstFrame(position: position, hostTime: hostTime))) }
            presentedAny = true
        }
        actions.append(.emit(.framePresented(position: position, hostTime: hostTime)))
        return actions
    }

    /// A late picture was dropped for the next one, already due.
    mutating func pictureDropped(serial: Int) {
        if serial == self.serial { stats.droppedFrames += 1 }
    }

    /// `samples` source samples of `serial`, ending at media `end`, are rendered for the sink.
    mutating func audioProduced(serial: Int, samples: Int, end: Double) {
        guard serial == self.serial else { return }
        stats.audioSamples += samples
        stats.endPosition = max(stats.endPosition, end)
    }

    /// The sample at media `position` of `serial` will be heard at `hostTime` (a device's latency
    /// after `now`, the pull): that is the clock, at that instant and before it. The clock is
    /// anchored at `now`, where that sample's position is reached running backwards: anchored at
    /// `hostTime` itself, the clock would hold still until then (a clock anchored ahead holds, as a
    /// scheduled start must), so it moved in steps of a device buffer and read up to one ahead.
    mutating func audioHeard(serial: Int, position: Double, at hostTime: Double, now: Double) {
        guard serial == self.serial, !prerolling, !clock.isPaused(at: hostTime) else { return }
        soundMeetsClock = false
        master.set(position: position, heardAt: hostTime, now: now)
    }

    /// A problem was played through.
    mutating func warned(_ message: String) -> [PlaybackAction] {
        stats.warnings += 1
        return [.emit(.warning(message))]
    }

    /// The player is closing: nobody waits for a preroll any more.
    mutating func closing() -> [PlaybackAction] {
        closed = true
        return [.resumeWaiters(olderThan: .max)]
    }
}
