import FFmpegKit
import Foundation
import Synchronization
import TandemBase

/// A media player: a demux thread, a decoder thread per played stream, an audio stage pulled by
/// the audio sink, and a presentation thread that shows pictures when the master clock reaches them.
///
/// Every control is safe from any thread or task and returns at once, except those that wait
/// for a preroll (``seek(to:accurate:)``, ``schedule(position:at:)``). Players share no global
/// state: several run side by side in one process.
public final class Player: Sendable {
    /// Rates outside this range are clamped (atempo quality and decode speed limit them).
    public static let rateRange = 0.25...4.0
    /// Inaudible speed corrections stay within ±0.5 %.
    public static let maxCorrection = 0.005
    /// Video pictures buffered after the decoder (ffplay's VIDEO_PICTURE_QUEUE_SIZE).
    static let videoFrameCapacity = 3
    /// Audio frames buffered after the decoder (ffplay's SAMPLE_QUEUE_SIZE).
    static let audioFrameCapacity = 9
    /// How long close waits for the demuxer to notice before interrupting its read.
    static let demuxStopGrace = 0.2

    public let url: String
    public let info: MediaInfo
    let input: MediaInput
    let control: PlaybackControl
    private let hub = EventHub()
    let queues: [any Abortable]
    private let renderer: AudioRenderer?
    private let audioSink: (any AudioSink)?
    private let threads: [WorkerThread]
    private let demuxThread: WorkerThread
    private let readAhead: ReadAhead
    let subtitles: SubtitleStage?
    private let closed = Atomic<Bool>(false)
    /// Audio track changes while playing (nil: the player plays no audio).
    let audioTrackSwitch: AudioTrackSwitch?
    let playedAudioTrack: Mutex<Int?>
    let decoderThreads: Int
    /// The stream time (seconds, on the input's own timestamps) of position 0: the input's start,
    /// or the ``PlayerOptions/timeOrigin`` it was given. Position + this is the stream's own time.
    public let streamStart: Double

    /// Opens `url` off the cooperative pool (opening blocks on I/O) and starts prerolling its start.
    public static func open(_ url: String, options: PlayerOptions = PlayerOptions()) async throws(OpenError) -> Player {
        try await OwnThread.run { () throws(OpenError) -> Player in try Player(url: url, options: options) }
    }

