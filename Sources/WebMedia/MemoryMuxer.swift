import CFFmpeg
import FFmpegKit
import Glibc

/// Owns a libavformat MP4 muxer writing fragmented MP4 into a ``MemoryOutput``, set up so that
/// every segment of an item can be made on its own:
///
/// - `empty_moov`: the header (the init segment) holds no samples, so it is the same whatever
///   segment follows;
/// - `frag_custom`: a fragment (moof + mdat) is cut only when ``flushFragment()`` says so — one per
///   segment;
/// - `frag_discont` with `use_editlist=0`: the fragment's `tfdt` is its first sample's decode time
///   as given (never rebased to 0, no edit list), so segments made apart line up on one timeline;
///   the caller makes every timestamp ≥ 0 by shifting them all by the same amount, and
///   `avoid_negative_ts` is off (else the muxer moves each fragment's first sample to 0);
/// - `default_base_moof`: sample offsets relative to the moof, as Media Source Extensions want.
///
/// One thread at a time. The format context is freed before the output it wrote into.
final class MemoryMuxer {
    static let movflags = "frag_custom+empty_moov+default_base_moof+frag_discont"

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let output = MemoryOutput()
    private var headerWritten = false
    private var finished = false

    init() throws(FFmpegError) {
        var made: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&made, nil, "mp4", nil), "opening the MP4 muxer")
        context = made
        made?.pointee.pb = output.pointer
        made?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    }

    deinit {
        // The trailer frees the muxer's own state (the MP4 muxer's tracks); what it writes is dropped.
        if headerWritten, !finished {
            output.discarding = true
            av_write_trailer(context)
        }
        avformat_free_context(context)
    }

    /// Adds a stream with `parameters` copied (its codec tag cleared: the muxer picks MP4's);
    /// returns its index.
    func addStream(copying parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(FFmpegError) -> Int {
        guard let stream = avformat_new_stream(context, nil) else { throw FFmpegError(code: tandem_averror(ENOMEM), operation: "adding a stream") }
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters), "copying codec parameters")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        return Int(stream.pointee.index)
    }

    /// Writes the header (ftyp + moov) and returns it: the init segment.
    func writeHeader() throws(FFmpegError) -> [UInt8] {
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", Self.movflags, 0)
        av_dict_set(&options, "use_editlist", "0", 0)
        defer { av_dict_free(&options) }
        // Opus in MP4 is "experimental" to FFmpeg 5.1's muxer; browsers play it.
        context?.pointee.strict_std_compliance = FF_COMPLIANCE_EXPERIMENTAL
        // Without an edit list the muxer would otherwise move each fragment's first sample to 0.
        context?.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED
        try check(avformat_write_header(context, &options), "writing the MP4 header")
        headerWritten = true
        output.flush()
        return output.bytes
    }

    /// The time base the muxer chose for stream `index` (valid after the header).
    func timeBase(ofStream index: Int) -> AVRational { context!.pointee.streams[index]!.pointee.time_base }

    /// Writes `packet` (timestamps already in the stream's muxer time base) into the fragment being
    /// gathered. The packet is left blank.
    func write(_ packet: Packet) throws(FFmpegError) {
        try check(av_write_frame(context, packet.pointer), "writing a packet to the MP4 muxer")
    }

    /// Ends the fragment being gathered and returns everything written since the header.
    func flushFragment(headerBytes: Int) throws(FFmpegError) -> [UInt8] {
        try check(av_write_frame(context, nil), "writing an MP4 fragment")
        output.flush()
        return Array(output.bytes[headerBytes...])
    }

    /// Writes the trailer into nothing: the muxer's state is freed; nothing more can be written.
    func finish() {
        guard headerWritten, !finished else { return }
        finished = true
        output.discarding = true
        av_write_trailer(context)
    }
}
