import FFmpegKit

/// The audio producer's conversion state: tempo filter (when the rate is not 1), resampler, and
/// the media time of the next output sample. Output chunks say where they start in the media and
/// how much media each sample covers, whatever tempo and correction made them.
struct ProducerStage {
    struct Chunk {
        var data: [UInt8]
        var frames: Int
        var start: Double
        var mediaPerFrame: Double
    }

    /// Silence as long as `frame` (its first sample at media `position`) plays at `speed`: what is heard
    /// in place of sound that could not be converted, so the clock, the preroll and the end go on.
    func silence(for frame: Frame, position: Double, speed: PlaybackSpeed) -> Chunk {
        let seconds = Double(frame.sampleCount) / Double(max(frame.sampleRate, 1)) / speed.effective
        let count = Int((seconds * Double(format.sampleRate)).rounded())
        return Chunk(data: [UInt8](repeating: 0, count: count * format.bytesPerFrame), frames: count, start: position,
                     mediaPerFrame: speed.effective / Double(format.sampleRate))
    }

    let format: AudioFormat
    private let resampler: AudioResampler
    private var tempo: AudioTempoFilter?
    private var cursor = Double.nan
    private var scratch: [UInt8] = []

    init(format: AudioFormat) {
        self.format = format
        resampler = AudioResampler(output: format)
    }

    /// After a seek: nothing buffered, the next frame sets the media time.
    mutating func reset() {
        resampler.reset()
        tempo = nil
        cursor = .nan
    }

    /// Converts `frame` (its first sample at media `position`) at `speed`: the tempo filter takes
    /// the rate, the resampler the correction.
    mutating func render(_ frame: Frame, position: Double, speed: PlaybackSpeed) throws(FFmpegError) -> Chunk {
        let correction = speed.correction
        var started = false
        if tempo?.tempo ?? 1 != speed.rate {
            tempo = speed.rate == 1 ? nil : AudioTempoFilter(tempo: speed.rate)
            started = tempo != nil
        }
        let mediaPerFrame = speed.effective / Double(format.sampleRate)
        // Without a tempo filter output follows input: take the frame's own time, less what the
        // resampler still holds of earlier frames (it comes out first). A new tempo filter's output
        // starts later in the media than its first input (``AudioTempoFilter/skippedMedia(tempo:sampleRate:)``).
        if tempo == nil || cursor.isNaN || started {
            cursor = position - resampler.delay
                + (started ? AudioTempoFilter.skippedMedia(tempo: speed.rate, sampleRate: frame.sampleRate) : 0)
        }
        scratch.removeAll(keepingCapacity: true)
        var produced = 0
        if let tempo {
            try tempo.process(frame) { [resampler] out throws(FFmpegError) in
                produced += try resampler.convert(out, correction: correction, into: &scratch)
            }
        } else if frame.sampleCount > 0 {
            produced = try resampler.convert(frame, correction: correction, into: &scratch)
        }
        let chunk = Chunk(data: scratch, frames: produced, start: cursor, mediaPerFrame: mediaPerFrame)
        cursor += Double(produced) * mediaPerFrame
        return chunk
    }

    /// What the tempo filter still holds, at the end of the stream.
    mutating func drain() throws(FFmpegError) -> Chunk {
        let mediaPerFrame = PlaybackSpeed(rate: tempo?.tempo ?? 1).effective / Double(format.sampleRate)
        scratch.removeAll(keepingCapacity: true)
        var produced = 0
        try tempo?.process(nil) { [resampler] out throws(FFmpegError) in
            produced += try resampler.convert(out, correction: 0, into: &scratch)
        }
        return Chunk(data: scratch, frames: produced, start: cursor, mediaPerFrame: mediaPerFrame)
    }
}
