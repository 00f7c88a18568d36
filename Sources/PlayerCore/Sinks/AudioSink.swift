import FFmpegKit

/// Where decoded sound goes. Sinks pull: an SDL audio callback or a pacing thread asks the
/// ``AudioSource`` for exactly the samples it is about to play, which keeps the audio clock
/// on what is heard.
public protocol AudioSink: AnyObject, Sendable {
    /// The interleaved format this sink consumes for a source of the given rate and channel count.
    func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat
    /// Seconds between a pull and the moment its first sample is heard (the device's output delay).
    var latency: Double { get }
    /// What the output is (nil: not a sound output, as a WAV file or the pacing thread of headless play).
    var output: AudioOutputStatus? { get }
    /// Begins pulling from `source` on the sink's own thread.
    func start(_ source: any AudioSource, format: AudioFormat)
    /// Stops pulling; returns once no pull is running.
    func stop()
}

/// What an audio sink pulls from. Both calls are safe on a real-time audio thread: `pull` never blocks.
public protocol AudioSource: AnyObject, Sendable {
    /// Fills exactly `frames` frames: samples when playing, silence when paused, starved or
    /// before a scheduled start. Returns `frames`. `heardIn`: seconds from this call until the
    /// first of them is heard, on top of the sink's `latency` (a sink that keeps its own queue,
    /// as ``PacedAudioOutput`` does, knows it exactly).
    func pull(into buffer: UnsafeMutableRawBufferPointer, frames: Int, heardIn: Double) -> Int
    /// For sinks that run as fast as decoding (`--fast`): waits up to `timeout` seconds for decoded
    /// samples and returns how many frames it wrote (0 when none came).
    func pullAvailable(into buffer: UnsafeMutableRawBufferPointer, frames: Int, timeout: Double) -> Int
}

extension AudioSink {
    public var output: AudioOutputStatus? { nil }
}

extension AudioSource {
    /// Fills exactly `frames` frames that the device plays after its `latency` (an audio callback).
    public func pull(into buffer: UnsafeMutableRawBufferPointer, frames: Int) -> Int {
        pull(into: buffer, frames: frames, heardIn: 0)
    }
}
