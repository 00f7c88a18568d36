import FFmpegKit

extension StreamSoundDevice {
    /// mpv's `--ao=alsa`: sound through an ALSA PCM, placed by the delay the driver reports on every
    /// pull (``ALSAStream``). Opens `place`'s device at the format nearest the preferred one. Throws,
    /// naming the device, when it cannot (no card, a card another program holds, an unknown name).
    public static func alsa(preferredRate: Int = 48000, preferredChannels: Int = 2, place: ALSAPlace = ALSAPlace(),
                            volume: Int = 100, muted: Bool = false, audioDelay: Double = 0,
                            warn: @escaping @Sendable (String) -> Void) throws(SoundDeviceError) -> StreamSoundDevice {
        try StreamSoundDevice(driver: "alsa", preferredRate: preferredRate, preferredChannels: preferredChannels,
                              expectedDelay: place.buffer, volume: volume, muted: muted, audioDelay: audioDelay, warn: warn) {
            format, mixer, delay, onLost throws(SoundDeviceError) in
            try ALSAStream(format: format, place: place, mixer: mixer, delay: delay, onLost: onLost)
        }
    }
}

/// Where an ALSA output plays: the device, an optional configuration of its own, and how much sound it
/// keeps queued.
public struct ALSAPlace: Sendable, Equatable {
    /// An ALSA PCM name (mpv's `--audio-device=alsa/NAME`): `default`, `plughw:1,0`, `pulse`, or one the
    /// configuration defines.
    public var device: String
    /// ALSA configuration text (as in `~/.asoundrc`) to open the device from, instead of the system's:
    /// a PCM defined for one program (nil: the system's configuration).
    public var configuration: String?
    /// Seconds of sound to keep queued.
    public var buffer: Double

    /// The sound kept queued when the user says nothing: as the PulseAudio output's (about SDL's
    /// buffer, so a correction is heard soon, and well above how late a busy 2-core machine wakes
    /// the feeding thread).
    public static let defaultBuffer = 0.05

    public init(device: String = "default", configuration: String? = nil, buffer: Double = ALSAPlace.defaultBuffer) {
        self.device = device
        self.configuration = configuration
        self.buffer = buffer
    }
}
