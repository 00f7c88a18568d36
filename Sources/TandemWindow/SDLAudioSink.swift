import CSDL2
import FFmpegKit
import PlayerCore
import SoundOutput
import Synchronization

/// An ``AudioSink`` on an SDL audio device: SDL's audio thread calls back for each buffer and the
/// callback pulls exactly that many samples from the player's audio stage, then applies volume
/// and mute.
///
/// The device is opened in float32 at the source's rate and channel count (SDL converts when the
/// hardware differs; if SDL offers another rate or channel count, that is what ``format(sourceRate:sourceChannels:)``
/// returns and the player's resampler converts to it, as in ffplay). The player's media clock stays
/// the master: every pull places its samples where the clock says, ``latency`` later.
///
/// Volume is 0…100 % on a cubic curve, like mpv's (gain = (v/100)³: equal steps sound roughly equal).
public final class SDLAudioSink: SoundDevice {
    /// Wanted callback period: short for a small output delay, long enough that a busy machine does not
    /// starve SDL's thread (ffplay asks for about 1/30 s; 512 frames is SDL's usual floor).
    static let bufferSeconds = 0.02
    static let minimumBufferFrames = 512

    private struct Device {
        var id: SDL_AudioDeviceID = 0
        var requestedRate = 0
        var requestedChannels = 0
        var rate = 0
        var channels = 0
        var closed = false
        /// Paces the player when the device went away between opening and starting (without pulls
        /// the player's audio would never drain, and playback never end).
        var fallback: NullAudioSink?
    }

    private let mixer = SoundMixer()
    private let device = Mutex(Device())
    /// One SDL buffer, and the audio delay: read on SDL's audio thread (through the player's pull),
    /// where taking `device`'s lock could deadlock with ``stop()`` waiting for that very callback.
    private let delay: OutputDelayReading
    /// Ids of ``input()`` sinks (0 is the sink's own ``start(_:format:)``).
    private let nextInputID = Atomic<Int>(0)
    /// Inputs paced without sound because the device was gone when they started.
    private let inputFallbacks = Mutex<[Int: NullAudioSink]>([:])
    /// The SDL audio driver in use ("pulseaudio", "alsa", "disk"…).
    public let driver: String

    /// Starts SDL's audio subsystem and opens the default device (paused) at the preferred format,
    /// so a missing device is known before playback. Throws when no device can be opened.
    public init(preferredRate: Int = 48000, preferredChannels: Int = 2, volume: Int = 100,
                muted: Bool = false, audioDelay: Double = 0) throws(SoundDeviceError) {
        delay = OutputDelayReading(audioDelay: audioDelay)
        guard SDLSubsystems.start(SDL_INIT_AUDIO) else {
            throw SoundDeviceError(reason: "SDL audio: \(sdlError())")
        }
        driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "none"
        let opened = device.withLock { d in open(&d, rate: preferredRate, channels: preferredChannels) }
        guard opened else {
            let reason = "\(driver): \(sdlError())"
            device.withLock { $0.closed = true }
            SDLSubsystems.stop(SDL_INIT_AUDIO)
            throw SoundDeviceError(reason: reason)
        }
        mixer.setLevels(volume: volume, muted: muted)
    }

    deinit { stop() }

    // MARK: AudioSink

