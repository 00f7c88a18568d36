import CFFmpeg

/// Owns an `AVCodecContext` decoding one subtitle stream (`avcodec_decode_subtitle2`): text formats
/// to ASS lines, bitmap formats to RGBA pictures. Used by one thread at a time.
public final class SubtitleDecoder: @unchecked Sendable {
    /// libavcodec's end time for "until the next subtitle" (PGS, DVB give no duration).
    static let openEndedMilliseconds = UInt32.max

    private var context: UnsafeMutablePointer<AVCodecContext>?
    public let streamIndex: Int
    public let timeBase: Rational
    /// The ASS header libass needs (script info and styles): the file's own for ASS/SSA, libavcodec's
    /// default style for the other text formats. Nil for bitmap formats.
    public let header: String?
    /// PGS, DVB, DVD: pictures rather than text.
    public let isBitmap: Bool

    /// Opens the decoder for subtitle stream `streamIndex` of `input`.
    /// `numbered`: the ``streamIndex`` it reports (that of a ``MediaInput`` of several files).
    public init(input: InputFile, streamIndex: Int, numbered: Int? = nil) throws(OpenError) {
        let stream = input.stream(streamIndex)
        let par = stream.pointee.codecpar!
        self.streamIndex = numbered ?? streamIndex
        timeBase = input.timeBase(ofStream: streamIndex)
        let codecName = String(cString: avcodec_get_name(par.pointee.codec_id))
        guard par.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE else {
            throw OpenError(url: input.url, reason: "stream \(streamIndex) is not a subtitle stream")
        }
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw OpenError(url: input.url, reason: "unsupported subtitle codec '\(codecName)' in stream \(streamIndex): no decoder in this FFmpeg")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        context = ctx
        var code = avcodec_parameters_to_context(ctx, par)
        if code >= 0 {
            ctx.pointee.pkt_timebase = stream.pointee.time_base
            code = avcodec_open2(ctx, codec, nil)
        }
        if code < 0 {
            avcodec_free_context(&context)
            throw OpenError(url: input.url, reason: "cannot open \(codecName) subtitle decoder for stream \(streamIndex): \(FFmpegError.describe(code))")
        }
        let descriptor = avcodec_descriptor_get(par.pointee.codec_id)
        isBitmap = (descriptor.map { Int32($0.pointee.props) & AV_CODEC_PROP_BITMAP_SUB != 0 }) ?? false
        if let bytes = ctx.pointee.subtitle_header, ctx.pointee.subtitle_header_size > 0 {
            header = String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ctx.pointee.subtitle_header_size)), as: UTF8.self)
        } else {
            header = nil
        }
    }

    deinit { avcodec_free_context(&context) }

    public var codecName: String { String(cString: avcodec_get_name(context!.pointee.codec_id)) }

    /// Decodes one packet; nil when it yields no subtitle. Times are seconds on the stream's timeline.
    public func decode(_ packet: Packet) throws(FFmpegError) -> SubtitleEvent? {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        try check(avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer), "decoding \(codecName) subtitles")
        guard got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        let base: Double
        if subtitle.pts != tandem_nopts_value() {
            base = Double(subtitle.pts) / Double(AV_TIME_BASE)
        } else if packet.pts != tandem_nopts_value() {
            base = Double(packet.pts) * timeBase.value
        } else {
            return nil
        }
        let start = base + Double(subtitle.start_display_time) / 1000
        let endMs = subtitle.end_display_time
        let end: Double? = endMs == 0 || endMs == Self.openEndedMilliseconds ? nil : base + Double(endMs) / 1000
        var lines: [String] = []
        var bitmaps: [SubtitleBitmap] = []
        for i in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[i] else { continue }
            switch rect.pointee.type {
            case SUBTITLE_ASS:
                if let ass = rect.pointee.ass { lines.append(String(cString: ass)) }
            case SUBTITLE_BITMAP:
                if let bitmap = Self.bitmap(rect, canvas: (Int(context!.pointee.width), Int(context!.pointee.height))) { bitmaps.append(bitmap) }
            default:
                break
            }
        }
        return SubtitleEvent(start: start, end: end, content: isBitmap ? .bitmaps(bitmaps) : .ass(lines))
    }

    /// Drops what the decoder holds (after a seek).
    public func flush() { avcodec_flush_buffers(context) }

    /// A palette picture (`data[0]` indices, `data[1]` 0xAARRGGBB entries) as straight RGBA.
    private static func bitmap(_ rect: UnsafeMutablePointer<AVSubtitleRect>, canvas: (Int, Int)) -> SubtitleBitmap? {
        let r = rect.pointee
        let w = Int(r.w), h = Int(r.h)
        guard w > 0, h > 0, let indices = r.data.0, let paletteBytes = r.data.1 else { return nil }
        let stride = Int(r.linesize.0)
        let colors = max(0, min(Int(r.nb_colors), 256))
        var palette = [UInt32](repeating: 0, count: 256)
        paletteBytes.withMemoryRebound(to: UInt32.self, capacity: colors) { p in
            for i in 0..<colors { palette[i] = p[i] }
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let argb = palette[Int(indices[y * stride + x])]
                let o = (y * w + x) * 4
                pixels[o] = UInt8((argb >> 16) & 0xff)
                pixels[o + 1] = UInt8((argb >> 8) & 0xff)
                pixels[o + 2] = UInt8(argb & 0xff)
                pixels[o + 3] = UInt8(argb >> 24)
            }
        }
        // DVD subtitles leave the size unset: their canvas is the picture the positions fit in.
        let canvasWidth = canvas.0 > 0 ? canvas.0 : Int(r.x) + w
        let canvasHeight = canvas.1 > 0 ? canvas.1 : Int(r.y) + h
        return SubtitleBitmap(x: Int(r.x), y: Int(r.y), image: RGBAImage(width: w, height: h, pixels: pixels),
                              canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }
}
