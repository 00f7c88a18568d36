import CFFmpeg

/// Encodes pictures as PNG with FFmpeg's own encoder (converting to RGB24 first).
public final class PNGEncoder {
    private let scaler = ImageScaler(pixelFormat: AV_PIX_FMT_RGB24)

    public init() {}

    /// The PNG file bytes of `frame`, optionally scaled to `width` × `height`.
    public func encode(_ frame: Frame, width: Int? = nil, height: Int? = nil) throws(FFmpegError) -> [UInt8] {
        let rgb = try scaler.convert(frame, width: width, height: height)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw FFmpegError(code: tandem_averror_decoder_not_found(), operation: "PNG encoder")
        }
        var ctx = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&ctx) }
        guard let c = ctx else { fatalError("avcodec_alloc_context3: out of memory") }
        c.pointee.width = Int32(rgb.width)
        c.pointee.height = Int32(rgb.height)
        c.pointee.pix_fmt = AV_PIX_FMT_RGB24
        c.pointee.time_base = AVRational(num: 1, den: 25)
        try check(avcodec_open2(c, codec, nil), "opening PNG encoder")
        try check(avcodec_send_frame(c, rgb.pointer), "encoding PNG")
        let packet = Packet()
        try check(avcodec_receive_packet(c, packet.pointer), "encoding PNG")
        return Array(UnsafeBufferPointer(start: packet.pointer.pointee.data, count: packet.size))
    }
}
