import CFFmpeg
import FFmpegKit
import Glibc

/// Owns an `AVCodecContext` encoding stereo AAC-LC with FFmpeg's native `aac` encoder (always in
/// FFmpeg; Debian's build has no libfdk-aac). Frames of ``frameSamples`` planar float samples go
/// in with their timestamps in samples; packets come out timestamped in samples, the first one
/// ``frameSamples`` early (the encoder's priming, which decoders drop by that timestamp).
/// One thread at a time.
final class AudioEncoder {
    /// AAC's frame: 1024 samples per channel.
    static let frameSamples = 1024
    /// Browsers' guests listen on laptops and phones: stereo, whatever the source's channels.
    static let channels = 2
    /// 96 kb/s per channel: transparent for FFmpeg's native AAC encoder at 48 kHz stereo.
    static let bitRate = 192_000

    private var context: UnsafeMutablePointer<AVCodecContext>?
    let sampleRate: Int

    /// Opens the encoder at `sampleRate`.
    init(sampleRate: Int) throws(FFmpegError) {
        self.sampleRate = sampleRate
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError(code: tandem_averror(ENOSYS), operation: "finding FFmpeg's AAC encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        context = ctx
        ctx.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        ctx.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&ctx.pointee.ch_layout, Int32(Self.channels))
        ctx.pointee.bit_rate = Int64(Self.bitRate)
        ctx.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        // MP4 carries the AudioSpecificConfig in the sample entry, not in the stream.
        ctx.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        try check(avcodec_open2(ctx, codec, nil), "opening the AAC encoder")
    }

    deinit { avcodec_free_context(&context) }

    /// The encoder's parameters, for the muxer's stream.
    func parameters() throws(FFmpegError) -> UnsafeMutablePointer<AVCodecParameters> {
        guard let parameters = avcodec_parameters_alloc() else { fatalError("avcodec_parameters_alloc: out of memory") }
        let code = avcodec_parameters_from_context(parameters, context)
        if code < 0 {
            var p: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&p)
            throw FFmpegError(code: code, operation: "reading the AAC encoder's parameters")
        }
        return parameters
    }

    /// Encodes one frame of `planes` (one array of ``frameSamples`` floats per channel) starting at
    /// sample `pts`, or drains the encoder when `planes` is nil; returns the packets it gives.
    func encode(_ planes: [[Float]]?, pts: Int64) throws(FFmpegError) -> [Packet] {
        if let planes {
            let frame = Frame()
            let f = frame.pointer
            f.pointee.nb_samples = Int32(Self.frameSamples)
            f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            av_channel_layout_default(&f.pointee.ch_layout, Int32(Self.channels))
            try check(av_frame_get_buffer(f, 0), "allocating an audio frame")
            for (c, plane) in planes.prefix(Self.channels).enumerated() {
                plane.withUnsafeBufferPointer { source in
                    f.pointee.extended_data[c]!.withMemoryRebound(to: Float.self, capacity: Self.frameSamples) { target in
                        target.update(from: source.baseAddress!, count: min(source.count, Self.frameSamples))
                    }
                }
            }
            f.pointee.pts = pts
            try check(avcodec_send_frame(context, f), "encoding AAC")
        } else {
            try check(avcodec_send_frame(context, nil), "draining the AAC encoder")
        }
        var packets: [Packet] = []
        while true {
            let packet = Packet()
            let code = avcodec_receive_packet(context, packet.pointer)
            if code == FFmpegError.tryAgain || code == FFmpegError.endOfFile { break }
            try check(code, "encoding AAC")
            packets.append(packet)
        }
        return packets
    }
}
