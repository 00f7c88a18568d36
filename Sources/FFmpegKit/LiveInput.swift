import CFFmpeg

/// Whether an input is a live stream: one with no end to reach, whose timestamps go on as it is
/// read. libavformat has no "live" flag of its own; the rule is in ``LiveRule``.
extension InputFile {
    /// True for a live stream (``LiveRule/isLive(scheme:format:durationKnown:byteStreamSeekable:)``).
    public var isLive: Bool {
        let context = pointer.pointee
        let durationKnown = context.duration != tandem_nopts_value() && context.duration > 0
        let seekable = context.pb.map { $0.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 }
        return LiveRule.isLive(scheme: LiveRule.scheme(of: url), format: String(cString: context.iformat.pointee.name),
                               durationKnown: durationKnown, byteStreamSeekable: seekable)
    }
}

extension InputFile {
    /// Whether libavformat refuses every seek in this input: a live HLS playlist's demuxer marks
    /// itself so (`AVFMTCTX_UNSEEKABLE`). A seek call on it fails, and drops the packets
    /// libavformat had buffered on the way (up to a segment read while finding the streams), so
    /// callers skip it and reach a later position by reading on.
    public var refusesSeeks: Bool { pointer.pointee.ctx_flags & Int32(AVFMTCTX_UNSEEKABLE) != 0 }
}

/// The rule that makes an input live, on what libavformat tells of it after opening.
public enum LiveRule {
    /// Protocols that carry a stream as it is made: there is nothing to seek in and no end.
    public static let liveSchemes: Set<String> = ["rtmp", "rtmps", "rtmpt", "rtmpe", "rtsp", "rtsps", "srt", "udp", "rtp", "mms", "mmsh"]

    /// - A live protocol (``liveSchemes``) is live.
    /// - A segment playlist (HLS, DASH) without a known duration is live: libavformat's hls demuxer
    ///   sums its segments into a duration only for a playlist that ends (`EXT-X-ENDLIST`), and dash
    ///   only for a static manifest; a live playlist slides and has none.
    /// - A network byte stream that cannot seek and has no duration is an endless HTTP stream (a
    ///   radio's or a camera's): live.
    /// Everything else (a file, a finished playlist, an http(s) file with byte ranges) is not.
    public static func isLive(scheme: String?, format: String, durationKnown: Bool, byteStreamSeekable: Bool?) -> Bool {
        if let scheme, liveSchemes.contains(scheme) { return true }
        if durationKnown { return false }
        if format.split(separator: ",").contains(where: { InputFile.playlistFormats.contains(String($0)) }) { return true }
        guard let scheme, scheme != "file", let seekable = byteStreamSeekable else { return false }
        return !seekable
    }

    /// The URL's scheme, lowercased ("http", "rtmp"); nil for a path.
    public static func scheme(of url: String) -> String? {
        guard let colon = url.range(of: "://") else { return nil }
        let scheme = url[..<colon.lowerBound].lowercased()
        return scheme.isEmpty ? nil : scheme
    }
}