    public func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        device.withLock { d in
            if !d.closed, d.requestedRate != sourceRate || d.requestedChannels != sourceChannels {
                let previous = (d.requestedRate, d.requestedChannels)
                close(&d)
                if !open(&d, rate: sourceRate, channels: sourceChannels) {
                    _ = open(&d, rate: previous.0, channels: previous.1)
                }
            }
            return AudioFormat(sampleRate: d.rate > 0 ? d.rate : sourceRate,
                               channels: d.channels > 0 ? d.channels : min(sourceChannels, 2), sample: .float32)
        }
    }

    /// One device buffer (what SDL has taken and not yet played when it calls back again; SDL2 has no
    /// call that tells what the device or the sound server behind it adds), less the audio delay.
    public var latency: Double { delay.latency }

    public var output: AudioOutputStatus? {
        AudioOutputStatus(driver: "sdl", device: driver, reportedDelay: delay.recentPeak, audioDelay: delay.audioDelay)
    }

    public var audioDelay: Double { delay.audioDelay }
    public func setAudioDelay(_ seconds: Double) { delay.setAudioDelay(seconds) }

    public func start(_ source: any AudioSource, format: AudioFormat) {
        device.withLock { d in
            guard d.id != 0 else {
                let fallback = NullAudioSink(realTime: true)
                fallback.start(source, format: format)
                d.fallback = fallback
                return
            }
            SDL_LockAudioDevice(d.id)
            mixer.setSource(source, bytesPerFrame: format.bytesPerFrame)
            SDL_UnlockAudioDevice(d.id)
            SDL_PauseAudioDevice(d.id, 0)
        }
    }

    // MARK: Sharing one device

    /// A sink for one more player on this same device: its samples are mixed in (a story's
    /// neighbour or a party's next item opens while the current one plays; some drivers allow one
    /// open device only). Its ``AudioSink/stop()`` detaches it; the device stays open.
    public func input() -> any AudioSink { Input(device: self, id: nextInputID.add(1, ordering: .relaxed).newValue) }

    /// The format of the open device (what every input gets).
    var openFormat: AudioFormat {
        device.withLock { d in AudioFormat(sampleRate: d.rate > 0 ? d.rate : 48000, channels: d.channels > 0 ? d.channels : 2, sample: .float32) }
    }

    fileprivate func attach(_ source: any AudioSource, id: Int, bytesPerFrame: Int) {
        let started = device.withLock { d -> Bool in
            guard d.id != 0 else { return false }
            SDL_LockAudioDevice(d.id)
            mixer.addSource(id: id, source, bytesPerFrame: bytesPerFrame)
            SDL_UnlockAudioDevice(d.id)
            SDL_PauseAudioDevice(d.id, 0)
            return true
        }
        if !started {
            let fallback = NullAudioSink(realTime: true)
            inputFallbacks.withLock { $0[id] = fallback }
            fallback.start(source, format: openFormat)
        }
    }

    fileprivate func detach(id: Int) {
        device.withLock { d in
            guard d.id != 0 else { return }
            // Locking waits for a running callback: after this the source is not pulled again.
            SDL_LockAudioDevice(d.id)
            mixer.removeSource(id: id)
            SDL_UnlockAudioDevice(d.id)
        }
        inputFallbacks.withLock { $0.removeValue(forKey: id) }?.stop()
    }

    /// One player's share of a shared device.
    private final class Input: AudioSink {
        let device: SDLAudioSink
        let id: Int
        init(device: SDLAudioSink, id: Int) {
            self.device = device
            self.id = id
        }
        func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat { device.openFormat }
        var latency: Double { device.latency }
        var output: AudioOutputStatus? { device.output }
        func start(_ source: any AudioSource, format: AudioFormat) { device.attach(source, id: id, bytesPerFrame: format.bytesPerFrame) }
        func stop() { device.detach(id: id) }
    }

    /// Pauses and closes the device (SDL waits for a running callback) and releases SDL's audio
    /// subsystem. Idempotent.
    public func stop() {
        // Closing waits for a running callback, which may read `latency`: not under `device`'s lock.
        let taken = device.withLock { d -> (SDL_AudioDeviceID, NullAudioSink?)? in
            guard !d.closed else { return nil }
            defer { d.id = 0; d.closed = true; d.fallback = nil }
            return (d.id, d.fallback)
        }
        guard let (id, fallback) = taken else { return }
        fallback?.stop()
        if id != 0 {
            SDL_PauseAudioDevice(id, 1)
            SDLSubsystems.serialized { SDL_CloseAudioDevice(id) }
        }
        mixer.setSource(nil, bytesPerFrame: 0)
        SDLSubsystems.stop(SDL_INIT_AUDIO)
    }

    // MARK: Volume

    /// 0…100 %.
    public var volume: Int { mixer.volume }
    public var muted: Bool { mixer.muted }
    public func setVolume(_ percent: Int) { mixer.setLevels(volume: percent) }
    public func setMuted(_ muted: Bool) { mixer.setLevels(muted: muted) }

    // MARK: Device

    private func open(_ d: inout Device, rate: Int, channels: Int) -> Bool {
        var want = SDL_AudioSpec()
        want.freq = Int32(rate)
        want.format = SDL_AudioFormat(tandem_sdl_audio_f32())
        want.channels = UInt8(min(max(channels, 1), 8))
        want.samples = UInt16(Self.bufferFrames(rate: rate))
        want.callback = { userdata, stream, length in
            guard let userdata, let stream else { return }
            Unmanaged<SoundMixer>.fromOpaque(userdata).takeUnretainedValue()
                .render(into: UnsafeMutableRawBufferPointer(start: stream, count: Int(length)))
        }
        want.userdata = Unmanaged.passUnretained(mixer).toOpaque()
        var have = SDL_AudioSpec()
        // Rate and channel count may follow the hardware (the player's resampler converts); the sample
        // format may not: the callback scales floats.
        let id = SDLSubsystems.serialized {
            SDL_OpenAudioDevice(nil, 0, &want, &have, Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE))
        }
        guard id != 0 else { return false }
        d = Device(id: id, requestedRate: rate, requestedChannels: channels, rate: Int(have.freq), channels: Int(have.channels))
        let latency = have.freq > 0 ? Double(have.samples) / Double(have.freq) : 0
        delay.report(latency)
        return true
    }

    /// Only before ``start(_:format:)``: no callback runs yet.
    private func close(_ d: inout Device) {
        guard d.id != 0 else { return }
        SDL_PauseAudioDevice(d.id, 1)
        SDLSubsystems.serialized { SDL_CloseAudioDevice(d.id) }
        mixer.setSource(nil, bytesPerFrame: 0)
        d.id = 0
    }

    /// A power of two near ``bufferSeconds`` at `rate`, at least ``minimumBufferFrames``.
    static func bufferFrames(rate: Int) -> Int {
        let target = Double(rate) * bufferSeconds
        var frames = minimumBufferFrames
        while Double(frames * 2) <= target * 1.5 { frames *= 2 }
        return min(frames, Int(UInt16.max / 2 + 1))
    }
}
