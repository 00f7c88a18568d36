import CFFmpeg

/// Owns one `AVFrame` (and through it, references to the decoded buffers).
/// Handed from one thread to one other through the frame queues: hence `@unchecked Sendable`.
public final class Frame: @unchecked Sendable {
    package let pointer: UnsafeMutablePointer<AVFrame>

    public init() {
        guard let f = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    /// Moves this frame's buffers into a new `Frame`, leaving this one empty for reuse.
    public func moveOut() -> Frame {
        let out = Frame()
        av_frame_move_ref(out.pointer, pointer)
        return out
    }

    public func unref() { av_frame_unref(pointer) }

    /// A new frame referencing the same buffers (no copy of the samples or pixels).
    public func clone() -> Frame {
        let out = Frame()
        av_frame_ref(out.pointer, pointer)
        return out
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    /// Audio samples per channel.
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    /// `AVPixelFormat` for video, `AVSampleFormat` for audio.
    public var format: Int32 { pointer.pointee.format }
    /// The timestamp ffmpeg itself would use (`best_effort_timestamp`), in stream time base.
    public var bestEffortTimestamp: Int64 { tandem_frame_best_effort_pts(pointer) }
    /// Duration in stream time base (`pkt_duration` in FFmpeg 5.1).
    public var durationInTimeBase: Int64 { pointer.pointee.pkt_duration }
    public var isKeyFrame: Bool { pointer.pointee.key_frame != 0 }

    /// Pixel format name, e.g. "yuv420p".
    public var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: format)).map { String(cString: $0) } ?? "none"
    }

    /// Bytes the planes take when packed with alignment 1 (what `av_image_copy_to_buffer` writes).
    public var packedImageSize: Int {
        Int(av_image_get_buffer_size(AVPixelFormat(rawValue: format), pointer.pointee.width,
                                     pointer.pointee.height, 1))
    }

    /// Copies the planes packed with alignment 1 into `buffer` (resized as needed) and
    /// returns the byte count.
    @discardableResult
    public func copyPackedImage(into buffer: inout [UInt8]) throws(FFmpegError) -> Int {
        let size = packedImageSize
        try check(Int32(size), "av_image_get_buffer_size")
        if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
        let f = pointer
        let written: Int32 = buffer.withUnsafeMutableBufferPointer { out in
            withUnsafePointer(to: &f.pointee.data) { dataTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    withUnsafePointer(to: &f.pointee.linesize) { linesizeTuple in
                        linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                            av_image_copy_to_buffer(out.baseAddress, Int32(size), data, linesize,
                                                    AVPixelFormat(rawValue: f.pointee.format),
                                                    f.pointee.width, f.pointee.height, 1)
                        }
                    }
                }
            }
        }
        try check(written, "av_image_copy_to_buffer")
        return Int(written)
    }
}

extension Frame {
    /// Drops the first `count` samples of an audio frame without copying (moves the plane pointers;
    /// the buffers stay owned by the frame's references).
    public func dropLeadingSamples(_ count: Int) {
        guard count > 0 else { return }
        let f = pointer
        let n = min(count, Int(f.pointee.nb_samples))
        let format = AVSampleFormat(rawValue: f.pointee.format)
        let bytes = Int(av_get_bytes_per_sample(format))
        let channels = Int(f.pointee.ch_layout.nb_channels)
        let planar = av_sample_fmt_is_planar(format) != 0
        let planes = planar ? channels : 1
        let step = n * bytes * (planar ? 1 : channels)
        for p in 0..<planes {
            f.pointee.extended_data[p] = f.pointee.extended_data[p].map { $0 + step }
        }
        withUnsafeMutablePointer(to: &f.pointee.data) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                for p in 0..<min(planes, 8) { data[p] = f.pointee.extended_data[p] }
            }
        }
        f.pointee.nb_samples -= Int32(n)
    }

    /// Keeps only the first `count` samples of an audio frame.
    public func keepLeadingSamples(_ count: Int) {
        pointer.pointee.nb_samples = Int32(max(0, min(count, Int(pointer.pointee.nb_samples))))
    }
}
