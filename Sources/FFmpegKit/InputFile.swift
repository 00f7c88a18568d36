import CFFmpeg
import TandemBase
import Glibc

/// Owns an opened `AVFormatContext` (the demuxer) for one file or URL.
///
/// Blocking reads can be aborted from another thread through ``interrupt()``: FFmpeg polls
/// the flag through its interrupt callback, so closing or seeking never waits on a stuck read.
/// Reading and seeking belong to one thread at a time (the demux thread); ``interrupt()`` may be
/// called from any thread.
public final class InputFile: @unchecked Sendable {
    public let url: String
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Read by FFmpeg's interrupt callback; written atomically by `interrupt()`/`clearInterrupt()`.
    private let interruptFlag: UnsafeMutablePointer<Int32>

    /// How long libavformat waits on a network connect or read before failing, in microseconds:
    /// its `rw_timeout` (every read, HLS segments included) and the tcp protocol's `timeout` (the
    /// connect too). Without it a host that accepts the connection and never answers blocks an
    /// open forever. A live server answers in well under a second even over a slow link; 10 s
    /// leaves room for a loaded one while a dead URL fails quickly.
    public static let networkTimeoutMicroseconds = 10_000_000

    /// Opens the container and reads stream information. Throws ``OpenError`` naming the reason.
    /// `options`: libavformat's open options (e.g. `headers` for http); an http(s) URL gets
    /// ``networkTimeoutMicroseconds`` unless `options` sets `rw_timeout` or `timeout` itself.
    public init(url: String, options: [String: String] = [:]) throws(OpenError) {
        try Self.checkLocalFile(url)
        self.url = url
        interruptFlag = .allocate(capacity: 1)
        interruptFlag.initialize(to: 0)
        // Every stored property is set from here on, so a throw below runs deinit, which frees
        // what exists: failure paths must not free anything themselves.
        guard let ctx = avformat_alloc_context() else { fatalError("avformat_alloc_context: out of memory") }
        tandem_set_interrupt(ctx, interruptFlag)
        var opened: UnsafeMutablePointer<AVFormatContext>? = ctx
        var dictionary: OpaquePointer?
        for (key, value) in Self.openOptions(url: url, given: options) { av_dict_set(&dictionary, key, value, 0) }
        let code = avformat_open_input(&opened, url, nil, &dictionary)
        av_dict_free(&dictionary)
        if code < 0 {
            // avformat_open_input frees the context on failure.
            throw OpenError.classify(openCode: code, url: url)
        }
        context = opened
        let infoCode = avformat_find_stream_info(opened, nil)
        if infoCode < 0 {
            throw OpenError.classify(streamInfoCode: infoCode, url: url)
        }
    }

    deinit {
        avformat_close_input(&context)
        interruptFlag.deallocate()
    }

    /// The raw context, for code in this module and sinks that need stream parameters.
    package var pointer: UnsafeMutablePointer<AVFormatContext> { context! }

    public var streamCount: Int { Int(pointer.pointee.nb_streams) }

    package func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> {
        pointer.pointee.streams[index]!
    }

    public func timeBase(ofStream index: Int) -> Rational { Rational(stream(index).pointee.time_base) }

    /// Container start time in seconds (0 when unknown).
    public var startSeconds: Double {
        let start = pointer.pointee.start_time
        return start == tandem_nopts_value() ? 0 : Double(start) / Double(AV_TIME_BASE)
    }

