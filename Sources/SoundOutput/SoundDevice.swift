import PlayerCore

/// A sound output a window's players play through: PulseAudio or ALSA (``StreamSoundDevice``), SDL's device
/// (TandemWindow's `SDLAudioSink`), chosen as mpv chooses with `--ao` (``AudioOutputChoice``).
///
/// Every pull places its samples at the instant they will be heard: ``AudioSink/latency`` is the
/// delay the output reports now (as the sound server counts it, device included) with the
/// ``audioDelay`` taken off, so the player's clock is what is heard.
public protocol SoundDevice: AudioSink {
    /// mpv's `--audio-delay`, seconds: positive plays the sound later than the pictures and the
    /// party, negative earlier (for a TV or an amplifier that delays sound by what no interface
    /// reports, give its delay negated).
    var audioDelay: Double { get }
    func setAudioDelay(_ seconds: Double)

    /// 0…100 %.
    var volume: Int { get }
    var muted: Bool { get }
    func setVolume(_ percent: Int)
    func setMuted(_ muted: Bool)

    /// A sink for one more player on this same device: its samples are mixed in (a story's
    /// neighbour or a party's next item opens while the current one plays). Its
    /// ``AudioSink/stop()`` detaches it; the device stays open.
    func input() -> any AudioSink
}

extension SoundDevice {
    public func adjustVolume(by points: Int) { setVolume(volume + points) }

    /// Moves the audio delay by `step` seconds (to the millisecond); returns the new delay.
    @discardableResult
    public func adjustAudioDelay(by step: Double) -> Double {
        let delay = ((audioDelay + step) * 1000).rounded() / 1000
        setAudioDelay(delay)
        return delay
    }
}

/// What the window says when the audio delay changes (mpv's OSD line).
public func audioDelayMessage(_ seconds: Double) -> String {
    "Audio delay: \(AudioOutputStatus.milliseconds(seconds, signed: true))"
}
