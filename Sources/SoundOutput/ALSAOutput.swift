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
