import CFFmpeg

/// Owns a `SwrContext` converting decoded frames to a sink's interleaved ``AudioFormat``,
/// with small inaudible speed corrections in the manner of `swr_set_compensation`.
/// Rebuilds itself when the input format changes mid-stream.
public final class AudioResampler {
    public let output: AudioFormat
    private var context: OpaquePointer?
    private var inputKey: (rate: Int32, format: Int32, layout: String)?
    /// Fractional output samples of correction not yet applied (so small corrections average out exactly).
    private var compensationCarry = 0.0

    public init(output: AudioFormat) { self.output = output }

    deinit { swr_free(&context) }

    /// Converts `frame`, appending interleaved samples to `buffer`; returns output frames written.
    ///
    /// `correction` speeds the media up by that fraction (0.001 = 0.1 % fewer output samples):
    /// pitch moves with it, which is inaudible within the ±0.5 % the player allows.
    public func convert(_ frame: Frame, correction: Double = 0, into buffer: inout [UInt8]) throws(FFmpegError) -> Int {
        try configure(for: frame)
        let f = frame.pointer
        let inCount = Int(f.pointee.nb_samples)
        let ideal = Double(inCount) * Double(output.sampleRate) / Double(f.pointee.sample_rate)
        if correction != 0 || compensationCarry != 0 {
            compensationCarry -= ideal * correction
            let delta = compensationCarry.rounded(.towardZero)
            compensationCarry -= delta
            let distance = Int32(ideal.rounded())
            if delta != 0 && distance > 0 {
                try check(swr_set_compensation(context, Int32(delta), distance), "swr_set_compensation")
            }
        }
        let capacity = Int(swr_get_out_samples(context, Int32(inCount))) + 32
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: capacity * output.bytesPerFrame))
        let produced: Int32 = buffer.withUnsafeMutableBufferPointer { buf in
            var out: UnsafeMutablePointer<UInt8>? = buf.baseAddress! + start
            return withUnsafeMutablePointer(to: &out) { outPtr in
                f.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { inPtr in
                    swr_convert(context, outPtr, Int32(capacity), inPtr, Int32(inCount))
                }
            }
        }
        if produced < 0 {
            buffer.removeLast(capacity * output.bytesPerFrame)
            throw FFmpegError(code: produced, operation: "resampling audio")
        }
        buffer.removeLast((capacity - Int(produced)) * output.bytesPerFrame)
        return Int(produced)
    }

    /// Seconds of input held inside the resampler: the next output sample comes from this long
    /// before the next input frame starts. Zero while rates match and no correction was ever asked;
    /// once a correction forces resampling, the filter holds half its length (16 samples of the
    /// default 32), which output timestamps must count or every chunk claims to start that much late.
    public var delay: Double {
        guard let context else { return 0 }
        return Double(swr_get_delay(context, Self.delayBase)) / Double(Self.delayBase)
    }
    /// Units of ``delay`` asked from swresample: nanoseconds, far finer than a sample.
    private static let delayBase: Int64 = 1_000_000_000

    /// Forgets buffered samples and pending correction (after a seek).
    public func reset() {
        swr_free(&context)
        inputKey = nil
        compensationCarry = 0
    }

    private func configure(for frame: Frame) throws(FFmpegError) {
        let f = frame.pointer
        let layout = channelLayoutDescription(&f.pointee.ch_layout)
        if let key = inputKey, key.rate == f.pointee.sample_rate, key.format == f.pointee.format, key.layout == layout,
           context != nil {
            return
        }
        swr_free(&context)
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(output.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var ctx: OpaquePointer?
        try check(swr_alloc_set_opts2(&ctx, &outLayout, output.sample.av, Int32(output.sampleRate),
                                      &f.pointee.ch_layout, AVSampleFormat(rawValue: f.pointee.format),
                                      f.pointee.sample_rate, 0, nil), "swr_alloc_set_opts2")
        context = ctx
        try check(swr_init(ctx), "swr_init")
        inputKey = (f.pointee.sample_rate, f.pointee.format, layout)
    }
}

/// `av_channel_layout_describe` as a Swift string ("stereo", "5.1"…).
func channelLayoutDescription(_ layout: UnsafePointer<AVChannelLayout>) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    _ = av_channel_layout_describe(layout, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