    /// Opens synchronously (blocks on I/O); ``open(_:options:)`` is the async form.
    public init(url: String, options: PlayerOptions = PlayerOptions()) throws(OpenError) {
        let input = try MediaInput(url: url, externalURLs: options.audioFiles, options: options.inputOptions)
        self.url = url
        self.input = input
        info = input.info()

        let videoIndex = options.videoSink == nil ? nil : (options.videoStreamIndex ?? input.bestStream(.video))
        let audioIndex = options.audioSink == nil ? nil : Self.audioStream(options, info: info, input: input)
        let audioTracks = MediaTrack.tracks(of: .audio, in: info)
        playedAudioTrack = Mutex(audioIndex.flatMap { index in audioTracks.first { $0.source == .stream(index) }?.id })
        decoderThreads = options.decoderThreads
        guard videoIndex != nil || audioIndex != nil else {
            let kinds = info.streams.map(\.type.rawValue).joined(separator: ", ")
            throw OpenError(url: url, reason: "no playable audio or video stream (streams: \(kinds.isEmpty ? "none" : kinds))")
        }
        let videoDecoder = try videoIndex.map { i throws(OpenError) in
            try Decoder(input: input, streamIndex: i, threads: options.decoderThreads)
        }
        let audioDecoder = try audioIndex.map { i throws(OpenError) in
            try Decoder(input: input, streamIndex: i, threads: options.decoderThreads)
        }

        let control = PlaybackControl(hasVideo: videoDecoder != nil, hasAudio: audioDecoder != nil, fast: options.fast,
                                      rate: min(max(options.rate, Self.rateRange.lowerBound), Self.rateRange.upperBound),
                                      time: options.timeSource, events: hub)
        self.control = control
        if let position = options.startPosition {
            // Before the threads start: the first preroll is already this seek's.
            let now = options.timeSource.now()
            _ = control.beginSeek { $0.seekRequested(to: max(0, position), accurate: true, at: now) }
        }
        var routes: [Demuxer.Route] = []
        var workers: [WorkerThread] = []
        var queues: [any Abortable] = []
        let start = options.timeOrigin ?? input.startSeconds
        streamStart = start
        let name = URL(fileURLWithPath: url).lastPathComponent

        var subtitleStage: SubtitleStage?
        var subtitleRoutes: [Demuxer.Route] = []
        if videoDecoder != nil, let subtitleOptions = options.subtitles {
            let found = try Self.subtitleSources(input: input, info: info, options: subtitleOptions,
                                                 start: start, warn: { control.warn($0) })
            let sources = found.sources
            subtitleRoutes = found.routes
            queues += subtitleRoutes.map(\.packets)
            let chosen = TrackSelection.choose(subtitleOptions.choice, among: sources.map(\.track),
                                               languages: subtitleOptions.languages, subtitles: true)
            subtitleStage = SubtitleStage(sources: sources, selected: chosen?.id, options: subtitleOptions,
                                          startSeconds: start, warn: { control.warn($0) })
        }
        subtitles = subtitleStage
        if let videoDecoder, let sink = options.videoSink {
            let packets = PacketQueue()
            let frames = VideoFrameQueue(capacity: Self.videoFrameCapacity)
            queues += [packets, frames]
            let stream = info.streams[videoDecoder.streamIndex]
            let fallback = 1 / (stream.frameRate ?? 25)
            routes.append(.init(streamIndex: videoDecoder.streamIndex, packets: packets,
                                frames: { frames.flush(serial: $0) }, timeBase: videoDecoder.timeBase.value, startSeconds: start))
            let worker = DecoderWorker(decoder: videoDecoder, packets: packets,
                                       output: .video(frames, fallbackDuration: fallback), control: control, startSeconds: start)
            let presenter = VideoPresenter(frames: frames, control: control, sink: sink, subtitles: subtitleStage)
            workers.append(WorkerThread(name: "tandem.vdec \(name)") { worker.run() })
            workers.append(WorkerThread(name: "tandem.present \(name)") { presenter.run() })
        }
        var audioSwitch: (route: Int, changes: AudioTrackSwitch)?
        if let audioDecoder, let sink = options.audioSink {
            let changes = AudioTrackSwitch()
            audioSwitch = (routes.count, changes)
            let packets = PacketQueue()
            let frames = AudioFrameQueue(capacity: Self.audioFrameCapacity)
            queues += [packets, frames]
            routes.append(.init(streamIndex: audioDecoder.streamIndex, packets: packets,
                                frames: { frames.flush(serial: $0) }, timeBase: audioDecoder.timeBase.value, startSeconds: start))
            let worker = DecoderWorker(decoder: audioDecoder, packets: packets, output: .audio(frames),
                                       control: control, startSeconds: start, trackSwitch: changes)
            let stream = info.streams[audioDecoder.streamIndex]
            let format = sink.format(sourceRate: stream.sampleRate ?? 48000, sourceChannels: stream.channels ?? 2)
            let renderer = AudioRenderer(format: format, frames: frames, control: control, latency: { sink.latency })
            self.renderer = renderer
            workers.append(WorkerThread(name: "tandem.adec \(name)") { worker.run() })
            workers.append(WorkerThread(name: "tandem.audio \(name)") { renderer.runProducer() })
            sink.start(renderer, format: format)
            audioSink = sink
        } else {
            renderer = nil
            audioSink = nil
        }
        audioTrackSwitch = audioSwitch?.changes
        routes += subtitleRoutes
        // A network input paced by the clock reads far ahead; a local file (and unpaced decoding,
        // whose clock means nothing) keeps the small queues.
        let streaming = Self.isNetwork(url) && !options.fast
        let limits: ReadAhead.Limits = !streaming ? .local : input.isLive ? .live : .network
        let readAhead = ReadAhead(streams: routes.count, limits: limits, measuresFromClock: streaming)
        self.readAhead = readAhead
        let demuxer = Demuxer(input: input, routes: routes, control: control, readAhead: readAhead,
                              audioSwitch: audioSwitch, streamStart: start, logger: options.logger)
        demuxThread = WorkerThread(name: "tandem.demux \(name)") { demuxer.run() }
        self.queues = queues
        threads = workers
    }

