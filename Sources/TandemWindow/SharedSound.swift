import FFmpegKit
import PlayerCore
import SoundOutput
import Synchronization

/// The sound output several players share (a story list, a party's items, a headless member): the
/// first of `--ao`'s outputs that opens, opened with the first player that needs it, each player an
/// input of it, their samples mixed. No output at all: one warning, and the players are paced
/// without sound.
public final class SharedSound: Sendable {
    private struct State {
        var device: (any SoundDevice)?
        var volume = 100
        var muted = false
        /// `--audio-delay`, then Ctrl+−/Ctrl++.
        var audioDelay = 0.0
        /// Set once every output failed: the rest play muted without trying again.
        var noSound = false
    }

    private let state = Mutex(State())
    private let options: SoundOptions
    private let warn: @Sendable (String) -> Void

    public init(_ options: SoundOptions, volume: Int = 100, muted: Bool = false, warn: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.warn = warn
        state.withLock { s in
            s.volume = volume
            s.muted = muted
            s.audioDelay = options.audioDelay ?? 0
        }
    }

    /// A sink for one more player: an input of the shared output, or a pacing sink without sound.
    public func sink() -> any AudioSink { device()?.input() ?? NullAudioSink(realTime: true) }

    /// The shared output, opened on first use; nil (after one warning) when there is none.
    public func device() -> (any SoundDevice)? {
        let (existing, volume, muted, none, delay) = state.withLock { s in (s.device, s.volume, s.muted, s.noSound, s.audioDelay) }
        if let existing { return existing }
        guard !none, options.outputs.plays else { return nil }
        var options = options
        if options.audioDelay != nil || delay != 0 { options.audioDelay = delay }
        guard let device = SoundDevices.open(options, volume: volume, muted: muted, warn: warn) else {
            state.withLock { $0.noSound = true }
            return nil
        }
        let winner = state.withLock { s -> any SoundDevice in
            if let other = s.device { return other }
            s.device = device
            return device
        }
        if winner !== device { device.stop() }
        state.withLock { $0.audioDelay = winner.audioDelay }
        return winner
    }

    /// What the output is, once one is open.
    public var output: AudioOutputStatus? { state.withLock { $0.device }?.output }

    public var volume: Int { state.withLock { $0.volume } }
    public var muted: Bool { state.withLock { $0.muted } }

    /// Volume and mute for every player, now and later.
    public func setLevels(volume: Int? = nil, muted: Bool? = nil) {
        let (device, v, m) = state.withLock { s -> ((any SoundDevice)?, Int, Bool) in
            if let volume { s.volume = min(max(volume, 0), 100) }
            if let muted { s.muted = muted }
            return (s.device, s.volume, s.muted)
        }
        device?.setVolume(v)
        device?.setMuted(m)
    }

    public var audioDelay: Double { state.withLock { $0.audioDelay } }

    /// Moves the audio delay by `step` seconds (to the millisecond); returns the new delay.
    @discardableResult
    public func adjustAudioDelay(by step: Double) -> Double {
        let (device, delay) = state.withLock { s -> ((any SoundDevice)?, Double) in
            s.audioDelay = ((s.audioDelay + step) * 1000).rounded() / 1000
            return (s.device, s.audioDelay)
        }
        if let device {
            device.setAudioDelay(delay)
            if let key = device.output?.memoryKey { options.memory?.remember(delay, for: key) }
        }
        return delay
    }

    /// Closes the output (after the players are closed).
    public func close() {
        state.withLock { s in defer { s.device = nil }; return s.device }?.stop()
    }
}

/// Opens the first of `--ao`'s outputs that works.
public enum SoundDevices {
    /// The first output of `options` that opens, at the preferred format, with the audio delay; nil
    /// after one warning naming why each failed (or silently for `--ao=null`).
    public static func open(_ options: SoundOptions, preferredRate: Int = 48000, preferredChannels: Int = 2,
                            volume: Int = 100, muted: Bool = false,
                            warn: @escaping @Sendable (String) -> Void) -> (any SoundDevice)? {
        var failures: [String] = []
        for driver in options.outputs.drivers {
            do throws(SoundDeviceError) {
                switch driver {
                case .pulse:
                    return remembering(options, try StreamSoundDevice.pulse(
                        preferredRate: preferredRate, preferredChannels: preferredChannels, place: options.pulse, volume: volume,
                        muted: muted, audioDelay: options.audioDelay ?? 0, warn: warn))
                case .alsa:
                    return remembering(options, try StreamSoundDevice.alsa(
                        preferredRate: preferredRate, preferredChannels: preferredChannels, place: options.alsa, volume: volume,
                        muted: muted, audioDelay: options.audioDelay ?? 0, warn: warn))
                case .sdl:
                    return remembering(options, try SDLAudioSink(preferredRate: preferredRate, preferredChannels: preferredChannels,
                                                                 volume: volume, muted: muted, audioDelay: options.audioDelay ?? 0))
                case .null:
                    return nil
                }
            } catch {
                failures.append("\(driver.rawValue): \(error)")
            }
        }
        warn("no sound output (\(failures.joined(separator: "; "))): playing muted")
        return nil
    }

    /// Without `--audio-delay`, the delay kept for this device.
    private static func remembering(_ options: SoundOptions, _ device: some SoundDevice) -> any SoundDevice {
        if options.audioDelay == nil, let key = device.output?.memoryKey, let kept = options.memory?.delay(for: key) {
            device.setAudioDelay(kept)
        }
        return device
    }

    /// Ctrl+−/Ctrl++ on `device`: the new delay, kept for the device in `memory`.
    public static func adjustAudioDelay(_ device: any SoundDevice, by step: Double, memory: (any AudioDelayMemory)?) -> Double {
        let delay = device.adjustAudioDelay(by: step)
        if let key = device.output?.memoryKey { memory?.remember(delay, for: key) }
        return delay
    }
}
