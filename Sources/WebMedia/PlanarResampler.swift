import CFFmpeg
import FFmpegKit

/// Owns a `SwrContext` turning decoded frames of any layout, format and rate into planar float
/// samples at one rate and channel count — what the AAC encoder takes, so nothing is interleaved
/// and split again. Rebuilt when the input changes mid-stream. One thread at a time.
final class PlanarResampler {
    let sampleRate: Int
    let channels: Int
    private var context: OpaquePointer?
    private var input: (rate: Int32, format: Int32, channels: Int32, order: UInt32, mask: UInt64)?

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit { swr_free(&context) }

    /// `frame`'s samples, one array per output channel.
    func convert(_ frame: Frame) throws(FFmpegError) -> [[Float]] {
        let f = frame.pointer
        try configure(f)
        let capacity = Int(swr_get_out_samples(context, f.pointee.nb_samples))
        guard capacity > 0 else { return Array(repeating: [], count: channels) }
        // One buffer, plane c at c × capacity.
        var buffer = [Float](repeating: 0, count: capacity * channels)
        let channels = self.channels, context = self.context
        let produced = buffer.withUnsafeMutableBufferPointer { storage -> Int32 in
            var planes = (0..<channels).map { c in UnsafeMutableRawPointer(storage.baseAddress! + c * capacity).assumingMemoryBound(to: UInt8.self) }
            return planes.withUnsafeMutableBufferPointer { out in
                out.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self) { out in
                    f.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                        swr_convert(context, out.baseAddress, Int32(capacity), data, f.pointee.nb_samples)
                    }
                }
            }
        }
        try check(produced, "resampling audio")
        return (0..<channels).map { c in Array(buffer[(c * capacity)..<(c * capacity + Int(produced))]) }
    }

    private func configure(_ f: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        let layout = f.pointee.ch_layout
        let key = (f.pointee.sample_rate, f.pointee.format, layout.nb_channels, layout.order.rawValue, layout.u.mask)
        if let input, context != nil, input == key { return }
        swr_free(&context)
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var made: OpaquePointer?
        try check(swr_alloc_set_opts2(&made, &outLayout, AV_SAMPLE_FMT_FLTP, Int32(sampleRate), &f.pointee.ch_layout,
                                      AVSampleFormat(rawValue: f.pointee.format), f.pointee.sample_rate, 0, nil), "setting up the resampler")
        context = made
        try check(swr_init(made), "setting up the resampler")
        input = key
    }
}
