import MPVIPC

/// An in-memory player standing in for Tandem: records what clients asked for and reports
/// pause/speed changes like the real application would.
actor FakeTarget: IPCTarget {
    var timePos: Double?
    var paused: Bool
    var speed: Double
    var duration: Double?
    /// When set, seeks (and `time-pos` writes) are refused with this.
    var seekRefusal: IPCRefusal?
    private(set) var seeks: [Double] = []
    private(set) var quitCount = 0
    /// Playlist moves asked for (`playlist-next` 1, `playlist-prev` −1); refused when false.
    var hasPlaylist = false
    private(set) var playlistSteps: [Int] = []

    private let changes: AsyncStream<IPCPropertyChange>
    private let changeSink: AsyncStream<IPCPropertyChange>.Continuation

    init(timePos: Double? = 12.5, paused: Bool = false, speed: Double = 1, duration: Double? = 100) {
        self.timePos = timePos
        self.paused = paused
        self.speed = speed
        self.duration = duration
        (changes, changeSink) = AsyncStream.makeStream(of: IPCPropertyChange.self)
    }

    func property(_ property: IPCProperty) -> IPCValue? {
        switch property {
        case .timePos: timePos.map(IPCValue.double)
        case .pause: .bool(paused)
        case .speed: .double(speed)
        case .duration: duration.map(IPCValue.double)
        case .timeSample: timePos.map { IPCValue.sample(position: $0, paused: paused, at: 42) }
        case .pausedForCache: .bool(false)
        case .streamStart: .double(0)
        }
    }

    func setPause(_ paused: Bool) throws(IPCRefusal) {
        self.paused = paused
        changeSink.yield(IPCPropertyChange(.pause, .bool(paused)))
    }

    func setSpeed(_ speed: Double) throws(IPCRefusal) {
        self.speed = speed
        changeSink.yield(IPCPropertyChange(.speed, .double(speed)))
    }

    func seek(to seconds: Double) throws(IPCRefusal) {
        if let seekRefusal { throw seekRefusal }
        seeks.append(seconds)
        timePos = seconds
    }

    func playlistStep(_ step: Int) throws(IPCRefusal) {
        guard hasPlaylist else { throw .noPlaylistItem }
        playlistSteps.append(step)
    }

    func quit() {
        quitCount += 1
    }

    nonisolated func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        changes
    }

    // MARK: Test controls

    func setHasPlaylist(_ flag: Bool) {
        hasPlaylist = flag
    }

    func refuseSeeks(_ refusal: IPCRefusal?) {
        seekRefusal = refusal
    }

    func setTimePos(_ seconds: Double?) {
        timePos = seconds
    }

    /// Simulates a change made by the application itself (e.g. the party host paused).
    func publish(_ change: IPCPropertyChange) {
        switch (change.property, change.value) {
        case (.pause, .bool(let flag)?): paused = flag
        case (.speed, .double(let value)?): speed = value
        case (.duration, let value): duration = value.flatMap { if case .double(let d) = $0 { d } else { nil } }
        default: break
        }
        changeSink.yield(change)
    }
}
