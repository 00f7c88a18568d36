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