    /// The best stream of a kind, as ffmpeg/ffplay pick it (`av_find_best_stream`).
    public func bestStream(_ kind: StreamInfo.Kind, related: Int = -1) -> Int? {
        let type: AVMediaType = kind == .video ? AVMEDIA_TYPE_VIDEO : kind == .audio ? AVMEDIA_TYPE_AUDIO : AVMEDIA_TYPE_SUBTITLE
        let index = av_find_best_stream(pointer, type, -1, Int32(related), nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Reads the next packet into `packet` (which is unreferenced first).
    public func read(into packet: Packet) throws(FFmpegError) -> IOStatus {
        packet.unref()
        return try status(av_read_frame(pointer, packet.pointer), "reading \(url)")
    }

    /// Seeks so that the next packets start at the last keyframe at or before `seconds`
    /// (relative to the container start), on any stream.
    public func seek(toSeconds seconds: Double) throws(FFmpegError) {
        let target = Int64((seconds + startSeconds) * Double(AV_TIME_BASE))
        try check(avformat_seek_file(pointer, -1, Int64.min, target, target, 0), "seeking \(url)")
    }

    /// Makes any blocked or future FFmpeg call on this file return AVERROR_EXIT.
    public func interrupt() { tandem_store_flag(interruptFlag, 1) }
    public func clearInterrupt() { tandem_store_flag(interruptFlag, 0) }

    /// A description of the container and its streams.
    public func info() -> MediaInfo {
        let ctx = pointer.pointee
        let duration = ctx.duration == tandem_nopts_value() || ctx.duration <= 0
            ? nil : Double(ctx.duration) / Double(AV_TIME_BASE)
        var streams: [StreamInfo] = []
        for i in 0..<streamCount { streams.append(streamInfo(i)) }
        return MediaInfo(url: url, container: String(cString: ctx.iformat.pointee.name),
                         durationSeconds: duration, startSeconds: startSeconds, streams: streams, live: isLive)
    }

    private func streamInfo(_ index: Int) -> StreamInfo {
        let st = stream(index)
        let par = st.pointee.codecpar.pointee
        let kind: StreamInfo.Kind
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        let tb = Rational(st.pointee.time_base)
        var info = StreamInfo(index: index, type: kind, codec: String(cString: avcodec_get_name(par.codec_id)),
                              timeBase: tb,
                              durationSeconds: st.pointee.duration > 0 && st.pointee.duration != tandem_nopts_value()
                                  ? Double(st.pointee.duration) * tb.value : nil)
        info.language = Self.tag("language", of: st)
        info.title = Self.tag("title", of: st)
        info.isDefault = st.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        info.isForced = st.pointee.disposition & AV_DISPOSITION_FORCED != 0
        if kind == .video {
            let sar = av_guess_sample_aspect_ratio(pointer, st, nil)
            var num: Int32 = 0, den: Int32 = 0
            let sarNum = Int64(sar.num > 0 && sar.den > 0 ? sar.num : 1), sarDen = Int64(sar.num > 0 && sar.den > 0 ? sar.den : 1)
            if par.width > 0, par.height > 0 {
                _ = av_reduce(&num, &den, Int64(par.width) * sarNum, Int64(par.height) * sarDen, Int64(Int32.max))
                if num > 0, den > 0 { info.displayAspect = "\(num):\(den)" }
            }
            info.width = Int(par.width)
            info.height = Int(par.height)
            let rate = st.pointee.avg_frame_rate.den != 0 ? st.pointee.avg_frame_rate : st.pointee.r_frame_rate
            info.frameRate = rate.den != 0 && rate.num != 0 ? Double(rate.num) / Double(rate.den) : nil
            info.pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)).map { String(cString: $0) }
            let rotation = tandem_stream_rotation(st)
            info.rotation = rotation.isNaN ? 0 : rotation
        } else if kind == .audio {
            info.sampleRate = Int(par.sample_rate)
            info.channels = Int(par.ch_layout.nb_channels)
            info.sampleFormat = av_get_sample_fmt_name(AVSampleFormat(rawValue: par.format)).map { String(cString: $0) }
        }
        return info
    }

    /// A stream's metadata tag, nil when absent or empty.
    private static func tag(_ key: String, of stream: UnsafeMutablePointer<AVStream>) -> String? {
        guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

extension InputFile {
    /// Segment playlists: they seek by fetching another segment, whatever the playlist's server
    /// does with byte ranges.
    public static let playlistFormats: Set<String> = ["hls", "dash"]

    /// The options libavformat opens `url` with: `given`, plus the network timeout for http(s)
    /// unless `given` sets one.
    static func openOptions(url: String, given: [String: String]) -> [String: String] {
        guard HostPort(url: url) != nil, given["rw_timeout"] == nil, given["timeout"] == nil else { return given }
        var options = given
        options["rw_timeout"] = "\(networkTimeoutMicroseconds)"
        options["timeout"] = "\(networkTimeoutMicroseconds)"
        return options
    }

    /// libavformat's http options that send `headers` with every request (a page's `Referer`, a site's
    /// `User-Agent` or `Cookie`): the `User-Agent` as `user_agent`, the others as `headers` lines.
    public static func options(sending headers: [String: String]) -> [String: String] {
        var options: [String: String] = [:]
        var lines = ""
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if name.lowercased() == "user-agent" { options["user_agent"] = value } else { lines += "\(name): \(value)\r\n" }
        }
        if !lines.isEmpty { options["headers"] = lines }
        return options
    }

    /// Whether a position can be sought: true for local files, for http(s) servers that answer
    /// byte ranges and for segment playlists (HLS), false for a server that sends the whole body
    /// whatever the `Range` (libavformat then marks its byte stream not seekable).
    public var isSeekable: Bool {
        let context = pointer.pointee
        if Self.playlistFormats.contains(String(cString: context.iformat.pointee.name)) { return true }
        guard let io = context.pb else { return true }  // not a byte stream (a device, lavfi)
        return io.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0
    }

    /// Throws when this is an http(s) URL whose server does not support byte ranges (and not a
    /// segment playlist): seeking and a party's sync need them. Other inputs never throw here, nor
    /// does a live stream (``isLive``: an endless one, a radio's or a camera's), which has nothing
    /// behind it to seek to and is read as it comes.
    public func requireByteRanges() throws(OpenError) {
        guard HostPort(url: url) != nil, !isSeekable, !isLive else { return }
        throw OpenError(url: url, reason: OpenError.noByteRangesReason)
    }

    /// Clear reasons for the common local-file failures, before FFmpeg gives a vaguer one.
    static func checkLocalFile(_ url: String) throws(OpenError) {
        guard !url.contains("://") else { return }
        var info = stat()
        guard stat(url, &info) == 0 else {
            throw OpenError(url: url, reason: errno == EACCES ? "permission denied" : "no such file")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw OpenError(url: url, reason: "is a directory, not a media file") }
        if info.st_size == 0 { throw OpenError(url: url, reason: "file is empty") }
    }
}