    deinit { shutDown() }

    // MARK: Observing

    /// A new stream of this player's events (each call gets its own); `frames` adds one
    /// `.framePresented` per picture.
    public func events(frames: Bool = false) -> AsyncStream<PlayerEvent> { hub.subscribe(frames: frames) }

    /// Media position of the master clock now, in seconds from the start of the file.
    public var position: Double { control.position }

    /// The clock itself (position as a function of host time), for schedulers.
    public var clock: MediaClock { control.read { $0.clock } }

    public var timeSource: any TimeSource { control.time }

    /// Duration of the file when the container knows it.
    public var duration: Double? { info.durationSeconds }

    public var state: PlayerState {
        if closed.load(ordering: .acquiring) { return .closed }
        return control.read { $0.ended ? .ended : ($0.wantsPlaying ? .playing : .paused) }
    }

    /// True from a seek until its first frame is ready.
    public var isPrerolling: Bool { control.read { $0.prerolling } }

    /// This player's pipeline threads (demuxer, decoders, presentation, audio) still running:
    /// 0 once ``close()`` has returned. For resource accounting (the story navigator's budget).
    public var runningThreads: Int { (threads + [demuxThread]).count { $0.isRunning } }

    /// What the input holds for this player now: its read-ahead, and whether it ran dry.
    public var buffer: BufferStatus {
        let now = control.time.now()
        let (position, running) = control.settled(at: now) { s in
            (s.clock.position(at: now), !s.prerolling && !s.ended && !s.closed && !s.clock.isPaused(at: now))
        }
        let (seconds, inputEnded) = readAhead.measure(at: position)
        return BufferStatus(readAhead: seconds, inputEnded: inputEnded, starved: readAhead.measuresFromClock && running && !inputEnded && seconds <= 0,
                            streaming: readAhead.measuresFromClock)
    }

