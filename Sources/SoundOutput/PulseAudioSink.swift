import FFmpegKit
import Foundation
import PlayerCore
import Synchronization

/// mpv's `--ao=pulse`: sound through a PulseAudio server (or PipeWire's pipewire-pulse), placed by
/// the delay the server reports on every pull (``PulseStream``), so what is heard is the player's
/// clock on any device — a Bluetooth headset, an HDMI TV, a busy server.
///
/// When the server goes away mid-play, the players go on without sound, paced by a thread
/// (``NullAudioSink``), after one warning; the sink asks for the server again every
/// ``reconnectInterval`` and plays through it again, with a second line, when it is back.
public final class PulseAudioSink: SoundDevice {
    /// How often a lost server is asked for again.
    static let reconnectInterval = 1.0

    private struct State {
        var stream: PulseStream?
        /// Paces the players while the server is away.
        var fallback: NullAudioSink?
        var format: AudioFormat
        var started = false
        var stopped = false
    }

    private let mixer = SoundMixer()
    private let place: PulsePlace
    private let delay: OutputDelayReading
    private let state: Mutex<State>
    private let nextInputID = Atomic<Int>(0)
    private let warn: @Sendable (String) -> Void
    /// Tells the supervisor of a loss or of the stop.
    private let supervision = Supervision()

    /// Connects to the server named by `PULSE_SERVER` (else the user's) and opens a stream at the
    /// preferred format. Throws when there is no server.
    public init(preferredRate: Int = 48000, preferredChannels: Int = 2, place: PulsePlace = PulsePlace(), volume: Int = 100,
                muted: Bool = false, audioDelay: Double = 0, warn: @escaping @Sendable (String) -> Void) throws(SoundDeviceError) {
        self.place = place
        delay = OutputDelayReading(reported: place.buffer, audioDelay: audioDelay)
        self.warn = warn
        let format = AudioFormat(sampleRate: preferredRate, channels: min(max(preferredChannels, 1), 8), sample: .float32)
        state = Mutex(State(format: format))
        mixer.setLevels(volume: volume, muted: muted)
        let stream = try Self.open(format, place: place, mixer: mixer, delay: delay, onLost: lostHandler)
        state.withLock { $0.stream = stream }
        startSupervisor()
    }

    deinit { stop() }

    private var lostHandler: PulseStream.LostHandler {
        { [weak self] reason in self?.serverLost(reason) }
    }

    private static func open(_ format: AudioFormat, place: PulsePlace, mixer: SoundMixer, delay: OutputDelayReading,
                             onLost: @escaping PulseStream.LostHandler) throws(SoundDeviceError) -> PulseStream {
        try PulseStream(sampleRate: format.sampleRate, channels: format.channels, place: place, mixer: mixer, delay: delay,
                        onLost: onLost)
    }

    // MARK: AudioSink

