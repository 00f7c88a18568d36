import FFmpegKit
import Foundation
import PlayerCore
import Synchronization

/// A sound output that knows its delay (mpv's `--ao=pulse`, `--ao=alsa`): one ``SoundStream`` at a
/// time, which places every pull by the delay its output reports, so what is heard is the player's
/// clock on any device — a Bluetooth headset, an HDMI TV, a busy server. Several players mix into it
/// (``input()``).
///
/// When the output goes away mid-play (the server stops, the device is unplugged), the players go
/// on without sound, paced by a thread (``NullAudioSink``), after one warning; the device opens the
/// output again every ``reconnectInterval`` and plays through it again, with a second line, when it
/// is back. ``pulse(preferredRate:preferredChannels:place:volume:muted:audioDelay:warn:)`` and
/// ``alsa(preferredRate:preferredChannels:place:volume:muted:audioDelay:warn:)`` make one.
public final class StreamSoundDevice: SoundDevice {
    /// How often a lost output is opened again.
    static let reconnectInterval = 1.0

    private struct State {
        var stream: (any SoundStream)?
        /// Paces the players while the output is away.
        var fallback: NullAudioSink?
        var format: AudioFormat
        /// The format the players last asked for (the output may play another: ALSA's nearest rate).
        var asked: AudioFormat?
        var started = false
        var stopped = false
    }

    /// mpv's name of the output ("pulse", "alsa"): the status's driver and the audio delay's key.
    public let driver: String
    private let mixer: SoundMixer
    private let opener: SoundStreamOpener
    private let delay: OutputDelayReading
    private let state: Mutex<State>
    private let nextInputID = Atomic<Int>(0)
    private let warn: @Sendable (String) -> Void
    /// Tells the supervisor of a loss or of the stop.
    private let supervision: Supervision

    /// Opens the output at the preferred format (silent until a player starts). Throws when it cannot.
    init(driver: String, preferredRate: Int, preferredChannels: Int, expectedDelay: Double, volume: Int, muted: Bool,
         audioDelay: Double, warn: @escaping @Sendable (String) -> Void, opener: @escaping SoundStreamOpener) throws(SoundDeviceError) {
        self.driver = driver
        self.opener = opener
        self.warn = warn
        let delay = OutputDelayReading(reported: expectedDelay, audioDelay: audioDelay)
        let mixer = SoundMixer()
        let supervision = Supervision()
        mixer.setLevels(volume: volume, muted: muted)
        let format = Self.mixed(rate: preferredRate, channels: preferredChannels)
        let stream = try opener(format, mixer, delay, Self.lostHandler(supervision))
        self.delay = delay
        self.mixer = mixer
        self.supervision = supervision
        state = Mutex(State(stream: stream, format: stream.format))
        startSupervisor()
    }

    /// What the mixer renders for a rate and channel count asked for: float32, 1 to 8 channels.
    private static func mixed(rate: Int, channels: Int) -> AudioFormat {
        AudioFormat(sampleRate: rate, channels: min(max(channels, 1), 8), sample: .float32)
    }

    /// On the stream's thread: hand the loss to the supervisor (a stream is not closed from its own thread).
    private static func lostHandler(_ supervision: Supervision) -> SoundStreamLost { { reason in supervision.lost(reason) } }

    deinit { stop() }

    private func open(_ format: AudioFormat) throws(SoundDeviceError) -> any SoundStream {
        try opener(format, mixer, delay, Self.lostHandler(supervision))
    }

    // MARK: AudioSink

    public func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        let wanted = Self.mixed(rate: sourceRate, channels: sourceChannels)
        let reopen = state.withLock { s -> (any SoundStream)? in
            guard !s.started, !s.stopped, s.stream != nil, s.format != wanted, s.asked != wanted else { return nil }
            s.asked = wanted
            s.format = wanted
            defer { s.stream = nil }
            return s.stream
        }
        guard let old = reopen else { return state.withLock { $0.format } }
        old.close()
        let stream = try? open(wanted)
        state.withLock { s in
            s.stream = stream
            if let stream { s.format = stream.format }
        }
        if stream == nil { supervision.lost("the output went away while opening") }
        return state.withLock { $0.format }
    }

    public var latency: Double { delay.latency }

    public func start(_ source: any AudioSource, format: AudioFormat) {
        mixer.setSource(source, bytesPerFrame: format.bytesPerFrame)
        begin()
    }

    /// The first source starts the stream (or, while the output is away, the pacing thread).
    private func begin() {
        let (stream, fallback) = state.withLock { s -> ((any SoundStream)?, NullAudioSink?) in
            guard !s.started, !s.stopped else { return (nil, nil) }
            s.started = true
            if let stream = s.stream { return (stream, nil) }
            s.fallback = NullAudioSink(realTime: true)
            return (nil, s.fallback)
        }
        stream?.start()
        fallback?.start(mixer, format: state.withLock { $0.format })
    }

    /// Closes the stream and the pacing thread, and ends the supervisor. Idempotent.
    public func stop() {
        let (stream, fallback) = state.withLock { s -> ((any SoundStream)?, NullAudioSink?) in
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
        return AudioOutputStatus(driver: driver, device: device, reportedDelay: delay.recentPeak, audioDelay: delay.audioDelay)
    }

    public var audioDelay: Double { delay.audioDelay }
    public func setAudioDelay(_ seconds: Double) { delay.setAudioDelay(seconds) }

    /// Times the output played silence it was not given.
    public var underflows: Int { delay.underflows }

    public var volume: Int { mixer.volume }
    public var muted: Bool { mixer.muted }
    public func setVolume(_ percent: Int) { mixer.setLevels(volume: percent) }
    public func setMuted(_ muted: Bool) { mixer.setLevels(muted: muted) }

    public func input() -> any AudioSink { Input(device: self, id: nextInputID.add(1, ordering: .relaxed).newValue) }

    /// One player's share of the stream.
    private final class Input: AudioSink {
        let device: StreamSoundDevice
        let id: Int
        init(device: StreamSoundDevice, id: Int) {
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

    // MARK: An output that goes away

    private func startSupervisor() {
        let supervision = supervision
        let thread = Thread { [weak self] in
            supervision.entered()
            // Waits without holding the sink, so releasing the sink still stops it.
            while let reason = supervision.nextLoss(), let sink = self, sink.recover(from: reason) {}
            supervision.finished()
        }
        thread.name = "tandem.sound-supervisor"
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
            // Players feed the format they were given: an output that now plays another waits.
            guard let stream = try? open(format) else { continue }
            guard stream.format == format else {
                stream.close()
                continue
            }
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
            if playing { stream.start() }
            warn("sound: the sound output is back, playing on \(stream.device.isEmpty ? "it" : stream.device)")
            return true
        }
        return false
    }
}

