import FFmpegKit

/// One open connection to one sound output (a PulseAudio stream, an ALSA PCM), rendering a
/// ``SoundMixer`` and reporting its delay on every pull into an ``OutputDelayReading``. A
/// ``StreamSoundDevice`` owns it, and opens another when it is lost.
protocol SoundStream: AnyObject, Sendable {
    /// The format it plays, which the device may have chosen near the one asked for.
    var format: AudioFormat { get }
    /// What it plays on ("" before it is known): a sink's name, an ALSA device.
    var device: String { get }
    /// Starts playing (it opens silent, so nothing plays before a player has a source).
    func start()
    /// Stops and frees everything; after it returns nothing of the stream runs. Idempotent; never
    /// called on the stream's own thread.
    func close()
}

/// Why a stream ended after it was up (the server went away, the device was unplugged): called once,
/// on the stream's own thread.
typealias SoundStreamLost = @Sendable (String) -> Void

/// Opens a stream at a format, rendering the mixer and reporting into the delay reading.
typealias SoundStreamOpener = @Sendable (AudioFormat, SoundMixer, OutputDelayReading, @escaping SoundStreamLost) throws(SoundDeviceError)
    -> any SoundStream