    public func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        let wanted = AudioFormat(sampleRate: sourceRate, channels: min(max(sourceChannels, 1), 8), sample: .float32)
        let reopen = state.withLock { s -> PulseStream? in
            guard !s.started, !s.stopped, s.stream != nil, s.format != wanted else { return nil }
            s.format = wanted
            defer { s.stream = nil }
            return s.stream
        }
        guard let old = reopen else { return state.withLock { $0.format } }
        old.close()
        let stream = try? Self.open(wanted, place: place, mixer: mixer, delay: delay, onLost: lostHandler)
        state.withLock { $0.stream = stream }
        if stream == nil { serverLost("the sound server went away while opening") }
        return wanted
    }

    public var latency: Double { delay.latency }

    public func start(_ source: any AudioSource, format: AudioFormat) {
        mixer.setSource(source, bytesPerFrame: format.bytesPerFrame)
        begin()
    }

    /// The first source starts the stream (or, while the server is away, the pacing thread).
    private func begin() {
        let (stream, fallback) = state.withLock { s -> (PulseStream?, NullAudioSink?) in
            guard !s.started, !s.stopped else { return (nil, nil) }
            s.started = true
            if let stream = s.stream { return (stream, nil) }
            s.fallback = NullAudioSink(realTime: true)
            return (nil, s.fallback)
        }
        stream?.uncork()
        fallback?.start(mixer, format: state.withLock { $0.format })
    }

    /// Closes the stream and the pacing thread, and ends the supervisor. Idempotent.
    public func stop() {
        let (stream, fallback) = state.withLock { s -> (PulseStream?, NullAudioSink?) in
            guard !s.stopped else { return (nil, nil) }
            s.stopped = true
            defer { s.stream = nil; s.fallback = nil }
            return (s.stream, s.fallback)
        }
        stream?.close()
        fallback?.stop()
        supervision.stop()
        // The supervisor may hold the last reference, and then this runs on its thread.
        if !supervision.isCurrentThread { supervision.waitFinished() }
        mixer.setSource(nil, bytesPerFrame: 0)
    }

    // MARK: SoundDevice

    public var output: AudioOutputStatus? {
        let device = state.withLock { $0.stream?.device ?? "" }
        return AudioOutputStatus(driver: "pulse", device: device, reportedDelay: delay.recentPeak, audioDelay: delay.audioDelay)
    }

    public var audioDelay: Double { delay.audioDelay }
    public func setAudioDelay(_ seconds: Double) { delay.setAudioDelay(seconds) }

    /// Times the server played silence it was not given.
    public var underflows: Int { delay.underflows }

    public var volume: Int { mixer.volume }
    public var muted: Bool { mixer.muted }
    public func setVolume(_ percent: Int) { mixer.setLevels(volume: percent) }
    public func setMuted(_ muted: Bool) { mixer.setLevels(muted: muted) }

    public func input() -> any AudioSink { Input(device: self, id: nextInputID.add(1, ordering: .relaxed).newValue) }

    /// One player's share of the stream.
    private final class Input: AudioSink {
        let device: PulseAudioSink
        let id: Int
        init(device: PulseAudioSink, id: Int) {
            self.device = device
            self.id = id
        }
        func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat { device.state.withLock { $0.format } }
        var latency: Double { device.latency }
        var output: AudioOutputStatus? { device.output }
        func start(_ source: any AudioSource, format: AudioFormat) {
            device.mixer.addSource(id: id, source, bytesPerFrame: format.bytesPerFrame)
            device.begin()
        }
        func stop() { device.mixer.removeSource(id: id) }
    }

    // MARK: A server that goes away

    /// On the main loop's thread: hand the loss to the supervisor (the stream cannot be closed from
    /// its own thread).
    private func serverLost(_ reason: String) { supervision.lost(reason) }

    private func startSupervisor() {
        let supervision = supervision
        let thread = Thread { [weak self] in
            supervision.entered()
            // Waits without holding the sink, so releasing the sink still stops it.
            while let reason = supervision.nextLoss(), let sink = self, sink.recover(from: reason) {}
            supervision.finished()
        }
        thread.name = "tandem.pulse-supervisor"
        supervision.launched()
        thread.start()
    }

    /// After a loss: plays on without sound and reconnects every ``reconnectInterval``. False once
    /// the sink stops.
    private func recover(from reason: String) -> Bool {
        let (old, format, started) = state.withLock { s in
            defer { s.stream = nil }
            return (s.stream, s.format, s.started)
        }
        old?.close()
        delay.report(0)
        if started {
            let fallback = NullAudioSink(realTime: true)
            fallback.start(mixer, format: format)
            state.withLock { $0.fallback = fallback }
        }
        warn("sound: \(reason); playing on without sound, trying again every \(Int(Self.reconnectInterval)) s")
        while supervision.pause(Self.reconnectInterval) {
            guard let stream = try? Self.open(format, place: place, mixer: mixer, delay: delay, onLost: lostHandler) else { continue }
            let (fallback, keep, playing) = state.withLock { s -> (NullAudioSink?, Bool, Bool) in
                guard !s.stopped else { return (nil, false, false) }
                defer { s.fallback = nil; s.stream = stream }
                return (s.fallback, true, s.started)
            }
            guard keep else {
                stream.close()
                return false
            }
            fallback?.stop()
            if playing { stream.uncork() }
            warn("sound: the sound server is back, playing on \(stream.device.isEmpty ? "it" : stream.device)")
            return true
        }
        return false
    }
}

/// The supervisor's signals: a loss to recover from, or the sink's stop.
private final class Supervision: Sendable {
    private struct Signals {
        var loss: String?
        var stopped = false
        var launched = false
        var finished = false
        var thread: pthread_t?
    }

    private let condition = NSCondition()
    private let signals = Mutex(Signals())

    /// Before the supervisor's thread starts (a sink that failed to open has none to wait for).
    func launched() { signals.withLock { $0.launched = true } }

    /// On the supervisor's thread, first.
    func entered() { signals.withLock { $0.thread = pthread_self() } }

    /// True on the supervisor's own thread.
    var isCurrentThread: Bool { signals.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// From the stream's thread.
    func lost(_ reason: String) {
        condition.withLock {
            signals.withLock { s in if s.loss == nil { s.loss = reason } }
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            signals.withLock { $0.stopped = true }
            condition.broadcast()
        }
    }

    /// Waits for the next loss (nil once stopped).
    func nextLoss() -> String? {
        condition.withLock {
            while true {
                let (loss, stopped) = signals.withLock { s in defer { s.loss = nil }; return (s.loss, s.stopped) }
                if stopped { return nil }
                if let loss { return loss }
                condition.wait()
            }
        }
    }

    /// Waits `seconds` between attempts; false once stopped.
    func pause(_ seconds: Double) -> Bool {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !signals.withLock({ $0.stopped }), condition.wait(until: deadline) {}
            return !signals.withLock { $0.stopped }
        }
    }

    func finished() {
        condition.withLock {
            signals.withLock { $0.finished = true }
            condition.broadcast()
        }
    }

    /// Waits until the supervisor's thread has ended.
    func waitFinished() {
        condition.withLock { while signals.withLock({ $0.launched && !$0.finished }) { condition.wait() } }
    }
}