    /// Whether `url` is read over a network (a URL with a scheme other than `file`).
    static func isNetwork(_ url: String) -> Bool {
        guard let colon = url.range(of: "://") else { return false }
        let scheme = url[..<colon.lowerBound].lowercased()
        return !scheme.isEmpty && scheme != "file" && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    public var rate: Double { control.read { $0.speed.rate } }
    public var correction: Double { control.read { $0.speed.correction } }
    public var stats: PlaybackStats { control.read { $0.stats } }
    public var hasVideo: Bool { control.hasVideo }
    public var hasAudio: Bool { control.hasAudio }

    // MARK: Controls

    public func play() {
        let now = control.time.now()
        control.perform { $0.play(at: now) }
    }

    /// Waits until the current preroll (opening's first frame, or a seek's) is done: the first
    /// picture has reached the video sink and audio is buffered. Returns at once when it is.
    public func waitUntilReady() async {
        await control.waitForPreroll(serial: control.read { $0.serial })
    }

    /// Starts playing from the current position so that it resumes exactly at host time `hostTime`.
    public func play(at hostTime: Double) {
        let now = control.time.now()
        control.perform { $0.playScheduled(at: hostTime, now: now) }
    }

    /// Switches to `clock` at its anchor instant without seeking: until then the current clock runs
    /// on. "Pause at T", "play from P at T" and "change rate at T" are all this, and land on T exactly
    /// (the audio stage switches within its buffer, to the sample). A clock whose instant has passed
    /// applies at once, where it would be by now.
    public func switchClock(to clock: MediaClock) {
        let now = control.time.now()
        control.perform { $0.switchClock(to: clock, at: now) }
    }

    public func pause() {
        let now = control.time.now()
        control.perform { $0.pause(at: now) }
    }

    /// Seeks and waits until the first frame at the target is ready (and shown, for video).
    /// Accurate: the first frame presented is the first with pts ≥ `position`, as ffmpeg's `-ss`.
    /// Not accurate: playback resumes from the keyframe at or before `position` (fast).
    public func seek(to position: Double, accurate: Bool = true) async {
        let now = control.time.now()
        let target = clamp(position)
        let serial = control.beginSeek { $0.seekRequested(to: target, accurate: accurate, at: now) }
        queues.forEach { $0.nudge() }
        await control.waitForPreroll(serial: serial)
    }

    /// Arranges to be at media `position` at host time `hostTime`, playing: seeks accurately,
    /// prerolls the decoders, and anchors the clock so the frame at `position` lands on `hostTime`.
    /// If the preroll finishes after `hostTime`, playback starts at once where it should be by then.
    public func schedule(position: Double, at hostTime: Double) async {
        let now = control.time.now()
        let target = clamp(position)
        let serial = control.beginSeek { $0.scheduled(position: target, at: hostTime, now: now) }
        queues.forEach { $0.nudge() }
        await control.waitForPreroll(serial: serial)
    }

    /// Changes speed, keeping the pitch; clamped to ``rateRange``.
    /// Seconds of sound its audio stage has rendered ahead of the sink (0 without sound).
    var audioBuffered: Double { renderer?.bufferedSeconds ?? 0 }

    /// The sound output this player plays on (nil: none, or not a sound output).
    public var audioOutput: AudioOutputStatus? { audioSink?.output }

    /// How long before it is heard this player's sound is committed: what its output has queued (its
    /// delay, less the audio delay) and what its audio stage has rendered. A command that reaches
    /// the player later than this before its instant is heard late. 0 without sound.
    public var soundCommitted: Double {
        guard let renderer, let audioSink else { return 0 }
        return max(0, audioSink.latency) + renderer.renderedAhead
    }

    public func setRate(_ rate: Double) {
        let r = min(max(rate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        let now = control.time.now()
        control.send { $0.setRate(r, at: now) }
    }

    /// A small speed correction on top of the rate, for sync (clamped to ±``maxCorrection``).
    public func setCorrection(_ fraction: Double) {
        let c = min(max(fraction, -Self.maxCorrection), Self.maxCorrection)
        let now = control.time.now()
        control.send { $0.setCorrection(c, at: now) }
    }

    /// Pauses and shows the next picture.
    public func step() {
        let now = control.time.now()
        control.send { $0.stepRequested(at: now) }
    }

    /// Playback ends at this media position instead of the end of the file.
    public func setStopPosition(_ position: Double?) { control.send { $0.setStopPosition(position) } }

    /// Waits until every stream has ended (or the player is closed).
    public func waitUntilEnded() async {
        let events = hub.subscribe()
        if control.read({ $0.ended }) || closed.load(ordering: .acquiring) { return }
        for await event in events {
            if case .ended = event { return }
            if case .stateChanged(.closed) = event { return }
        }
    }

    /// Stops every thread and frees every FFmpeg object. Idempotent.
    public func close() async {
        await OwnThread.run { self.shutDown() }
    }

    private func shutDown() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        control.close()
        audioSink?.stop()
        renderer?.abort()
        queues.forEach { $0.abort() }
        // The demuxer stops at its next loop turn; only a read that is really stuck (a network
        // stream) is interrupted, since an interrupted read makes FFmpeg report a damaged file.
        if !demuxThread.join(timeout: Self.demuxStopGrace) {
            input.interrupt()
            demuxThread.join()
        }
        threads.forEach { $0.join() }
        hub.emit(.stateChanged(.closed))
        hub.finish()
    }

    func clamp(_ position: Double) -> Double {
        max(0, info.durationSeconds.map { min(position, $0) } ?? position)
    }
}

/// Queues the player can wake or abort without knowing their payload.
protocol Abortable: Sendable {
    func abort()
    func nudge()
}

extension StreamQueue: Abortable {}
