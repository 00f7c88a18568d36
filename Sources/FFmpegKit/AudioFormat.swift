import CFFmpeg

/// The interleaved PCM format a sink consumes.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    public enum Sample: Sendable, Equatable {
        case float32
        case int16

        public var bytes: Int { self == .float32 ? 4 : 2 }
        var av: AVSampleFormat { self == .float32 ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_S16 }
    }

    public var sampleRate: Int
    public var channels: Int
    public var sample: Sample

    public init(sampleRate: Int, channels: Int, sample: Sample) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sample = sample
    }

    /// Bytes of one sample for every channel.
    public var bytesPerFrame: Int { channels * sample.bytes }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sample)" }
}
