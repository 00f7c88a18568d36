import CFFmpeg
import Synchronization

/// Owns an `AVCodecContext` opened for decoding one stream of an ``InputFile``.
/// Used by one decoder thread at a time.
public final class Decoder: @unchecked Sendable {
    /// Decoders opened and not yet freed, in this process.
    private static let live = Atomic<Int>(0)

    /// How many decoders are open now, process-wide: a cheap check that each one is freed (an audio
    /// track switch must let the old decoder go). Decoders that failed to open are not counted.
    public static var liveCount: Int { live.load(ordering: .relaxed) }

    private var context: UnsafeMutablePointer<AVCodecContext>?
    public let streamIndex: Int
    public let timeBase: Rational
    public let kind: StreamInfo.Kind

    /// Opens the decoder for `streamIndex` with FFmpeg's automatic thread count;
    /// frame threading for video, as ffmpeg and ffplay use.
    /// `numbered`: the ``streamIndex`` it reports (that of a ``MediaInput`` of several files;
    /// nil: `streamIndex`).
    public init(input: InputFile, streamIndex: Int, threads: Int = 0, numbered: Int? = nil) throws(OpenError) {
        let stream = input.stream(streamIndex)
        let par = stream.pointee.codecpar!
        self.streamIndex = numbered ?? streamIndex
        self.timeBase = input.timeBase(ofStream: streamIndex)
        self.kind = par.pointee.codec_type == AVMEDIA_TYPE_VIDEO ? .video : .audio
        let codecName = String(cString: avcodec_get_name(par.pointee.codec_id))
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw OpenError(url: input.url, reason: "unsupported codec '\(codecName)' in stream \(streamIndex): no decoder in this FFmpeg")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        context = ctx
        var code = avcodec_parameters_to_context(ctx, par)
        if code >= 0 {
            ctx.pointee.pkt_timebase = stream.pointee.time_base
            ctx.pointee.thread_count = Int32(threads)
            ctx.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            code = avcodec_open2(ctx, codec, nil)
        }
        if code < 0 {
            avcodec_free_context(&context)
            throw OpenError(url: input.url, reason: "cannot open \(codecName) decoder for stream \(streamIndex): \(FFmpegError.describe(code))")
        }
        Self.live.add(1, ordering: .relaxed)
    }

    deinit {
        // Only an opened decoder has a context here (a failed open freed it, or never made one).
        if context != nil { Self.live.subtract(1, ordering: .relaxed) }
        avcodec_free_context(&context)
    }

    package var pointer: UnsafeMutablePointer<AVCodecContext> { context! }
    public var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }

    /// Sends a packet; `nil` starts draining. `.again` means: receive frames first.
    public func send(_ packet: Packet?) throws(FFmpegError) -> IOStatus {
        try status(avcodec_send_packet(pointer, packet?.pointer), "decoding \(codecName)")
    }

    /// Receives the next decoded frame into `frame`. `.again`: send more; `.endOfStream`: drained.
    public func receive(into frame: Frame) throws(FFmpegError) -> IOStatus {
        try status(avcodec_receive_frame(pointer, frame.pointer), "decoding \(codecName)")
    }

    /// Drops everything buffered (after a seek, or to decode again after draining).
    public func flush() { avcodec_flush_buffers(pointer) }
}
