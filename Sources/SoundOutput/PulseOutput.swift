import FFmpegKit

extension StreamSoundDevice {
    /// mpv's `--ao=pulse`: sound through a PulseAudio server (or PipeWire's pipewire-pulse), placed by
    /// the delay the server reports on every pull (``PulseStream``). Connects to `place`'s server (else
    /// `PULSE_SERVER`, else the user's) and opens a stream at the preferred format. Throws when there is
    /// no server.
    public static func pulse(preferredRate: Int = 48000, preferredChannels: Int = 2, place: PulsePlace = PulsePlace(),
                             volume: Int = 100, muted: Bool = false, audioDelay: Double = 0,
                             warn: @escaping @Sendable (String) -> Void) throws(SoundDeviceError) -> StreamSoundDevice {
        try StreamSoundDevice(driver: "pulse", preferredRate: preferredRate, preferredChannels: preferredChannels,
                              expectedDelay: place.buffer, volume: volume, muted: muted, audioDelay: audioDelay, warn: warn) {
            format, mixer, delay, onLost throws(SoundDeviceError) in
            try PulseStream(sampleRate: format.sampleRate, channels: format.channels, place: place, mixer: mixer, delay: delay,
                            onLost: onLost)
        }
    }
}
